// The Workload dock: fio templates and runs on a device (the lab device by default), with the target charted
// in the Statistics tab, start/stop markers there, and the lab device actions of the window.
#include "mainwindow.h"

#include "charts/livestatsview.h"
#include "discovery/discovery.h"
#include "remote/remotehost.h"
#include "remote/remoteoperationrunner.h"
#include "workloads/workloadpanel.h"

#include <QDockWidget>
#include <QMenu>
#include <QScrollArea>
#include <QTabWidget>

namespace dmtune {

void MainWindow::setupWorkloads()
{
    m_workloadPanel = new WorkloadPanel(m_sysfs, m_sampler);
    m_workloadPanel->setLabState({ m_labName, m_labWhyNot, m_labBusy });
    m_workloadPanel->setStatsView(m_stats);
    m_workloadDock = new QDockWidget(QStringLiteral("Workload"), this);
    m_workloadDock->setObjectName(QStringLiteral("workloadDock"));
    // In a scroll area: the panel's own minimum size would otherwise set the window's (too wide for 1366 x 768).
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_workloadPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_workloadDock->setWidget(scroll);
    m_workloadDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea | Qt::LeftDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_workloadDock);
    tabifyDockWidget(m_historyDock, m_workloadDock);
    if (QMenu *view = menuNamed(QStringLiteral("&View")))
        view->addAction(m_workloadDock->toggleViewAction());

    connect(m_discovery, &Discovery::snapshotChanged, m_workloadPanel, &WorkloadPanel::setSnapshot);
    connect(m_workloadPanel, &WorkloadPanel::createLabDeviceRequested, this, &MainWindow::createLabDevice);
    connect(m_workloadPanel, &WorkloadPanel::removeLabDeviceRequested, this, &MainWindow::removeLabDevice);
    // While fio runs, the Statistics tab shows its target (a map with its paths) next to fio's own charts.
    connect(m_workloadPanel, &WorkloadPanel::targetChosen, this, [this](const QString &device) {
        selectDevice(device);
        m_tabs->setCurrentWidget(m_stats);
    });
    // The selection may have moved during the run: chart it now.
    connect(m_workloadPanel, &WorkloadPanel::runFinished, this, [this] { chartSelectedDevice(); });
    if (m_remote) {
        // fio runs on the remote host, as a job of its agent; the plan (the guard's decision) is made there. The
        // panel's own runner: its plans are not the other panels' to answer.
        auto *planner = new RemoteOperationRunner(m_remote->client(), m_workloadPanel);
        m_workloadPanel->setRemote(m_remote->client(), planner, m_remote->displayName());
    }
}

} // namespace dmtune
