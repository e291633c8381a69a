// The Experiment tab: sweeps (widgets/experiments/experimentpanel.h) on this machine's devices, their device
// charted in the Statistics tab while they run, the tree's device preselected.
#include "mainwindow.h"

#include "devices/devicetreemodel.h"
#include "devices/devicetreeview.h"
#include "discovery/discovery.h"
#include "experiments/experimentpanel.h"

#include <QTabWidget>

namespace dmtune {

void MainWindow::setupExperiments()
{
    // A remote host's window reads a capture: its sweeps are `dmtunectl --host HOST sweep`.
    if (m_remote)
        return;
    m_experimentPanel = new ExperimentPanel(m_host);
    m_tabs->addTab(m_experimentPanel, tr("E&xperiment"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_experimentPanel),
        tr("Sweep one or two parameters over lists of values under fio workloads; results per point, charted; "
           "the original values restored"));
    connect(m_discovery, &Discovery::snapshotChanged, m_experimentPanel, [this](const DeviceSnapshot &snapshot) {
        m_experimentPanel->setSnapshot(snapshot);
        if (m_experimentPanel->currentDevice().isEmpty())
            m_experimentPanel->selectDevice(m_tree->currentIndex().data(DeviceTreeModel::DeviceNameRole).toString());
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, m_experimentPanel, [this] {
        if (!m_experimentPanel->isBusy())
            m_experimentPanel->selectDevice(m_tree->currentIndex().data(DeviceTreeModel::DeviceNameRole).toString());
    });
    connect(m_experimentPanel, &ExperimentPanel::targetChosen, this,
        [this](const QString &device) { selectDevice(device); });
}

bool MainWindow::openSweepResults(const QString &dir, QString *error)
{
    if (!m_experimentPanel) {
        if (error)
            *error = tr("a remote host's window has no Experiment tab");
        return false;
    }
    m_tabs->setCurrentWidget(m_experimentPanel);
    if (m_experimentPanel->openResults(dir))
        return true;
    if (error)
        *error = m_experimentPanel->statusText();
    return false;
}

} // namespace dmtune
