// The Tune tab on the offscreen platform over a temp tree, applying in-process (the tree is
// writable): edit nomerges, preview 0 -> 2, apply, read back, history, undo; scopes over a map and
// its paths with the stacking warning; a rolled-back transaction's errors; read-only sessions.
#include "tunefixture.h"

#include "core/jobs/jobtracker.h"
#include "core/params/tuningsession.h"
#include "widgets/ops/plandialog.h"
#include "widgets/params/changehistorymodel.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/changepreviewmodel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryFile>
#include <QTest>

#include <algorithm>

using namespace dmtune;
using dmtune::test::FakeSysfs;
using dmtune::test::readValue;

class TestParameterEditor : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeSysfs> m_fake;
    SysfsRoot m_sysfs;
    DeviceSnapshot m_snapshot;

    std::unique_ptr<TuningSession> newSession()
    {
        return std::make_unique<TuningSession>(m_sysfs, Applier::Mode::InProcess);
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeSysfs>();
        QVERIFY(m_fake->isValid());
        dmtune::test::buildTuneFixture(*m_fake);
        m_sysfs = SysfsRoot::scratch(m_fake->root());
        m_snapshot = Discovery::scan(m_sysfs);
        QVERIFY(m_snapshot.device(QStringLiteral("dm-0")));
        QVERIFY(m_snapshot.map(QStringLiteral("mpatha")));
    }
    void cleanup() { m_fake.reset(); }

    void editPreviewApplyUndo()
    {
        auto session = newSession();
        ParameterEditor editor(session.get());
        ChangeHistoryPanel history(session.get());
        QAbstractItemModelTester tableTester(editor.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester previewTester(
            editor.previewModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester historyTester(history.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        editor.resize(1000, 700);
        editor.show();
        history.show();
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.shownDevice(), QStringLiteral("sdb"));
        QVERIFY(!editor.applyButton()->isEnabled()); // nothing to apply
        QVERIFY(!editor.revertButton()->isEnabled());
        QVERIFY(!history.undoButton()->isEnabled());

        // Edit through the model, as the delegate does: preview shows 0 -> 2.
        TunableTableModel *model = editor.model();
        const QModelIndex nomerges
            = model->index(model->rowOf(QStringLiteral("queue/nomerges")), TunableTableModel::NewValueColumn);
        QVERIFY(nomerges.isValid());
        QVERIFY(model->setData(nomerges, QStringLiteral("2")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.previewModel()->lines(), QStringList { QStringLiteral("sdb nomerges 0 -> 2") });
        const ChangePreviewModel *preview = editor.previewModel();
        QCOMPARE(preview->index(0, ChangePreviewModel::OldColumn).data().toString(), QStringLiteral("0"));
        QCOMPARE(preview->index(0, ChangePreviewModel::NewColumn).data().toString(), QStringLiteral("2"));
        QVERIFY(editor.applyButton()->isEnabled());
        QVERIFY(editor.revertButton()->isEnabled());
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")),
            QStringLiteral("0")); // nothing written yet

        // Apply: asynchronous; the button is off while it runs.
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QSignalSpy markers(session.get(), &TuningSession::parameterChanged);
        QTest::mouseClick(editor.applyButton(), Qt::LeftButton);
        QCOMPARE(finished.count(), 0);
        QVERIFY(!editor.applyButton()->isEnabled());
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(result.executor, QStringLiteral("in-process"));

        // Read back: sysfs, the table (the edit is gone, the value is 2), the outcome text.
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
        QCOMPARE(model->index(model->rowOf(QStringLiteral("queue/nomerges")), TunableTableModel::ValueColumn)
                     .data()
                     .toString(),
            QStringLiteral("2"));
        QVERIFY(!model->hasPending());
        QVERIFY2(editor.resultText().contains(QStringLiteral("sdb nomerges 0 -> 2")), qPrintable(editor.resultText()));
        QCOMPARE(markers.count(), 1);
        QCOMPARE(markers.first().at(1).toString(), QStringLiteral("sdb nomerges 0 -> 2"));
        QVERIFY(qAbs(markers.first().at(0).toDouble() - double(QDateTime::currentSecsSinceEpoch())) < 60);

        // History has the entry; Undo restores the value.
        QCOMPARE(session->history()->entries().size(), 1);
        QCOMPARE(history.model()->rowCount(), 1);
        QCOMPARE(history.model()->index(0, ChangeHistoryModel::ChangesColumn).data().toString(),
            QStringLiteral("sdb nomerges 0 -> 2"));
        QVERIFY(history.undoButton()->isEnabled());
        QTest::mouseClick(history.undoButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"), 5000);
        QTRY_COMPARE(history.model()->rowCount(), 0);
        QVERIFY(history.messageText().contains(QStringLiteral("sdb nomerges 2 -> 0")));
        QCOMPARE(markers.count(), 2);
        QCOMPARE(markers.last().at(1).toString(), QStringLiteral("sdb nomerges 2 -> 0"));
        QTRY_COMPARE(model->index(model->rowOf(QStringLiteral("queue/nomerges")), TunableTableModel::ValueColumn)
                         .data()
                         .toString(),
            QStringLiteral("0"));
        QVERIFY(!history.undoButton()->isEnabled());
    }

    void previewComesFromAJobAndAnOldOneIsDropped()
    {
        // The tunables and the preview's plan read sysfs: on jobs. The UI thread says "reading…" until they arrive;
        // a plan asked for a device the user has left since is dropped when it comes back.
        auto session = newSession();
        ParameterEditor editor(session.get());
        editor.show();
        editor.setSnapshot(m_snapshot);
        QSignalSpy tunables(&editor, &ParameterEditor::tunablesRead);
        editor.showDevice(QStringLiteral("sdb"));
        QVERIFY(editor.isReading());
        QCOMPARE(editor.model()->rowCount(), 0); // not read yet: no rows, not the last device's
        QVERIFY(tunables.wait(5000));
        QVERIFY(editor.model()->rowOf(QStringLiteral("queue/nomerges")) >= 0);

        QSignalSpy previews(&editor, &ParameterEditor::previewUpdated);
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        editor.updatePreview();
        QVERIFY(editor.isReading());
        QCOMPARE(editor.previewModel()->rowCount(), 0);
        QVERIFY2(editor.problemText().contains(QStringLiteral("Reading the current values")),
            qPrintable(editor.problemText()));
        QVERIFY(!editor.applyButton()->isEnabled()); // nothing to apply before the plan is in
        QTRY_VERIFY(!editor.isReading());
        QVERIFY(previews.count() >= 1);
        QCOMPARE(editor.previewModel()->lines(), QStringList { QStringLiteral("sdb nomerges 0 -> 2") });
        QCOMPARE(editor.operationPlan().target, QStringLiteral("sdb"));
        QVERIFY(editor.applyButton()->isEnabled());

        // A new plan for sdb is on its way when the user selects sdc: it never reaches the preview.
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("1")));
        editor.updatePreview();
        QVERIFY(editor.isReading());
        QStringList shownTargets; // every preview shown from here on, by the plan's device
        connect(
            &editor, &ParameterEditor::previewUpdated, this, [&] { shownTargets << editor.operationPlan().target; });
        editor.showDevice(QStringLiteral("sdc"));
        QCOMPARE(editor.previewModel()->rowCount(), 0); // sdc has no edits: an empty preview at once
        QTRY_VERIFY(!editor.isReading());
        // The sdb plan's job has finished and handed back (and been dropped): it is no longer in the editor's jobs.
        const JobTracker *jobs = editor.findChild<JobTracker *>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(jobs);
        const auto planning = [jobs] {
            const QList<JobInfo> running = jobs->jobs();
            return std::any_of(running.cbegin(), running.cend(),
                [](const JobInfo &job) { return job.name == QLatin1String("plan tuning.apply"); });
        };
        QTRY_VERIFY_WITH_TIMEOUT(!planning(), 10000);
        QVERIFY2(!shownTargets.contains(QStringLiteral("sdb")), qPrintable(shownTargets.join(u',')));
        QVERIFY(!shownTargets.isEmpty());
        QCOMPARE(editor.previewModel()->rowCount(), 0);
        QVERIFY(editor.operationPlan().kind.isEmpty());
        QCOMPARE(editor.model()->device(), QStringLiteral("sdc"));

        // apply() while the plan is being made: it runs once the plan is in.
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QVERIFY(editor.apply());
        QVERIFY(finished.wait(5000));
        QVERIFY(finished.first().first().value<ApplyResult>().ok());
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdc"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    }

    void writeThroughAsksTypedConfirmation()
    {
        // write_cache=write through stops the kernel's flushes: Apply asks the user to type the device's name
        // (an asynchronous dialog), the preview says why, and nothing is written before that or on Cancel.
        m_fake->file(m_fake->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"),
            QStringLiteral("write back"));
        m_snapshot = Discovery::scan(m_sysfs);
        auto session = newSession();
        ParameterEditor editor(session.get());
        editor.show();
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/write_cache"), QStringLiteral("write through")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY2(editor.warningText().contains(QStringLiteral("Puts data at risk")), qPrintable(editor.warningText()));
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QVERIFY(editor.apply());
        QTRY_VERIFY(editor.pendingRiskConfirmation()); // once the plan arrived from its job
        PlanDialog *dialog = editor.pendingRiskConfirmation();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(!editor.apply()); // one question at a time
        QVERIFY(!dialog->runButton()->isEnabled());
        QTest::keyClicks(dialog->wordEdit(), QStringLiteral("sdc"));
        QVERIFY(!dialog->runButton()->isEnabled());
        dialog->reject(); // Cancel: nothing written
        QTRY_VERIFY(!editor.pendingRiskConfirmation());
        QTest::qWait(50); // deliberate negative check: no transaction starts after Cancel
        QCOMPARE(finished.count(), 0);
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")),
            QStringLiteral("write back"));

        QVERIFY(editor.apply());
        QTRY_VERIFY(editor.pendingRiskConfirmation());
        dialog = editor.pendingRiskConfirmation();
        QVERIFY(dialog);
        QTest::keyClicks(dialog->wordEdit(), QStringLiteral("sdb"));
        QVERIFY(dialog->runButton()->isEnabled());
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")),
            QStringLiteral("write through"));

        // Back to write back asks nothing.
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/write_cache"), QStringLiteral("write back")));
        QVERIFY(editor.apply());
        QVERIFY(!editor.pendingRiskConfirmation());
        QVERIFY(finished.wait(5000));
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")),
            QStringLiteral("write back"));
    }

    void staleConfirmationIsRefused()
    {
        // The PlanDialog asks for sdb's write_cache; while it is open something else writes that attribute.
        // The answer belongs to the plan the user saw: the run refuses it as stale and writes nothing.
        m_fake->file(m_fake->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"),
            QStringLiteral("write back"));
        m_snapshot = Discovery::scan(m_sysfs);
        auto session = newSession();
        ParameterEditor editor(session.get());
        editor.show();
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/write_cache"), QStringLiteral("write through")));
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QSignalSpy operations(session.get(), &TuningSession::operationFinished);
        QVERIFY(editor.apply());
        QTRY_VERIFY(editor.pendingRiskConfirmation()); // once the plan arrived from its job
        PlanDialog *dialog = editor.pendingRiskConfirmation();
        QVERIFY(dialog);
        QCOMPARE(dialog->confirmWord(), QStringLiteral("sdb"));
        QVERIFY(dialog->plan().preview.contains(QStringLiteral("sdb queue/write_cache: write back -> write through")));
        QVERIFY(m_sysfs.write(QStringLiteral("block/sdb/queue/nomerges"), QStringLiteral("1")));
        QTest::keyClicks(dialog->wordEdit(), QStringLiteral("sdb"));
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY(!result.ok());
        QVERIFY(result.rejected());
        QCOMPARE(operations.size(), 1);
        const auto op = operations.first().first().value<OperationResult>();
        QVERIFY(op.stale);
        QVERIFY2(op.error.contains(QStringLiteral("changed since the plan was made")), qPrintable(op.error));
        QVERIFY2(editor.resultText().contains(QStringLiteral("changed since the plan was made")),
            qPrintable(editor.resultText()));
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/write_cache")),
            QStringLiteral("write back"));
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));
    }

    void revertDropsEdits()
    {
        auto session = newSession();
        ParameterEditor editor(session.get());
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/read_ahead_kb"), QStringLiteral("512")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.previewModel()->rowCount(), 1);
        QTest::mouseClick(editor.revertButton(), Qt::LeftButton);
        QVERIFY(!editor.model()->hasPending());
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.previewModel()->rowCount(), 0);
        QVERIFY(!editor.applyButton()->isEnabled());
        QVERIFY(!editor.apply());
    }

    void scopesAndStackingWarning()
    {
        auto session = newSession();
        ParameterEditor editor(session.get());
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("sdc")); // a path: the map scopes use its map
        QVERIFY(editor.isScopeAvailable(ChangeScope::MapAndPaths));
        QVERIFY(editor.isScopeAvailable(ChangeScope::PathsOfMap));
        QVERIFY(!editor.isScopeAvailable(ChangeScope::Selection));
        editor.setScope(ChangeScope::PathsOfMap);
        QCOMPARE(editor.scope(), ChangeScope::PathsOfMap);
        QCOMPARE(*editor.scopeDevices(), dmtune::test::tunePaths());

        // Lowering max_sectors_kb on the map and its paths: the map is written first.
        editor.showDevice(QStringLiteral("dm-0"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        editor.setScope(ChangeScope::MapAndPaths);
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/max_sectors_kb"), QStringLiteral("256")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QStringList lines = editor.previewModel()->lines();
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines.first(), QStringLiteral("dm-0 max_sectors_kb 1280 -> 256"));
        QVERIFY(lines.last().startsWith(QStringLiteral("sd")));
        QVERIFY(editor.warningText().isEmpty());

        // nr_requests 128 on the map over 4 x queue_depth 32: the warning with its numbers.
        editor.revert();
        editor.setScope(ChangeScope::Device);
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nr_requests"), QStringLiteral("128")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.previewModel()->lines(), QStringList { QStringLiteral("dm-0 nr_requests 256 -> 128") });
        const QString warning = editor.warningText();
        QVERIFY2(
            warning.contains(QStringLiteral("nr_requests 128 <= 4 paths x queue_depth 32 = 128")), qPrintable(warning));
        QVERIFY(editor.applyButton()->isEnabled()); // a warning does not block

        // A map scope for an attribute the map lacks: the plan says why, Apply is off.
        editor.revert();
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.model()->setPending(QStringLiteral("device/queue_depth"), QStringLiteral("16")));
        editor.setScope(ChangeScope::MapAndPaths);
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY2(editor.problemText().contains(QStringLiteral("dm-0 has no device/queue_depth")),
            qPrintable(editor.problemText()));
        QVERIFY(!editor.applyButton()->isEnabled());
        QVERIFY(!editor.apply());
        editor.setScope(ChangeScope::PathsOfMap);
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.problemText().isEmpty());
        QCOMPARE(editor.previewModel()->rowCount(), 4);

        // Selection from the tree.
        editor.setSelectedDevices({ QStringLiteral("sdb"), QStringLiteral("loop0") });
        QVERIFY(editor.isScopeAvailable(ChangeScope::Selection));
        editor.setScope(ChangeScope::Selection);
        editor.model()->clearPending();
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("1")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.previewModel()->lines(),
            QStringList({ QStringLiteral("sdb nomerges 0 -> 1"), QStringLiteral("loop0 nomerges 0 -> 1") }));

        // Another device that is no map: the map scopes go, the scope falls back to the device.
        editor.setSelectedDevices({});
        editor.showDevice(QStringLiteral("loop0"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(!editor.isScopeAvailable(ChangeScope::MapAndPaths));
        QCOMPARE(editor.scope(), ChangeScope::Device);
    }

    // The values changed between the preview and the transaction (the Applier plans again when it
    // runs): rejected whole, nothing written, the reason shown, the edit kept.
    void changedUnderneathIsRejected()
    {
        auto session = newSession();
        ParameterEditor editor(session.get());
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("dm-0"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        editor.setScope(ChangeScope::MapAndPaths);
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/max_sectors_kb"), QStringLiteral("256")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // the preview is the plan apply() runs
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QVERIFY(editor.apply());
        const QString victim = m_fake->root() + QLatin1Char('/') + m_fake->devicePath(QStringLiteral("sde"))
            + QStringLiteral("/queue/max_sectors_kb");
        QVERIFY(QFile::remove(victim));
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY(!result.ok());
        QVERIFY(result.rejected());
        for (const QString &d :
            { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd") })
            QCOMPARE(readValue(*m_fake, d, QStringLiteral("queue/max_sectors_kb")), QStringLiteral("1280"));
        const QString text = editor.resultText();
        QVERIFY2(text.contains(QStringLiteral("Not applied")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("rejected before anything was written")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("sde")), qPrintable(text));
        QVERIFY(editor.model()->hasPending());
        QCOMPARE(session->history()->entries().size(), 0);
    }

    // A transaction that failed half-way and was rolled back, as dmtune-helper reports it (exit 1):
    // every error with its device, attribute, value and errno text; the restored values.
    void rolledBackErrorsAreShown()
    {
        ApplyResult reply;
        reply.executor = QStringLiteral("helper");
        reply.rolledBack = true;
        reply.changes << ChangeOutcome { QStringLiteral("dm-0"), QStringLiteral("queue/max_sectors_kb"),
            QStringLiteral("1280"), QStringLiteral("256"), QStringLiteral("1280"), false, false, false, {},
            QStringLiteral("rolled back") };
        reply.changes << ChangeOutcome { QStringLiteral("sdb"), QStringLiteral("queue/max_sectors_kb"),
            QStringLiteral("1280"), QStringLiteral("256"), QStringLiteral("1280"), false, false, false,
            QStringLiteral("Invalid argument"), {} };
        reply.errors << ApplyError { ApplyError::Stage::Write, QStringLiteral("sdb"),
            QStringLiteral("queue/max_sectors_kb"), QStringLiteral("256"), QStringLiteral("Invalid argument") };
        const QByteArray json = QJsonDocument(toJson(reply)).toJson(QJsonDocument::Compact);
        QTemporaryFile replyFile;
        QVERIFY(replyFile.open());
        replyFile.write(json);
        replyFile.close();

        auto session = std::make_unique<TuningSession>(m_sysfs, Applier::Mode::Helper);
        session->applier()->setHelperCommand(QStringLiteral("sh"),
            { QStringLiteral("-c"), QStringLiteral("cat >/dev/null; cat '%1'; exit 1").arg(replyFile.fileName()) });
        ParameterEditor editor(session.get());
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("dm-0"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        editor.setScope(ChangeScope::MapAndPaths);
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/max_sectors_kb"), QStringLiteral("256")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // the preview is the plan apply() runs
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QVERIFY(editor.apply());
        QVERIFY(finished.wait(5000));
        const auto result = finished.first().first().value<ApplyResult>();
        QVERIFY(result.rolledBack);
        const QString text = editor.resultText();
        QVERIFY2(text.contains(QStringLiteral("Apply failed")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("rolled back: every value written was restored")), qPrintable(text));
        // The error row: step, device, attribute, value, errno text.
        QVERIFY2(
            text.contains(QStringLiteral("write\nsdb\nqueue/max_sectors_kb\n256\nInvalid argument")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Restored: dm-0 queue/max_sectors_kb = 1280")), qPrintable(text));
        QVERIFY(editor.model()->hasPending());
        QCOMPARE(session->history()->entries().size(), 0);
    }

    void readOnlySessionPreviewsOnly()
    {
        auto session = newSession();
        session->setReadOnly(true);
        ParameterEditor editor(session.get());
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("vda1")); // unknown here: nothing to tune
        QCOMPARE(editor.model()->rowCount(), 0);
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QCOMPARE(editor.previewModel()->rowCount(), 1);
        QVERIFY(!editor.applyButton()->isEnabled());
        QVERIFY(!editor.apply());
        QCOMPARE(session->executorText(), QStringLiteral("tuning: read-only (captured tree)"));
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    }

    void sessionExecutorText()
    {
        TuningSession temp(m_sysfs, Applier::Mode::Auto);
        QCOMPARE(temp.executorText(), QStringLiteral("tuning: in-process (temporary tree)"));
        TuningSession helper(SysfsRoot(), Applier::Mode::Helper);
        QCOMPARE(helper.executorText(), QStringLiteral("tuning: via pkexec dmtune-helper"));
        QVERIFY(helper.executorToolTip().contains(QStringLiteral("pkexec")));
    }

    // The helper path of the Applier, with a stand-in helper that answers like dmtune-helper
    // would: the editor stays responsive and shows the helper's result.
    void helperModeIsAsynchronous()
    {
        auto session = std::make_unique<TuningSession>(m_sysfs, Applier::Mode::Helper);
        const QString reply = QStringLiteral(
            "{\"ok\":false,\"dry_run\":false,\"rolled_back\":false,\"executor\":\"helper\",\"changes\":[],"
            "\"errors\":[{\"stage\":\"helper\",\"device\":\"\",\"attribute\":\"\",\"value\":\"\","
            "\"error\":\"not authorized to change queue parameters; nothing was changed\"}],\"warnings\":[]}");
        session->applier()->setHelperCommand(QStringLiteral("sh"),
            { QStringLiteral("-c"), QStringLiteral("cat >/dev/null; sleep 0.3; echo '%1'; exit 2").arg(reply) });
        ParameterEditor editor(session.get());
        editor.setSnapshot(m_snapshot);
        editor.showDevice(QStringLiteral("sdb"));
        QTRY_VERIFY(!editor.isReading()); // read and planned on jobs
        QVERIFY(editor.model()->setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        editor.updatePreview();
        QTRY_VERIFY(!editor.isReading()); // the preview is the plan apply() runs
        QSignalSpy finished(&editor, &ParameterEditor::applyFinished);
        QVERIFY(editor.apply());
        QVERIFY(editor.resultText().contains(QStringLiteral("pkexec")));
        QVERIFY(!editor.apply()); // busy
        QVERIFY(finished.wait(5000));
        QVERIFY2(editor.resultText().contains(QStringLiteral("not authorized")), qPrintable(editor.resultText()));
        QVERIFY(editor.model()->hasPending());
        QCOMPARE(readValue(*m_fake, QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
    }
};

QTEST_MAIN(TestParameterEditor)
#include "tst_parametereditor.moc"
