#include "core/workloads/workloadsession.h"

#include "core/discovery/devicesnapshot.h"
#include "core/latency/latencyformat.h"
#include "core/recordings/recordingwriter.h"
#include "core/stats/sampler.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSysInfo>

#include <cmath>

namespace dmtune {

namespace {

double round2(double v)
{
    return std::round(v * 100.0) / 100.0;
}

QJsonObject withoutBins(QJsonObject direction)
{
    for (const char *key : { "clat_ns", "lat_ns", "slat_ns" }) {
        if (!direction.contains(QLatin1String(key)))
            continue;
        QJsonObject latency = direction.value(QLatin1String(key)).toObject();
        latency.remove(QStringLiteral("bins"));
        direction.insert(QLatin1String(key), latency);
    }
    return direction;
}

} // namespace

QStringList workloadDevices(const DeviceSnapshot &snapshot, const QString &device)
{
    QStringList devices { device };
    if (const BlockDevice *d = snapshot.device(device))
        devices += d->slaves;
    return devices;
}

RecordingMeta workloadRecordingMeta(
    const SysfsRoot &root, const DeviceSnapshot &snapshot, const QStringList &devices, const QString &title)
{
    RecordingMeta meta;
    meta.host = QSysInfo::machineHostName();
    meta.kernel = snapshot.kernelRelease.isEmpty() ? QSysInfo::kernelVersion() : snapshot.kernelRelease;
    meta.started = QDateTime::currentDateTimeUtc();
    meta.intervalSeconds = 1.0;
    meta.devices = devices;
    meta.configuration = captureConfiguration(root, snapshot, devices);
    meta.title = title;
    return meta;
}

void DeviceRunTotals::clear()
{
    m_order.clear();
    m_intervals.clear();
    m_windowFrom = m_windowTo = 0;
}

void DeviceRunTotals::add(const SampleBatch &batch)
{
    Interval interval;
    interval.to = double(batch.wallMs) / 1000.0;
    interval.from = interval.to - batch.elapsedSeconds;
    for (const DeviceSample &d : batch.devices) {
        if (!m_order.contains(d.name()))
            m_order << d.name();
        interval.deltas.insert(d.name(), d.deltas);
        interval.inflight.insert(d.name(), d.inflight);
    }
    m_intervals.append(std::move(interval));
}

void DeviceRunTotals::setWindow(double fromEpoch, double toEpoch)
{
    m_windowFrom = fromEpoch;
    m_windowTo = toEpoch > fromEpoch ? toEpoch : fromEpoch;
}

bool DeviceRunTotals::counts(const Interval &interval) const
{
    return !hasWindow() || (interval.to > m_windowFrom && interval.from < m_windowTo);
}

double DeviceRunTotals::sampledSeconds() const
{
    double total = 0;
    for (const Interval &i : m_intervals) {
        if (counts(i))
            total += i.to - i.from;
    }
    return total;
}

double DeviceRunTotals::seconds() const
{
    return hasWindow() ? m_windowTo - m_windowFrom : sampledSeconds();
}

QStringList DeviceRunTotals::devices() const
{
    return m_order;
}

IostatMetrics DeviceRunTotals::metrics(const QString &device) const
{
    CounterDeltas sum;
    std::array<quint32, 2> inflight {};
    for (const Interval &i : m_intervals) {
        if (!counts(i) || !i.deltas.contains(device))
            continue;
        const CounterDeltas &d = i.deltas[device];
        for (std::size_t k = 0; k < sum.fields.size(); ++k)
            sum.fields[k] += d.fields[k];
        inflight = i.inflight.value(device);
    }
    return IostatMetrics::fromDeltas(sum, seconds(), inflight[0], inflight[1]);
}

std::pair<double, double> fioIoWindow(const QJsonObject &report)
{
    const Result<FioStatus> status = parseFioStatus(report);
    if (!status || status->timestampMs <= 0)
        return { 0, 0 };
    qint64 runtimeMs = 0;
    for (const FioGroupTotals &g : status->groups)
        runtimeMs = std::max(runtimeMs, g.runtimeMs);
    if (runtimeMs <= 0)
        return { 0, 0 };
    const double to = double(status->timestampMs) / 1000.0;
    return { to - double(runtimeMs) / 1000.0, to };
}

QJsonObject fioRatesToJson(const FioRates &r)
{
    const auto us = [](double ns) { return round2(ns / 1000.0); };
    return {
        { QStringLiteral("group"), r.groupId },
        { QStringLiteral("name"), r.name },
        { QStringLiteral("seconds"), round2(r.seconds) },
        { QStringLiteral("read_iops"), round2(r.readIops) },
        { QStringLiteral("write_iops"), round2(r.writeIops) },
        { QStringLiteral("trim_iops"), round2(r.trimIops) },
        { QStringLiteral("read_bytes_per_second"), std::round(r.readBytesPerSecond) },
        { QStringLiteral("write_bytes_per_second"), std::round(r.writeBytesPerSecond) },
        { QStringLiteral("trim_bytes_per_second"), std::round(r.trimBytesPerSecond) },
        { QStringLiteral("clat_p50_us"), us(r.clat.p50Ns) },
        { QStringLiteral("clat_p90_us"), us(r.clat.p90Ns) },
        { QStringLiteral("clat_p99_us"), us(r.clat.p99Ns) },
        { QStringLiteral("clat_p99_9_us"), us(r.clat.p999Ns) },
        { QStringLiteral("clat_samples"), double(r.clat.samples) },
        // false: plain json without histograms, so the percentiles are fio's since the start
        { QStringLiteral("clat_per_interval"), r.clat.perInterval },
    };
}

FioRates fioRatesFromJson(const QJsonObject &o)
{
    FioRates r;
    r.groupId = o.value(QLatin1String("group")).toInt();
    r.name = o.value(QLatin1String("name")).toString();
    r.seconds = o.value(QLatin1String("seconds")).toDouble();
    r.readIops = o.value(QLatin1String("read_iops")).toDouble();
    r.writeIops = o.value(QLatin1String("write_iops")).toDouble();
    r.trimIops = o.value(QLatin1String("trim_iops")).toDouble();
    r.readBytesPerSecond = o.value(QLatin1String("read_bytes_per_second")).toDouble();
    r.writeBytesPerSecond = o.value(QLatin1String("write_bytes_per_second")).toDouble();
    r.trimBytesPerSecond = o.value(QLatin1String("trim_bytes_per_second")).toDouble();
    r.clat.p50Ns = o.value(QLatin1String("clat_p50_us")).toDouble() * 1000;
    r.clat.p90Ns = o.value(QLatin1String("clat_p90_us")).toDouble() * 1000;
    r.clat.p99Ns = o.value(QLatin1String("clat_p99_us")).toDouble() * 1000;
    r.clat.p999Ns = o.value(QLatin1String("clat_p99_9_us")).toDouble() * 1000;
    r.clat.samples = qint64(o.value(QLatin1String("clat_samples")).toDouble());
    r.clat.perInterval = o.value(QLatin1String("clat_per_interval")).toBool();
    return r;
}

IostatMetrics metricsFromJson(const QJsonObject &o)
{
    IostatMetrics metrics;
    for (std::size_t i = 0; i < MetricCount; ++i) {
        const MetricInfo &info = MetricCatalog::info(Metric(i));
        if (info.iostatColumn)
            metrics.values[i] = o.value(QLatin1String(info.jsonKey)).toDouble();
    }
    return metrics;
}

QJsonObject metricsToJson(const IostatMetrics &metrics)
{
    QJsonObject o;
    for (std::size_t i = 0; i < MetricCount; ++i) {
        const MetricInfo &info = MetricCatalog::info(Metric(i));
        if (info.iostatColumn)
            o.insert(QLatin1String(info.jsonKey), round2(metrics.values[i]));
    }
    return o;
}

QJsonObject compactFioStatus(const QJsonObject &status, const QList<FioRates> &rates)
{
    QJsonObject compact = status;
    QJsonArray jobs;
    for (const QJsonValue &value : status.value(QLatin1String("jobs")).toArray()) {
        QJsonObject job = value.toObject();
        for (const char *direction : { "read", "write", "trim", "sync" }) {
            if (job.contains(QLatin1String(direction)))
                job.insert(QLatin1String(direction), withoutBins(job.value(QLatin1String(direction)).toObject()));
        }
        jobs.append(job);
    }
    compact.insert(QStringLiteral("jobs"), jobs);
    QJsonArray computed;
    for (const FioRates &r : rates)
        computed.append(fioRatesToJson(r));
    compact.insert(QStringLiteral("dmtune_rates"), computed);
    return compact;
}

WorkloadSession::WorkloadSession(Sampler *sampler, QObject *parent)
    : QObject(parent)
    , m_sampler(sampler)
{
    if (m_sampler)
        connect(m_sampler, &Sampler::samplesAvailable, this, &WorkloadSession::onBatch);
    connect(&m_fio, &FioRun::started, this, [this](double t, const QStringList &argv) {
        m_fioRunning = true;
        m_totals.clear();
        m_latencyTotals.clear();
        if (m_writer) {
            record(m_writer->addMarker(t, RecordingWriter::fioStartLabel()));
            if (m_writer)
                record(m_writer->addNote(
                    t, QStringLiteral("fio command: ") + fioCommandLine(argv.value(0), m_job, m_devicePath)));
        }
        Q_EMIT started(t, argv);
    });
    connect(&m_fio, &FioRun::progress, this, [this](const FioProgress &p) {
        if (m_writer)
            record(m_writer->addFioProgress(p.epochSeconds, compactFioStatus(p.status, p.rates)));
        Q_EMIT progress(p);
    });
    connect(&m_fio, &FioRun::finished, this, [this](const FioOutcome &outcome) {
        // One read now: the interval from the last tick to fio's end counts too (up to a second of its I/O).
        if (m_sampler && m_sampler->isRunning())
            m_sampler->sampleNow();
        m_fioRunning = false;
        const auto [from, to] = fioIoWindow(outcome.final);
        m_totals.setWindow(from, to);
        m_hold.release(); // fio has closed the device: it may be mounted or claimed again
        closeRecording(&outcome);
        Q_EMIT finished(outcome, summary(outcome));
    });
    connect(&m_fio, &FioRun::failed, this, [this](const QString &message) {
        m_fioRunning = false;
        m_hold.release();
        if (m_writer)
            record(m_writer->addNote(
                double(QDateTime::currentMSecsSinceEpoch()) / 1000.0, QStringLiteral("fio failed: ") + message));
        closeRecording(nullptr);
        Q_EMIT failed(message);
    });
}

WorkloadSession::~WorkloadSession()
{
    closeRecording(nullptr);
}

Status WorkloadSession::start(const FioJob &job, const QString &devicePath, const QString &recordPath,
    const RecordingMeta *meta, DeviceHold hold, ExistingFile existingRecording)
{
    if (m_fio.isRunning())
        return Status::failure(QStringLiteral("a workload is already running"));
    if (const Status valid = fioJobRunnable(job, devicePath); !valid)
        return valid;
    if (hold.isHeld() && hold.devicePath() != devicePath)
        return Status::failure(
            QStringLiteral("the guard held %1, but fio would write to %2").arg(hold.devicePath(), devicePath));
    if (!job.isCustom() && rwWrites(job.rw) && !hold.isHeld())
        return Status::failure(
            QStringLiteral("%1 writes, but %2 is not held for it (the write guard's decision holds it)")
                .arg(job.id, devicePath));
    m_job = job;
    m_devicePath = devicePath;
    m_recordPath = recordPath;
    m_writer.reset();
    if (!recordPath.isEmpty()) {
        auto writer = RecordingWriter::create(recordPath, meta ? *meta : RecordingMeta {}, existingRecording);
        if (!writer)
            return Status::failure(writer.errorMessage());
        m_writer = std::move(writer.value());
    }
    m_hold = std::move(hold);
    m_fio.start(fioArguments(job, devicePath), job.isCustom() ? fioEnvironment(devicePath) : QStringList());
    return Status::success();
}

void WorkloadSession::setLatencyProbe(const BlockLatencyProbe *probe)
{
    m_latency = probe ? std::make_unique<LatencyIntervals>(probe) : nullptr;
}

void WorkloadSession::onBatch(const SampleBatch &batch)
{
    if (m_writer)
        record(m_writer->addBatch(batch));
    const QList<std::pair<QString, DeviceLatency>> latency = m_latency ? m_latency->next(batch) : decltype(latency) {};
    if (m_writer && !latency.isEmpty())
        record(m_writer->addLatency(latency));
    if (m_fioRunning) {
        m_totals.add(batch);
        for (const auto &[name, interval] : latency)
            m_latencyTotals[name] += interval;
    }
}

void WorkloadSession::record(const Status &status)
{
    if (status)
        return;
    m_writer.reset(); // what was written stays readable: frames are whole and flushed
    Q_EMIT recordingFailed(status.errorMessage());
}

void WorkloadSession::closeRecording(const FioOutcome *outcome)
{
    if (!m_writer)
        return;
    if (outcome) {
        record(m_writer->addFioResult(outcome->final, outcome->argv));
        if (m_writer)
            record(m_writer->addMarker(outcome->endedAt, RecordingWriter::fioEndLabel()));
    }
    if (m_writer)
        record(m_writer->finish());
    m_writer.reset();
}

QJsonObject WorkloadSession::summary(const FioOutcome &outcome) const
{
    QJsonArray groups;
    for (const FioRates &r : outcome.overall)
        groups.append(fioRatesToJson(r));
    QJsonObject devices;
    for (const QString &name : m_totals.devices()) {
        QJsonObject device = metricsToJson(m_totals.metrics(name));
        if (const auto latency = m_latencyTotals.constFind(name); latency != m_latencyTotals.constEnd())
            device.insert(QStringLiteral("latency"), latencyformat::summaryJson(*latency));
        devices.insert(name, device);
    }
    QJsonObject o {
        { QStringLiteral("device"), m_devicePath },
        { QStringLiteral("job"), fioJobToJson(m_job) },
        { QStringLiteral("command"), fioCommandLine(outcome.argv.value(0), m_job, m_devicePath) },
        { QStringLiteral("argv"), QJsonArray::fromStringList(outcome.argv) },
        { QStringLiteral("fio_version"), m_fio.fioVersion().toString() },
        { QStringLiteral("started"),
            QDateTime::fromMSecsSinceEpoch(qint64(outcome.startedAt * 1000)).toUTC().toString(Qt::ISODateWithMs) },
        { QStringLiteral("seconds"), round2(outcome.endedAt - outcome.startedAt) },
        { QStringLiteral("stopped"), outcome.stopped },
        { QStringLiteral("killed"), outcome.killed },
        { QStringLiteral("exit_code"), outcome.exitCode },
        { QStringLiteral("fio"), groups },
        { QStringLiteral("device_seconds"), round2(m_totals.seconds()) },
        { QStringLiteral("device_window"), m_totals.hasWindow() ? QStringLiteral("fio") : QStringLiteral("sampled") },
        { QStringLiteral("sampled_seconds"), round2(m_totals.sampledSeconds()) },
        { QStringLiteral("devices"), devices },
    };
    if (!m_recordPath.isEmpty())
        o.insert(QStringLiteral("recording"), m_recordPath);
    return o;
}

} // namespace dmtune
