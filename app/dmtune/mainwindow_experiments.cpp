// The Experiment tab: sweeps (widgets/experiments/experimentpanel.h) on the window's host, their device charted in
// the Statistics tab while they run, the tree's device preselected. A remote host's sweeps are planned and started
// by its agent and run and restore there.
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/experiments/experimentpanel.h"

#include <QTabWidget>

namespace dmtune {

void MainWindow::setupExperiments()
{
    m_experimentPanel = new ExperimentPanel(m_hostSession);
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
    m_tabs->setCurrentWidget(m_experimentPanel);
    if (m_experimentPanel->openResults(dir))
        return true;
    if (error)
        *error = m_experimentPanel->statusText();
    return false;
}

} // namespace dmtune
