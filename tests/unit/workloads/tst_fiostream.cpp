// fio's JSON status stream on real captured output (fio 3.33, loop device): splitting, the per-group totals,
// per-second rates from differences, and percentiles from json+ histograms against fio's own.
#include "core/workloads/fiostream.h"
#include "core/workloads/workloadsession.h"
#include "tests/common/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace dmtune;

namespace {

QByteArray fixture(const QString &name)
{
    QFile file(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return file.readAll();
}

QList<FioStatus> statuses(const QString &name)
{
    QList<FioStatus> list;
    for (const QJsonObject &o : splitFioStream(fixture(name)).objects)
        list << parseFioStatus(o).value();
    return list;
}

} // namespace

class TestFioStream : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void splits_data();
    void splits();
    void chunkedEqualsWhole_data();
    void chunkedEqualsWhole();
    void percentilesFromBinsMatchFio_data();
    void percentilesFromBinsMatchFio();
    void ratesAddUpToTotals_data();
    void ratesAddUpToTotals();
    void firstIntervalIsTheCumulativeObject();
    void plainJsonFallsBackToCumulativePercentiles();
    void deltaMath();
    void histogramPercentile_data();
    void histogramPercentile();
    void badAndUnfinishedObjects();
    void compactStatusForRecordings();
};

void TestFioStream::splits_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("objects");
    QTest::addColumn<QStringList>("otherLines");
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("jobsPerGroup");
    QTest::addColumn<bool>("bins");

    const QString sigint = QStringLiteral("fio: terminating on signal 2");
    // 4 jobs of 8K reads with group_reporting, plain json: 3 status objects and the final report.
    QTest::newRow("seqread8k json") << "seqread8k.json" << 4 << QStringList() << 1 << 1 << false;
    QTest::newRow("seqread8k json+") << "seqread8k-plus.json" << 4 << QStringList() << 1 << 1 << true;
    // 2 jobs without group_reporting: one group, two job entries per object.
    QTest::newRow("batched write, 2 jobs") << "batchedwrite2jobs.json" << 4 << QStringList() << 1 << 2 << true;
    // psync with iodepth 4: fio's note comes first on stdout, before any JSON.
    QTest::newRow("psync note") << "psync-note.json" << 3
                                << QStringList { QStringLiteral("note: both iodepth >= 1 and synchronous I/O engine "
                                                                "are selected, queue depth will be capped at 1") }
                                << 1 << 1 << true;
    // SIGINT to the process group after 2.5 s: one line per fio process between the last status and the final.
    QTest::newRow("io_uring, SIGINT") << "iouring-sigint.json" << 3 << QStringList { sigint, sigint, sigint } << 1 << 1
                                      << true;
}

void TestFioStream::splits()
{
    QFETCH(QString, file);
    QFETCH(int, objects);
    QFETCH(QStringList, otherLines);
    QFETCH(int, groups);
    QFETCH(int, jobsPerGroup);
    QFETCH(bool, bins);

    const QByteArray data = fixture(file);
    const FioStreamChunk chunk = splitFioStream(data);
    QCOMPARE(chunk.objects.size(), objects);
    QStringList lines = chunk.otherLines;
    lines.removeAll(QString());
    QCOMPARE(lines, otherLines);
    QVERIFY(chunk.errors.isEmpty());
    QCOMPARE(chunk.consumed, data.size());

    qint64 lastTimestamp = 0;
    qint64 lastIos = -1;
    for (const QJsonObject &o : chunk.objects) {
        const auto status = parseFioStatus(o);
        QVERIFY2(status, qPrintable(status.errorMessage()));
        QCOMPARE(status->fioVersion, QStringLiteral("fio-3.33"));
        QCOMPARE(status->groups.size(), groups);
        QCOMPARE(status->groups.first().jobs, jobsPerGroup);
        QVERIFY(status->timestampMs > lastTimestamp);
        lastTimestamp = status->timestampMs;
        const FioGroupTotals &g = status->groups.first();
        QCOMPARE(!g.read.clatBins.isEmpty() || !g.write.clatBins.isEmpty(), bins);
        // Cumulative: the totals never go back.
        const qint64 ios = g.read.ios + g.write.ios;
        QVERIFY(ios >= lastIos);
        lastIos = ios;
    }
}

void TestFioStream::chunkedEqualsWhole_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("chunkSize");
    for (const char *file : { "seqread8k.json", "psync-note.json", "iouring-sigint.json" }) {
        for (int size : { 7, 4096, 65536 })
            QTest::addRow("%s/%d", file, size) << QString::fromLatin1(file) << size;
    }
}

void TestFioStream::chunkedEqualsWhole()
{
    QFETCH(QString, file);
    QFETCH(int, chunkSize);
    const QByteArray data = fixture(file);
    const FioStreamChunk whole = splitFioStream(data);
    FioStreamBuffer buffer;
    QList<QJsonObject> objects;
    QStringList lines;
    for (qsizetype pos = 0; pos < data.size(); pos += chunkSize) {
        const FioStreamChunk c = buffer.append(data.mid(pos, chunkSize));
        objects += c.objects;
        lines += c.otherLines;
        QVERIFY(c.errors.isEmpty());
    }
    const FioStreamChunk last = buffer.finish();
    objects += last.objects;
    lines += last.otherLines;
    QVERIFY(last.errors.isEmpty());
    QCOMPARE(objects, whole.objects);
    lines.removeAll(QString());
    QStringList wholeLines = whole.otherLines;
    wholeLines.removeAll(QString());
    QCOMPARE(lines, wholeLines);
}

void TestFioStream::percentilesFromBinsMatchFio_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("seqread8k json+") << "seqread8k-plus.json";
    QTest::newRow("batched write, 2 jobs") << "batchedwrite2jobs.json";
    QTest::newRow("psync note (read and write)") << "psync-note.json";
    QTest::newRow("io_uring, SIGINT") << "iouring-sigint.json";
}

// Every percentile fio printed, for every job and direction of every object, is what histogramPercentile()
// computes over that job's own bins: the rule the per-second percentiles use on histogram differences.
void TestFioStream::percentilesFromBinsMatchFio()
{
    QFETCH(QString, file);
    int compared = 0;
    for (const QJsonObject &o : splitFioStream(fixture(file)).objects) {
        for (const QJsonValue &job : o.value(QLatin1String("jobs")).toArray()) {
            for (const char *direction : { "read", "write" }) {
                const QJsonObject clat = job.toObject()
                                             .value(QLatin1String(direction))
                                             .toObject()
                                             .value(QLatin1String("clat_ns"))
                                             .toObject();
                const QJsonObject binsJson = clat.value(QLatin1String("bins")).toObject();
                if (binsJson.isEmpty())
                    continue;
                QMap<qint64, qint64> bins;
                for (auto it = binsJson.constBegin(); it != binsJson.constEnd(); ++it)
                    bins.insert(it.key().toLongLong(), it.value().toInteger());
                const QJsonObject percentiles = clat.value(QLatin1String("percentile")).toObject();
                for (auto it = percentiles.constBegin(); it != percentiles.constEnd(); ++it) {
                    QCOMPARE(dmtune::histogramPercentile(bins, it.key().toDouble()), double(it.value().toInteger()));
                    ++compared;
                }
            }
        }
    }
    QVERIFY(compared >= 17 * 3);
}

void TestFioStream::ratesAddUpToTotals_data()
{
    percentilesFromBinsMatchFio_data();
}

// Per-interval rates x interval length, added over the run, give back the final totals; the interval
// histograms add up to the final histogram; the intervals add up to the run time.
void TestFioStream::ratesAddUpToTotals()
{
    QFETCH(QString, file);
    const QList<FioStatus> list = statuses(file);
    QVERIFY(list.size() >= 2);
    double ios = 0, bytes = 0, seconds = 0;
    qint64 histogramCount = 0;
    const FioStatus *previous = nullptr;
    for (const FioStatus &s : list) {
        const QList<FioRates> rates = fioRatesBetween(previous, s);
        QCOMPARE(rates.size(), 1);
        const FioRates &r = rates.first();
        QVERIFY(r.seconds > 0);
        QVERIFY(r.clat.perInterval);
        if (r.clat.samples > 0) {
            QVERIFY(r.clat.p50Ns > 0);
            QVERIFY(r.clat.p50Ns <= r.clat.p90Ns);
            QVERIFY(r.clat.p90Ns <= r.clat.p99Ns);
            QVERIFY(r.clat.p99Ns <= r.clat.p999Ns);
        }
        ios += r.iops() * r.seconds;
        bytes += r.bytesPerSecond() * r.seconds;
        seconds += r.seconds;
        histogramCount += r.clat.samples;
        previous = &s;
    }
    const FioGroupTotals &last = list.last().groups.first();
    QCOMPARE(qRound64(ios), last.read.ios + last.write.ios + last.trim.ios);
    QCOMPARE(qRound64(bytes), last.read.bytes + last.write.bytes + last.trim.bytes);
    QCOMPARE(qRound64(seconds * 1000), last.runtimeMs);
    qint64 finalCount = 0;
    for (const auto *bins : { &last.read.clatBins, &last.write.clatBins })
        for (const qint64 c : *bins)
            finalCount += c;
    QCOMPARE(histogramCount, finalCount);
}

void TestFioStream::firstIntervalIsTheCumulativeObject()
{
    // The first object covers the time since the jobs started: its rates are fio's cumulative numbers.
    const QList<FioStatus> list = statuses(QStringLiteral("seqread8k-plus.json"));
    const QJsonObject first = splitFioStream(fixture(QStringLiteral("seqread8k-plus.json"))).objects.first();
    const QJsonObject read
        = first.value(QLatin1String("jobs")).toArray().first().toObject().value(QLatin1String("read")).toObject();
    const FioRates r = fioRatesBetween(nullptr, list.first().groups.first());
    // 4 jobs under group_reporting: job_runtime is their sum (3540 ms after 885 ms), the read "runtime"
    // the wall time fio divides by; the rates must be fio's own iops and bw.
    const double runtime = read.value(QLatin1String("runtime")).toDouble() / 1000.0;
    QCOMPARE(r.seconds, runtime);
    QVERIFY(r.seconds < 1.0);
    QCOMPARE(qRound64(r.readIops * r.seconds), read.value(QLatin1String("total_ios")).toInteger());
    QVERIFY(std::abs(r.readIops - read.value(QLatin1String("iops")).toDouble()) < 1.0);
    QVERIFY(std::abs(r.readBytesPerSecond / 1024.0 - read.value(QLatin1String("bw")).toDouble()) < 1.0);
    QCOMPARE(r.writeIops, 0.0);
    const QJsonObject p = read.value(QLatin1String("clat_ns")).toObject().value(QLatin1String("percentile")).toObject();
    QCOMPARE(r.readClat.p50Ns, p.value(QLatin1String("50.000000")).toDouble());
    QCOMPARE(r.readClat.p99Ns, p.value(QLatin1String("99.000000")).toDouble());
    QCOMPARE(r.clat.p99Ns, r.readClat.p99Ns);
}

void TestFioStream::plainJsonFallsBackToCumulativePercentiles()
{
    const QList<FioStatus> list = statuses(QStringLiteral("seqread8k.json"));
    const QJsonObject third = splitFioStream(fixture(QStringLiteral("seqread8k.json"))).objects.at(2);
    const QJsonObject p = third.value(QLatin1String("jobs"))
                              .toArray()
                              .first()
                              .toObject()
                              .value(QLatin1String("read"))
                              .toObject()
                              .value(QLatin1String("clat_ns"))
                              .toObject()
                              .value(QLatin1String("percentile"))
                              .toObject();
    const FioRates r = fioRatesBetween(&list.at(1).groups.first(), list.at(2).groups.first());
    QVERIFY(!r.readClat.perInterval);
    QCOMPARE(r.readClat.p50Ns, p.value(QLatin1String("50.000000")).toDouble());
    QCOMPARE(r.readClat.p999Ns, p.value(QLatin1String("99.900000")).toDouble());
    QVERIFY(r.readIops > 0);
}

void TestFioStream::deltaMath()
{
    FioGroupTotals before;
    before.runtimeMs = 1000;
    before.read.ios = 100;
    before.read.bytes = 100 * 4096;
    before.write.ios = 10;
    before.read.clatBins = { { 1000, 60 }, { 2000, 40 } };
    FioGroupTotals after = before;
    after.runtimeMs = 1500;
    after.read.ios = 350; // +250 in 0.5 s
    after.read.bytes = 350 * 4096;
    after.write.ios = 10;
    after.read.clatBins = { { 1000, 60 }, { 2000, 40 + 200 }, { 8000, 50 } }; // interval: 200 x 2000, 50 x 8000
    const FioRates r = fioRatesBetween(&before, after);
    QCOMPARE(r.seconds, 0.5);
    QCOMPARE(r.readIops, 500.0);
    QCOMPARE(r.readBytesPerSecond, 500.0 * 4096);
    QCOMPARE(r.writeIops, 0.0);
    QCOMPARE(r.readClat.samples, 250);
    QCOMPARE(r.readClat.p50Ns, 2000.0);
    QCOMPARE(r.readClat.p90Ns, 8000.0); // 225th of 250 is past the 200 at 2000
    QCOMPARE(r.clat.p50Ns, 2000.0);
    QVERIFY(r.readClat.perInterval);

    // No time passed (all jobs done): no rates, no division by zero.
    const FioRates idle = fioRatesBetween(&after, after);
    QCOMPARE(idle.seconds, 0.0);
    QCOMPARE(idle.iops(), 0.0);
    QCOMPARE(idle.clat.samples, 0);
    QCOMPARE(idle.clat.p99Ns, 0.0);
}

void TestFioStream::histogramPercentile_data()
{
    QTest::addColumn<QList<qint64>>("keys");
    QTest::addColumn<QList<qint64>>("counts");
    QTest::addColumn<double>("percent");
    QTest::addColumn<double>("expected");
    QTest::newRow("empty") << QList<qint64>() << QList<qint64>() << 50.0 << 0.0;
    QTest::newRow("one bin") << QList<qint64> { 700 } << QList<qint64> { 3 } << 99.9 << 700.0;
    QTest::newRow("exact boundary") << QList<qint64> { 1, 2 } << QList<qint64> { 50, 50 } << 50.0 << 1.0;
    QTest::newRow("just past") << QList<qint64> { 1, 2 } << QList<qint64> { 50, 50 } << 50.5 << 2.0;
    QTest::newRow("p1 of many") << QList<qint64> { 10, 20, 30 } << QList<qint64> { 1, 98, 1 } << 1.0 << 10.0;
    QTest::newRow("max") << QList<qint64> { 10, 20, 30 } << QList<qint64> { 1, 98, 1 } << 100.0 << 30.0;
}

void TestFioStream::histogramPercentile()
{
    QFETCH(QList<qint64>, keys);
    QFETCH(QList<qint64>, counts);
    QFETCH(double, percent);
    QFETCH(double, expected);
    QMap<qint64, qint64> bins;
    for (qsizetype i = 0; i < keys.size(); ++i)
        bins.insert(keys.at(i), counts.at(i));
    QCOMPARE(dmtune::histogramPercentile(bins, percent), expected);
}

void TestFioStream::badAndUnfinishedObjects()
{
    const QByteArray data = "note: x\n{ \"a\": \"}{\" }\n{ nope }\n{\"b\": {\"c\": 1}\n";
    FioStreamBuffer buffer;
    const FioStreamChunk c = buffer.append(data);
    QCOMPARE(c.objects.size(), 1); // braces inside the string do not count
    QCOMPARE(c.objects.first().value(QLatin1String("a")).toString(), QStringLiteral("}{"));
    QCOMPARE(c.otherLines, QStringList { QStringLiteral("note: x") });
    QCOMPARE(c.errors.size(), 1);
    QVERIFY(c.errors.first().startsWith(QLatin1String("offset ")));
    const FioStreamChunk rest = buffer.append("}\n");
    QCOMPARE(rest.objects.size(), 1); // the unfinished object completes with the next chunk
    QCOMPARE(buffer.append("{\"d\": ").objects.size(), 0);
    QCOMPARE(buffer.finish().errors.size(), 1); // the stream ended inside an object
    QVERIFY(!parseFioStatus(QJsonObject { { QStringLiteral("x"), 1 } }));
}

// What a recording keeps of a json+ status object: everything but the histograms, plus the computed rates.
void TestFioStream::compactStatusForRecordings()
{
    const QList<QJsonObject> objects = splitFioStream(fixture(QStringLiteral("seqread8k-plus.json"))).objects;
    const FioStatus first = parseFioStatus(objects.at(0)).value();
    const FioStatus second = parseFioStatus(objects.at(1)).value();
    const QList<FioRates> rates = fioRatesBetween(&first, second);
    const QJsonObject compact = compactFioStatus(objects.at(1), rates);
    const QByteArray full = QJsonDocument(objects.at(1)).toJson(QJsonDocument::Compact);
    const QByteArray small = QJsonDocument(compact).toJson(QJsonDocument::Compact);
    QVERIFY(!small.contains("\"bins\""));
    QVERIFY(small.size() * 2 < full.size()); // 3.4 KB instead of 8.9 KB for this object
    const QJsonObject read
        = compact.value(QLatin1String("jobs")).toArray().first().toObject().value(QLatin1String("read")).toObject();
    QCOMPARE(read.value(QLatin1String("total_ios")),
        objects.at(1)
            .value(QLatin1String("jobs"))
            .toArray()
            .first()
            .toObject()
            .value(QLatin1String("read"))
            .toObject()
            .value(QLatin1String("total_ios")));
    QVERIFY(read.value(QLatin1String("clat_ns")).toObject().contains(QLatin1String("percentile")));
    const QJsonObject r = compact.value(QLatin1String("dmtune_rates")).toArray().first().toObject();
    QCOMPARE(r.value(QLatin1String("read_iops")).toDouble(), std::round(rates.first().readIops * 100) / 100);
    QCOMPARE(r.value(QLatin1String("clat_p99_us")).toDouble(), std::round(rates.first().clat.p99Ns / 10) / 100);
    QVERIFY(r.value(QLatin1String("clat_per_interval")).toBool());
}

QTEST_GUILESS_MAIN(TestFioStream)
#include "tst_fiostream.moc"
