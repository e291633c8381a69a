// The recording file: what is written is read back exactly (counters, deltas and metrics as the sampler made
// them), a file cut anywhere is read up to its last whole frame, corruption is reported with its offset, and a
// realistic recording stays within 64 bytes per device-sample.
#include "core/recordings/fiosummary.h"
#include "core/recordings/recordedlatency.h"
#include "core/recordings/recordingformat.h"
#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingreplay.h"
#include "syntheticbatches.h"
#include "tests/common/mustsucceed.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <functional>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

// A recording of `frames` after the magic: a minimal header, then the given bytes.
QByteArray craftedRecording(const QByteArray &frames)
{
    QByteArray bytes = recordingformat::magic();
    const QByteArray header = QByteArrayLiteral("{\"format\":\"dmtune-recording\",\"version\":1}");
    bytes.append(char(recordingformat::HeaderFrame));
    recordingformat::putVarint(bytes, quint64(header.size()));
    bytes.append(header);
    return bytes + frames;
}

QByteArray frame(char type, const QByteArray &payload)
{
    QByteArray f(1, type);
    recordingformat::putVarint(f, quint64(payload.size()));
    return f + payload;
}

#if defined(__SANITIZE_ADDRESS__)
#define DMTUNE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DMTUNE_ASAN 1
#endif
#endif

// Runs `body` in a child whose address space may grow by `extraBytes` only and which is killed after
// `seconds`: an allocation beyond the budget (bad_alloc), a hang or a crash is a non-zero status.
int runBounded(const std::function<int()> &body, qint64 extraBytes, unsigned seconds)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        long pages = 0;
        if (FILE *statm = std::fopen("/proc/self/statm", "r")) {
            if (std::fscanf(statm, "%ld", &pages) != 1)
                pages = 0;
            std::fclose(statm);
        }
        const rlim_t limit = rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE)) + rlim_t(extraBytes);
        const rlimit rl { limit, limit };
        ::setrlimit(RLIMIT_AS, &rl);
        ::alarm(seconds);
        int code = 0;
        try {
            code = body();
        } catch (...) {
            code = 101; // std::bad_alloc
        }
        ::_exit(code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status))
        return 200 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

} // namespace

class TestRecordings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void varints_data();
    void varints();
    void roundTrip();
    void latencyRoundTrip();
    void latencyFramesRefused_data();
    void latencyFramesRefused();
    void devicesComeAndGo();
    void wrapAndReset();
    void truncatedReadsUpToLastWholeFrame();
    void corruptFrameNamesItsOffset();
    void notARecording();
    void claimedCountAllocatesOnlyWhatIsPresent();
    void oversizedFileRefused();
    void notARegularFileRefused();
    void writtenAtomically();
    void fuzzFindings();
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
    meta.devices = { QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdb") };
    meta.configuration = { { QStringLiteral("kernel"), meta.kernel } };
    meta.title = QStringLiteral("two paths");
    auto writer = RecordingWriter::create(path, meta);
    if (!writer)
        qFatal("%s", qPrintable(writer.errorMessage()));
    for (const SampleBatch &b : batches) {
        const Status s = writer.value()->addBatch(b);
        if (!s)
            qFatal("%s", qPrintable(s.errorMessage()));
    }
    if (finish) {
        test::mustSucceed(writer.value()->finish());
        return path;
    }
    // A crash: the file as it is while the writer is still open (its destructor would finish it), under its
    // temp name until then.
    const QString crashed = path + QStringLiteral(".crashed");
    QFile::copy(writer.value()->partialPath(), crashed);
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
    const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdb") };
    gen.counters(QStringLiteral("sda"))[DiskField::ReadIos] = 123456789; // a disk that has been up a while
    QList<SampleBatch> batches;
    for (int i = 0; i < 20; ++i)
        batches.append(gen.next(
            devices, [&](const QString &, DiskCounters &c) { SyntheticBatches::busyWrites(c, rng, 20000); }, 7));
    const QString path = m_dir.filePath(QStringLiteral("events.dmrec"));
    RecordingMeta meta;
    meta.host = QStringLiteral("lab");
    meta.kernel = QStringLiteral("6.1.0");
    meta.devices = devices;
    meta.intervalSeconds = 1;
    meta.configuration = { { QStringLiteral("host"), QStringLiteral("lab") } };
    auto writer = RecordingWriter::create(path, meta);
    QVERIFY2(writer, qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();
    QVERIFY(w.addMarker(1790000003.5, RecordingWriter::fioStartLabel()));
    for (const SampleBatch &b : batches)
        QVERIFY(w.addBatch(b));
    QVERIFY(w.addNote(1790000010.25, QStringLiteral("nomerges=2 next — ünïcode")));
    QVERIFY(w.addFioProgress(1790000011, { { QStringLiteral("jobs"), QJsonArray() } }));
    QVERIFY(w.addFioResult({ { QStringLiteral("fio version"), QStringLiteral("fio-3.33") } },
        { QStringLiteral("fio"), QStringLiteral("--name=w") }));
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
    QCOMPARE(rec->fioResults.value(0).argv, QStringList({ QStringLiteral("fio"), QStringLiteral("--name=w") }));
    QCOMPARE(rec->deviceSamples, 60);
    QCOMPARE(rec->fileBytes, QFileInfo(path).size());
    QCOMPARE(rec->fileBytes, w.bytesWritten());
    compareBatches(batches, replayBatches(*rec));
}

// The probe's histograms beside the counters: read back bucket by bucket, summed over the workload window only,
// and a latency frame for a device the last batch did not carry is refused by the writer.
void TestRecordings::latencyRoundTrip()
{
    SyntheticBatches gen;
    QRandomGenerator rng(11);
    const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sda") };
    const QString path = m_dir.filePath(QStringLiteral("latency.dmrec"));
    RecordingMeta meta;
    meta.devices = devices;
    auto writer = RecordingWriter::create(path, meta);
    QVERIFY2(writer, qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();
    QVERIFY(!w.addLatency({})); // before any batch
    QList<SampleBatch> batches;
    QList<QList<std::pair<QString, DeviceLatency>>> written;
    for (int i = 0; i < 6; ++i) {
        batches.append(gen.next(
            devices, [&](const QString &, DiskCounters &c) { SyntheticBatches::busyWrites(c, rng, 5000); }, 7));
        if (i == 1)
            QVERIFY(w.addMarker(double(batches.last().wallMs) / 1000.0, RecordingWriter::fioStartLabel()));
        QVERIFY(w.addBatch(batches.last()));
        QList<std::pair<QString, DeviceLatency>> entries;
        for (const QString &d : devices) {
            DeviceLatency l;
            l.device.counts[size_t(10 + i)] = quint64(100 * (i + 1));
            l.device.counts[63] = 1; // the open-ended last bucket
            l.device.sumNs = quint64(5000000000ULL) * quint64(i + 1); // beyond 32 bits
            l.queue.counts[0] = quint64(i);
            l.lost = d == QStringLiteral("sda") ? 2 : 0;
            entries.append({ d, l });
        }
        QVERIFY(w.addLatency(entries));
        written.append(entries);
    }
    QVERIFY(!w.addLatency({ { QStringLiteral("sdz"), DeviceLatency {} } }));
    QVERIFY(w.finish());

    const Result<Recording> rec = readRecording(path);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QVERIFY(rec->hasLatency);
    QVERIFY(rec->latencyFrameBytes > 0);
    QCOMPARE(rec->batches.size(), 6);
    for (qsizetype b = 0; b < rec->batches.size(); ++b) {
        const QList<RecordedLatency> &got = rec->batches[b].latency;
        QCOMPARE(got.size(), written[b].size());
        for (qsizetype e = 0; e < got.size(); ++e) {
            QCOMPARE(rec->devices[got[e].device].name, written[b][e].first);
            QVERIFY(got[e].latency.device.counts == written[b][e].second.device.counts);
            QVERIFY(got[e].latency.queue.counts == written[b][e].second.queue.counts);
            QCOMPARE(got[e].latency.device.sumNs, written[b][e].second.device.sumNs);
            QCOMPARE(got[e].latency.lost, written[b][e].second.lost);
        }
    }
    // The window starts at the marker (batch 1's end): batches 2..5 count.
    const QHash<QString, DeviceLatency> window = workloadLatency(*rec);
    QCOMPARE(window.value(QStringLiteral("sda")).device.total(), quint64(300 + 400 + 500 + 600 + 4));
    QCOMPARE(window.value(QStringLiteral("sda")).lost, quint64(8));
    QCOMPARE(window.value(QStringLiteral("dm-0")).queue.total(), quint64(2 + 3 + 4 + 5));
    const QList<LatencyComparisonRow> rows = compareLatency({ *rec, *rec });
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].latency.size(), 2);
    QCOMPARE(rows[0].latency[1]->device.total(), rows[0].latency[0]->device.total());
    // Cut inside the last latency frame: everything before it reads, its batch without latency.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const QList<qsizetype> offsets = frameOffsets(bytes);
    qsizetype lastLatency = -1;
    for (qsizetype o : offsets)
        lastLatency = bytes[o] == recordingformat::LatencyFrame ? o : lastLatency;
    QVERIFY(lastLatency > 0);
    const Result<Recording> cut = parseRecording(bytes.left(lastLatency + 3));
    QVERIFY2(cut, qPrintable(cut.errorMessage()));
    QVERIFY(cut->truncated);
    QCOMPARE(cut->batches.size(), 6);
    QVERIFY(cut->batches.last().latency.isEmpty());
    QCOMPARE(cut->batches[4].latency.size(), 2);
}

void TestRecordings::latencyFramesRefused_data()
{
    QTest::addColumn<QByteArray>("frames");
    QTest::addColumn<QString>("error");
    QByteArray device; // id 0, 17 fields, devnum 0x800, "sda"
    recordingformat::putVarint(device, 0);
    recordingformat::putVarint(device, 17);
    recordingformat::putVarint(device, 0x800);
    device.append("sda");
    const QByteArray declared = frame(recordingformat::DeviceFrame, device);
    const QByteArray sample = frame(recordingformat::SampleFrame, QByteArray::fromHex("00000000010000"));
    const auto latency
        = [](const QByteArray &hex) { return frame(recordingformat::LatencyFrame, QByteArray::fromHex(hex)); };
    QTest::newRow("before any batch") << latency("00") << QStringLiteral("latency before the first sample frame");
    QTest::newRow("undeclared device") << declared + sample + latency("01050000000000")
                                       << QStringLiteral("undeclared device id 5");
    QTest::newRow("count beyond payload") << declared + sample + latency("ff01") << QStringLiteral("latency entries");
    QTest::newRow("too many buckets") << declared + sample + latency("0100000041000000")
                                      << QStringLiteral("buckets of 64");
    QTest::newRow("bucket out of range") << declared + sample + latency("010000000140010000")
                                         << QStringLiteral("out of order or range");
    QTest::newRow("buckets out of order")
        << declared + sample + latency("01000000020501040100") << QStringLiteral("out of order or range");
    QTest::newRow("second frame") << declared + sample + latency("00") + latency("00")
                                  << QStringLiteral("a second latency frame");
}

void TestRecordings::latencyFramesRefused()
{
    QFETCH(QByteArray, frames);
    QFETCH(QString, error);
    const Result<Recording> rec = parseRecording(craftedRecording(frames));
    QVERIFY(!rec);
    QVERIFY2(rec.errorMessage().contains(error), qPrintable(rec.errorMessage()));
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
    batches.append(gen.next({ a }, busy));
    batches.append(gen.next({ a }, busy));
    batches.append(gen.next({ a, b }, busy));
    batches.append(gen.next({ a, b }, busy));
    batches.append(gen.next({ a }, busy));
    batches.append(gen.next({ a }, busy));
    gen.setCounters(b, DiskCounters {});
    batches.append(gen.next({ b, a }, busy));
    batches.append(gen.next({ b, a }, busy));
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
    batches.append(gen.next({ d }, [](const QString &, DiskCounters &c) {
        c[DiskField::WriteIos] += 10;
        c[DiskField::WriteTicks] = (c[DiskField::WriteTicks] + 0x200) & 0xffffffffu; // wraps
    }));
    batches.append(gen.next({ d }, [](const QString &, DiskCounters &c) {
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
        batches.append(gen.next({ QStringLiteral("sda"), QStringLiteral("sdb") },
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
        batches.append(
            gen.next({ QStringLiteral("sda") }, [](const QString &, DiskCounters &c) { c[DiskField::ReadIos] += 5; }));
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

void TestRecordings::claimedCountAllocatesOnlyWhatIsPresent()
{
#ifdef DMTUNE_ASAN
    QSKIP("RLIMIT_AS cannot bound a process under AddressSanitizer");
#endif
    // A sample frame of 4 MiB claiming 2 Mi device-samples, whose first sample names a device never declared:
    // the count fits the payload's bytes, but decoding stops at the first sample. Reserving room for the
    // claimed count would ask for 2 Mi x 312 bytes = 650 MB before that; the reader must stay within what the
    // samples it really decodes need. (Qt 6.4's QList::reserve ignores a failed allocation, so this guards
    // the address space, not a crash.)
    const quint64 claimed = 2u << 20;
    QByteArray samples;
    for (int i = 0; i < 4; ++i)
        recordingformat::putVarint(samples, 0); // wall, monotonic, interval, sequence
    recordingformat::putVarint(samples, claimed);
    recordingformat::putVarint(samples, 7); // device id 7: never declared
    samples.append(QByteArray(qsizetype(claimed) * 2, '\0'));
    const QByteArray bytes = craftedRecording(frame(recordingformat::SampleFrame, samples));
    const int status = runBounded(
        [&bytes] {
            const Result<Recording> rec = parseRecording(bytes);
            if (rec)
                return 1;
            return rec.errorMessage().contains(QStringLiteral("undeclared device id 7")) ? 0 : 2;
        },
        256ll << 20, 20);
    QCOMPARE(status, 0);
    // A count beyond what the payload can hold (each device-sample takes at least 2 bytes) is refused at once.
    QByteArray lying;
    for (int i = 0; i < 4; ++i)
        recordingformat::putVarint(lying, 0);
    recordingformat::putVarint(lying, 1ull << 40);
    lying.append(QByteArray(80, '\0'));
    const Result<Recording> rec = parseRecording(craftedRecording(frame(recordingformat::SampleFrame, lying)));
    QVERIFY(!rec);
    QVERIFY2(rec.errorMessage().contains(QStringLiteral("claims")), qPrintable(rec.errorMessage()));
    // Long names and JSON strings are bounded by their frame's bytes, which the file must hold: a frame that
    // claims 4 GB in a 100-byte file is a truncated file, not an allocation.
    QByteArray huge(1, char(recordingformat::NoteFrame));
    recordingformat::putVarint(huge, 4ull << 30);
    huge.append("{\"t\":1,\"text\":\"");
    const Result<Recording> cut = parseRecording(craftedRecording(huge));
    QVERIFY2(cut, qPrintable(cut.errorMessage()));
    QVERIFY(cut->truncated);
}

void TestRecordings::oversizedFileRefused()
{
#ifdef DMTUNE_ASAN
    QSKIP("RLIMIT_AS cannot bound a process under AddressSanitizer");
#endif
    // A sparse file one byte over the limit, starting as a valid recording: refused by its size, unread.
    const QString path = m_dir.filePath(QStringLiteral("huge.dmrec"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.write(craftedRecording({})) > 0);
        QVERIFY(f.resize(MaxRecordingFileBytes + 1));
    }
    const int status = runBounded(
        [&path] {
            const Result<Recording> rec = readRecording(path);
            if (rec)
                return 1;
            const QString e = rec.errorMessage();
            return e.contains(QStringLiteral("256 MiB")) && e.contains(path) && !e.contains(QLatin1Char('\n')) ? 0 : 2;
        },
        64ll << 20, 20);
    QCOMPARE(status, 0);
    // At the limit it is read (a valid recording padded with a truncated frame's worth of zeros is fine here:
    // what matters is that the size alone does not refuse it).
    QFile f(path);
    QVERIFY(f.resize(1024));
    const Result<Recording> small = readRecording(path);
    QVERIFY2(small || !small.errorMessage().contains(QStringLiteral("MiB")), qPrintable(small.errorMessage()));
}

void TestRecordings::notARegularFileRefused()
{
    // A FIFO with no writer would block open() and read() forever; a directory or a device is no recording.
    const QString fifo = m_dir.filePath(QStringLiteral("fifo.dmrec"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const int status = runBounded(
        [&fifo] {
            const Result<Recording> rec = readRecording(fifo);
            return !rec && rec.errorMessage().contains(QStringLiteral("not a regular file")) ? 0 : 2;
        },
        64ll << 20, 5);
    QCOMPARE(status, 0);
    const Result<Recording> dir = readRecording(m_dir.path());
    QVERIFY(!dir);
    QVERIFY2(dir.errorMessage().contains(QStringLiteral("not a regular file")), qPrintable(dir.errorMessage()));
}

void TestRecordings::writtenAtomically()
{
    SyntheticBatches gen;
    const auto busy = [](const QString &, DiskCounters &c) { c[DiskField::ReadIos] += 5; };
    RecordingMeta meta;
    meta.devices = { QStringLiteral("sda") };
    // While it records, the name holds the previous recording (or nothing); the frames go to NAME.XXXXXX.part.
    const QString path = m_dir.filePath(QStringLiteral("atomic.dmrec"));
    QVERIFY(QFile(path).open(QIODevice::WriteOnly)); // an empty previous file
    // Kept unless replacing it was asked for (--replace, the GUI's question).
    QVERIFY(!RecordingWriter::create(path, meta));
    {
        auto writer = RecordingWriter::create(path, meta, ExistingFile::Replace);
        QVERIFY2(writer, qPrintable(writer.errorMessage()));
        QVERIFY(writer.value()->addBatch(gen.next({ QStringLiteral("sda") }, busy)));
        const QString part = writer.value()->partialPath();
        QVERIFY(part.startsWith(path + QLatin1Char('.')) && part.endsWith(QStringLiteral(".part")));
        QVERIFY(QFileInfo(part).size() > 0);
        QCOMPARE(QFileInfo(path).size(), qint64(0));
        // Destroyed without finish() (a run stopped, a session closed): finished and renamed all the same.
    }
    const Result<Recording> done = readRecording(path);
    QVERIFY2(done, qPrintable(done.errorMessage()));
    QVERIFY(done->complete);
    QCOMPARE(done->batches.size(), 1);
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("atomic.dmrec.*") }, QDir::Files), QStringList());

    // A symbolic link planted at the name is neither followed nor replaced.
    const QString victim = m_dir.filePath(QStringLiteral("victim"));
    {
        QFile v(victim);
        QVERIFY(v.open(QIODevice::WriteOnly));
        v.write("precious");
    }
    const QString link = m_dir.filePath(QStringLiteral("link.dmrec"));
    QVERIFY(QFile::link(victim, link));
    const auto refused = RecordingWriter::create(link, meta);
    QVERIFY(!refused);
    QVERIFY2(refused.errorMessage().contains(QStringLiteral("symbolic link")), qPrintable(refused.errorMessage()));
    QFile v(victim);
    QVERIFY(v.open(QIODevice::ReadOnly));
    QCOMPARE(v.readAll(), QByteArray("precious"));
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(QDir(m_dir.path()).entryList({ QStringLiteral("link.dmrec.*") }, QDir::Files), QStringList());
}

void TestRecordings::fuzzFindings()
{
    // fuzz_recordingreader: a monotonic clock whose nanoseconds overflow 64 bits (signed overflow in the
    // reader before it was refused; UBSan in the fuzzer).
    const QByteArray clock = QByteArray::fromBase64(QByteArrayLiteral(
        "RE1UUkVDAQpISnsiZm9ybWF0IjoiZG11dW5lLXJlY29yZGluZyIsInZlcnNpb24iOjIsInRpdGxlIjoic2VlZCIsImRldmljZXMiOlsic2RhIl"
        "19RAcAEYAQc2RhUxHQD4CJhv////9oAAAAAAAAAP7/gIAABGQKUw3QD4CJesBzdGFydCJ9RQ1/ImJhdGNoZXMiOjJ9"));
    const Result<Recording> rec = parseRecording(clock);
    QVERIFY(!rec);
    QVERIFY2(
        rec.errorMessage().contains(QStringLiteral("monotonic clock out of range")), qPrintable(rec.errorMessage()));
}

void TestRecordings::bytesPerDeviceSample()
{
    // One hour at 1 s of a multipath map and four paths under load (20k IOPS per path, 80k on the map, with
    // merges, latency and queue time), plus an idle device: the shape of a real run, busier than most.
    SyntheticBatches gen;
    QRandomGenerator rng(42);
    const QStringList devices { QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdb"),
        QStringLiteral("sdc"), QStringLiteral("sdd"), QStringLiteral("sde") };
    for (const QString &d : devices)
        gen.counters(d)[DiskField::WriteSectors] = 987654321098ULL;
    QList<SampleBatch> batches;
    for (int i = 0; i < 3600; ++i) {
        batches.append(gen.next(
            devices,
            [&](const QString &name, DiskCounters &c) {
                if (name != QStringLiteral("sde"))
                    SyntheticBatches::busyWrites(c, rng, name == QStringLiteral("dm-0") ? 80000 : 20000);
            },
            16));
    }
    const Result<Recording> rec = readRecording(writeRecording(batches));
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QCOMPARE(rec->deviceSamples, qint64(3600 * devices.size()));
    const double perSample = rec->bytesPerDeviceSample();
    qInfo(
        "recording of %lld device-samples: %lld bytes, %.1f bytes per device-sample (whole file), %.1f (sample frames)",
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
    QTest::newRow("write") << QStringLiteral("fio-write.json") << QStringLiteral("write") << 215590.40959 << 862361.0
                           << 74.24 << 1;
    QTest::newRow("randrw read") << QStringLiteral("fio-randrw.json") << QStringLiteral("read") << 13742.257742
                                 << 54969.0 << 173.056 << 2;
    QTest::newRow("randrw write") << QStringLiteral("fio-randrw.json") << QStringLiteral("write") << 13751.248751
                                  << 55004.0 << 10.432 << 2;
}

void TestRecordings::fioSummary()
{
    QFETCH(QString, fixture);
    QFETCH(QString, direction);
    QFETCH(double, iops);
    QFETCH(double, bw);
    QFETCH(double, p99us);
    QFETCH(int, directions);
    QFile file(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + fixture);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<FioDirectionSummary> rows = summarizeFioResult(QJsonDocument::fromJson(file.readAll()).object());
    QCOMPARE(rows.size(), directions);
    const auto it = std::find_if(
        rows.begin(), rows.end(), [&](const FioDirectionSummary &s) { return s.direction == direction; });
    QVERIFY(it != rows.end());
    QCOMPARE(it->iops, iops);
    QCOMPARE(it->bandwidthKiB, bw);
    QCOMPARE(it->clatP99Us, p99us);
    QVERIFY(it->clatMeanUs > 0);
}

QTEST_GUILESS_MAIN(TestRecordings)
#include "tst_recordings.moc"
