// The Workload dock: fio templates and runs on a device (the lab device by default), with the target charted
// in the Statistics tab, start/stop markers there, and the lab device actions of the window.
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/workloads/workloadpanel.h"

#include <QDockWidget>
#include <QMenu>
#include <QScrollArea>
#include <QTabWidget>

#include <memory>

namespace dmtune {

void MainWindow::setupWorkloads()
{
    // A remote host's fio runs there as a job of its agent; the plan (the guard's decision) is made there.
    m_workloadPanel = new WorkloadPanel(m_hostSession);
    m_workloadPanel->setLabState({ m_labName, m_labWhyNot, m_labBusy });
    m_workloadPanel->setStatsView(m_stats);
    m_workloadDock = new QDockWidget(tr("Workload"), this);
    m_workloadDock->setObjectName(QStringLiteral("workloadDock"));
    // In a scroll area: the panel's own minimum size would otherwise set the window's (too wide for 1366 x 768).
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_workloadPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_workloadDock->setWidget(scroll);
    // Never shorter than the panel: it scrolled sideways only. A dock shorter than the form scrolled the Template row
    // (or Start) out of view, and fio's charts shrank to a few dozen pixels.
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // No room kept for a sideways scroll bar: the window's minimum height has to fit 1280x720, and the panel is
    // narrower than the window there.
    scroll->setMinimumHeight(m_workloadPanel->minimumSizeHint().height());
    m_workloadDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea | Qt::LeftDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_workloadDock);
    tabifyDockWidget(m_historyDock, m_workloadDock);
    // As tall as the panel: every row down to Start and the fio readout, and fio's charts beside them (the History
    // dock's 150 px hid Device, Command, Record and Start at 1280x720 and up); the rest is the
    // Statistics tab's.
    resizeDocks({ m_workloadDock }, { scroll->minimumHeight() }, Qt::Vertical);
    if (QMenu *view = menuNamed(tr("&View")))
        view->addAction(m_workloadDock->toggleViewAction());

    connect(m_discovery, &Discovery::snapshotChanged, m_workloadPanel, &WorkloadPanel::setSnapshot);
    // The device combo preselects the tree's device: when the user picks another row, and after a scan when the combo
    // has none (connected after setSnapshot, which keeps the combo's own choice). Not while fio runs, and not for the
    // rows a rescan moves the current index over: a choice made in the combo stays.
    const auto preselect = [this, last = std::make_shared<QString>()](bool picked) {
        if (m_applyingSnapshot || m_workloadPanel->isRunning())
            return;
        const QString device = m_tree->currentIndex().data(DeviceTreeModel::DeviceNameRole).toString();
        if (device.isEmpty() || (picked ? device == *last : !m_workloadPanel->currentDevice().isEmpty()))
            return;
        *last = device;
        m_workloadPanel->selectDevice(device);
    };
    connect(m_discovery, &Discovery::snapshotChanged, m_workloadPanel, [preselect] { preselect(false); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, m_workloadPanel,
        [preselect] { preselect(true); });
    connect(m_workloadPanel, &WorkloadPanel::createLabDeviceRequested, this, &MainWindow::createLabDevice);
    connect(m_workloadPanel, &WorkloadPanel::removeLabDeviceRequested, this, &MainWindow::removeLabDevice);
    // While fio runs, the Statistics tab shows its target (a map with its paths) next to fio's own charts.
    connect(m_workloadPanel, &WorkloadPanel::targetChosen, this, [this](const QString &device) {
        selectDevice(device);
        m_tabs->setCurrentWidget(m_stats);
    });
    // The selection may have moved during the run: chart it now.
    connect(m_workloadPanel, &WorkloadPanel::runFinished, this, [this] { chartSelectedDevice(); });
}

} // namespace dmtune
