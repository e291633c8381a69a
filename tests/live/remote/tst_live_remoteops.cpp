// A remote host's window acts on the host through its agent (sshdfixture.h: the host `dmtune-test` is this machine
// over a real sshd on 127.0.0.1): a preset applied in the window's preset manager is planned on the far side, its
// data risk is asked in the same PlanDialog as locally (the device's name typed), run there, and the window fetches
// the host again and shows the new values. Only the test's own loop device is written; its values are put back.
// While the host is not connected, nothing is sent: the path group actions are off and an apply says so.
#include "../scratchloop.h"
#include "../workloads/livesupport.h"
#include "sshdfixture.h"

#include "discovery/discovery.h"
#include "mainwindow.h"
#include "ops/plandialog.h"
#include "params/changehistory.h"
#include "params/parametereditor.h"
#include "params/tunabletablemodel.h"
#include "params/tuningsession.h"
#include "pathgroups/multipathactions.h"
#include "pathgroups/pathgroupspanel.h"
#include "presets/presetjson.h"
#include "presets/presetmanager.h"
#include "remote/remotehost.h"
#include "remote/remoteoperationrunner.h"

#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
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
    // history has the entry (Undo off); a value changed there behind the plan's back is refused as stale.
    void theTuneTabWritesThere()
    {
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] { window->close(); });
        RemoteHost *remote = window->remoteHost();
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(m_loop.name()), 30000);
        TuningSession *session = window->tuningSession();
        QVERIFY(session->isRemote() && !session->isReadOnly());
        QVERIFY(session->executorText().contains(m_sshd.host()));
        ParameterEditor *editor = window->parameterEditor();
        QVERIFY(window->selectDevice(m_loop.name()));
        QVERIFY(window->showTab(QStringLiteral("tune")));
        QTRY_VERIFY_WITH_TIMEOUT(editor->shownDevice() == m_loop.name() && !editor->isReading(), 20000);

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
        QVERIFY(!session->canUndo());
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
    }

    void aPresetIsAskedHereAndAppliedThere()
    {
        MainWindow *window = m_local->openRemoteWindow(host(), { m_sshd.configFile(), dmtunectl }, {});
        QVERIFY(window);
        const auto closeWindow = qScopeGuard([&] { window->close(); });
        RemoteHost *remote = window->remoteHost();
        QTRY_COMPARE_WITH_TIMEOUT(remote->state(), RemoteHost::State::Connected, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().device(m_loop.name()), 30000);
        QCOMPARE(window->discovery()->snapshot().device(m_loop.name())->scheduler, QStringLiteral("mq-deadline"));
        QVERIFY(window->remoteOperations());
        QCOMPARE(window->presetManager()->operationService(), window->remoteOperations());

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
        QSignalSpy finished(window->remoteOperations(), &OperationService::finished);
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
        window->remoteOperations()->runUnlessAsked(
            QStringLiteral("preset.apply"), {}, this, nullptr, [&failed](const QString &error) { failed << error; },
            nullptr);
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.at(0).startsWith(QLatin1String("not connected to")), qPrintable(failed.at(0)));
        QCOMPARE(value(QStringLiteral("nomerges")), QStringLiteral("2"));
    }
};

QTEST_MAIN(TestLiveRemoteOps)
#include "tst_live_remoteops.moc"
