// SeriesStore: at most 48 bytes per device-sample, retention by time, segments per appearance, exact metrics
// back; and the sample encoding under it.
#include "core/stats/samplecodec.h"
#include "core/stats/seriesstore.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace dmtune;

namespace {

constexpr qint64 startWallMs = 1'800'000'000'000; // an arbitrary wall time
constexpr qint64 startMonoNs = 5'000'000'000'000; // and an arbitrary monotonic time

// Device `name` whose counters grow by `step` per second, sampled every intervalMs.
DeviceSample sample(const QString &name, quint64 tick, int intervalMs, quint64 step, quint64 discards = 0)
{
    DeviceSample s;
    s.counters.name = name;
    s.counters.fieldCount = 17;
    CounterDeltas &d = s.deltas;
    const quint64 n = step * quint64(intervalMs) / 1000;
    d[DiskField::ReadIos] = n;
    d[DiskField::ReadSectors] = n * 8;
    d[DiskField::ReadTicks] = n / 2;
    d[DiskField::WriteIos] = n * 2 + tick; // varies per tick so that order is checked
    d[DiskField::WriteMerges] = n * 14;
    d[DiskField::WriteSectors] = n * 64;
    d[DiskField::WriteTicks] = n;
    d[DiskField::IoTicks] = quint64(intervalMs) / 2;
    d[DiskField::TimeInQueue] = quint64(intervalMs) * 3;
    d[DiskField::DiscardIos] = discards;
    d[DiskField::DiscardSectors] = discards * 2048;
    d[DiskField::FlushIos] = discards;
    s.inflight = { 1, quint32(tick % 7) };
    return s;
}

// A busy device as fio makes one: each counter moves around its mean by up to ±spread (a fraction), the
// interval jitters by ±3 ms, and `flushEvery`-th intervals carry flushes.
DeviceSample busySample(const QString &name, std::mt19937_64 &random, int intervalMs, double spread, int flushEvery)
{
    auto around = [&](double mean) {
        std::uniform_real_distribution<double> f(1 - spread, 1 + spread);
        return quint64(mean * f(random) * intervalMs / 1000.0);
    };
    DeviceSample s;
    s.counters.name = name;
    CounterDeltas &d = s.deltas;
    d[DiskField::ReadIos] = around(40'000);
    d[DiskField::ReadMerges] = around(3'000);
    d[DiskField::ReadSectors] = around(320'000);
    d[DiskField::ReadTicks] = around(30'000);
    d[DiskField::WriteIos] = around(60'000);
    d[DiskField::WriteMerges] = around(180'000);
    d[DiskField::WriteSectors] = around(1'900'000);
    d[DiskField::WriteTicks] = around(90'000);
    d[DiskField::IoTicks] = quint64(intervalMs);
    d[DiskField::TimeInQueue] = around(130'000);
    if (flushEvery > 0 && std::uniform_int_distribution<int>(1, flushEvery)(random) == 1) {
        d[DiskField::FlushIos] = around(200);
        d[DiskField::FlushTicks] = around(150);
    }
    std::uniform_int_distribution<int> inflight(0, 64);
    s.inflight = { quint32(inflight(random)), quint32(inflight(random)) };
    return s;
}

SampleBatch batch(quint64 sequence, qint64 atMs, int intervalMs, const QList<DeviceSample> &devices)
{
    SampleBatch b;
    b.sequence = sequence;
    b.wallMs = startWallMs + atMs;
    b.monotonicNs = startMonoNs + atMs * 1'000'000;
    b.elapsedSeconds = intervalMs / 1000.0;
    b.devices = devices;
    return b;
}

} // namespace

class TestSeriesStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void codecRoundTrip_data();
    void codecRoundTrip();
    void codecRejectsTruncatedBytes();
    void busyDevicesCostAtMost48Bytes();
    void givesBackTheMetrics();
    void keepsDiscardsAndFlushes();
    void retentionDropsOldSamples();
    void steadyStateCostsWhatItStores();
    void vanishedDeviceLeavesAGap();
    void restartedSamplerStartsNewSegments();
    void newDeviceInAnOldPosition();
    void shorterRetentionAppliesAtOnce();
};

void TestSeriesStore::codecRoundTrip_data()
{
    QTest::addColumn<QList<quint64>>("firsts");
    QTest::addColumn<QList<quint64>>("seconds");
    QTest::addColumn<int>("maxBytesOfSecond");
    // Values of HistoryValues slot 0, 3 and 18 (others 0) in two consecutive samples.
    QTest::newRow("idle, same interval") << QList<quint64> { 1'000'000, 0, 0 } << QList<quint64> { 1'000'000, 0, 0 }
                                         << 1;
    QTest::newRow("timer jitter") << QList<quint64> { 1'000'000, 0, 0 } << QList<quint64> { 1'002'731, 0, 0 } << 4;
    QTest::newRow("steady load") << QList<quint64> { 100'000, 4'000, 12 } << QList<quint64> { 100'000, 4'010, 12 } << 3;
    QTest::newRow("counter went back") << QList<quint64> { 100'000, 4'000, 7 } << QList<quint64> { 100'000, 0, 0 } << 6;
    QTest::newRow("largest values") << QList<quint64> { ~0ULL, ~0ULL, 1 } << QList<quint64> { 1, 0, ~0ULL } << 34;
}

void TestSeriesStore::codecRoundTrip()
{
    QFETCH(QList<quint64>, firsts);
    QFETCH(QList<quint64>, seconds);
    QFETCH(int, maxBytesOfSecond);
    auto make = [](const QList<quint64> &slots) {
        HistoryValues v;
        v.v[0] = slots[0];
        v.v[3] = slots[1];
        v.v[18] = slots[2];
        return v;
    };
    SampleEncoder encoder;
    std::vector<quint8> bytes;
    encoder.encode(make(firsts), &bytes);
    const std::size_t firstSize = bytes.size();
    encoder.encode(make(seconds), &bytes);
    QVERIFY2(int(bytes.size() - firstSize) <= maxBytesOfSecond, qPrintable(QString::number(bytes.size() - firstSize)));

    SampleDecoder decoder;
    HistoryValues a, b;
    const quint8 *p = decoder.decode(bytes.data(), bytes.data() + bytes.size(), &a);
    QVERIFY(p);
    p = decoder.decode(p, bytes.data() + bytes.size(), &b);
    QCOMPARE(p, bytes.data() + bytes.size());
    QVERIFY(a == make(firsts));
    QVERIFY(b == make(seconds));
}

void TestSeriesStore::codecRejectsTruncatedBytes()
{
    HistoryValues v;
    v.v[4] = 123'456'789;
    SampleEncoder encoder;
    std::vector<quint8> bytes;
    encoder.encode(v, &bytes);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        SampleDecoder decoder;
        HistoryValues out;
        QVERIFY(!decoder.decode(bytes.data(), bytes.data() + n, &out));
    }
    const quint8 tooLong[12] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
    SampleDecoder decoder;
    HistoryValues out;
    QVERIFY(!decoder.decode(tooLong, tooLong + 12, &out));
}

void TestSeriesStore::busyDevicesCostAtMost48Bytes()
{
    // 16 busy devices for an hour at 1 s (reads and writes at ±20 %, flushes in 1 of 10 intervals) and 16
    // idle ones; every value comes back exactly.
    std::mt19937_64 random(42);
    SeriesStore store;
    QList<QString> busy, idle;
    for (int i = 0; i < 16; ++i) {
        busy.append(QStringLiteral("sd%1").arg(QChar(u'a' + i)));
        idle.append(QStringLiteral("dm-%1").arg(i));
    }
    QList<IostatMetrics> sentToFirst;
    qint64 atMs = 0;
    for (quint64 t = 1; t <= 3700; ++t) {
        const int interval = 997 + int(t % 7);
        atMs += interval;
        QList<DeviceSample> devices;
        for (const QString &n : busy)
            devices.append(busySample(n, random, interval, 0.2, 10));
        for (const QString &n : idle) {
            DeviceSample s;
            s.counters.name = n;
            devices.append(s);
        }
        sentToFirst.append(devices.first().metrics(interval / 1000.0));
        store.append(batch(t, atMs, interval, devices));
    }
    const qsizetype kept = store.sampleCount(busy.first());
    QVERIFY(kept >= 3590 && kept <= 3610);
    const auto history = store.history(busy.first());
    QCOMPARE(history.size(), kept);
    for (qsizetype i = 0; i < kept; ++i) {
        for (Metric m : MetricCatalog::all())
            QCOMPARE(history[i].metrics[m], sentToFirst[sentToFirst.size() - kept + i][m]);
    }

    SeriesStore busyOnly, idleOnly;
    std::mt19937_64 again(42);
    atMs = 0;
    for (quint64 t = 1; t <= 3700; ++t) {
        const int interval = 997 + int(t % 7);
        atMs += interval;
        QList<DeviceSample> b, i;
        for (const QString &n : busy)
            b.append(busySample(n, again, interval, 0.2, 10));
        for (const QString &n : idle) {
            DeviceSample s;
            s.counters.name = n;
            i.append(s);
        }
        busyOnly.append(batch(t, atMs, interval, b));
        idleOnly.append(batch(t, atMs, interval, i));
    }
    const double busyBytes = double(busyOnly.sampleBytes()) / double(busyOnly.sampleCount());
    const double idleBytes = double(idleOnly.sampleBytes()) / double(idleOnly.sampleCount());
    qInfo("bytes per device-sample: busy %.1f, idle %.1f", busyBytes, idleBytes);
    QVERIFY2(busyBytes <= 48, qPrintable(QString::number(busyBytes)));
    QVERIFY2(idleBytes <= 4, qPrintable(QString::number(idleBytes)));
}

void TestSeriesStore::givesBackTheMetrics()
{
    SeriesStore store;
    QList<IostatMetrics> sent;
    for (quint64 t = 1; t <= 20; ++t) {
        const DeviceSample s = sample(QStringLiteral("sda"), t, 1000, 1000);
        sent.append(s.metrics(1.0));
        store.append(batch(t, qint64(t) * 1000, 1000, { s }));
    }
    QCOMPARE(store.devices(), QStringList { QStringLiteral("sda") });
    QCOMPARE(store.sampleCount(QStringLiteral("sda")), 20);
    const auto history = store.history(QStringLiteral("sda"));
    QCOMPARE(history.size(), 20);
    QVERIFY(history.first().startsSegment);
    for (int i = 0; i < 20; ++i) {
        QCOMPARE(history[i].time, (startWallMs + (i + 1) * 1000) / 1000.0);
        QCOMPARE(history[i].intervalSeconds, 1.0);
        for (Metric m : MetricCatalog::all())
            QCOMPARE(history[i].metrics[m], sent[i][m]);
    }
    const MetricSeries w = store.series(QStringLiteral("sda"), Metric::WritesPerSec);
    QCOMPARE(w.values.size(), 20);
    QCOMPARE(w.values[4], sent[4][Metric::WritesPerSec]);
    const MetricSeries inflight = store.series(QStringLiteral("sda"), Metric::InflightWrites);
    QCOMPARE(inflight.values[5], 6.0);
    // A window: only what ended at or after `since`.
    QCOMPARE(
        store.series(QStringLiteral("sda"), Metric::ReadsPerSec, (startWallMs + 15'000) / 1000.0).values.size(), 6);
}

void TestSeriesStore::keepsDiscardsAndFlushes()
{
    SeriesStore store(20'000);
    // Discards and flushes in interval 4, flushes alone every 3rd interval: both side rings, interleaved.
    auto make = [](quint64 t) {
        DeviceSample s = sample(QStringLiteral("sda"), t, 500, 100, t == 4 ? 6 : 0);
        if (t % 3 == 0)
            s.deltas[DiskField::FlushIos] = 2, s.deltas[DiskField::FlushTicks] = 1;
        return s;
    };
    for (quint64 t = 1; t <= 10; ++t)
        store.append(batch(t, qint64(t) * 500, 500, { make(t) }));
    const MetricSeries d = store.series(QStringLiteral("sda"), Metric::DiscardsPerSec);
    const MetricSeries f = store.series(QStringLiteral("sda"), Metric::FlushesPerSec);
    QCOMPARE(d.values.size(), 10);
    for (int i = 0; i < 10; ++i) {
        const quint64 t = quint64(i) + 1;
        QCOMPARE(d.values[i], t == 4 ? 12.0 : 0.0);
        QCOMPARE(f.values[i], t == 4 ? 12.0 : t % 3 == 0 ? 4.0 : 0.0);
    }
    QCOMPARE(store.series(QStringLiteral("sda"), Metric::DiscardRequestSize).values[3], 1024.0);
    QCOMPARE(store.series(QStringLiteral("sda"), Metric::FlushAwait).values[2], 0.5);

    // Past the retention the side entries go with their samples.
    for (quint64 t = 11; t <= 400; ++t)
        store.append(batch(t, qint64(t) * 500, 500, { make(t) }));
    QCOMPARE(store.sampleCount(QStringLiteral("sda")), 41);
    const MetricSeries late = store.series(QStringLiteral("sda"), Metric::FlushesPerSec);
    for (int i = 0; i < late.values.size(); ++i)
        QCOMPARE(late.values[i], (360 + i) % 3 == 0 ? 4.0 : 0.0);
    QVERIFY(store.sampleBytes() < 41 * 48);
}

void TestSeriesStore::retentionDropsOldSamples()
{
    SeriesStore store(10'000);
    QCOMPARE(store.retention(), 10'000);
    for (quint64 t = 1; t <= 100; ++t)
        store.append(batch(t, qint64(t) * 1000, 1000, { sample(QStringLiteral("sda"), t, 1000, 10) }));
    // Intervals that ended in the last 10 s (the one ending exactly at the cutoff included).
    QCOMPARE(store.sampleCount(QStringLiteral("sda")), 11);
    const auto history = store.history(QStringLiteral("sda"));
    QCOMPARE(history.first().time, (startWallMs + 90'000) / 1000.0);
    QCOMPARE(history.last().time, (startWallMs + 100'000) / 1000.0);
    QVERIFY(!history.first().startsSegment);
    // The oldest kept sample still knows its own interval: its metrics are intact.
    QCOMPARE(history.first().metrics[Metric::WritesPerSec],
        sample(QStringLiteral("sda"), 90, 1000, 10).metrics(1.0)[Metric::WritesPerSec]);
}

void TestSeriesStore::steadyStateCostsWhatItStores()
{
    // One hour at 1 s for 8 devices: memory follows what is kept, at most 48 bytes per sample.
    SeriesStore store;
    QList<QString> names;
    for (int i = 0; i < 8; ++i)
        names.append(QStringLiteral("dm-%1").arg(i));
    for (quint64 t = 1; t <= 4000; ++t) {
        QList<DeviceSample> devices;
        for (const QString &n : names)
            devices.append(sample(n, t, 1000, 50));
        store.append(batch(t, qint64(t) * 1000, 1000, devices));
    }
    QCOMPARE(store.sampleCount(), 8 * 3601);
    const double bytesPerSample = double(store.sampleBytes()) / double(store.sampleCount());
    QVERIFY2(bytesPerSample <= 48, qPrintable(QString::number(bytesPerSample)));

    // A real timer jitters: intervals of 1000 ms ± 3 ms.
    SeriesStore jittery;
    qint64 atMs = 0;
    for (quint64 t = 1; t <= 4000; ++t) {
        const int interval = 997 + int(t % 7);
        atMs += interval;
        QList<DeviceSample> devices;
        for (const QString &n : names)
            devices.append(sample(n, t, interval, 50));
        jittery.append(batch(t, atMs, interval, devices));
    }
    const double jitteryBytes = double(jittery.sampleBytes()) / double(jittery.sampleCount());
    QVERIFY2(jitteryBytes <= 48, qPrintable(QString::number(jitteryBytes)));
}

void TestSeriesStore::vanishedDeviceLeavesAGap()
{
    SeriesStore store;
    quint64 seq = 0;
    for (int t = 1; t <= 5; ++t)
        store.append(batch(++seq, t * 1000, 1000,
            { sample(QStringLiteral("sda"), seq, 1000, 10), sample(QStringLiteral("sdb"), seq, 1000, 10) }));
    for (int t = 6; t <= 8; ++t) // sdb vanished
        store.append(batch(++seq, t * 1000, 1000, { sample(QStringLiteral("sda"), seq, 1000, 10) }));
    for (int t = 9; t <= 10; ++t) // and came back (its first interval after appearing)
        store.append(batch(++seq, t * 1000, 1000,
            { sample(QStringLiteral("sda"), seq, 1000, 10), sample(QStringLiteral("sdb"), seq, 1000, 10) }));
    QCOMPARE(store.sampleCount(QStringLiteral("sdb")), 7);
    const MetricSeries s = store.series(QStringLiteral("sdb"), Metric::ReadsPerSec);
    QCOMPARE(s.values.size(), 8);
    QVERIFY(std::isnan(s.values[5]));
    QCOMPARE(s.times[5], (startWallMs + 8'000) / 1000.0); // the gap ends where the new segment's first interval begins
    QCOMPARE(s.times[6], (startWallMs + 9'000) / 1000.0);
    const auto history = store.history(QStringLiteral("sdb"));
    QVERIFY(history[0].startsSegment);
    QVERIFY(history[5].startsSegment);
    QVERIFY(!history[6].startsSegment);
    QCOMPARE(store.series(QStringLiteral("sda"), Metric::ReadsPerSec).values.size(), 10);
}

void TestSeriesStore::restartedSamplerStartsNewSegments()
{
    SeriesStore store;
    for (quint64 t = 1; t <= 3; ++t)
        store.append(batch(t, qint64(t) * 1000, 1000, { sample(QStringLiteral("sda"), t, 1000, 10) }));
    // stop() then start(): sequence numbers begin again at 1.
    for (quint64 t = 1; t <= 3; ++t)
        store.append(batch(t, 10'000 + qint64(t) * 1000, 1000, { sample(QStringLiteral("sda"), t, 1000, 10) }));
    const auto history = store.history(QStringLiteral("sda"));
    QCOMPARE(history.size(), 6);
    QVERIFY(history[3].startsSegment);
    QCOMPARE(history[3].time, (startWallMs + 11'000) / 1000.0);
}

void TestSeriesStore::newDeviceInAnOldPosition()
{
    SeriesStore store;
    store.append(batch(
        1, 1000, 1000, { sample(QStringLiteral("sda"), 1, 1000, 10), sample(QStringLiteral("sdb"), 1, 1000, 10) }));
    store.append(batch(2, 2000, 1000,
        { sample(QStringLiteral("sda"), 2, 1000, 10), sample(QStringLiteral("sd") + QChar(u'c'), 2, 1000, 20) }));
    store.append(batch(3, 3000, 1000,
        { sample(QStringLiteral("sda"), 3, 1000, 10), sample(QStringLiteral("sd") + QChar(u'c'), 3, 1000, 20) }));
    QCOMPARE(store.devices(), (QStringList { QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc") }));
    QCOMPARE(store.sampleCount(QStringLiteral("sdb")), 1);
    QCOMPARE(store.sampleCount(QStringLiteral("sdc")), 2);
    QCOMPARE(store.series(QStringLiteral("sdc"), Metric::ReadsPerSec).values, (QList<double> { 20.0, 20.0 }));
}

void TestSeriesStore::shorterRetentionAppliesAtOnce()
{
    SeriesStore store;
    for (quint64 t = 1; t <= 600; ++t)
        store.append(batch(t, qint64(t) * 100, 100, { sample(QStringLiteral("sda"), t, 100, 1000) }));
    QCOMPARE(store.sampleCount(QStringLiteral("sda")), 600);
    store.setRetention(5'000);
    QCOMPARE(store.sampleCount(QStringLiteral("sda")), 51);
    store.setRetention(1);
    QCOMPARE(store.sampleCount(QStringLiteral("sda")), 1);
    store.clear();
    QVERIFY(store.devices().isEmpty());
}

QTEST_GUILESS_MAIN(TestSeriesStore)
#include "tst_seriesstore.moc"
