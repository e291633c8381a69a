#include "windowscenario.h"

#include "app/dmtune/mainwindow.h"
#include "core/discovery/discovery.h"
#include "core/ops/operationservice.h"
#include "core/params/tuningsession.h"
#include "tests/common/remotewindowaccess.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/latencyview.h"
#include "widgets/diagnosis/explainpane.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/ops/plandialog.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupspanel.h"

#include <QAction>
#include <QJsonArray>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

namespace dmtune {

namespace {

QJsonArray strings(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

// What a plan says before anything runs: its kind, its text and its risks (kind and text each).
QJsonObject planJson(const OperationPlan &plan)
{
    QJsonArray risks;
    for (const OperationRisk &risk : plan.risks)
        risks.append(QJsonObject { { QStringLiteral("id"), risk.id }, { QStringLiteral("text"), risk.text },
            { QStringLiteral("confirmable"), risk.confirmable },
            { QStringLiteral("confirm_device"), risk.confirmDevice } });
    return QJsonObject { { QStringLiteral("kind"), plan.kind }, { QStringLiteral("target"), plan.target },
        { QStringLiteral("preview"), plan.preview }, { QStringLiteral("refusals"), strings(plan.refusals) },
        { QStringLiteral("risks"), risks } };
}

QJsonObject resultJson(const OperationResult &result)
{
    return QJsonObject { { QStringLiteral("ok"), result.ok }, { QStringLiteral("error"), result.error },
        { QStringLiteral("changes"), strings(result.changes) } };
}

QString tunableValue(ParameterEditor *editor, const QString &attribute)
{
    const int row = editor->model()->rowOf(attribute);
    return row >= 0 ? editor->model()->tunables().at(row).value : QString();
}

// The steps, each of which may end the scenario with its reason.
class Run {
public:
    Run(MainWindow *window, const WindowScenario &scenario)
        : m_window(window)
        , m_s(scenario)
    {
    }

    QJsonObject run()
    {
        const bool ok = offered() && tune() && failAndReinstate() && sweep() && latencyAndExplain();
        if (!ok)
            m_out.insert(QStringLiteral("error"), m_error);
        return m_out;
    }

private:
    bool fail(const QString &why)
    {
        m_error = why;
        return false;
    }
    bool waitFor(const std::function<bool()> &condition, int ms, const QString &what)
    {
        return QTest::qWaitFor(condition, ms) || fail(QStringLiteral("timed out: ") + what);
    }

    // The tabs and menu entries, once the map is in the window's snapshot; the path group actions on.
    bool offered()
    {
        if (!waitFor([this] { return m_window->discovery()->snapshot().map(m_s.map) != nullptr; }, 120000,
                QStringLiteral("the map in the window")))
            return false;
        m_mapDevice = m_window->discovery()->snapshot().map(m_s.map)->device;
        m_out.insert(QStringLiteral("tabs"), strings(tabTitles(m_window)));
        m_out.insert(QStringLiteral("menus"), strings(menuEntries(m_window)));
        if (!waitFor([this] { return m_window->pathGroupsPanel()->unavailableReason().isEmpty(); }, 60000,
                QStringLiteral("the path group actions: ") + m_window->pathGroupsPanel()->unavailableReason()))
            return false;
        return true;
    }

    // The Tune tab: the path's nomerges to the other value, applied; then Edit > Undo puts it back.
    bool tune()
    {
        ParameterEditor *editor = m_window->parameterEditor();
        if (!m_window->selectDevice(m_s.path) || !m_window->showTab(QStringLiteral("tune")))
            return fail(QStringLiteral("no Tune tab for ") + m_s.path);
        if (!waitFor([&] { return editor->shownDevice() == m_s.path && !editor->isReading(); }, 60000,
                QStringLiteral("the Tune tab's values")))
            return false;
        const QString before = tunableValue(editor, QStringLiteral("queue/nomerges"));
        const qsizetype entries = m_window->tuningSession()->history()->entries().size(); // earlier changes stay
        const QString want = before == QLatin1String("1") ? QStringLiteral("0") : QStringLiteral("1");
        QString rejected;
        const auto connection = QObject::connect(editor->model(), &TunableTableModel::editRejected,
            [&rejected](const QString &, const QString &message) { rejected = message; });
        const bool accepted = editor->model()->setPending(QStringLiteral("queue/nomerges"), want);
        QObject::disconnect(connection);
        if (!accepted)
            return fail(QStringLiteral("nomerges is not writable in the Tune tab: ") + rejected);
        editor->updatePreview();
        if (!waitFor([&] { return !editor->isReading() && editor->operationPlan().kind.size() > 0; }, 60000,
                QStringLiteral("the Tune tab's plan")))
            return false;
        QJsonObject tune { { QStringLiteral("before"), before },
            { QStringLiteral("plan"), planJson(editor->operationPlan()) } };
        QSignalSpy finished(m_window->tuningSession(), &TuningSession::finished);
        if (!editor->apply())
            return fail(QStringLiteral("Apply did not start: ") + editor->problemText());
        if (!waitFor([&] { return !finished.isEmpty(); }, 60000, QStringLiteral("the Tune tab's result")))
            return false;
        const auto applied = finished.first().first().value<ApplyResult>();
        tune.insert(QStringLiteral("applied"),
            QJsonObject { { QStringLiteral("ok"), applied.ok() },
                { QStringLiteral("changes"), strings(TuningSession::changeLabels(applied)) } });
        if (!applied.ok())
            return fail(QStringLiteral("not applied: ") + applied.errorMessage());

        // Undo as Edit > Undo does: planned on the host's state, run, the entry gone.
        if (!waitFor([&] { return m_window->tuningSession()->undoUnavailableReason().isEmpty(); }, 60000,
                QStringLiteral("Undo available: ") + m_window->tuningSession()->undoUnavailableReason()))
            return false;
        finished.clear();
        if (!m_window->historyPanel()->requestUndo())
            return fail(QStringLiteral("Undo did not start"));
        if (!waitFor([&] { return !finished.isEmpty(); }, 60000, QStringLiteral("the undo's result")))
            return false;
        const auto undone = finished.first().first().value<ApplyResult>();
        tune.insert(QStringLiteral("undone"),
            QJsonObject { { QStringLiteral("ok"), undone.ok() },
                { QStringLiteral("was_undo"), finished.first().at(1).toBool() },
                { QStringLiteral("changes"), strings(TuningSession::changeLabels(undone)) } });
        // The apply's entry came and went with the undo.
        tune.insert(QStringLiteral("history_entries_added"),
            qint64(m_window->tuningSession()->history()->entries().size() - entries));
        m_out.insert(QStringLiteral("tune"), tune);
        return undone.ok() || fail(QStringLiteral("not undone: ") + undone.errorMessage());
    }

    // The tree's Fail path (asked: the plan dialog, Run) and Reinstate path (no risk: run at once).
    bool failAndReinstate()
    {
        MultipathActions *actions = m_window->pathGroupsPanel()->actions();
        QSignalSpy opened(actions, &MultipathActions::planOpened);
        QSignalSpy finished(m_window->pathGroupsPanel()->runner(), &OperationService::finished);
        if (!actions->failPath(m_s.map, m_s.pathDevnum))
            return fail(QStringLiteral("Fail path did not start"));
        if (!waitFor([&] { return !opened.isEmpty() || !finished.isEmpty(); }, 60000, QStringLiteral("the fail plan")))
            return false;
        QJsonObject out;
        if (PlanDialog *dialog = actions->pendingPlan()) {
            out.insert(QStringLiteral("fail_plan"), planJson(dialog->plan()));
            if (!dialog->runButton()->isEnabled())
                return fail(QStringLiteral("the fail plan cannot run"));
            dialog->runButton()->click();
        }
        if (!waitFor([&] { return !finished.isEmpty(); }, 60000, QStringLiteral("the fail result")))
            return false;
        out.insert(QStringLiteral("fail_asked"), opened.count());
        out.insert(QStringLiteral("failed"), resultJson(finished.at(0).at(0).value<OperationResult>()));
        if (!actions->reinstatePath(m_s.map, m_s.pathDevnum))
            return fail(QStringLiteral("Reinstate path did not start"));
        if (!waitFor([&] { return finished.count() >= 2 || opened.count() >= 2; }, 60000,
                QStringLiteral("the reinstate result")))
            return false;
        out.insert(QStringLiteral("reinstate_asked"), opened.count() - 1);
        if (finished.count() < 2)
            return fail(QStringLiteral("Reinstate path asked: ") + actions->pendingPlan()->plan().preview);
        out.insert(QStringLiteral("reinstated"), resultJson(finished.at(1).at(0).value<OperationResult>()));
        // The window's own view of the path follows: active again in its tree (a new scan, or a new capture).
        if (!waitFor([&] { return pathState(m_window->discovery()->snapshot()) == QLatin1String("A"); }, 60000,
                QStringLiteral("the reinstated path active in the window")))
            return false;
        out.insert(QStringLiteral("shown_after"), pathState(m_window->discovery()->snapshot()));
        m_out.insert(QStringLiteral("path"), out);
        return true;
    }

    // The path's state ("A", "F") in the window's snapshot of the map.
    QString pathState(const DeviceSnapshot &snapshot) const
    {
        if (const MultipathMap *map = snapshot.map(m_s.map)) {
            for (const PathGroupInfo &group : map->groups) {
                for (const PathInfo &path : group.paths) {
                    if (path.devnum == m_s.pathDevnum)
                        return path.state;
                }
            }
        }
        return {};
    }

    // A two-point sweep of the map's nomerges under a short sequential read, asked and run; the value restored.
    bool sweep()
    {
        ExperimentPanel *panel = m_window->experimentPanel();
        m_window->showTab(QStringLiteral("experiment"));
        if (!waitFor(
                [&] { return panel->selectDevice(m_mapDevice); }, 30000, QStringLiteral("the map in the sweep form")))
            return false;
        panel->setParameters(QStringLiteral("nomerges=0,2"));
        panel->setWithPaths(false);
        panel->setWorkloads({ QStringLiteral("seq-read-8k-4jobs") });
        panel->setRepeats(1);
        panel->setRuntimeSeconds(2);
        panel->setSettleSeconds(0);
        QSignalSpy done(panel, &ExperimentPanel::sweepFinished);
        panel->run();
        if (!waitFor([&] { return panel->pendingConfirmation() != nullptr || !panel->isBusy(); }, 120000,
                QStringLiteral("the sweep's plan")))
            return false;
        PlanDialog *dialog = panel->pendingConfirmation();
        if (!dialog)
            return fail(QStringLiteral("no sweep plan: ") + panel->statusText());
        QJsonObject out { { QStringLiteral("plan"), planJson(dialog->plan()) } };
        if (!dialog->runButton()->isEnabled())
            return fail(QStringLiteral("the sweep plan cannot run"));
        dialog->runButton()->click();
        if (!waitFor([&] { return !done.isEmpty(); }, 600000, QStringLiteral("the sweep")))
            return false;
        const SweepOutcome outcome = panel->lastOutcome();
        QJsonArray points;
        for (const SweepPointResult &r : outcome.results) {
            QStringList settings;
            for (const SweepSetting &s : r.point.settings)
                settings << s.attribute + QLatin1Char('=') + s.value;
            points.append(QJsonObject { { QStringLiteral("settings"), strings(settings) },
                { QStringLiteral("repeats"), r.repeats }, { QStringLiteral("measured"), !r.fio.isEmpty() } });
        }
        out.insert(QStringLiteral("points"), points);
        out.insert(QStringLiteral("restored"), strings(outcome.restored));
        out.insert(QStringLiteral("error"), outcome.status.errorMessage());
        out.insert(QStringLiteral("restore_errors"), strings(outcome.restoreErrors));
        m_out.insert(QStringLiteral("sweep"), out);
        return outcome.status.ok() || fail(QStringLiteral("the sweep: ") + outcome.status.errorMessage());
    }

    // Under the caller's read load: the Latency tab's heat map of the map measures I/O, and the Explain pane explains
    // the map over sampled numbers.
    bool latencyAndExplain()
    {
        if (!m_s.startLoad())
            return fail(QStringLiteral("the load did not start"));
        m_window->selectDevice(m_mapDevice);
        m_window->showTab(QStringLiteral("latency"));
        LatencyView *latency = m_window->latencyView();
        const bool measured = QTest::qWaitFor(
            [&] {
                const LatencyHeatMap *chart = latency->heatMap(m_mapDevice);
                if (!chart)
                    return false;
                for (int i = 0; i < chart->intervalCount(); ++i) {
                    if (chart->intervalIos(i) > 0)
                        return true;
                }
                return false;
            },
            180000);
        m_window->showExplain();
        ExplainPane *explain = m_window->explainPane();
        // Explained again now and then (a new request supersedes the one running: never in a tight loop), until the
        // text is the map's over sampled numbers.
        QSignalSpy shown(explain, &ExplainPane::explained);
        const auto overNumbers = [&] {
            return explain->map() == m_s.map && explain->plainText().contains(QLatin1String("requests/s"))
                && explain->statusText().contains(QLatin1String("over the last"));
        };
        bool explained = false;
        for (int attempt = 0; attempt < 12 && !explained; ++attempt) {
            shown.clear();
            explain->explainNow();
            if (!QTest::qWaitFor([&] { return !shown.isEmpty(); }, 10000))
                continue;
            explained = overNumbers();
        }
        m_s.stopLoad();
        m_out.insert(QStringLiteral("latency"),
            QJsonObject { { QStringLiteral("measured"), measured },
                { QStringLiteral("status"), measured ? QString() : latency->statusText() } });
        m_out.insert(QStringLiteral("explain"),
            QJsonObject { { QStringLiteral("explained"), explained },
                { QStringLiteral("text"), explained ? QString() : explain->plainText() } });
        return true;
    }

    MainWindow *m_window;
    WindowScenario m_s;
    QString m_mapDevice;
    QJsonObject m_out;
    QString m_error;
};

} // namespace

QJsonObject runWindowScenario(MainWindow *window, const WindowScenario &scenario)
{
    return Run(window, scenario).run();
}

} // namespace dmtune
