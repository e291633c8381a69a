// A host's headline figures from two of its frames: iostat's arithmetic per device, the host's worst, and what is
// unknown (paths, path states) said as unknown.
#include "core/fleet/fleetsummary.h"

#include <QTest>

#include <cmath>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

DiskCounters line(const QString &text)
{
    const Result<DiskCounters> counters = parseDiskstatsLine(text);
    if (!counters)
        qFatal("bad line %s: %s", qPrintable(text), qPrintable(counters.errorMessage()));
    return counters.value();
}

CounterFrame frame(qint64 timeNs, const QStringList &lines)
{
    CounterFrame f;
    f.timeNs = timeNs;
    for (const QString &text : lines)
        f.devices.append(line(text));
    f.hasField.fill(true);
    return f;
}

constexpr qint64 Second = 1'000'000'000;

} // namespace

class TestFleetSummary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void device_data()
    {
        // /proc/diskstats lines (17 counters) before and after, and iostat -x's figures for the interval.
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("util");
        QTest::addColumn<double>("await");
        QTest::addColumn<double>("merged");
        QTest::addColumn<double>("queue");
        QTest::addColumn<double>("reads");
        QTest::addColumn<double>("writes");
        QTest::newRow("idle") << u" 254 0 vda 1000 10 8000 500 200 20 1600 300 0 400 800 0 0 0 0 0 0"_s
                              << u" 254 0 vda 1000 10 8000 500 200 20 1600 300 0 400 800 0 0 0 0 0 0"_s << 1.0 << 0.0
                              << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
        // 100 reads (10 merged) taking 300 ms, 50 writes (40 merged) taking 150 ms, busy 500 of 2000 ms,
        // 900 weighted ms.
        QTest::newRow("reads and writes") << u" 254 0 vda 1000 10 8000 500 200 20 1600 300 0 400 800 0 0 0 0 0 0"_s
                                          << u" 254 0 vda 1100 20 8800 800 250 60 2000 450 1 900 1700 0 0 0 0 0 0"_s
                                          << 2.0 << 25.0 << 3.0 << 25.0 << 0.45 << 50.0 << 25.0;
        QTest::newRow("saturated loop device") << u"   7 0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s
                                               << u"   7 0 loop0 6400 0 102400 9000 0 0 0 0 4 1000 12000 0 0 0 0 0 0"_s
                                               << 1.0 << 100.0 << 1.40625 << 0.0 << 12.0 << 6400.0 << 0.0;
    }
    void device()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(double, seconds);
        const CounterFrame prev = frame(10 * Second, { before });
        const CounterFrame cur = frame(10 * Second + qint64(seconds * 1e9), { after });
        const Result<FleetHostSummary> summary = summarizeFleetInterval(prev, cur);
        QVERIFY2(summary.ok(), qPrintable(summary.errorMessage()));
        QCOMPARE(summary->devices.size(), 1);
        const FleetDeviceFigures &figures = summary->devices[0];
        QCOMPARE(summary->intervalSeconds, seconds);
        QTEST(figures.utilPercent, "util");
        QTEST(figures.awaitMs, "await");
        QTEST(figures.mergedPercent, "merged");
        QTEST(figures.queueSize, "queue");
        QTEST(figures.readsPerSec, "reads");
        QTEST(figures.writesPerSec, "writes");
        QCOMPARE(summary->maxUtilPercent, figures.utilPercent);
        QCOMPARE(summary->deviceCount, 1);
        QCOMPARE(summary->mapCount, 0);
        QCOMPARE(summary->mapsWithoutRedundancy, 0); // no maps: none without redundancy
        QVERIFY(!summary->failedPaths.has_value()); // no source gives path states
    }

    void host_data()
    {
        QTest::addColumn<bool>("pathsKnown");
        QTest::addColumn<QVariant>("withoutRedundancy"); // int, or invalid for unknown
        QTest::newRow("paths unknown (node_exporter 1.5, PCP 6 without wwid)") << false << QVariant();
        QTest::newRow("paths known") << true << QVariant(1);
    }
    void host()
    {
        QFETCH(bool, pathsKnown);
        QFETCH(QVariant, withoutRedundancy);
        CounterFrame prev = frame(100 * Second,
            { u"8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s, u"8 16 sdb 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s,
                u"8 32 sdc 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s, u"254 0 dm-0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s,
                u"254 1 dm-1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s });
        CounterFrame cur = frame(101 * Second,
            { u"8 0 sda 10 0 80 20 0 0 0 0 0 300 20 0 0 0 0 0 0"_s,
                u"8 16 sdb 10 0 80 90 0 0 0 0 0 700 90 0 0 0 0 0 0"_s, u"8 32 sdc 1 0 8 1 0 0 0 0 0 10 1 0 0 0 0 0 0"_s,
                u"254 0 dm-0 20 0 160 110 0 0 0 0 0 800 110 0 0 0 0 0 0"_s,
                u"254 1 dm-1 1 0 8 1 0 0 0 0 0 10 1 0 0 0 0 0 0"_s });
        cur.dmNames = { { u"dm-0"_s, u"mpatha"_s }, { u"dm-1"_s, u"mpathb"_s } };
        if (pathsKnown)
            cur.pathsOf = { { u"dm-0"_s, { u"sda"_s, u"sdb"_s } }, { u"dm-1"_s, { u"sdc"_s } } };
        const Result<FleetHostSummary> summary = summarizeFleetInterval(prev, cur);
        QVERIFY2(summary.ok(), qPrintable(summary.errorMessage()));
        QCOMPARE(summary->deviceCount, 5);
        QCOMPARE(summary->mapCount, 2);
        QCOMPARE(summary->maxUtilPercent, 80.0);
        QCOMPARE(summary->busiestDevice, u"mpatha (dm-0)"_s);
        QCOMPARE(summary->worstAwaitMs, 9.0);
        QCOMPARE(summary->worstAwaitDevice, u"sdb"_s);
        QCOMPARE(summary->devices[3].displayName(), u"mpatha (dm-0)"_s);
        QVERIFY(summary->devices[3].isMap);
        QCOMPARE(summary->devices[3].paths.has_value(), pathsKnown);
        QVERIFY(!summary->failedPaths.has_value());
        QVERIFY(!summary->pathsUnknownReason.isEmpty());
        if (withoutRedundancy.isValid())
            QCOMPARE(summary->mapsWithoutRedundancy, withoutRedundancy.toInt());
        else
            QVERIFY(!summary->mapsWithoutRedundancy.has_value());
    }

    void missingFieldsAreNaN()
    {
        CounterFrame prev = frame(Second, { u"8 0 sda 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"_s });
        CounterFrame cur = frame(2 * Second, { u"8 0 sda 10 0 80 20 0 0 0 0 0 300 20 0 0 0 0 0 0"_s });
        cur.hasField[std::size_t(DiskField::ReadMerges)] = false;
        cur.hasField[std::size_t(DiskField::IoTicks)] = false;
        const Result<FleetHostSummary> summary = summarizeFleetInterval(prev, cur);
        QVERIFY(summary.ok());
        QVERIFY(std::isnan(summary->devices[0].mergedPercent));
        QVERIFY(std::isnan(summary->devices[0].utilPercent));
        QVERIFY(std::isnan(summary->maxUtilPercent));
        QCOMPARE(summary->devices[0].awaitMs, 2.0);
    }

    void noInterval_data()
    {
        QTest::addColumn<qint64>("curTime");
        QTest::addColumn<bool>("afterGap");
        QTest::addColumn<QString>("error");
        QTest::newRow("same sample") << 5 * Second << false << u"no newer sample than the previous one"_s;
        QTest::newRow("older sample") << 4 * Second << false << u"no newer sample than the previous one"_s;
        QTest::newRow("restart") << 6 * Second << true << u"the counters restarted since the previous sample"_s;
    }
    void noInterval()
    {
        QFETCH(qint64, curTime);
        QFETCH(bool, afterGap);
        const CounterFrame prev = frame(5 * Second, {});
        CounterFrame cur = frame(curTime, {});
        cur.afterGap = afterGap;
        const Result<FleetHostSummary> summary = summarizeFleetInterval(prev, cur);
        QVERIFY(!summary.ok());
        QTEST(summary.errorMessage(), "error");
    }
};

QTEST_GUILESS_MAIN(TestFleetSummary)
#include "tst_fleetsummary.moc"
