// The latency buckets as the BPF program files them, the percentiles and the JSON of stat --histogram.
#include "core/latency/latencyformat.h"
#include "core/latency/latencyhistogram.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace dmtune;

class TestLatencyHistogram : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bounds_data();
    void bounds();
    void boundsAreAtMostTwiceApart();
    void everyLatencyFallsBetweenItsBucketsBounds();
    void percentiles_data();
    void percentiles();
    void emptyHistogramHasNoPercentiles();
    void sinceSubtractsAndRestartsWhenCountersGoBack();
    void jsonFieldsParse();
    void textRows();
    void timeAbovePathsWeighsPathsByTheirIos();
};

void TestLatencyHistogram::bounds_data()
{
    QTest::addColumn<int>("bucket");
    QTest::addColumn<double>("lowerUs");
    QTest::newRow("below 1 us") << 0 << 0.0;
    QTest::newRow("1 us") << 1 << 1.0;
    QTest::newRow("1.5 us") << 2 << 1.5;
    QTest::newRow("2 us") << 3 << 2.0;
    QTest::newRow("3 us") << 4 << 3.0;
    QTest::newRow("4 us") << 5 << 4.0;
    QTest::newRow("1 ms is 1024 us") << 21 << 1024.0;
    QTest::newRow("1.5 ms is 1536 us") << 22 << 1536.0;
    QTest::newRow("last: 2^31 us") << 63 << 2147483648.0;
}

void TestLatencyHistogram::bounds()
{
    QFETCH(int, bucket);
    QFETCH(double, lowerUs);
    QCOMPARE(latencybuckets::lowerUs(bucket), lowerUs);
    QCOMPARE(latencybuckets::lowerBoundsUs().value(bucket), lowerUs);
    QCOMPARE(latencybuckets::bucketOf(quint64(lowerUs * 1000)), bucket);
}

void TestLatencyHistogram::boundsAreAtMostTwiceApart()
{
    QCOMPARE(latencybuckets::lowerBoundsUs().size(), latencybuckets::Count);
    for (int i = 1; i + 1 < latencybuckets::Count; ++i) {
        const double ratio = latencybuckets::upperUs(i) / latencybuckets::lowerUs(i);
        QVERIFY2(ratio > 1 && ratio <= 2, qPrintable(QString::number(i)));
    }
    QVERIFY(std::isinf(latencybuckets::upperUs(latencybuckets::Count - 1)));
}

void TestLatencyHistogram::everyLatencyFallsBetweenItsBucketsBounds()
{
    // The same arithmetic as the BPF program (half microseconds, two buckets per octave).
    for (quint64 ns : { 0ULL, 999ULL, 1000ULL, 1499ULL, 1500ULL, 2999ULL, 123456ULL, 2000000ULL, 999999999ULL,
             3600000000000ULL, ~0ULL }) {
        const int b = latencybuckets::bucketOf(ns);
        QVERIFY(b >= 0 && b < latencybuckets::Count);
        const double us = double(ns) / 1000;
        QVERIFY2(us >= latencybuckets::lowerUs(b), qPrintable(QString::number(ns)));
        QVERIFY2(us < latencybuckets::upperUs(b), qPrintable(QString::number(ns)));
    }
}

void TestLatencyHistogram::percentiles_data()
{
    QTest::addColumn<QList<int>>("buckets"); // bucket, count, bucket, count ...
    QTest::addColumn<double>("fraction");
    QTest::addColumn<double>("expectedUs");
    // 100 I/Os in [1024, 1536) us: p50 is halfway, interpolated as fio does within its bins.
    QTest::newRow("one bucket p50") << QList<int> { 21, 100 } << 0.5 << 1280.0;
    QTest::newRow("one bucket p100") << QList<int> { 21, 100 } << 1.0 << 1536.0;
    // 90 fast, 10 slow: p90 is the top of the fast bucket, p99 nine tenths into the slow one.
    QTest::newRow("p90 at the edge") << QList<int> { 5, 90, 21, 10 } << 0.9 << 6.0;
    QTest::newRow("p99 in the tail") << QList<int> { 5, 90, 21, 10 } << 0.99 << 1024.0 + 0.9 * 512;
    QTest::newRow("last bucket: its lower bound") << QList<int> { 63, 3 } << 0.5 << 2147483648.0;
}

void TestLatencyHistogram::percentiles()
{
    QFETCH(QList<int>, buckets);
    QFETCH(double, fraction);
    QFETCH(double, expectedUs);
    LatencyHistogram h;
    for (qsizetype i = 0; i + 1 < buckets.size(); i += 2)
        h.counts[size_t(buckets[i])] = quint64(buckets[i + 1]);
    QVERIFY(qFuzzyCompare(h.percentileUs(fraction), expectedUs));
}

void TestLatencyHistogram::emptyHistogramHasNoPercentiles()
{
    const LatencyHistogram h;
    QVERIFY(h.isEmpty());
    QVERIFY(std::isnan(h.percentileUs(0.5)));
    QVERIFY(std::isnan(h.meanUs()));
}

void TestLatencyHistogram::sinceSubtractsAndRestartsWhenCountersGoBack()
{
    LatencyHistogram before;
    before.counts[3] = 10;
    before.sumNs = 25000;
    LatencyHistogram now = before;
    now.counts[3] = 15;
    now.counts[9] = 2;
    now.sumNs = 25000 + 5 * 2500 + 2 * 30000;
    const LatencyHistogram d = now.since(before);
    QCOMPARE(d.total(), quint64(7));
    QCOMPARE(d.counts[3], quint64(5));
    QCOMPARE(d.counts[9], quint64(2));
    QCOMPARE(d.sumNs, quint64(5 * 2500 + 2 * 30000));
    QVERIFY(qFuzzyCompare(d.meanUs(), (5 * 2.5 + 2 * 30.0) / 7));
    // The device was watched anew: its counters restarted, the reading counts from zero.
    LatencyHistogram restarted;
    restarted.counts[4] = 1;
    restarted.sumNs = 3500;
    QCOMPARE(restarted.since(now).total(), quint64(1));
    // Lost completions subtract too.
    QCOMPARE((DeviceLatency { now, {}, 5 }.since(DeviceLatency { before, {}, 2 }).lost), quint64(3));
}

void TestLatencyHistogram::jsonFieldsParse()
{
    DeviceLatency latency;
    latency.device.counts[21] = 99;
    latency.device.counts[23] = 1;
    latency.device.sumNs = 99 * 1200000ULL + 2500000ULL;
    latency.lost = 3;
    // An iostat disk object with the fields appended, as jsonDisk writes it.
    const QString disk = QStringLiteral("{\"disk_device\": \"sdb\"") + latencyformat::jsonFields(latency) + u'}';
    QJsonParseError error {};
    const QJsonObject o = QJsonDocument::fromJson(disk.toUtf8(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonArray bounds = o[QStringLiteral("histogram")][QStringLiteral("bounds_us")].toArray();
    const QJsonArray counts = o[QStringLiteral("histogram")][QStringLiteral("counts")].toArray();
    QCOMPARE(bounds.size(), latencybuckets::Count);
    QCOMPARE(counts.size(), latencybuckets::Count);
    QCOMPARE(bounds[21].toDouble(), 1024.0);
    QCOMPARE(counts[21].toInteger(), 99);
    QCOMPARE(o[QStringLiteral("ios")].toInteger(), 100);
    QCOMPARE(o[QStringLiteral("p50_us")].toDouble(), 1282.59); // 1024 + 512 * 50 / 99, two decimals as iostat
    QCOMPARE(o[QStringLiteral("p99_9_us")].toDouble(), 2048.0 + 1024 * 0.9);
    QVERIFY(o.contains(QStringLiteral("p90_us")) && o.contains(QStringLiteral("p99_us")));
    QCOMPARE(o[QStringLiteral("mean_us")].toDouble(), 1213.0);
    QCOMPARE(o[QStringLiteral("lost")].toInteger(), 3);
    // Nothing was queued: the queue's percentiles are null, not zero.
    const QJsonObject queue = o[QStringLiteral("queue")].toObject();
    QCOMPARE(queue[QStringLiteral("ios")].toInteger(), 0);
    QVERIFY(queue[QStringLiteral("p50_us")].isNull());
}

// The words of a line, one space apart: the columns without their padding.
static QString words(const QString &line)
{
    return line.simplified();
}

void TestLatencyHistogram::textRows()
{
    DeviceLatency latency;
    latency.device.counts[21] = 4;
    latency.device.sumNs = 4 * 1100000ULL;
    latency.lost = 2;
    QCOMPARE(words(latencyformat::summaryHeader()),
        QStringLiteral("Device time I/Os lost mean_us p50_us p90_us p99_us p99.9_us"));
    const QStringList rows
        = latencyformat::summaryRows(QStringLiteral("dm-0"), latency).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(words(rows[0]), QStringLiteral("dm-0 device 4 2 1100.0 1280.0 1484.8 1530.9 1535.5"));
    QCOMPARE(words(rows[1]), QStringLiteral("dm-0 queue 0 - - - - - -"));
    QCOMPARE(
        words(latencyformat::bucketRows(QStringLiteral("dm-0"), latency)), QStringLiteral("dm-0 device 1024 1536 4"));
}

void TestLatencyHistogram::timeAbovePathsWeighsPathsByTheirIos()
{
    LatencyHistogram map;
    map.counts[21] = 400;
    map.sumNs = 400 * 1100000ULL; // 1,100 us
    LatencyHistogram busy; // 300 I/Os of 1,000 us
    busy.counts[20] = 300;
    busy.sumNs = 300 * 1000000ULL;
    LatencyHistogram quiet; // 100 I/Os of 1,040 us
    quiet.counts[21] = 100;
    quiet.sumNs = 100 * 1040000ULL;
    const auto t = timeAbovePaths(map, { busy, quiet, LatencyHistogram {} });
    QVERIFY(t);
    QCOMPARE(t->pathIos, quint64(400));
    QVERIFY(qFuzzyCompare(t->pathsMeanUs, 1010.0)); // (300 x 1000 + 100 x 1040) / 400, not (1000 + 1040) / 2
    QVERIFY(qFuzzyCompare(t->aboveUs, 90.0));
    QCOMPARE(
        words(latencyformat::aboveRow(QStringLiteral("dm-0"), *t)), QStringLiteral("dm-0 400 1100.0 1010.0 90.0 400"));
    const QJsonObject o
        = QJsonDocument::fromJson((QStringLiteral("{\"x\": 1") + latencyformat::aboveJson(*t) + u'}').toUtf8())
              .object();
    QCOMPARE(o[QStringLiteral("above_paths")][QStringLiteral("above_us")].toDouble(), 90.0);
    // Idle map or idle paths: nothing to compare.
    QVERIFY(!timeAbovePaths(LatencyHistogram {}, { busy }));
    QVERIFY(!timeAbovePaths(map, { LatencyHistogram {} }));
}

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
