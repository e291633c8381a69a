// The recording file: what is written is read back exactly (counters, deltas and metrics as the sampler made
// them), a file cut anywhere is read up to its last whole frame, corruption is reported with its offset, and a
// realistic recording stays within 64 bytes per device-sample.
#include "recordings/fiosummary.h"
#include "recordings/recordingformat.h"
#include "recordings/recordingreader.h"
#include "recordings/recordingreplay.h"
#include "syntheticbatches.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace dmtune::test;

namespace {

// Offsets of every frame (type byte), walking type + varint length + payload.
QList<qsizetype> frameOffsets(const QByteArray &bytes)
{
    QList<qsizetype> offsets;
    for (qsizetype pos = recordingformat::MagicSize; pos < bytes.size();) {
        offsets.append(pos);
        recordingformat::VarintReader length(QByteArrayView(bytes).sliced(pos + 1));
        const quint64 n = length.next();
        pos += 1 + length.position() + qsizetype(n);
    }
    return offsets;
}

} // namespace

class TestRecordings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void varints_data();
    void varints();
    void roundTrip();
    void devicesComeAndGo();
    void wrapAndReset();
    void truncatedReadsUpToLastWholeFrame();
    void corruptFrameNamesItsOffset();
    void notARecording();
    void bytesPerDeviceSample();
    void fioSummary_data();
    void fioSummary();

private:
    QString writeRecording(const QList<SampleBatch> &batches, bool finish = true);
    static void compareBatches(const QList<SampleBatch> &expected, const QList<SampleBatch> &actual);
    QTemporaryDir m_dir;
    int m_files = 0;
};

void TestRecordings::varints_data()
{
    QTest::addColumn<qint64>("value");
    QTest::newRow("0") << qint64(0);
    QTest::newRow("-1") << qint64(-1);
    QTest::newRow("127") << qint64(127);
    QTest::newRow("-65") << qint64(-65);
    QTest::newRow("2^32") << (qint64(1) << 32);
    QTest::newRow("min") << std::numeric_limits<qint64>::min();
    QTest::newRow("max") << std::numeric_limits<qint64>::max();
}

void TestRecordings::varints()
{
    QFETCH(qint64, value);
    QByteArray bytes;
    recordingformat::putVarint(bytes, recordingformat::zigzag(value));
    QVERIFY(bytes.size() <= 10);
    recordingformat::VarintReader r(bytes);
    QCOMPARE(r.nextSigned(), value);
    QVERIFY(r.ok());
    QVERIFY(r.atEnd());
    recordingformat::VarintReader cut(QByteArrayView(bytes).chopped(1));
    if (bytes.size() > 1) {
        cut.next();
        QVERIFY(!cut.ok());
    }
}

QString TestRecordings::writeRecording(const QList<SampleBatch> &batches, bool finish)
{
    const QString path = m_dir.filePath(QStringLiteral("r%1.dmrec").arg(++m_files));
    RecordingMeta meta;
    meta.host = QStringLiteral("lab");
    meta.kernel = QStringLiteral("6.1.0-27-amd64");
    meta.started = QDateTime::fromMSecsSinceEpoch(1'790'000'000'000, Qt::UTC);
    meta.intervalSeconds = 1;
    meta.devices = {QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdb")};
    meta.configuration = {{QStringLiteral("kernel"), meta.kernel}};
    meta.title = QStringLiteral("two paths");
    auto writer = RecordingWriter::create(path, meta);
    if (!writer)
        qFatal("%s", qPrintable(writer.errorMessage()));
    for (const SampleBatch &b : batches) {
        const Status s = writer.value()->addBatch(b);
        if (!s)
            qFatal("%s", qPrintable(s.errorMessage));
    }
    if (finish) {
        writer.value()->finish();
        return path;
    }
    // A crash: the file as it is while the writer is still open (its destructor would finish it).
    const QString crashed = path + QStringLiteral(".crashed");
    QFile::copy(path, crashed);
    return crashed;
}

void TestRecordings::compareBatches(const QList<SampleBatch> &expected, const QList<SampleBatch> &actual)
{
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const SampleBatch &e = expected[i];
        const SampleBatch &a = actual[i];
        QCOMPARE(a.wallMs, e.wallMs);
        QCOMPARE(a.monotonicNs, e.monotonicNs / 1000 * 1000);
        QCOMPARE(a.elapsedSeconds, e.elapsedSeconds);
        QCOMPARE(a.sequence, e.sequence);
        QCOMPARE(a.devices.size(), e.devices.size());
        for (qsizetype d = 0; d < e.devices.size(); ++d) {
            QCOMPARE(a.devices[d].name(), e.devices[d].name());
            QCOMPARE(a.devices[d].counters.fields, e.devices[d].counters.fields);
            QCOMPARE(a.devices[d].counters.fieldCount, e.devices[d].counters.fieldCount);
            QCOMPARE(a.devices[d].deltas.fields, e.devices[d].deltas.fields);
            QCOMPARE(a.devices[d].inflight, e.devices[d].inflight);
            QCOMPARE(a.devices[d].metrics(a.elapsedSeconds).values, e.devices[d].metrics(e.elapsedSeconds).values);
        }
    }
}

void TestRecordings::roundTrip()
{
    SyntheticBatches gen;
    QRandomGenerator rng(7);
    const QStringList devices {QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdb")};
    gen.counters(QStringLiteral("sda"))[DiskField::ReadIos] = 123456789; // a disk that has been up a while
    QList<SampleBatch> batches;
    for (int i = 0; i < 20; ++i)
        batches.append(gen.next(devices, [&](const QString &, DiskCounters &c) { SyntheticBatches::busyWrites(c, rng, 20000); }, 7));
    const QString path = m_dir.filePath(QStringLiteral("events.dmrec"));
    RecordingMeta meta;
    meta.host = QStringLiteral("lab");
    meta.kernel = QStringLiteral("6.1.0");
    meta.devices = devices;
    meta.intervalSeconds = 1;
    meta.configuration = {{QStringLiteral("host"), QStringLiteral("lab")}};
    auto writer = RecordingWriter::create(path, meta);
    QVERIFY2(writer, qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();
    QVERIFY(w.addMarker(1790000003.5, RecordingWriter::fioStartLabel()));
    for (const SampleBatch &b : batches)
        QVERIFY(w.addBatch(b));
    QVERIFY(w.addNote(1790000010.25, QStringLiteral("nomerges=2 next — ünïcode")));
    QVERIFY(w.addFioProgress(1790000011, {{QStringLiteral("jobs"), QJsonArray()}}));
    QVERIFY(w.addFioResult({{QStringLiteral("fio version"), QStringLiteral("fio-3.33")}}, {QStringLiteral("fio"), QStringLiteral("--name=w")}));
    QVERIFY(w.addMarker(1790000015, RecordingWriter::fioEndLabel()));
    QVERIFY(w.finish());
    QVERIFY(!w.addMarker(1, QStringLiteral("late"))); // closed

    const Result<Recording> rec = readRecording(path);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QCOMPARE(rec->formatVersion, 1);
    QVERIFY(rec->complete);
    QVERIFY(!rec->truncated);
    QCOMPARE(rec->meta.host, QStringLiteral("lab"));
    QCOMPARE(rec->meta.devices, devices);
    QCOMPARE(rec->meta.configuration.value(QStringLiteral("host")).toString(), QStringLiteral("lab"));
    QCOMPARE(rec->markers.size(), 2);
    QCOMPARE(rec->alignSeconds(), 1790000003.5);
    QCOMPARE(rec->workloadEndSeconds(), 1790000015.0);
    QCOMPARE(rec->notes.value(0).text, QStringLiteral("nomerges=2 next — ünïcode"));
    QCOMPARE(rec->fioProgress.size(), 1);
    QCOMPARE(rec->fioResults.value(0).argv, QStringList({QStringLiteral("fio"), QStringLiteral("--name=w")}));
    QCOMPARE(rec->deviceSamples, 60);
    QCOMPARE(rec->fileBytes, QFileInfo(path).size());
    QCOMPARE(rec->fileBytes, w.bytesWritten());
    compareBatches(batches, replayBatches(*rec));
}

void TestRecordings::devicesComeAndGo()
{
    // sdb appears at the third batch, vanishes for two, comes back with its counters reset (a re-created
    // device): replay must reproduce the sampler's batches, gaps included.
    SyntheticBatches gen;
    QRandomGenerator rng(3);
    const auto busy = [&](const QString &, DiskCounters &c) { SyntheticBatches::busyWrites(c, rng, 5000); };
    const QString a = QStringLiteral("sda"), b = QStringLiteral("sdb");
    QList<SampleBatch> batches;
    batches.append(gen.next({a}, busy));
    batches.append(gen.next({a}, busy));
    batches.append(gen.next({a, b}, busy));
    batches.append(gen.next({a, b}, busy));
    batches.append(gen.next({a}, busy));
    batches.append(gen.next({a}, busy));
    gen.setCounters(b, DiskCounters {});
    batches.append(gen.next({b, a}, busy));
    batches.append(gen.next({b, a}, busy));
    const Result<Recording> rec = readRecording(writeRecording(batches));
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QCOMPARE(rec->devices.size(), 2);
    compareBatches(batches, replayBatches(*rec));
    // The history has sdb in two segments, the way the live store would.
    SeriesStore store;
    replayInto(*rec, store);
    const MetricSeries s = store.series(b, Metric::WritesPerSec);
    QCOMPARE(s.values.size(), 5); // 2 + NaN gap + 2
    QVERIFY(std::isnan(s.values[2]));
}

void TestRecordings::wrapAndReset()
{
    SyntheticBatches gen;
    const QString d = QStringLiteral("loop0");
    gen.counters(d)[DiskField::WriteTicks] = 0xffffff00u; // u32 in the kernel: about to wrap
    gen.counters(d)[DiskField::WriteIos] = 1000;
    QList<SampleBatch> batches;
    batches.append(gen.next({d}, [](const QString &, DiskCounters &c) {
        c[DiskField::WriteIos] += 10;
        c[DiskField::WriteTicks] = (c[DiskField::WriteTicks] + 0x200) & 0xffffffffu; // wraps
    }));
    batches.append(gen.next({d}, [](const QString &, DiskCounters &c) {
        c[DiskField::WriteIos] = 3; // went backwards: clamped to 0 by counterDeltas
    }));
    QCOMPARE(batches[0].devices[0].deltas[DiskField::WriteTicks], quint64(0x200));
    const Result<Recording> rec = readRecording(writeRecording(batches));
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    compareBatches(batches, replayBatches(*rec));
}

void TestRecordings::truncatedReadsUpToLastWholeFrame()
{
    SyntheticBatches gen;
    QRandomGenerator rng(11);
    QList<SampleBatch> batches;
    for (int i = 0; i < 6; ++i)
        batches.append(gen.next({QStringLiteral("sda"), QStringLiteral("sdb")},
            [&](const QString &, DiskCounters &c) { SyntheticBatches::busyWrites(c, rng, 3000); }));
    QFile file(writeRecording(batches, false)); // no end frame: the process died
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const Result<Recording> whole = parseRecording(bytes);
    QVERIFY2(whole, qPrintable(whole.errorMessage()));
    QVERIFY(!whole->complete);
    QVERIFY(!whole->truncated);
    QCOMPARE(whole->batches.size(), 6);
    // Cut at every byte of the last two sample frames: always the batches before the cut frame, exactly.
    const qsizetype tailStart = bytes.size() * 2 / 3;
    for (qsizetype cut = tailStart; cut < bytes.size(); ++cut) {
        const Result<Recording> part = parseRecording(QByteArrayView(bytes).first(cut));
        QVERIFY2(part, qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(part.errorMessage())));
        const bool atFrameStart = frameOffsets(bytes).contains(cut);
        QCOMPARE(part->truncated, !atFrameStart); // a cut between two frames loses nothing that was begun
        if (atFrameStart)
            continue;
        QVERIFY2(part->truncation.contains(QStringLiteral("offset")), qPrintable(part->truncation));
        QVERIFY(part->batches.size() < 6);
        compareBatches(batches.first(part->batches.size()), replayBatches(*part));
    }
    // A cut inside the header is an error, not an empty recording.
    QVERIFY(!parseRecording(QByteArrayView(bytes).first(20)));
}

void TestRecordings::corruptFrameNamesItsOffset()
{
    SyntheticBatches gen;
    QList<SampleBatch> batches;
    for (int i = 0; i < 3; ++i)
        batches.append(gen.next({QStringLiteral("sda")}, [](const QString &, DiskCounters &c) { c[DiskField::ReadIos] += 5; }));
    QFile file(writeRecording(batches));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray bytes = file.readAll();
    const Result<Recording> ok = parseRecording(bytes);
    QVERIFY(ok);
    // The first sample frame gets an unknown type.
    qsizetype pos = bytes.size();
    for (qsizetype offset : frameOffsets(bytes)) {
        if (bytes[offset] == 'S') {
            pos = offset;
            break;
        }
    }
    QVERIFY(pos < bytes.size());
    bytes[pos] = 'Z';
    const Result<Recording> bad = parseRecording(bytes);
    QVERIFY(!bad);
    QVERIFY2(bad.errorMessage().contains(QStringLiteral("offset %1").arg(pos)), qPrintable(bad.errorMessage()));
    QVERIFY2(bad.errorMessage().contains(QStringLiteral("unknown frame type")), qPrintable(bad.errorMessage()));
}

void TestRecordings::notARecording()
{
    QVERIFY(!parseRecording(QByteArrayLiteral("{\"jobs\": []}")));
    QByteArray future = recordingformat::magic();
    future[6] = 9;
    const Result<Recording> r = parseRecording(future);
    QVERIFY(!r);
    QVERIFY2(r.errorMessage().contains(QStringLiteral("version 9")), qPrintable(r.errorMessage()));
}

void TestRecordings::bytesPerDeviceSample()
{
    // One hour at 1 s of a multipath map and four paths under load (20k IOPS per path, 80k on the map, with
    // merges, latency and queue time), plus an idle device: the shape of a real run, busier than most.
    SyntheticBatches gen;
    QRandomGenerator rng(42);
    const QStringList devices {QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdb"),
        QStringLiteral("sdc"), QStringLiteral("sdd"), QStringLiteral("sde")};
    for (const QString &d : devices)
        gen.counters(d)[DiskField::WriteSectors] = 987654321098ULL;
    QList<SampleBatch> batches;
    for (int i = 0; i < 3600; ++i) {
        batches.append(gen.next(devices, [&](const QString &name, DiskCounters &c) {
            if (name != QStringLiteral("sde"))
                SyntheticBatches::busyWrites(c, rng, name == QStringLiteral("dm-0") ? 80000 : 20000);
        }, 16));
    }
    const Result<Recording> rec = readRecording(writeRecording(batches));
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QCOMPARE(rec->deviceSamples, qint64(3600 * devices.size()));
    const double perSample = rec->bytesPerDeviceSample();
    qInfo("recording of %lld device-samples: %lld bytes, %.1f bytes per device-sample (whole file), %.1f (sample frames)",
        rec->deviceSamples, rec->fileBytes, perSample, rec->sampleBytesPerDeviceSample());
    QVERIFY2(perSample <= 64, qPrintable(QString::number(perSample)));
    compareBatches(batches.first(5), replayBatches(*rec).first(5));
}

void TestRecordings::fioSummary_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("direction");
    QTest::addColumn<double>("iops");
    QTest::addColumn<double>("bw");
    QTest::addColumn<double>("p99us");
    QTest::addColumn<int>("directions");
    QTest::newRow("write") << QStringLiteral("fio-write.json") << QStringLiteral("write") << 215590.40959 << 862361.0 << 74.24 << 1;
    QTest::newRow("randrw read") << QStringLiteral("fio-randrw.json") << QStringLiteral("read") << 13742.257742 << 54969.0 << 173.056 << 2;
    QTest::newRow("randrw write") << QStringLiteral("fio-randrw.json") << QStringLiteral("write") << 13751.248751 << 55004.0 << 10.432 << 2;
}

void TestRecordings::fioSummary()
{
    QFETCH(QString, fixture);
    QFETCH(QString, direction);
    QFETCH(double, iops);
    QFETCH(double, bw);
    QFETCH(double, p99us);
    QFETCH(int, directions);
    QFile file(QStringLiteral(DMTUNE_FIXTURES "/") + fixture);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<FioDirectionSummary> rows = summarizeFioResult(QJsonDocument::fromJson(file.readAll()).object());
    QCOMPARE(rows.size(), directions);
    const auto it = std::find_if(rows.begin(), rows.end(), [&](const FioDirectionSummary &s) { return s.direction == direction; });
    QVERIFY(it != rows.end());
    QCOMPARE(it->iops, iops);
    QCOMPARE(it->bandwidthKiB, bw);
    QCOMPARE(it->clatP99Us, p99us);
    QVERIFY(it->clatMeanUs > 0);
}

QTEST_GUILESS_MAIN(TestRecordings)
#include "tst_recordings.moc"
