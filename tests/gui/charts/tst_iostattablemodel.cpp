// The iostat -x table under QAbstractItemModelTester (model and sorting proxy) while batches, device sets and
// labels change; its columns, formatting, sorting and header formulas.
#include "batchmaker.h"

#include "widgets/charts/iostattablemodel.h"

#include <QAbstractItemModelTester>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace dmtune;
using dmtune::test::BatchMaker;

class TestIostatTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void passesTheModelTester()
    {
        IostatTableModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(IostatTableModel::SortRole);
        proxy.setDynamicSortFilter(true);
        proxy.sort(IostatTableModel::columnOf(Metric::ReadsPerSec), Qt::DescendingOrder);
        QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);

        BatchMaker maker;
        const QStringList all { QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc") };
        // Without a device list: every device of each batch.
        model.setBatch(maker.next(all));
        QCOMPARE(model.rowCount(), 3);
        model.setBatch(maker.next({ QStringLiteral("sdb"), QStringLiteral("sdc") }));
        QCOMPARE(model.rowCount(), 2);
        model.setBatch(maker.next(all));
        QCOMPARE(model.rowCount(), 3);
        // A fixed list keeps its rows; a device missing from the batch shows empty cells.
        model.setDevices({ QStringLiteral("sdc"), QStringLiteral("dm-0"), QStringLiteral("sdx") });
        QCOMPARE(model.rowCount(), 3);
        for (int i = 0; i < 5; ++i)
            model.setBatch(maker.next(all));
        model.setDeviceLabels({ { QStringLiteral("dm-0"), QStringLiteral("mpatha (dm-0)") } });
        model.setDeviceColors({ { QStringLiteral("dm-0"), QColor(Qt::blue) } });
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("mpatha (dm-0)"));
        QCOMPARE(model.index(1, 0).data(Qt::DecorationRole).value<QColor>(), QColor(Qt::blue));
        QCOMPARE(model.index(2, 0).data(IostatTableModel::DeviceRole).toString(), QStringLiteral("sdx"));
        QVERIFY(model.index(2, 1).data().toString().isEmpty());
        QCOMPARE(model.index(2, 1).data(IostatTableModel::SortRole).toDouble(), -1.0);
        model.setDevices({});
        model.setBatch(maker.next(all));
        QCOMPARE(model.rowCount(), 3);
    }

    void columnsAreIostats()
    {
        IostatTableModel model;
        QCOMPARE(model.columnCount(), 1 + 24);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Device"));
        const QStringList expected { QStringLiteral("r/s"), QStringLiteral("rkB/s"), QStringLiteral("rrqm/s"),
            QStringLiteral("%rrqm"), QStringLiteral("r_await"), QStringLiteral("rareq-sz"), QStringLiteral("w/s"),
            QStringLiteral("wkB/s"), QStringLiteral("wrqm/s"), QStringLiteral("%wrqm"), QStringLiteral("w_await"),
            QStringLiteral("wareq-sz"), QStringLiteral("d/s"), QStringLiteral("dkB/s"), QStringLiteral("drqm/s"),
            QStringLiteral("%drqm"), QStringLiteral("d_await"), QStringLiteral("dareq-sz"), QStringLiteral("f/s"),
            QStringLiteral("f_await"), QStringLiteral("aqu-sz"), QStringLiteral("%util"), QStringLiteral("inflight_r"),
            QStringLiteral("inflight_w") };
        for (int c = 1; c < model.columnCount(); ++c)
            QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), expected[c - 1]);
        const QString tip
            = model.headerData(IostatTableModel::columnOf(Metric::ReadAwait), Qt::Horizontal, Qt::ToolTipRole)
                  .toString();
        QVERIFY2(tip.startsWith(QStringLiteral("r_await (ms)")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("Δ ms reading (f4) / Δ reads completed (f1)")));
    }

    // Which direction the table's columns follow: the busiest, once it does 1.5 times the operations of the one shown;
    // an idle interval keeps the order (the columns do not jump back when fio ends).
    void nextLoad_data()
    {
        using Load = IostatTableModel::Load;
        QTest::addColumn<Load>("shown");
        QTest::addColumn<double>("reads");
        QTest::addColumn<double>("writes");
        QTest::addColumn<double>("discards");
        QTest::addColumn<Load>("next");
        QTest::newRow("idle at start") << Load::Idle << 0.0 << 0.0 << 0.0 << Load::Idle;
        QTest::newRow("first writes") << Load::Idle << 0.0 << 12.0 << 0.0 << Load::Writes;
        QTest::newRow("first reads") << Load::Idle << 3.0 << 1.0 << 0.0 << Load::Reads;
        QTest::newRow("idle keeps writes") << Load::Writes << 0.0 << 0.0 << 0.0 << Load::Writes;
        QTest::newRow("a few reads during writes") << Load::Writes << 20.0 << 1000.0 << 0.0 << Load::Writes;
        QTest::newRow("mixed 55/45 stays") << Load::Writes << 550.0 << 450.0 << 0.0 << Load::Writes;
        QTest::newRow("reads take over at 1.5x") << Load::Writes << 1501.0 << 1000.0 << 0.0 << Load::Reads;
        QTest::newRow("just below 1.5x") << Load::Writes << 1499.0 << 1000.0 << 0.0 << Load::Writes;
        QTest::newRow("writes after reads") << Load::Reads << 0.0 << 5.0 << 0.0 << Load::Writes;
        QTest::newRow("discards") << Load::Writes << 0.0 << 1.0 << 400.0 << Load::Discards;
    }
    void nextLoad()
    {
        QFETCH(IostatTableModel::Load, shown);
        QFETCH(double, reads);
        QFETCH(double, writes);
        QFETCH(double, discards);
        QFETCH(IostatTableModel::Load, next);
        QCOMPARE(IostatTableModel::nextLoad(shown, reads, writes, discards), next);
    }

    // The columns a view shows for each set: the load's own six first, then aqu-sz and %util; chosen sets show only
    // theirs; iostat's names throughout.
    void columnSets_data()
    {
        using Load = IostatTableModel::Load;
        using Set = IostatTableModel::ColumnSet;
        QTest::addColumn<Set>("set");
        QTest::addColumn<Load>("load");
        QTest::addColumn<QStringList>("first");
        QTest::addColumn<int>("count");
        const QStringList iostatOrder { QStringLiteral("r/s"), QStringLiteral("rkB/s"), QStringLiteral("rrqm/s") };
        QTest::newRow("follow, idle: iostat's order") << Set::FollowLoad << Load::Idle << iostatOrder << 24;
        QTest::newRow("follow, writes") << Set::FollowLoad << Load::Writes
                                        << QStringList { QStringLiteral("w/s"), QStringLiteral("wkB/s"),
                                               QStringLiteral("wrqm/s"), QStringLiteral("%wrqm"),
                                               QStringLiteral("w_await"), QStringLiteral("wareq-sz"),
                                               QStringLiteral("aqu-sz"), QStringLiteral("%util"),
                                               QStringLiteral("r/s") }
                                        << 24;
        QTest::newRow("follow, reads") << Set::FollowLoad << Load::Reads
                                       << QStringList { QStringLiteral("r/s"), QStringLiteral("rkB/s"),
                                              QStringLiteral("rrqm/s"), QStringLiteral("%rrqm"),
                                              QStringLiteral("r_await"), QStringLiteral("rareq-sz"),
                                              QStringLiteral("aqu-sz"), QStringLiteral("%util"), QStringLiteral("w/s") }
                                       << 24;
        QTest::newRow("follow, discards") << Set::FollowLoad << Load::Discards
                                          << QStringList { QStringLiteral("d/s"), QStringLiteral("dkB/s") } << 24;
        QTest::newRow("writes whatever the load")
            << Set::Writes << Load::Reads << QStringList { QStringLiteral("w/s"), QStringLiteral("wkB/s") } << 9;
        QTest::newRow("merges") << Set::Merges << Load::Idle
                                << QStringList { QStringLiteral("w/s"), QStringLiteral("wrqm/s"),
                                       QStringLiteral("%wrqm"), QStringLiteral("wareq-sz"), QStringLiteral("r/s"),
                                       QStringLiteral("rrqm/s"), QStringLiteral("%rrqm"), QStringLiteral("rareq-sz"),
                                       QStringLiteral("aqu-sz") }
                                << 9;
        QTest::newRow("latency") << Set::Latency << Load::Writes
                                 << QStringList { QStringLiteral("r_await"), QStringLiteral("w_await") } << 8;
        QTest::newRow("all") << Set::All << Load::Writes << iostatOrder << 24;
    }
    void columnSets()
    {
        QFETCH(IostatTableModel::ColumnSet, set);
        QFETCH(IostatTableModel::Load, load);
        QFETCH(QStringList, first);
        QFETCH(int, count);
        const QList<Metric> columns = IostatTableModel::columnsOf(set, load);
        QCOMPARE(columns.size(), count);
        QStringList names;
        for (Metric metric : columns)
            names << MetricCatalog::column(metric);
        QCOMPARE(names.mid(0, first.size()), first);
        QCOMPARE(QSet<Metric>(columns.cbegin(), columns.cend()).size(), columns.size()); // no column twice
        QVERIFY(!IostatTableModel::columnSetName(set).isEmpty());
    }

    // Batches move the load; the shown columns change (and say so) only when the set follows it.
    void followsTheBatchesLoad()
    {
        IostatTableModel model;
        QSignalSpy changed(&model, &IostatTableModel::shownColumnsChanged);
        const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sdb") };
        BatchMaker maker; // every device reads twice what it writes
        model.setBatch(maker.next(devices));
        QCOMPARE(model.load(), IostatTableModel::Load::Reads);
        QCOMPARE(model.shownColumns().first(), Metric::ReadsPerSec);
        SampleBatch writes = maker.next(devices);
        for (DeviceSample &s : writes.devices) {
            s.deltas[DiskField::ReadIos] = 0;
            s.deltas[DiskField::WriteIos] = 500;
        }
        changed.clear();
        model.setBatch(writes);
        QCOMPARE(model.load(), IostatTableModel::Load::Writes);
        QCOMPARE(model.shownColumns().first(), Metric::WritesPerSec);
        QCOMPARE(changed.size(), 1);
        model.setColumnSet(IostatTableModel::ColumnSet::All);
        QCOMPARE(changed.size(), 2);
        QCOMPARE(model.shownColumns().first(), Metric::ReadsPerSec);
        model.setBatch(maker.next(devices)); // reads again: the set does not follow
        QCOMPARE(model.load(), IostatTableModel::Load::Reads);
        QCOMPARE(changed.size(), 2);
        QCOMPARE(model.columnCount(), 1 + 24); // the model's columns never move
    }

    void valuesAndSorting()
    {
        IostatTableModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(IostatTableModel::SortRole);
        BatchMaker maker;
        maker.intervalSeconds = 2.0;
        model.setDevices({ QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("dm-0") });
        model.setBatch(maker.next({ QStringLiteral("dm-0"), QStringLiteral("sdb"), QStringLiteral("sdc") }, 0.5));
        // Two decimals, iostat's numbers: dm-0 does 100.5 r/s (201 reads in 2 s).
        const QModelIndex dmReads = model.index(2, IostatTableModel::columnOf(Metric::ReadsPerSec));
        QCOMPARE(dmReads.data().toString(), QStringLiteral("100.50"));
        QCOMPARE(dmReads.data(IostatTableModel::SortRole).toDouble(), 100.5);
        QCOMPARE(model.index(2, IostatTableModel::columnOf(Metric::WriteMergedPercent)).data().toString(),
            QStringLiteral("50.00"));
        QCOMPARE(
            model.index(1, IostatTableModel::columnOf(Metric::InflightReads)).data().toString(), QStringLiteral("6"));
        QCOMPARE(dmReads.data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignRight | Qt::AlignVCenter);

        // Numeric sort, not text: 300.50 > 200.50 > 100.50, and "1000" would not sort before "200".
        proxy.sort(IostatTableModel::columnOf(Metric::ReadsPerSec), Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data(IostatTableModel::DeviceRole).toString(), QStringLiteral("sdc"));
        QCOMPARE(proxy.index(2, 0).data(IostatTableModel::DeviceRole).toString(), QStringLiteral("dm-0"));
        proxy.sort(IostatTableModel::columnOf(Metric::ReadAwait), Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data(IostatTableModel::DeviceRole).toString(), QStringLiteral("dm-0"));
        proxy.sort(0, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("dm-0"));
    }
};

QTEST_MAIN(TestIostatTableModel)
#include "tst_iostattablemodel.moc"
