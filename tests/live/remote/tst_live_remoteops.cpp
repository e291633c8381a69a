// A remote host's window acts on the host through its agent (sshdfixture.h: the host `dmtune-test` is this machine
// over a real sshd on 127.0.0.1): a preset applied in the window's preset manager is planned on the far side, its
// data risk is asked in the same PlanDialog as locally (the device's name typed), run there, and the window fetches
// the host again and shows the new values. Only the test's own loop device is written; its values are put back.
// While the host is not connected, nothing is sent: the path group actions are off and an apply says so.
// The Experiment tab sweeps there: planned and started by the agent, its points in the window's table, the value
// found put back there. The Latency tab charts what fio did there from the agent's probe. The lab device is made
// there by the agent, and goes with the window. DMTUNE_SHOTS=DIR saves the Experiment and Latency tabs at 1280x720
// and 1920x1080.
#include "sshdfixture.h"
#include "tests/live/latency/latencychecks.h"
#include "tests/live/scratchloop.h"
#include "tests/live/workloads/livesupport.h"

#include "app/dmtune/mainwindow.h"
#include "core/discovery/discovery.h"
#include "core/latency/blocklatencyprobe.h"
#include "core/params/changehistory.h"
#include "core/params/tunable.h"
#include "core/params/tuningsession.h"
#include "core/presets/presetjson.h"
#include "core/remote/remotehost.h"
#include "core/remote/remoteoperationrunner.h"
#include "tests/common/remotewindowaccess.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/latencyview.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/ops/plandialog.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupspanel.h"
#include "widgets/presets/presetmanager.h"
#include "widgets/workloads/workloadpanel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace dmtune;
using namespace dmtune::live;

class TestLiveRemoteOps : public QObject {
    Q_OBJECT

    SshdFixture m_sshd;
    ScratchLoop m_loop;
    SysfsRoot m_sysfs;
    MainWindow *m_local = nullptr;
    QTemporaryDir m_empty;

    HostAddress host() const { return parseHostAddress(m_sshd.host()).value(); }

    static void shoot(MainWindow *window, const QString &name)
    {
        const QString dir = qEnvironmentVariable("DMTUNE_SHOTS");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        for (const QSize size : { QSize(1280, 720), QSize(1920, 1080) }) {
            window->resize(size);
            if (!QTest::qWaitFor([&] { return window->size() == size; }, 10000))
                qWarning("the window is %dx%d", window->width(), window->height());
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents();
            window->grab().save(
                QStringLiteral("%1/remoteops-%2-%3x%4.png").arg(dir, name).arg(size.width()).arg(size.height()));
        }
    }
    QString value(const QString &attribute) const
    {
        QString v = m_sysfs.readOr(QStringLiteral("block/%1/queue/%2").arg(m_loop.name(), attribute)).trimmed();
        const qsizetype open = v.indexOf(u'[');
        return open >= 0 ? v.mid(open + 1, v.indexOf(u']') - open - 1) : v;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = ScratchLoop::unavailableReason({ QStringLiteral("losetup") }); !why.isEmpty())
            QSKIP(qPrintable(why));
        if (SshdFixture::sshdPath().isEmpty())
            QSKIP("sshd not installed (packaging/install-deps.sh installs openssh-server)");
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.error()));
        if (const QString why = m_loop.createWithMqDeadline(m_sysfs, 64LL << 20); !why.isEmpty())
            QSKIP(qPrintable(why));
        // What the preset writes is put back when the loop device goes (setQueue remembers the value before).
        for (const QString &attribute : { QStringLiteral("nomerges"), QStringLiteral("write_cache") })
            QVERIFY(m_loop.setQueue(m_sysfs, attribute, value(attribute)));
        if (value(QStringLiteral("write_cache")) != QLatin1String("write back"))
            QSKIP("the loop device's write cache is not \"write back\" here");
        m_local = new MainWindow(SysfsRoot(m_empty.path(), QString()));
    }
    void cleanupTestCase() { delete m_local; }

    // The Tune tab of a remote window: planned on the host's capture, applied there by its agent, read back; the
    // history has the entry; a value changed there behind the plan's back is refused as stale; Undo puts the old
    // value back there through the agent and the entry goes.
    void theTuneTabWritesThere()
    {
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] { window->close(); });
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(m_loop.name()), 30000);
        TuningSession *session = window->tuningSession();
        QVERIFY(session->isRemote() && !session->isReadOnly());
        QVERIFY(session->executorText().contains(m_sshd.host()));
        ParameterEditor *editor = window->parameterEditor();
        QVERIFY(window->selectDevice(m_loop.name()));
        QVERIFY(window->showTab(QStringLiteral("tune")));
        QTRY_VERIFY_WITH_TIMEOUT(editor->shownDevice() == m_loop.name() && !editor->isReading(), 20000);
        // What the table marks writable is what the host's kernel lets root write, not every file of the capture.
        const auto writable = [](const QList<Tunable> &tunables) {
            QStringList out;
            for (const Tunable &t : tunables) {
                if (t.writable)
                    out << t.attribute;
            }
            return out;
        };
        QCOMPARE(writable(editor->model()->tunables()), writable(readTunables(m_sysfs, m_loop.name())));
        QVERIFY(writable(editor->model()->tunables()).size() < editor->model()->tunables().size());

        const QString before = value(QStringLiteral("nomerges"));
        const QString want = before == QLatin1String("1") ? QStringLiteral("0") : QStringLiteral("1");
        QVERIFY(editor->model()->setPending(QStringLiteral("queue/nomerges"), want));
        editor->updatePreview();
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isReading(), 20000);
        const auto shown = [editor] {
            const int row = editor->model()->rowOf(QStringLiteral("queue/nomerges"));
            return row >= 0 ? editor->model()->tunables().at(row).value : QString();
        };
        QSignalSpy finished(editor, &ParameterEditor::applyFinished);
        QVERIFY(editor->apply());
        QVERIFY(finished.wait(20000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(value(QStringLiteral("nomerges")), want); // written on the host (this machine, through sshd)
        QCOMPARE(session->history()->entries().size(), 1);
        QVERIFY2(session->history()->entries().first().result.executor.contains(m_sshd.host()),
            qPrintable(session->history()->entries().first().result.executor)); // the entry names the host
        QVERIFY(session->canUndo());
        // From the result on, the table shows the value read back there, never the old capture's for a moment.
        QStringList seen { shown() };
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            if (seen.last() != shown())
                seen << shown();
        });
        watch.start(5);
        // The capture is fetched again: the window's tree reads the new value.
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(m_loop.name())
                && remote->sysfsRoot().readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop.name())).trimmed()
                    == want,
            20000);

        // Planned on the capture, changed on the host before Apply: stale there, nothing written. First the editor
        // shows the new value (read from the capture fetched again), else an edit back to `before` is no change.
        QTRY_VERIFY_WITH_TIMEOUT(shown() == want && !editor->isReading(), 20000);
        // The editor's own re-read of the capture (every 2 s) too: until one more read has filled the table.
        QSignalSpy reread(editor, &ParameterEditor::tunablesRead);
        QVERIFY(reread.wait(20000));
        watch.stop();
        QCOMPARE(seen, QStringList { want });
        QVERIFY(editor->model()->setPending(QStringLiteral("queue/nomerges"), before));
        editor->updatePreview();
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isReading(), 20000);
        QVERIFY(m_loop.setQueue(m_sysfs, QStringLiteral("nomerges"), QStringLiteral("2")));
        finished.clear();
        QVERIFY(editor->apply());
        QVERIFY(finished.wait(20000));
        const auto stale = finished.first().first().value<ApplyResult>();
        QVERIFY(!stale.ok());
        QCOMPARE(value(QStringLiteral("nomerges")), QStringLiteral("2"));
        QCOMPARE(session->history()->entries().size(), 1);

        // Undo of the entry: its old value planned on the capture (fetched again after the refusal: it has the 2 set
        // behind the window's back) and written there by the agent, as locally; the entry goes.
        QTRY_COMPARE_WITH_TIMEOUT(
            remote->sysfsRoot().readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop.name())).trimmed(),
            QStringLiteral("2"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(session->undoUnavailableReason().isEmpty(), 20000);
        QSignalSpy undone(session, &TuningSession::finished);
        QVERIFY(window->historyPanel()->requestUndo());
        QTRY_VERIFY_WITH_TIMEOUT(!undone.isEmpty(), 30000);
        QVERIFY(undone.first().at(1).toBool()); // the undo's result
        const auto undoResult = undone.first().at(0).value<ApplyResult>();
        QVERIFY2(undoResult.ok(), qPrintable(undoResult.errorMessage()));
        QCOMPARE(value(QStringLiteral("nomerges")), before); // back there
        QCOMPARE(session->history()->entries().size(), 0);
    }

    // The Experiment tab of a remote window: nomerges over 0 and 2 under batched-write-4k on the test's loop device,
    // planned by the agent (its plan in the window's PlanDialog), run there point by point into the same table and
    // chart, and the value found put back there. Not recorded: the folder would be the host's.
    void aSweepRunsThereAndItsValueGoesBack()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("fio")).isEmpty())
            QSKIP("fio not installed");
        QVERIFY(m_loop.setQueue(m_sysfs, QStringLiteral("nomerges"), QStringLiteral("1"))); // put back as found
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] { window->close(); });
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 30000);
        QVERIFY(window->showTab(QStringLiteral("experiment")));
        ExperimentPanel *panel = window->experimentPanel();
        QVERIFY(panel);
        QCOMPARE(panel->hostName(), remoteSessionOf(window)->remoteHost()->displayName());
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectDevice(m_loop.name()), 30000);
        panel->setParameters(QStringLiteral("nomerges=0,2"));
        panel->setWorkloads({ QStringLiteral("batched-write-4k") });
        panel->setRepeats(1);
        panel->setRuntimeSeconds(2);
        panel->setSettleSeconds(0);
        panel->setRecordDirectory(m_empty.filePath(QStringLiteral("sweep"))); // a remote sweep is not recorded
        const auto request = panel->currentRequest();
        QVERIFY2(request, qPrintable(request.errorMessage()));
        QVERIFY(request->recordDir.isEmpty());

        QSignalSpy finished(panel, &ExperimentPanel::sweepFinished);
        panel->run();
        QTRY_VERIFY2_WITH_TIMEOUT(panel->pendingConfirmation(), qPrintable(panel->statusText()), 30000);
        PlanDialog *dialog = panel->pendingConfirmation();
        QCOMPARE(dialog->plan().kind, QStringLiteral("experiment.sweep"));
        QCOMPARE(dialog->plan().target, m_loop.name());
        if (!dialog->runButton()->isEnabled()) // the far side found data on the device: its name is asked
            dialog->wordEdit()->setText(m_loop.name());
        QVERIFY(dialog->runButton()->isEnabled());
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(panel->isRunning() || finished.count() > 0, 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(finished.count() > 0, qPrintable(panel->logText()), 120000);

        const SweepOutcome outcome = panel->lastOutcome();
        QVERIFY2(outcome.status.ok() && !outcome.stopped, qPrintable(outcome.status.errorMessage()));
        QCOMPARE(outcome.results.size(), 2);
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("Done: 2 points")), qPrintable(panel->statusText()));
        QVERIFY2(panel->logText().contains(QStringLiteral("$ dmtunectl --host %1 sweep").arg(m_sshd.host())),
            qPrintable(panel->logText()));
        QVERIFY2(panel->logText().contains(QStringLiteral("restored: %1 nomerges 2 -> 1").arg(m_loop.name())),
            qPrintable(panel->logText()));
        QCOMPARE(value(QStringLiteral("nomerges")), QStringLiteral("1")); // back there (this machine)
        QCOMPARE(panel->resultsView()->model()->rowCount(), 2);
        QVERIFY(panel->shownDirectory().isEmpty());
        // Measured there: fio did I/O at both points, and with nomerges=2 the device merged nothing.
        for (const SweepPointResult &point : outcome.results) {
            QCOMPARE(point.repeats, 1);
            QVERIFY(point.fio.value(QLatin1String("write_iops")).toDouble() > 0);
        }
        QCOMPARE(outcome.results.at(1).point.settings.constFirst().value, QStringLiteral("2"));
        shoot(window, QStringLiteral("experiment"));
        QCOMPARE(
            outcome.results.at(1).devices.value(m_loop.name()).toObject().value(QLatin1String("wrqm")).toDouble(-1),
            0.0);
    }

    // The Latency tab of a remote window: the probe loaded by the host's agent, read at each tick of the host's
    // stream (the device numbers come with it), charts every I/O fio did there, as a local tab does.
    void theLatencyTabChartsTheHostsProbe()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("fio")).isEmpty())
            QSKIP("fio not installed");
        QVERIFY2(BlockLatencyProbe::unavailableReason().isEmpty(), qPrintable(BlockLatencyProbe::unavailableReason()));
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] { window->close(); });
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(m_loop.name()), 30000);
        QVERIFY(window->selectDevice(m_loop.name()));
        LatencyView *view = window->latencyView();
        QVERIFY(view);
        QVERIFY(window->showTab(QStringLiteral("latency")));
        view->loadProbe(); // as showing it does
        QTRY_VERIFY_WITH_TIMEOUT(view->readsFromRemoteHost(), 10000);
        QVERIFY(!view->probeLoaded()); // no probe of this process: the host's
        LatencyHeatMap *chart = view->heatMap(m_loop.name());
        QVERIFY(chart);
        QTRY_VERIFY2_WITH_TIMEOUT(chart->intervalCount() >= 1, qPrintable(view->statusText()), 20000);
        QVERIFY2(view->statusText().contains(m_sshd.host()), qPrintable(view->statusText()));

        QProcess fio;
        fio.start(
            QStringLiteral("fio"), latencytest::fioRandomArgs(m_loop.devicePath(), QStringLiteral("randread"), 4, 4));
        QTRY_VERIFY_WITH_TIMEOUT(fio.state() == QProcess::NotRunning, 30000);
        QCOMPARE(fio.exitCode(), 0);
        const int afterFio = chart->intervalCount();
        QTRY_VERIFY_WITH_TIMEOUT(chart->intervalCount() >= afterFio + 2, 10000); // the last I/Os are in an interval
        quint64 charted = 0;
        int busy = 0;
        for (int i = 0; i < chart->intervalCount(); ++i) {
            charted += chart->intervalIos(i);
            busy += chart->intervalIos(i) > 0 ? 1 : 0;
        }
        const qint64 fioCount = latencytest::fioIos(fio.readAllStandardOutput(), QStringLiteral("read"));
        qInfo("the host's probe: fio %lld I/Os, charted %llu over %d intervals (%d with I/O)", fioCount, charted,
            chart->intervalCount(), busy);
        QVERIFY(charted <= quint64(fioCount) && charted * 100 >= quint64(fioCount) * 99);
        QVERIFY(busy >= 3); // 4 s of fio at the window's 1 s ticks
        shoot(window, QStringLiteral("latency"));
    }

    // The lab device of a remote window: made on the host by its agent (lab.create there, in the agent's default
    // folder), in the window's tree and Workload dock once the capture has it, removed there (lab.remove); one made
    // and left goes when the window closes (the connection's end).
    void aLabDeviceIsMadeThereAndGoesWithTheWindow()
    {
        const QPointer<MainWindow> window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] {
            if (window)
                window->close();
        });
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 30000);
        QVERIFY(!window->labDevices()); // none of this machine's made for the window
        QSignalSpy changed(window.data(), &MainWindow::labDeviceChanged);
        window->createLabDevice();
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 30000);
        const QString lab = changed.last().first().toString();
        QVERIFY2(!lab.isEmpty(), qPrintable(window->statusText()));
        const QString backing = window->labBackingFile();
        QVERIFY2(backing.startsWith(QStringLiteral("/var/tmp/")) && QFileInfo::exists(backing), qPrintable(backing));
        QCOMPARE(m_sysfs.readOr(QStringLiteral("block/%1/loop/backing_file").arg(lab)).trimmed(), backing);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(lab), 30000); // the capture fetched again
        QCOMPARE(window->workloadPanel()->labState().device, lab);
        QVERIFY2(window->firstRunHint()->text().contains(lab), qPrintable(window->firstRunHint()->text()));

        changed.clear();
        window->removeLabDevice();
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 30000);
        QVERIFY2(changed.last().first().toString().isEmpty(), qPrintable(window->statusText()));
        QVERIFY(!QFileInfo::exists(backing));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/sys/block/%1/loop/backing_file").arg(lab)));

        // Made again and left: the window closes, its connection ends, and the agent removes it there.
        changed.clear();
        window->createLabDevice();
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 30000);
        const QString left = window->labBackingFile();
        QVERIFY2(!left.isEmpty() && QFileInfo::exists(left), qPrintable(window->statusText()));
        window->close();
        QTRY_VERIFY_WITH_TIMEOUT(window.isNull(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(left), 20000);
    }

    void aPresetIsAskedHereAndAppliedThere()
    {
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] { window->close(); });
        RemoteHost *remote = remoteSessionOf(window)->remoteHost();
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(m_loop.name()), 30000);
        QCOMPARE(window->discovery()->snapshot().device(m_loop.name())->scheduler, QStringLiteral("mq-deadline"));
        // The presets run through the window's tuning session's service: the host's agent.
        OperationService *service = window->tuningSession()->remoteService();
        QVERIFY(service);
        QCOMPARE(window->presetManager()->operationService(), service);

        // The preset: the scheduler, nomerges and (a data risk: the device's name must be typed) the write cache.
        const auto preset = parsePreset(QStringLiteral(R"({"schema": 1, "name": "remote test", "rules": [{"match":
            {"name": "%1"}, "settings": {"queue/scheduler": "none", "queue/nomerges": 2,
            "queue/write_cache": "write through"}}]})")
                                            .arg(m_loop.name())
                                            .toUtf8());
        QVERIFY2(preset, qPrintable(preset.errorMessage()));
        PresetManager *manager = window->presetManager();
        manager->setSnapshot(window->discovery()->snapshot());
        manager->showPreset(*preset);
        QTRY_VERIFY_WITH_TIMEOUT(!manager->isResolving(), 10000);

        // Apply: the agent plans it (on the far side's state) and the plan comes back with the risk to answer.
        QVERIFY(manager->applyCurrent({ m_loop.name() }));
        QTRY_VERIFY_WITH_TIMEOUT(manager->pendingPlanDialog(), 20000);
        PlanDialog *dialog = manager->pendingPlanDialog();
        QCOMPARE(dialog->plan().kind, QStringLiteral("preset.apply"));
        QVERIFY(!dialog->plan().risks.isEmpty());
        QCOMPARE(dialog->confirmWord(), m_loop.name());
        QCOMPARE(value(QStringLiteral("write_cache")), QStringLiteral("write back")); // asked, nothing written yet
        QVERIFY(!dialog->runButton()->isEnabled()); // the name first, as locally
        dialog->wordEdit()->setText(m_loop.name());
        QVERIFY(dialog->runButton()->isEnabled());
        QSignalSpy finished(service, &OperationService::finished);
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);

        // Run there: the far side's sysfs (this machine's) has the values, the status line says so.
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const auto result = finished.at(0).at(0).value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(value(QStringLiteral("scheduler")), QStringLiteral("none"));
        QCOMPARE(value(QStringLiteral("nomerges")), QStringLiteral("2"));
        QCOMPARE(value(QStringLiteral("write_cache")), QStringLiteral("write through"));
        QVERIFY2(manager->statusText().startsWith(QLatin1String("Applied")), qPrintable(manager->statusText()));

        // The window fetched the host again: its snapshot and its capture show the new values.
        QTRY_COMPARE_WITH_TIMEOUT(
            window->discovery()->snapshot().device(m_loop.name())->scheduler, QStringLiteral("none"), 30000);
        const SysfsRoot capture = remote->sysfsRoot();
        QCOMPARE(capture.readOr(QStringLiteral("block/%1/queue/nomerges").arg(m_loop.name())).trimmed(),
            QStringLiteral("2"));

        // Not connected: nothing is sent; the tree's path group actions are off, an apply answers so.
        remote->disconnectFromHost();
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Disconnected, 10000);
        QVERIFY2(window->pathGroupsPanel()->isRemote(), "the remote panel");
        QStringList failed;
        window->hostSession()->operations()->runUnlessAsked(
            QStringLiteral("preset.apply"), {}, this, nullptr, [&failed](const QString &error) { failed << error; },
            nullptr);
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.at(0).startsWith(QLatin1String("not connected to")), qPrintable(failed.at(0)));
        QCOMPARE(value(QStringLiteral("nomerges")), QStringLiteral("2"));
    }
};

QTEST_MAIN(TestLiveRemoteOps)
#include "tst_live_remoteops.moc"
