// Live (root): node_exporter and prometheus (Debian's binaries, started here on free 127.0.0.1 ports with their
// own configuration and data directory) scrape a scratch loop device every second while fio reads and writes it.
// PrometheusSource's frames must be the raw samples Prometheus stored (asked for directly with a range
// selector), its rates the raw differences over the scrape timestamps' difference, and its r/s this machine's
// /proc/diskstats rate over (almost) the same interval.
#include "core/metrics/prometheussource.h"
#include "core/stats/diskcounters.h"
#include "scratchloop.h"
#include "tests/common/loopbackport.h"
#include "tests/common/testpaths.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cmath>

using namespace dmtune;
using namespace dmtune::live;
using namespace Qt::StringLiterals;

namespace {

const auto NodeExporter = "/usr/bin/prometheus-node-exporter"_L1;
const auto Prometheus = "/usr/bin/prometheus"_L1;

// A port nobody listens on now (the kernel's choice for an ephemeral bind, released at once).
quint16 freePort()
{
    return quint16(dmtune::test::freeLoopbackPort());
}

// A raw sample of one series, as Prometheus stored it.
struct RawSeries {
    QHash<qint64, double> valueAtMs;
};

// How the test reads a node_exporter series into a diskstats field, written out again here (not taken from
// prometheusparse) so the two are checked against each other.
struct Expected {
    const char *name;
    DiskField field;
    enum { Count, Bytes, Seconds } kind;
};
constexpr Expected Checked[] = {
    { "node_disk_reads_completed_total", DiskField::ReadIos, Expected::Count },
    { "node_disk_reads_merged_total", DiskField::ReadMerges, Expected::Count },
    { "node_disk_read_bytes_total", DiskField::ReadSectors, Expected::Bytes },
    { "node_disk_read_time_seconds_total", DiskField::ReadTicks, Expected::Seconds },
    { "node_disk_writes_completed_total", DiskField::WriteIos, Expected::Count },
    { "node_disk_writes_merged_total", DiskField::WriteMerges, Expected::Count },
    { "node_disk_written_bytes_total", DiskField::WriteSectors, Expected::Bytes },
    { "node_disk_write_time_seconds_total", DiskField::WriteTicks, Expected::Seconds },
    { "node_disk_io_now", DiskField::InFlight, Expected::Count },
    { "node_disk_io_time_seconds_total", DiskField::IoTicks, Expected::Seconds },
    { "node_disk_io_time_weighted_seconds_total", DiskField::TimeInQueue, Expected::Seconds },
    { "node_disk_discards_completed_total", DiskField::DiscardIos, Expected::Count },
    { "node_disk_flush_requests_total", DiskField::FlushIos, Expected::Count },
};

bool closeTo(double a, double b, double relative = 1e-9)
{
    return std::fabs(a - b) <= relative * std::max({ 1.0, std::fabs(a), std::fabs(b) });
}

} // namespace

class TestLivePrometheus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void ratesAreRawSampleDifferences();
    void errorsAreOneLine();

private:
    // A frame of a newer scrape than `afterNs`, and /proc/diskstats read right after it was seen (polled
    // continuously, so the local read follows node_exporter's by about as much at every frame).
    struct Observation {
        CounterFrame frame;
        DiskCounters local;
        qint64 localNs = 0;
    };
    bool observe(qint64 afterNs, Observation *out);
    QHash<QString, RawSeries> rawSamples(qint64 fromMs, qint64 toMs);
    QString logTail(const QString &name) const;

    QTemporaryDir m_dir;
    ScratchLoop m_loop;
    QProcess m_exporter;
    QProcess m_prometheus;
    QString m_url;
    QString m_instance;
    std::unique_ptr<PrometheusSource> m_source;
    QElapsedTimer m_clock;
};

void TestLivePrometheus::initTestCase()
{
    m_clock.start();
    if (const QString reason = ScratchLoop::unavailableReason({ u"losetup"_s, u"fio"_s }); !reason.isEmpty())
        QSKIP(qPrintable(reason));
    for (const QLatin1StringView binary : { NodeExporter, Prometheus }) {
        if (!QFile::exists(binary))
            QSKIP(qPrintable(u"%1 not installed"_s.arg(binary)));
    }
    QVERIFY(m_dir.isValid());
    QVERIFY2(m_loop.create(256LL << 20), qPrintable(m_loop.error()));

    const quint16 exporterPort = freePort();
    const quint16 prometheusPort = freePort();
    QVERIFY(exporterPort && prometheusPort && exporterPort != prometheusPort);
    m_instance = u"127.0.0.1:%1"_s.arg(exporterPort);
    m_url = u"http://127.0.0.1:%1"_s.arg(prometheusPort);

    // Only diskstats, loop devices included (the default device-exclude leaves them out).
    m_exporter.setStandardOutputFile(m_dir.filePath(u"node_exporter.log"_s));
    m_exporter.setStandardErrorFile(m_dir.filePath(u"node_exporter.log"_s), QIODevice::Append);
    m_exporter.start(NodeExporter,
        { u"--web.listen-address=%1"_s.arg(m_instance), u"--collector.disable-defaults"_s, u"--collector.diskstats"_s,
            u"--collector.diskstats.device-exclude=^(ram|fd)\\d+$"_s });
    QVERIFY2(m_exporter.waitForStarted(10000), qPrintable(m_exporter.errorString()));

    QFile config(m_dir.filePath(u"prometheus.yml"_s));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(u"global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: node\n"
                 "    static_configs:\n      - targets: ['%1']\n"_s.arg(m_instance)
                     .toUtf8());
    config.close();
    m_prometheus.setStandardOutputFile(m_dir.filePath(u"prometheus.log"_s));
    m_prometheus.setStandardErrorFile(m_dir.filePath(u"prometheus.log"_s), QIODevice::Append);
    m_prometheus.start(Prometheus,
        { u"--config.file=%1"_s.arg(config.fileName()), u"--storage.tsdb.path=%1"_s.arg(m_dir.filePath(u"data"_s)),
            u"--web.listen-address=127.0.0.1:%1"_s.arg(prometheusPort) });
    QVERIFY2(m_prometheus.waitForStarted(10000), qPrintable(m_prometheus.errorString()));

    // Until Prometheus answers and has scraped the loop device.
    QString lastError;
    const auto scrapedTheLoop = [&] {
        if (m_source)
            return true;
        Result<std::unique_ptr<PrometheusSource>> opened = PrometheusSource::open(m_url, m_instance);
        if (!opened) {
            lastError = opened.errorMessage();
            return false;
        }
        const Result<CounterFrame> frame = opened.value()->fetch();
        if (frame && frame->find(m_loop.name())) {
            m_source = std::move(opened.value());
            return true;
        }
        lastError = frame ? u"%1 not in the frame yet"_s.arg(m_loop.name()) : frame.errorMessage();
        return false;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(scrapedTheLoop(),
        qPrintable(lastError + u"\n"_s + logTail(u"prometheus.log"_s) + logTail(u"node_exporter.log"_s)), 60000);
    qInfo("%s ready after %lld ms (Prometheus %s, libcurl %s); window %.0f s", qPrintable(m_source->description()),
        m_clock.elapsed(), qPrintable(m_source->serverVersion()), qPrintable(PrometheusSource::curlVersion()),
        m_source->windowSeconds());
    for (const QString &limit : m_source->limits())
        qInfo("limit: %s", qPrintable(limit));
}

void TestLivePrometheus::cleanupTestCase()
{
    for (QProcess *p : { &m_prometheus, &m_exporter }) {
        if (p->state() == QProcess::NotRunning)
            continue;
        p->terminate();
        if (!p->waitForFinished(10000))
            p->kill();
        p->waitForFinished(5000);
    }
    m_loop.release();
    qInfo("test took %lld ms", m_clock.elapsed());
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString TestLivePrometheus::logTail(const QString &name) const
{
    QFile log(m_dir.filePath(name));
    if (!log.open(QIODevice::ReadOnly))
        return {};
    return name + u":\n"_s + QString::fromUtf8(log.readAll().right(1500));
}

bool TestLivePrometheus::observe(qint64 afterNs, Observation *out)
{
    // Until a newer scrape is in (a failed fetch ends the wait, and the observation).
    bool failed = false;
    CounterFrame newer;
    const bool scraped = QTest::qWaitFor(
        [&] {
            const Result<CounterFrame> frame = m_source->fetch();
            if (!frame) {
                qWarning("fetch: %s", qPrintable(frame.errorMessage()));
                failed = true;
                return true;
            }
            if (frame->timeNs <= afterNs)
                return false;
            newer = *frame;
            return true;
        },
        15000);
    if (!scraped || failed)
        return false;
    QFile diskstats(u"/proc/diskstats"_s);
    if (!diskstats.open(QIODevice::ReadOnly))
        return false;
    out->localNs = m_clock.nsecsElapsed();
    const Result<QList<DiskCounters>> all = parseDiskstats(QString::fromLatin1(diskstats.readAll()));
    if (!all)
        return false;
    for (const DiskCounters &d : *all) {
        if (d.name == m_loop.name())
            out->local = d;
    }
    out->frame = newer;
    return out->frame.find(m_loop.name()) && !out->local.name.isEmpty();
}

QHash<QString, RawSeries> TestLivePrometheus::rawSamples(qint64 fromMs, qint64 toMs)
{
    // A range selector evaluated at the later scrape: raw samples with their own timestamps, no
    // extrapolation (rate()/increase() would stretch the difference to the window's edges).
    const qint64 windowSeconds = (toMs - fromMs) / 1000 + 3;
    const QString promql = uR"({__name__=~"node_disk_.+",instance="%1",device="%2"}[%3s])"_s.arg(
        m_instance, m_loop.name(), QString::number(windowSeconds));
    const Result<QByteArray> body = m_source->get(
        u"/api/v1/query"_s, { { u"query"_s, promql }, { u"time"_s, QString::number(double(toMs) / 1000, 'f', 3) } });
    if (!body) {
        qWarning("%s", qPrintable(body.errorMessage()));
        return {};
    }
    const QJsonObject data = QJsonDocument::fromJson(*body).object().value("data"_L1).toObject();
    if (data.value("resultType"_L1).toString() != "matrix"_L1)
        return {};
    QHash<QString, RawSeries> series;
    for (const QJsonValue &s : data.value("result"_L1).toArray()) {
        RawSeries &raw = series[s.toObject().value("metric"_L1).toObject().value("__name__"_L1).toString()];
        for (const QJsonValue &pair : s.toObject().value("values"_L1).toArray()) {
            const qint64 ms = std::llround(pair.toArray().at(0).toDouble() * 1000);
            raw.valueAtMs.insert(ms, pair.toArray().at(1).toString().toDouble());
        }
    }
    return series;
}

void TestLivePrometheus::ratesAreRawSampleDifferences()
{
    QVERIFY(m_source);
    const QString loop = m_loop.name();
    Observation before, first, second, after;
    QVERIFY(observe(0, &before));

    QProcess fio;
    const QString fioJson = m_dir.filePath(u"fio.json"_s);
    fio.start(u"fio"_s,
        { u"--name=promtest"_s, u"--filename="_s + m_loop.devicePath(), u"--rw=randrw"_s, u"--rwmixread=60"_s,
            u"--bs=4k"_s, u"--direct=1"_s, u"--ioengine=libaio"_s, u"--iodepth=8"_s, u"--time_based"_s,
            u"--runtime=9"_s, u"--output-format=json"_s, u"--output="_s + fioJson });
    QVERIFY2(fio.waitForStarted(10000), qPrintable(fio.errorString()));
    // dmtunectl's own report over the same server while fio runs: one per scrape.
    QProcess stat;
    stat.setStandardErrorFile(m_dir.filePath(u"stat.err"_s));
    stat.setStandardOutputFile(m_dir.filePath(u"stat.json"_s));
    stat.start(DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl"),
        { u"stat"_s, u"--prometheus"_s, m_url, u"--instance"_s, m_instance, u"--json"_s, u"-c"_s, u"3"_s, loop });
    // Past fio's start-up: until a scrape shows its reads and writes.
    const auto scrapedFioIo = [&] {
        const Result<CounterFrame> frame = m_source->fetch();
        const DiskCounters *now = frame ? frame->find(loop) : nullptr;
        const DiskCounters *then = before.frame.find(loop);
        return now && then && (*now)[DiskField::ReadIos] > (*then)[DiskField::ReadIos]
            && (*now)[DiskField::WriteIos] > (*then)[DiskField::WriteIos];
    };
    QTRY_VERIFY_WITH_TIMEOUT(scrapedFioIo(), 30000);
    QVERIFY(observe(m_source->fetch()->timeNs, &first)); // a fresh scrape, seen within a poll
    QVERIFY(observe(first.frame.timeNs + 4'000'000'000LL - 1, &second));
    QVERIFY(fio.waitForFinished(60000));
    QCOMPARE(fio.exitCode(), 0);
    // It may have ended while fio ran (the event loop saw it go): waitForFinished() is false then.
    QVERIFY2(stat.state() == QProcess::NotRunning || stat.waitForFinished(30000), qPrintable(logTail(u"stat.err"_s)));
    QVERIFY2(stat.exitCode() == 0, qPrintable(logTail(u"stat.err"_s)));
    const QJsonObject statHost = QJsonDocument::fromJson(readFile(m_dir.filePath(u"stat.json"_s)))
                                     .object()[u"sysstat"_s][u"hosts"_s][0]
                                     .toObject();
    QVERIFY(statHost[u"number-of-cpus"_s].isNull()); // the diskstats collector alone says nothing of the CPUs
    const QJsonArray reports = statHost[u"statistics"_s].toArray();
    QCOMPARE(reports.size(), 3);
    for (const QJsonValue &report : reports) {
        const QJsonObject disk = report[u"disk"_s][0].toObject();
        QCOMPARE(disk[u"disk_device"_s].toString(), loop);
        QVERIFY2(disk[u"r/s"_s].toDouble() > 0 && disk[u"w/s"_s].toDouble() > 0,
            QJsonDocument(disk).toJson().constData()); // each report is an interval of fio's I/O
    }
    QVERIFY(observe(m_source->fetch()->timeNs, &after)); // the first scrape after fio ended

    // 1. The frames are Prometheus' raw samples of those two scrapes.
    const qint64 t1 = first.frame.timeNs / 1'000'000, t2 = second.frame.timeNs / 1'000'000;
    const QHash<QString, RawSeries> raw = rawSamples(t1, t2);
    QVERIFY(!raw.isEmpty());
    const DiskCounters &c1 = *first.frame.find(loop), &c2 = *second.frame.find(loop);
    QCOMPARE(c2.fieldCount, 17);
    for (const Expected &e : Checked) {
        const RawSeries &series = raw.value(QLatin1String(e.name));
        QVERIFY2(series.valueAtMs.contains(t1) && series.valueAtMs.contains(t2), e.name);
        for (const auto &[ms, counters] : { std::pair { t1, &c1 }, std::pair { t2, &c2 } }) {
            const double value = series.valueAtMs.value(ms);
            const double expected = e.kind == Expected::Bytes ? value / 512
                : e.kind == Expected::Seconds                 ? value * 1000
                                                              : value;
            QVERIFY2(double((*counters)[e.field]) == std::round(expected),
                qPrintable(u"%1 at %2: frame %3, raw %4"_s.arg(QLatin1String(e.name), QString::number(ms),
                    QString::number((*counters)[e.field]), QString::number(value, 'g', 17))));
        }
    }

    // 1b. The scrape before the second, from Prometheus' history (the fleet's first table): raw samples too.
    const auto previous = m_source->fetchBefore(second.frame.timeNs);
    QVERIFY2(previous, qPrintable(previous.errorMessage()));
    const qint64 tb = previous->timeNs / 1'000'000;
    QVERIFY2(tb > t1 && tb < t2, qPrintable(u"%1 not between %2 and %3"_s.arg(tb).arg(t1).arg(t2)));
    const RawSeries &rawReads = raw.value(u"node_disk_reads_completed_total"_s);
    QVERIFY(rawReads.valueAtMs.contains(tb));
    QCOMPARE(double((*previous->find(loop))[DiskField::ReadIos]), rawReads.valueAtMs.value(tb));

    // 2. The rates are the raw differences over the scrape timestamps' difference.
    const SampleBatch batch = batchBetween(first.frame, second.frame, { loop });
    const DeviceSample *sample = batch.find(loop);
    QVERIFY(sample);
    const double dt = double(t2 - t1) / 1000;
    QCOMPARE(batch.elapsedSeconds, dt);
    const IostatMetrics m = sample->metrics(batch.elapsedSeconds);
    const auto delta = [&](const char *name) {
        const RawSeries &s = raw.value(QLatin1String(name));
        return s.valueAtMs.value(t2) - s.valueAtMs.value(t1);
    };
    const double reads = delta("node_disk_reads_completed_total");
    const double writes = delta("node_disk_writes_completed_total");
    QVERIFY(reads > 0 && writes > 0);
    const struct {
        Metric metric;
        double fromRaw;
    } rates[] = {
        { Metric::ReadsPerSec, reads / dt },
        { Metric::WritesPerSec, writes / dt },
        { Metric::ReadKBPerSec, delta("node_disk_read_bytes_total") / 1024 / dt },
        { Metric::WriteKBPerSec, delta("node_disk_written_bytes_total") / 1024 / dt },
        { Metric::ReadMergesPerSec, delta("node_disk_reads_merged_total") / dt },
        { Metric::WriteMergesPerSec, delta("node_disk_writes_merged_total") / dt },
        { Metric::ReadAwait, delta("node_disk_read_time_seconds_total") * 1000 / reads },
        { Metric::WriteAwait, delta("node_disk_write_time_seconds_total") * 1000 / writes },
        { Metric::ReadRequestSize, delta("node_disk_read_bytes_total") / 1024 / reads },
        { Metric::AverageQueueSize, delta("node_disk_io_time_weighted_seconds_total") / dt },
        { Metric::Utilization, delta("node_disk_io_time_seconds_total") / dt * 100 },
    };
    for (const auto &r : rates) {
        // Milliseconds exported as seconds x 0.001 carry float noise; the frame rounds it back to whole ms.
        const double tolerance = r.metric == Metric::ReadAwait || r.metric == Metric::WriteAwait
                || r.metric == Metric::AverageQueueSize || r.metric == Metric::Utilization
            ? 1e-6
            : 1e-9;
        qInfo("%-8s dmtune %12.4f  raw %12.4f", MetricCatalog::info(r.metric).column, m[r.metric], r.fromRaw);
        QVERIFY2(closeTo(m[r.metric], r.fromRaw, tolerance), MetricCatalog::info(r.metric).column);
    }
    qInfo("interval %.3f s between scrapes at %lld and %lld ms", dt, t1, t2);

    // 3. This machine's own counters over nearly the same interval: each /proc/diskstats read follows its
    // scrape by the 50 ms poll plus one query (tens of ms), at both ends; over >= 4 s of steady fio that moves r/s by
    // a few percent at most. 15 % leaves room for a loaded 2-core machine.
    const double localDt = double(second.localNs - first.localNs) / 1e9;
    const double localReads = double(second.local[DiskField::ReadIos] - first.local[DiskField::ReadIos]) / localDt;
    const double localWrites = double(second.local[DiskField::WriteIos] - first.local[DiskField::WriteIos]) / localDt;
    qInfo("r/s prometheus %.1f local %.1f (local interval %.3f s); w/s prometheus %.1f local %.1f",
        m[Metric::ReadsPerSec], localReads, localDt, m[Metric::WritesPerSec], localWrites);
    QVERIFY(std::fabs(m[Metric::ReadsPerSec] - localReads) <= 0.15 * localReads);
    QVERIFY(std::fabs(m[Metric::WritesPerSec] - localWrites) <= 0.15 * localWrites);

    // 4. fio's I/O shows up: every request fio submitted is a completed or a merged one between the scrape
    // before it started and the one after it ended. Nobody else writes the scratch device; where udevd runs,
    // its blkid probe after fio closes the device may add a few reads (here none: exact).
    QFile report(fioJson);
    QVERIFY(report.open(QIODevice::ReadOnly));
    const QJsonObject job
        = QJsonDocument::fromJson(report.readAll()).object().value("jobs"_L1).toArray().at(0).toObject();
    const qint64 fioReads = job.value("read"_L1).toObject().value("total_ios"_L1).toInteger();
    const qint64 fioWrites = job.value("write"_L1).toObject().value("total_ios"_L1).toInteger();
    const DiskCounters &c0 = *before.frame.find(loop), &c3 = *after.frame.find(loop);
    const auto total
        = [&](DiskField ios, DiskField merges) { return qint64(c3[ios] + c3[merges]) - qint64(c0[ios] + c0[merges]); };
    qInfo("fio reads %lld writes %lld; prometheus reads+merges %lld writes+merges %lld", fioReads, fioWrites,
        total(DiskField::ReadIos, DiskField::ReadMerges), total(DiskField::WriteIos, DiskField::WriteMerges));
    QVERIFY(fioReads > 0 && fioWrites > 0);
    QVERIFY(total(DiskField::ReadIos, DiskField::ReadMerges) >= fioReads);
    QVERIFY(total(DiskField::ReadIos, DiskField::ReadMerges) <= fioReads + 512);
    QCOMPARE(total(DiskField::WriteIos, DiskField::WriteMerges), fioWrites);
}

void TestLivePrometheus::errorsAreOneLine()
{
    QVERIFY(m_source);
    const auto check = [](const QString &message, const QString &expected) {
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(!message.contains(u'\n'), qPrintable(message));
        QVERIFY2(!message.contains(u"secret"_s), qPrintable(message));
        qInfo("%s", qPrintable(message));
    };
    const auto openError = [&](const QString &url, const QString &instance) {
        const Result<std::unique_ptr<PrometheusSource>> opened = PrometheusSource::open(url, instance);
        return opened ? QString() : opened.errorMessage();
    };
    check(openError(u"ftp://user:secret@127.0.0.1/"_s, m_instance), u"bad Prometheus URL: the scheme is 'ftp'"_s);
    check(openError(u"127.0.0.1:9090"_s, m_instance), u"bad Prometheus URL"_s);
    check(openError(u"http://"_s, m_instance), u"bad Prometheus URL"_s);
    check(openError(u"http://h/?x=1"_s, m_instance), u"bad Prometheus URL: a query"_s);

    const QString closed = u"http://user:secret@127.0.0.1:%1"_s.arg(freePort());
    QElapsedTimer took;
    took.start();
    check(openError(closed, m_instance), u"Prometheus at http://user@127.0.0.1:"_s);
    QVERIFY(took.elapsed() < 5000);

    check(openError(m_url, u"nosuch:9100"_s),
        u"instance nosuch:9100 has no node_disk_* series on %1; instances there: %2"_s.arg(m_url, m_instance));
    // An empty instance takes the only one there.
    const Result<std::unique_ptr<PrometheusSource>> only = PrometheusSource::open(m_url, QString());
    QVERIFY2(only, qPrintable(only.errorMessage()));
    QCOMPARE(only.value()->instance(), m_instance);

    // HTTP errors: the status and Prometheus' own error text.
    check(m_source->get(u"/api/v1/query"_s, { { u"query"_s, u"{"_s } }).errorMessage(),
        u"/api/v1/query: HTTP 400: Prometheus error (bad_data): invalid parameter \"query\""_s);
    check(m_source->get(u"/api/v1/nosuch"_s).errorMessage(), u"/api/v1/nosuch: HTTP 404"_s);
}

QTEST_GUILESS_MAIN(TestLivePrometheus)
#include "tst_live_prometheus.moc"
