// The Explain dock: the diagnosis rules over the selected map (widgets/diagnosis/explainpane.h), beside the tabs,
// fed by the Statistics tab's sampler; a finding's experiment goes to the Experiment tab's form, never runs by
// itself.
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "core/recordings/recordingsfolder.h"
#include "core/stats/samplesource.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/diagnosis/explainpane.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/filedialogs.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QStatusBar>
#include <QTabWidget>

namespace dmtune {

void MainWindow::setupExplain()
{
    m_explain = new ExplainPane(m_sysfs);
    m_explainDock = new QDockWidget(tr("Explain"), this);
    m_explainDock->setObjectName(QStringLiteral("explainDock"));
    m_explainDock->setWidget(m_explain);
    m_explainDock->setAllowedAreas(Qt::RightDockWidgetArea | Qt::LeftDockWidgetArea | Qt::BottomDockWidgetArea);
    addDockWidget(Qt::RightDockWidgetArea, m_explainDock);
    m_explainDock->hide(); // the tabs keep their room until asked
    // Shown the first time, it takes a reading width beside the tabs when the window has room for the tree, the
    // tabs and it; on a narrower screen (1280 px) it goes under them, beside the Workload and History docks, so
    // that neither the tree nor the tabs are squeezed. Where the user puts it after, it stays.
    connect(m_explainDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || m_explainDock->isFloating() || m_explainDock->property("placed").toBool())
            return;
        m_explainDock->setProperty("placed", true);
        const int room = width() - MinimumTreeWidth - m_tabs->minimumSizeHint().width() - 30; // 30: the handles
        QDockWidget *below = m_workloadDock ? m_workloadDock : m_historyDock;
        if (room < 280 && below && dockWidgetArea(m_explainDock) == Qt::RightDockWidgetArea) {
            addDockWidget(Qt::BottomDockWidgetArea, m_explainDock);
            tabifyDockWidget(below, m_explainDock);
            m_explainDock->show();
            m_explainDock->raise();
            // Room for a finding or two at a time, the tabs keeping the rest.
            resizeDocks({ m_explainDock }, { height() * 2 / 5 }, Qt::Vertical);
            return;
        }
        resizeDocks({ m_explainDock }, { qMin(room, qBound(280, width() / 4, 420)) }, Qt::Horizontal);
    });
    // The numbers the charts show are the numbers it explains (a remote window: its agent's stream).
    connect(m_samples, &SampleSource::samplesAvailable, m_explain, &ExplainPane::addBatch);
    connect(m_discovery, &Discovery::snapshotChanged, m_explain, &ExplainPane::setSnapshot);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, m_explain,
        [this] { m_explain->setDevice(m_tree->currentIndex().data(DeviceTreeModel::DeviceNameRole).toString()); });
    connect(m_explain, &ExplainPane::experimentProposed, this, &MainWindow::setUpProposedSweep);

    if (QMenu *view = menuNamed(tr("&View"))) {
        QAction *toggle = m_explainDock->toggleViewAction();
        toggle->setText(tr("E&xplain selected map"));
        toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
        view->addAction(toggle);
    }
    // File > Explain recording…, with the other recording entries: before the separator above Quit.
    if (QMenu *file = menuNamed(tr("&File"))) {
        auto *explain = new QAction(tr("Explain &recording…"), file);
        explain->setObjectName(QStringLiteral("explainRecordingAction"));
        connect(explain, &QAction::triggered, this, [this] {
            filedialogs::open(this,
                { QStringLiteral("recordings"), tr("Explain recording"), recordingsBrowseDirectory(),
                    tr("dmtune recordings (*.dmrec);;All files (*)") },
                [this](const QStringList &files) {
                    showExplain();
                    m_explain->explainRecording(files.constFirst());
                });
        });
        QAction *before = nullptr;
        for (QAction *action : file->actions()) {
            if (action->isSeparator())
                before = action; // the last separator: the one above Quit
        }
        file->insertAction(before, explain);
    }
}

void MainWindow::showExplain()
{
    m_explainDock->show();
    m_explainDock->raise();
}

void MainWindow::setUpProposedSweep(const ProposedSweep &proposed)
{
    SweepRequest request = sweepRequestFor(proposed);
    if (const MultipathMap *map = m_discovery->snapshot().map(request.device))
        request.device = map->device; // the tree's and the form's name for it
    m_experimentPanel->setRequest(request);
    m_tabs->setCurrentWidget(m_experimentPanel);
    statusBar()->showMessage(tr("The finding's sweep is in the Experiment tab: check it, then Run sweep…"), 15000);
}

} // namespace dmtune
