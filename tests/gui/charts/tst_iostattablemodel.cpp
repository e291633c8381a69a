// The iostat -x table under QAbstractItemModelTester (model and sorting proxy) while batches, device sets and
// labels change; its columns, formatting, sorting and header formulas.
#include "batchmaker.h"

#include "charts/iostattablemodel.h"

#include <QAbstractItemModelTester>
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
