// Undo last change on the offscreen platform. The History dock's Undo and Edit > Undo last change
// are one action, and Undo is a tuning.apply operation like any change: planned on a job, its data risk asked in a
// PlanDialog (write_cache back to "write through" asks for the device's name; Cancel writes nothing), and the answer
// bound to that plan (an Apply that lands meanwhile makes it refused, nothing written). Disabled with the reason when
// there is nothing to undo and on a captured tree; a remote window's Undo goes to its agent as its Apply does. In the
// main window: the Edit menu has it, Revert says why it is grey after Apply, Ctrl+Z in a text field stays the field's
// own undo, Ctrl+Alt+Z undoes.
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tunefixture.h"

#include "app/dmtune/mainwindow.h"
#include "core/ops/operationrunner.h"
#include "core/params/tuningsession.h"
#include "widgets/ops/plandialog.h"
#include "widgets/params/changehistorymodel.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"

#include <QAction>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;
using dmtune::test::readValue;

namespace {

QAction *menuAction(QMainWindow &window, const QString &menu, const QString &entry)
{
    for (QAction *top : window.menuBar()->actions()) {
        if (top->menu() && top->text() == menu) {
            for (QAction *a : top->menu()->actions()) {
                if (a->text() == entry)
                    return a;
            }
        }
    }
    return nullptr;
}

// Applies one change through the session as the Tune tab does (plan, then run with its answers).
bool applyThroughSession(TuningSession &session, const ChangeSet &changes)
{
    const Result<OperationPlan> plan = session.plan(changes);
    if (!plan || !plan->runnable())
        return false;
    QSignalSpy finished(&session, &TuningSession::finished);
    if (!session.run(plan.value(), acceptAll(plan.value())))
        return false;
    if (!finished.wait(5000))
        return false;
    const auto result = finished.first().first().value<ApplyResult>();
    if (!result.ok())
        qWarning("apply: %s", qPrintable(result.errorMessage()));
    return result.ok();
}

} // namespace

class TestUndoLastChange : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void undoAsksForItsRiskAndIsBoundToItsPlan()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        dmtune::test::buildTuneFixture(fake);
        fake.file(fake.devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"),
            QStringLiteral("write through"));
        TuningSession session(SysfsRoot::scratch(fake.root()), Applier::Mode::InProcess);
        ChangeHistoryPanel panel(&session);
        panel.show();
        QAction *undo = panel.undoAction();
        QCOMPARE(undo->text(), QStringLiteral("&Undo last change"));
        QVERIFY(!undo->isEnabled());
        QVERIFY2(undo->toolTip().startsWith(QStringLiteral("Nothing to undo")), qPrintable(undo->toolTip()));
        QCOMPARE(undo->statusTip(), undo->toolTip());
        QVERIFY(!panel.requestUndo());

        // write through -> write back asks nothing; undoing it goes back to write through: a data risk.
        QVERIFY(applyThroughSession(
            session, { { QStringLiteral("sdb"), QStringLiteral("queue/write_cache"), QStringLiteral("write back") } }));
        QCOMPARE(
            readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
        QVERIFY(undo->isEnabled());
        QVERIFY2(undo->toolTip().contains(QStringLiteral("sdb queue/write_cache = write through")),
            qPrintable(undo->toolTip()));
        QVERIFY(panel.undoButton()->isEnabled());

        // The dock's button is the action: the plan is made on a job, then the dialog asks for the name.
        QTest::mouseClick(panel.undoButton(), Qt::LeftButton);
        QVERIFY(!undo->isEnabled()); // one undo at a time
        QTRY_VERIFY(panel.pendingUndoConfirmation());
        PlanDialog *dialog = panel.pendingUndoConfirmation();
        QCOMPARE(dialog->confirmWord(), QStringLiteral("sdb"));
        QVERIFY(dialog->plan().preview.contains(QStringLiteral("sdb queue/write_cache: write back -> write through")));
        QVERIFY(!dialog->runButton()->isEnabled());
        QVERIFY(!panel.requestUndo());
        dialog->reject(); // Cancel: nothing written, the entry stays
        QTRY_VERIFY(!panel.pendingUndoConfirmation());
        QVERIFY(panel.messageText().contains(QStringLiteral("nothing was written")));
        QCOMPARE(
            readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
        QCOMPARE(session.history()->entries().size(), 1);
        QVERIFY(undo->isEnabled());

        // Asked again; while the dialog is open another Apply lands: the answer was for the older entry's undo.
        undo->trigger();
        QTRY_VERIFY(panel.pendingUndoConfirmation());
        dialog = panel.pendingUndoConfirmation();
        QVERIFY(applyThroughSession(
            session, { { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
        QCOMPARE(session.history()->entries().size(), 2);
        QSignalSpy finished(&session, &TuningSession::finished);
        QTest::keyClicks(dialog->wordEdit(), QStringLiteral("sdb"));
        QVERIFY(dialog->runButton()->isEnabled());
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_VERIFY2(panel.messageText().startsWith(QStringLiteral("Not undone (nothing was written)")),
            qPrintable(panel.messageText()));
        QCOMPARE(finished.count(), 0); // refused before any transaction
        QCOMPARE(
            readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
        QCOMPARE(readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
        QCOMPARE(session.history()->entries().size(), 2);

        // The newest entry (nomerges) undoes without a question; then the write_cache one, answered.
        QVERIFY(undo->toolTip().contains(QStringLiteral("sdb queue/nomerges = 0")));
        undo->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(session.history()->entries().size(), 1, 5000);
        QVERIFY(!panel.pendingUndoConfirmation());
        QCOMPARE(readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
        QTRY_VERIFY(panel.messageText().startsWith(QStringLiteral("Undone: ")));
        QTRY_VERIFY(undo->isEnabled());
        undo->trigger();
        QTRY_VERIFY(panel.pendingUndoConfirmation());
        dialog = panel.pendingUndoConfirmation();
        QTest::keyClicks(dialog->wordEdit(), QStringLiteral("sdb"));
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(session.history()->entries().size(), 0, 5000);
        QCOMPARE(readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")),
            QStringLiteral("write through"));
        QVERIFY2(panel.messageText().contains(QStringLiteral("write back -> write through")),
            qPrintable(panel.messageText()));
        QVERIFY(!undo->isEnabled());
    }

    void disabledWithTheReason()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        dmtune::test::buildTuneFixture(fake);
        {
            TuningSession captured(SysfsRoot(fake.root(), QString()));
            captured.setReadOnly(true);
            ChangeHistoryPanel panel(&captured);
            QVERIFY(!panel.undoAction()->isEnabled());
            QVERIFY2(panel.undoAction()->toolTip().startsWith(QStringLiteral("Read-only")),
                qPrintable(panel.undoAction()->toolTip()));
        }
    }

    // A remote window's session: Apply and Undo go to its service (the host's agent; here a runner on the same tree
    // stands in for it), never to the window's applier; the history takes the result, and the undone entry goes.
    void aRemoteSessionUndoesThroughItsService()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        dmtune::test::buildTuneFixture(fake);
        TuningSession remote(SysfsRoot(fake.root(), QString()));
        OperationRunner service;
        OperationEnvironment env;
        env.sysfs = SysfsRoot::scratch(fake.root()); // the "host": writable, where the session's tree is a capture
        service.setEnvironment(env);
        remote.setRemote(&service, QStringLiteral("root@db1"));
        ChangeHistoryPanel panel(&remote);
        QVERIFY(!panel.undoAction()->isEnabled()); // nothing to undo yet
        QVERIFY(applyThroughSession(
            remote, { { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
        QCOMPARE(readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
        QCOMPARE(remote.history()->entries().size(), 1);
        QVERIFY2(remote.history()->entries().first().result.executor.startsWith(QStringLiteral("agent on root@db1")),
            qPrintable(remote.history()->entries().first().result.executor));
        QTRY_VERIFY(panel.undoAction()->isEnabled());
        QVERIFY(remote.undoUnavailableReason().isEmpty());

        QSignalSpy undone(&remote, &TuningSession::finished);
        QVERIFY(panel.requestUndo());
        QTRY_COMPARE_WITH_TIMEOUT(undone.count(), 1, 5000);
        QVERIFY(undone.first().at(1).toBool()); // an undo
        QVERIFY(undone.first().at(0).value<ApplyResult>().ok());
        QCOMPARE(readValue(fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
        QCOMPARE(remote.history()->entries().size(), 0);
        QTRY_VERIFY(!panel.undoAction()->isEnabled());
    }

    void editMenuShortcutAndRevert()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot::scratch(fake.root()));
        window.setTreeWritable(true);
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.resize(1400, 900);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);

        QAction *undo = menuAction(window, QStringLiteral("&Edit"), QStringLiteral("&Undo last change"));
        QVERIFY(undo);
        QCOMPARE(undo, window.historyPanel()->undoAction());
        QVERIFY(!undo->isEnabled());
        QVERIFY(undo->toolTip().startsWith(QStringLiteral("Nothing to undo")));
        // Not Ctrl+Z: that one belongs to the text field being typed in.
        QCOMPARE(undo->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Z));
        QVERIFY(!undo->shortcut().matches(QKeySequence::Undo));

        // Apply nomerges 0 -> 2 in the Tune tab.
        QVERIFY(window.selectDevice(QStringLiteral("sdak")));
        QVERIFY(window.showTab(QStringLiteral("tune")));
        ParameterEditor *editor = window.parameterEditor();
        QTRY_VERIFY(!editor->isReading());
        QVERIFY(editor->model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        editor->updatePreview();
        QTRY_VERIFY(!editor->isReading());
        QVERIFY(editor->revertButton()->isEnabled());
        QVERIFY(editor->revertButton()->toolTip().startsWith(QStringLiteral("Drop every pending edit")));
        QSignalSpy markers(&window, &MainWindow::parameterChanged);
        QTest::mouseClick(editor->applyButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(markers.count(), 1, 5000);
        const QString nomerges = QStringLiteral("block/sdak/queue/nomerges");
        QCOMPARE(SysfsRoot(fake.root(), QString()).readOr(nomerges), QStringLiteral("2"));

        // Revert is grey after Apply and says why; the menu's Undo is the way back.
        QTRY_VERIFY(!editor->revertButton()->isEnabled());
        QVERIFY2(editor->revertButton()->toolTip().contains(QStringLiteral("Edit > Undo last change")),
            qPrintable(editor->revertButton()->toolTip()));
        QTRY_VERIFY(undo->isEnabled());
        QVERIFY2(undo->toolTip().contains(QStringLiteral("sdak queue/nomerges = 0")), qPrintable(undo->toolTip()));

        // Ctrl+Z in a text field (the Tune tab's filter) undoes the typing there, not the change.
        QLineEdit *field = nullptr;
        for (QLineEdit *e : editor->findChildren<QLineEdit *>()) {
            if (e->isVisible() && !e->isReadOnly())
                field = e;
        }
        QVERIFY(field);
        field->setFocus();
        QTRY_VERIFY(field->hasFocus());
        QTest::keyClicks(field, QStringLiteral("nom"));
        QCOMPARE(field->text(), QStringLiteral("nom"));
        QSignalSpy triggered(undo, &QAction::triggered);
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(field->text(), QString());
        QCOMPARE(triggered.count(), 0);
        QVERIFY(!window.historyPanel()->isPlanningUndo());
        QTest::qWait(100); // deliberate negative check: Ctrl+Z in the field undoes nothing in the history
        QCOMPARE(window.historyPanel()->model()->rowCount(), 1);
        QCOMPARE(SysfsRoot(fake.root(), QString()).readOr(nomerges), QStringLiteral("2"));

        // Ctrl+Alt+Z, even from that field, is Undo last change: planned, run, the value back, a marker.
        QTest::keyClick(field, Qt::Key_Z, Qt::ControlModifier | Qt::AltModifier);
        QCOMPARE(triggered.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(markers.count(), 2, 5000);
        QCOMPARE(markers.last().at(1).toString(), QStringLiteral("sdak nomerges 2 -> 0"));
        QCOMPARE(SysfsRoot(fake.root(), QString()).readOr(nomerges), QStringLiteral("0"));
        QTRY_COMPARE(window.historyPanel()->model()->rowCount(), 0);
        QTRY_VERIFY(!undo->isEnabled());
        // Said where the user looks, also with the History dock hidden: the status bar.
        QTRY_VERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Undone: ")),
            qPrintable(window.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestUndoLastChange)
#include "tst_undolastchange.moc"
