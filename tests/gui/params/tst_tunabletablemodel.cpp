// The Tune tab's models on a temp sysfs tree: the tunable table (rows, edits, ignored knobs,
// tooltips, re-reads), the delegate's editors, the preview and history models, each under
// QAbstractItemModelTester.
#include "tunefixture.h"

#include "widgets/params/changehistorymodel.h"
#include "widgets/params/changepreviewmodel.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/params/tunablevaluedelegate.h"

#include "core/params/changehistory.h"
#include "core/params/planner.h"
#include "tests/common/tuningrun.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

QModelIndex cell(const TunableTableModel &m, const QString &attribute, int column)
{
    return m.index(m.rowOf(attribute), column);
}

} // namespace

class TestTunableTableModel : public QObject {
    Q_OBJECT

    FakeSysfs *m_fake = nullptr;
    SysfsRoot m_sysfs;

private Q_SLOTS:
    void init()
    {
        m_fake = new FakeSysfs;
        QVERIFY(m_fake->isValid());
        dmtune::test::buildTuneFixture(*m_fake);
        m_sysfs = SysfsRoot::scratch(m_fake->root());
    }
    void cleanup()
    {
        delete m_fake;
        m_fake = nullptr;
    }

    void rowsFollowReadTunables()
    {
        TunableTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QList<Tunable> rows = readTunables(m_sysfs, QStringLiteral("dm-0"));
        QVERIFY(!rows.isEmpty());
        model.setTunables(QStringLiteral("dm-0"), rows);
        QCOMPARE(model.rowCount(), rows.size());
        QCOMPARE(model.columnCount(), int(TunableTableModel::ColumnCount));
        QCOMPARE(model.headerData(TunableTableModel::NewValueColumn, Qt::Horizontal).toString(),
            QStringLiteral("New value"));
        QCOMPARE(model.headerData(TunableTableModel::RangeColumn, Qt::Horizontal).toString(),
            QStringLiteral("Range / choices"));

        const QModelIndex nr = cell(model, QStringLiteral("queue/nr_requests"), TunableTableModel::AttributeColumn);
        QVERIFY(nr.isValid());
        QCOMPARE(nr.data().toString(), QStringLiteral("nr_requests"));
        QCOMPARE(nr.siblingAtColumn(TunableTableModel::ValueColumn).data().toString(), QStringLiteral("256"));
        QCOMPARE(nr.siblingAtColumn(TunableTableModel::UnitColumn).data().toString(), QStringLiteral("requests"));
        QCOMPARE(nr.siblingAtColumn(TunableTableModel::RangeColumn).data().toString(), QStringLiteral("0..2048"));
        QCOMPARE(nr.siblingAtColumn(TunableTableModel::WritableColumn).data().toString(), QStringLiteral("yes"));
        QVERIFY(nr.siblingAtColumn(TunableTableModel::NewValueColumn).flags() & Qt::ItemIsEditable);
        QVERIFY(!(nr.siblingAtColumn(TunableTableModel::ValueColumn).flags() & Qt::ItemIsEditable));
        QVERIFY(nr.siblingAtColumn(TunableTableModel::NewValueColumn).data().toString().isEmpty());
        // The description and the limit note are in the tooltip.
        const QString tip = nr.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("paths x queue_depth")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("0-3 to 4")), qPrintable(tip));

        // A path's SCSI queue depth: bounded by the host's can_queue.
        model.setTunables(QStringLiteral("sdb"), readTunables(m_sysfs, QStringLiteral("sdb")));
        const QModelIndex qd = cell(model, QStringLiteral("device/queue_depth"), TunableTableModel::RangeColumn);
        QVERIFY(qd.isValid());
        QCOMPARE(qd.data().toString(), QStringLiteral("1..64"));
    }

    void ignoredKnobsAreGreyAndNotEditable()
    {
        TunableTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTunables(QStringLiteral("dm-0"), readTunables(m_sysfs, QStringLiteral("dm-0")));
        const QModelIndex ignored
            = cell(model, QStringLiteral("dm/rq_based_seq_io_merge_deadline"), TunableTableModel::NewValueColumn);
        QVERIFY(ignored.isValid());
        QVERIFY(!(ignored.flags() & Qt::ItemIsEditable));
        QVERIFY(!ignored.data(TunableTableModel::EditableRole).toBool());
        QCOMPARE(
            ignored.siblingAtColumn(TunableTableModel::WritableColumn).data().toString(), QStringLiteral("ignored"));
        QVERIFY(ignored.siblingAtColumn(TunableTableModel::NoteColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("does nothing")));
        const auto grey
            = ignored.siblingAtColumn(TunableTableModel::AttributeColumn).data(Qt::ForegroundRole).value<QBrush>();
        QCOMPARE(grey.color(), QApplication::palette().color(QPalette::Disabled, QPalette::Text));
        const QString tip = ignored.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Ignored by current kernels")), qPrintable(tip));
        QVERIFY(!model.setData(ignored, QStringLiteral("5")));
        QVERIFY(!model.hasPending());

        // The module knob use_blk_mq is ignored too; an editable row is not grey.
        const QModelIndex blkMq
            = cell(model, QStringLiteral("module/dm_mod/use_blk_mq"), TunableTableModel::NewValueColumn);
        QVERIFY(blkMq.isValid());
        QVERIFY(!(blkMq.flags() & Qt::ItemIsEditable));
        QVERIFY(!cell(model, QStringLiteral("queue/nomerges"), 0).data(Qt::ForegroundRole).isValid());
    }

    void editsAreCheckedAndHighlighted()
    {
        TunableTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTunables(QStringLiteral("sdb"), readTunables(m_sysfs, QStringLiteral("sdb")));
        QSignalSpy pending(&model, &TunableTableModel::pendingChanged);
        QSignalSpy rejected(&model, &TunableTableModel::editRejected);
        const QModelIndex nomerges = cell(model, QStringLiteral("queue/nomerges"), TunableTableModel::NewValueColumn);

        QVERIFY(!model.setData(nomerges, QStringLiteral("7")));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(rejected.first().at(1).toString().contains(QStringLiteral("not one of")));
        QVERIFY(!model.hasPending());

        QVERIFY(model.setData(nomerges, QStringLiteral("2")));
        QCOMPARE(pending.count(), 1);
        QVERIFY(model.hasPending());
        QCOMPARE(nomerges.data().toString(), QStringLiteral("2"));
        QVERIFY(nomerges.data(TunableTableModel::PendingRole).toBool());
        QVERIFY(nomerges.siblingAtColumn(TunableTableModel::AttributeColumn).data(Qt::BackgroundRole).isValid());
        QVERIFY(nomerges.data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(model.pendingChanges(),
            ChangeSet({ Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
        QCOMPARE(model.pendingAssignments().size(), 1);

        // Out of the device's range (can_queue 64), then a good one.
        QVERIFY(!model.setPending(QStringLiteral("device/queue_depth"), QStringLiteral("65")));
        QVERIFY(rejected.last().at(1).toString().contains(QStringLiteral("outside")));
        QVERIFY(model.setPending(QStringLiteral("device/queue_depth"), QStringLiteral("16")));
        QCOMPARE(model.pendingChanges().size(), 2);

        // The current value again, or an empty text: the edit goes.
        QVERIFY(model.setPending(QStringLiteral("device/queue_depth"), QStringLiteral("32")));
        QVERIFY(model.setData(nomerges, QString()));
        QVERIFY(!model.hasPending());
        QVERIFY(!nomerges.siblingAtColumn(TunableTableModel::AttributeColumn).data(Qt::BackgroundRole).isValid());

        QVERIFY(model.setPending(QStringLiteral("queue/nomerges"), QStringLiteral("1")));
        model.clearPending();
        QVERIFY(!model.hasPending());
        QVERIFY(!model.setPending(QStringLiteral("queue/no_such"), QStringLiteral("1")));
    }

    void rereadKeepsEditsUntilInPlace()
    {
        TunableTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTunables(QStringLiteral("sdb"), readTunables(m_sysfs, QStringLiteral("sdb")));
        QVERIFY(model.setPending(QStringLiteral("queue/nomerges"), QStringLiteral("2")));
        QVERIFY(model.setPending(QStringLiteral("queue/read_ahead_kb"), QStringLiteral("512")));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        // Same device, read again: an edit stays unless its value is now in place.
        m_fake->file(
            m_fake->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/nomerges"), QStringLiteral("2"));
        model.setTunables(QStringLiteral("sdb"), readTunables(m_sysfs, QStringLiteral("sdb")));
        QCOMPARE(reset.count(), 0); // in place
        QCOMPARE(model.pendingChanges(),
            ChangeSet(
                { Change { QStringLiteral("sdb"), QStringLiteral("queue/read_ahead_kb"), QStringLiteral("512") } }));
        QCOMPARE(cell(model, QStringLiteral("queue/nomerges"), TunableTableModel::ValueColumn).data().toString(),
            QStringLiteral("2"));

        // The scheduler changed behind our back: other rows (iosched/*), a reset, the edit kept.
        m_fake->file(m_fake->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/scheduler"),
            QStringLiteral("[mq-deadline] kyber bfq none"));
        m_fake->file(m_fake->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/iosched/fifo_batch"),
            QStringLiteral("16"));
        model.setTunables(QStringLiteral("sdb"), readTunables(m_sysfs, QStringLiteral("sdb")));
        QCOMPARE(reset.count(), 1);
        QVERIFY(model.rowOf(QStringLiteral("queue/iosched/fifo_batch")) >= 0);
        QCOMPARE(model.pendingChanges().size(), 1);

        // Another device: edits are dropped.
        model.setTunables(QStringLiteral("sdc"), readTunables(m_sysfs, QStringLiteral("sdc")));
        QVERIFY(!model.hasPending());
        QCOMPARE(model.device(), QStringLiteral("sdc"));
    }

    void delegateEditors()
    {
        TunableTableModel model;
        model.setTunables(QStringLiteral("dm-0"), readTunables(m_sysfs, QStringLiteral("dm-0")));
        QTableView view;
        view.setModel(&model);
        auto *delegate = new TunableValueDelegate(&view);
        view.setItemDelegateForColumn(TunableTableModel::NewValueColumn, delegate);
        QStyleOptionViewItem option;

        // Integer with an int range: a spin box bounded by the device's limits.
        const QModelIndex nr = cell(model, QStringLiteral("queue/nr_requests"), TunableTableModel::NewValueColumn);
        std::unique_ptr<QWidget> editor(delegate->createEditor(view.viewport(), option, nr));
        auto *spin = qobject_cast<QSpinBox *>(editor.get());
        QVERIFY(spin);
        QCOMPARE(spin->minimum(), 0);
        QCOMPARE(spin->maximum(), 2048);
        delegate->setEditorData(spin, nr);
        QCOMPARE(spin->value(), 256);
        spin->setValue(1024);
        delegate->setModelData(spin, &model, nr);
        QCOMPARE(nr.data().toString(), QStringLiteral("1024"));

        // Enum: a combo box of the choices with their meaning.
        const QModelIndex nomerges = cell(model, QStringLiteral("queue/nomerges"), TunableTableModel::NewValueColumn);
        editor.reset(delegate->createEditor(view.viewport(), option, nomerges));
        auto *combo = qobject_cast<QComboBox *>(editor.get());
        QVERIFY(combo);
        QCOMPARE(combo->count(), 3);
        QCOMPARE(combo->itemText(2), QStringLiteral("2 — no merging"));
        delegate->setEditorData(combo, nomerges);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("0"));
        combo->setCurrentIndex(2);
        delegate->setModelData(combo, &model, nomerges);
        QCOMPARE(nomerges.data().toString(), QStringLiteral("2"));

        // The scheduler: the device's list.
        const QModelIndex sched = cell(model, QStringLiteral("queue/scheduler"), TunableTableModel::NewValueColumn);
        editor.reset(delegate->createEditor(view.viewport(), option, sched));
        combo = qobject_cast<QComboBox *>(editor.get());
        QVERIFY(combo);
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->itemData(1).toString(), QStringLiteral("none"));

        // Booleans (Y/N module style too) are combo boxes; 64-bit ranges get a line edit.
        const auto blkMq = cell(model, QStringLiteral("queue/iostats"), TunableTableModel::NewValueColumn);
        if (blkMq.isValid())
            QCOMPARE(TunableValueDelegate::editorKind(blkMq.data(TunableTableModel::TunableRole).value<Tunable>()),
                TunableValueDelegate::EditorKind::ComboBox);
        const QModelIndex discard
            = cell(model, QStringLiteral("queue/discard_max_bytes"), TunableTableModel::NewValueColumn);
        QVERIFY(discard.isValid());
        const auto discardT = discard.data(TunableTableModel::TunableRole).value<Tunable>();
        Tunable wide = discardT;
        wide.limits.maximum = std::numeric_limits<qint64>::max();
        QCOMPARE(TunableValueDelegate::editorKind(wide), TunableValueDelegate::EditorKind::LineEdit);
        Tunable yesNo;
        yesNo.attribute = QStringLiteral("module/dm_mod/use_blk_mq");
        yesNo.type = TunableType::Bool;
        const auto choices = TunableValueDelegate::choices(yesNo);
        QCOMPARE(choices.size(), 2);
        QCOMPARE(choices.at(1).first, QStringLiteral("Y"));

        QCOMPARE(model.pendingChanges().size(), 2);
    }

    // The value a device has now is never shown as invalid, even off the grid (a loop device's
    // discard_max_bytes 4294966784 with a 4096 granularity): committing it unchanged is accepted, as no edit.
    void currentValueOffTheGridIsNoError()
    {
        const QString loop = m_fake->devicePath(QStringLiteral("loop0"));
        m_fake->file(loop + QStringLiteral("/queue/discard_max_bytes"), QStringLiteral("4294966784"));
        m_fake->file(loop + QStringLiteral("/queue/discard_max_hw_bytes"), QStringLiteral("4294966784"), false);
        m_fake->file(loop + QStringLiteral("/queue/discard_granularity"), QStringLiteral("4096"), false);
        TunableTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTunables(QStringLiteral("loop0"), readTunables(m_sysfs, QStringLiteral("loop0")));
        QSignalSpy rejected(&model, &TunableTableModel::editRejected);
        const QModelIndex discard
            = cell(model, QStringLiteral("queue/discard_max_bytes"), TunableTableModel::NewValueColumn);
        QVERIFY(discard.isValid());
        QCOMPARE(discard.data(Qt::EditRole).toString(), QStringLiteral("4294966784"));
        QVERIFY(model.setData(discard, discard.data(Qt::EditRole), Qt::EditRole));
        QCOMPARE(rejected.count(), 0);
        QVERIFY(!model.hasPending());
        // Another value off the grid is refused, as the kernel would.
        QVERIFY(!model.setData(discard, QStringLiteral("1048577"), Qt::EditRole));
        QCOMPARE(rejected.count(), 1);
        QVERIFY2(rejected.first().at(1).toString().contains(QLatin1String("not a multiple of 4096")),
            qPrintable(rejected.first().at(1).toString()));
    }

    void previewModel()
    {
        ChangePreviewModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        // Lowering max_sectors_kb on the map and its paths: the map first.
        ChangeSet changes;
        changes << Change { QStringLiteral("dm-0"), QStringLiteral("queue/max_sectors_kb"), QStringLiteral("256") };
        for (const auto &p : dmtune::test::tunePaths())
            changes << Change { p, QStringLiteral("queue/max_sectors_kb"), QStringLiteral("256") };
        changes << Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("0") };
        model.setPlan(planChanges(m_sysfs, changes));
        QVERIFY(model.plan().ok());
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.index(0, ChangePreviewModel::DeviceColumn).data().toString(), QStringLiteral("dm-0"));
        QCOMPARE(model.index(0, ChangePreviewModel::OldColumn).data().toString(), QStringLiteral("1280"));
        QCOMPARE(model.index(0, ChangePreviewModel::NewColumn).data().toString(), QStringLiteral("256"));
        QCOMPARE(model.lines().first(), QStringLiteral("dm-0 max_sectors_kb 1280 -> 256"));
        QCOMPARE(model.unchangedCount(), 1); // nomerges is 0 already
        const QModelIndex same = model.index(5, ChangePreviewModel::NoteColumn);
        QVERIFY(same.data().toString().contains(QStringLiteral("already in place")));
        QCOMPARE(model.headerData(ChangePreviewModel::OldColumn, Qt::Horizontal).toString(), QStringLiteral("Old"));
        model.setPlan(Plan());
        QCOMPARE(model.rowCount(), 0);
    }

    void historyModel()
    {
        Applier applier(m_sysfs);
        applier.setMode(Applier::Mode::InProcess);
        ChangeHistory history(&applier);
        ChangeHistoryModel model(&history);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);

        QSignalSpy finished(&applier, &Applier::finished);
        QVERIFY(test::runTuning(
            applier, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
        QVERIFY(finished.wait(5000));
        QVERIFY(test::runTuning(applier,
            { Change { QStringLiteral("sdc"), QStringLiteral("queue/read_ahead_kb"), QStringLiteral("512") } }));
        QVERIFY(finished.wait(5000));
        QCOMPARE(model.rowCount(), 2);
        // Newest first.
        QCOMPARE(model.index(0, ChangeHistoryModel::ChangesColumn).data().toString(),
            QStringLiteral("sdc read_ahead_kb 128 -> 512"));
        QCOMPARE(
            model.index(1, ChangeHistoryModel::ChangesColumn).data().toString(), QStringLiteral("sdb nomerges 0 -> 2"));
        QCOMPARE(model.index(0, ChangeHistoryModel::ExecutorColumn).data().toString(), QStringLiteral("in-process"));
        QVERIFY(model.index(0, ChangeHistoryModel::TimeColumn).data().toString().contains(QLatin1Char(':')));
        QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Undo")));

        QVERIFY(test::runUndo(applier, history));
        QVERIFY(finished.wait(5000));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(dmtune::test::readValue(*m_fake, QStringLiteral("sdc"), QStringLiteral("queue/read_ahead_kb")),
            QStringLiteral("128"));
    }
};

QTEST_MAIN(TestTunableTableModel)
#include "tst_tunabletablemodel.moc"
