#include "core/remote/agentstreams.h"

#include "core/discovery/sysfscapture.h"
#include "core/discovery/udevsource.h"
#include "core/dm/backend/dmeventwatcher.h"
#include "core/jobs/jobtracker.h"
#include "core/latency/latencystream.h"
#include "core/remote/remotemapstream.h"
#include "core/remote/samplestream.h"
#include "core/stats/sampler.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace dmtune {

using namespace Qt::StringLiterals;

struct AgentStreams::Stream {
    Sampler sampler;
    SampleStreamWriter writer;
    explicit Stream(const SysfsRoot &root)
        : sampler(root)
    {
    }
};

// One map's reports: a read on a job (a status ioctl can wait on a map being suspended; the agent's other streams go
// on meanwhile) at every tick and every device-mapper event of the map, one read at a time.
class AgentStreams::MapReports : public QObject {
public:
    MapReports(
        qint64 id, QString map, std::shared_ptr<DeviceMapper> dm, const SysfsRoot &root, int intervalMs, Send send)
        : m_id(id)
        , m_map(std::move(map))
        , m_dm(std::move(dm))
        , m_send(std::move(send))
        , m_jobs(this)
        , m_events([root] {
            const Result<std::shared_ptr<DeviceMapper>> dm = deviceMapperFor(root);
            return dm ? dm.value() : nullptr;
        })
    {
        m_timer.setInterval(intervalMs);
        connect(&m_timer, &QTimer::timeout, this, &MapReports::read);
        connect(&m_events, &DmEventWatcher::mapEvent, this, &MapReports::read);
        connect(&m_events, &DmEventWatcher::watchStarted, this, &MapReports::read);
        // The map went away (or came back later): the ticks say so, and the watch is tried again on each.
        connect(&m_events, &DmEventWatcher::watchStopped, this, [this] { m_watchStopped = true; });
        m_events.watch({ m_map });
        m_timer.start();
        read();
    }
    ~MapReports() override
    {
        m_timer.stop();
        m_jobs.cancelAll();
    }

private:
    void read()
    {
        if (m_watchStopped) {
            m_watchStopped = false;
            m_events.watch({ m_map });
        }
        if (m_reading) {
            m_readAgain = true; // one more after the read in flight, not one per event
            return;
        }
        m_reading = true;
        m_readAgain = false;
        m_jobs.start(
            QStringLiteral("read %1").arg(m_map),
            [dm = m_dm, map = m_map](JobContext &) -> Result<MapStateReport> {
                MapStateReport report;
                report.name = map;
                const Result<DmInfo> info = dm->info(map);
                if (!info)
                    return Result<MapStateReport>::failure(info.errorMessage());
                if (!info->exists)
                    return Result<MapStateReport>::failure(QStringLiteral("%1: no such map").arg(map));
                report.info = info.value();
                const Result<QList<DmTargetLine>> table = dm->table(map);
                const Result<QList<DmTargetLine>> status = table ? dm->status(map) : table;
                if (!status)
                    return Result<MapStateReport>::failure(status.errorMessage());
                report.table = table.value();
                report.status = status.value();
                return report;
            },
            [this](const Result<MapStateReport> &report) {
                m_reading = false;
                QJsonObject message = report ? mapStateReportJson(report.value())
                                             : QJsonObject { { "type"_L1, QStringLiteral("map-failed") },
                                                   { "name"_L1, m_map }, { "error"_L1, report.errorMessage() } };
                if (report)
                    message.insert("type"_L1, QStringLiteral("map"));
                message.insert("id"_L1, m_id);
                message.insert("t"_L1, double(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
                m_send(message);
                if (m_readAgain)
                    read();
            });
    }

    const qint64 m_id;
    const QString m_map;
    const std::shared_ptr<DeviceMapper> m_dm;
    const Send m_send;
    JobTracker m_jobs;
    DmEventWatcher m_events;
    QTimer m_timer;
    bool m_reading = false;
    bool m_readAgain = false;
    bool m_watchStopped = false;
};

namespace {

// The device set of a request: kernel names, never a path (the Sampler joins them to the sysfs root).
QString readDevices(const QJsonObject &request, QStringList *names)
{
    if (!request.contains("devices"_L1))
        return {};
    const QJsonValue value = request.value("devices"_L1);
    if (!value.isArray())
        return QStringLiteral("\"devices\" must be a list of device names");
    for (const QJsonValue &v : value.toArray()) {
        const QString name = v.toString();
        if (!v.isString() || name.isEmpty() || name.contains(QLatin1Char('/')) || name.startsWith(QLatin1Char('.')))
            return QStringLiteral("not a device name: %1").arg(v.isString() ? name : QStringLiteral("(not a string)"));
        *names << name;
    }
    return {};
}

QString intervalProblem(const QJsonObject &request, int *ms)
{
    if (!request.contains("interval_ms"_L1))
        return {};
    const QJsonValue value = request.value("interval_ms"_L1);
    const double d = value.toDouble(-1);
    if (!value.isDouble() || d < Sampler::MinIntervalMs || d > Sampler::MaxIntervalMs || d != double(int(d)))
        return QStringLiteral("\"interval_ms\" must be a whole number from %1 to %2")
            .arg(Sampler::MinIntervalMs)
            .arg(Sampler::MaxIntervalMs);
    *ms = int(d);
    return {};
}

} // namespace

AgentStreams::AgentStreams(SysfsRoot root, Send send, QObject *parent)
    : QObject(parent)
    , m_root(std::move(root))
    , m_send(std::move(send))
{
}

AgentStreams::~AgentStreams()
{
    stopAll();
}

bool AgentStreams::isStreamOp(const QString &op)
{
    return op == QLatin1String("stream") || op == QLatin1String("stream-update") || op == QLatin1String("watch")
        || op == QLatin1String("map") || op == QLatin1String("latency") || op == QLatin1String("latency-read")
        || op == QLatin1String("cancel");
}

void AgentStreams::stopAll()
{
    qDeleteAll(m_streams);
    m_streams.clear();
    qDeleteAll(m_watches);
    m_watches.clear();
    qDeleteAll(m_maps);
    m_maps.clear();
    m_latency.reset();
    m_latencyId = 0;
}

QString AgentStreams::handle(qint64 id, const QString &op, const QJsonObject &request)
{
    if (op == QLatin1String("stream"))
        return startStream(id, request);
    if (op == QLatin1String("stream-update"))
        return updateStream(id, request);
    if (op == QLatin1String("watch"))
        return startWatch(id);
    if (op == QLatin1String("map"))
        return startMap(id, request);
    if (op == QLatin1String("latency"))
        return startLatency(id, request);
    if (op == QLatin1String("latency-read"))
        return readLatency(id, request);
    const qint64 target = request.value("target"_L1).toInteger();
    if (Stream *stream = m_streams.take(target)) {
        delete stream;
    } else if (UdevMonitor *watch = m_watches.take(target)) {
        delete watch;
    } else if (MapReports *reports = m_maps.take(target)) {
        delete reports;
    } else if (m_latencyId && target == m_latencyId) {
        m_latency.reset();
        m_latencyId = 0;
    } else {
        return QStringLiteral("cancel: no stream, watch or map %1").arg(target);
    }
    m_send({ { "type"_L1, QStringLiteral("response") }, { "id"_L1, id } });
    return {};
}

QString AgentStreams::startStream(qint64 id, const QJsonObject &request)
{
    QStringList names;
    int intervalMs = Sampler::DefaultIntervalMs;
    QString problem = readDevices(request, &names);
    if (problem.isEmpty())
        problem = intervalProblem(request, &intervalMs);
    if (!problem.isEmpty())
        return QStringLiteral("stream: %1").arg(problem);
    const QJsonValue inflight = request.value("inflight"_L1);
    if (!inflight.isUndefined() && !inflight.isBool())
        return QStringLiteral("stream: \"inflight\" must be true or false");
    auto stream = std::make_unique<Stream>(m_root);
    Sampler &sampler = stream->sampler;
    sampler.setInterval(intervalMs);
    sampler.setReadInflight(inflight.toBool(true));
    if (names.isEmpty())
        sampler.watchAll();
    else
        sampler.setWatched(names);
    SampleStreamWriter *writer = &stream->writer;
    connect(&sampler, &Sampler::samplesAvailable, this,
        [this, id, writer](const SampleBatch &batch) { m_send(writer->encode(id, batch)); });
    connect(&sampler, &Sampler::samplingFailed, this, [this, id](const QString &message) {
        m_send({ { "type"_L1, QStringLiteral("stream-failed") }, { "id"_L1, id }, { "error"_L1, message } });
    });
    m_send({ { "type"_L1, QStringLiteral("response") }, { "id"_L1, id }, { "interval_ms"_L1, intervalMs } });
    sampler.start();
    m_streams.insert(id, stream.release());
    return {};
}

QString AgentStreams::updateStream(qint64 id, const QJsonObject &request)
{
    const qint64 target = request.value("target"_L1).toInteger();
    Stream *stream = m_streams.value(target);
    if (!stream)
        return QStringLiteral("stream-update: no stream %1").arg(target);
    QStringList names;
    int intervalMs = stream->sampler.interval();
    QString problem = readDevices(request, &names);
    if (problem.isEmpty())
        problem = intervalProblem(request, &intervalMs);
    if (!problem.isEmpty())
        return QStringLiteral("stream-update: %1").arg(problem);
    if (request.contains("devices"_L1)) {
        if (names.isEmpty())
            stream->sampler.watchAll();
        else
            stream->sampler.setWatched(names);
    }
    stream->sampler.setInterval(intervalMs);
    m_send({ { "type"_L1, QStringLiteral("response") }, { "id"_L1, id } });
    return {};
}

namespace {

// The device numbers of a latency request, by the helper's own strict parser of a watch line ("MAJ:MIN" strings,
// distinct, at most the probe's maximum): what this side accepts from dmtune-helper's callers, it accepts here.
Result<QList<BlockDeviceNumber>> latencyDevicesOf(const QJsonObject &request)
{
    const QJsonValue value = request.value("devices"_L1);
    if (!value.isArray())
        return Result<QList<BlockDeviceNumber>>::failure(QStringLiteral("\"devices\" must be a list of MAJ:MIN"));
    QByteArray line = "watch";
    for (const QJsonValue &v : value.toArray()) {
        const QString text = v.toString();
        const bool digitsAndColon = std::all_of(
            text.cbegin(), text.cend(), [](QChar c) { return c == QLatin1Char(':') || (c >= u'0' && c <= u'9'); });
        if (!v.isString() || text.isEmpty() || !digitsAndColon) // one word each: no space or line end slips in
            return Result<QList<BlockDeviceNumber>>::failure(QStringLiteral("a device that is not MAJ:MIN"));
        line += ' ' + text.toLatin1();
    }
    return parseLatencyWatchLine(line + '\n');
}

} // namespace

QString AgentStreams::startLatency(qint64 id, const QJsonObject &request)
{
    if (m_latency)
        return QStringLiteral("latency: this connection's probe runs already (request %1)").arg(m_latencyId);
    const auto devices = latencyDevicesOf(request);
    if (!devices)
        return QStringLiteral("latency: %1").arg(devices.errorMessage());
    if (devices->isEmpty())
        return QStringLiteral("latency: name at least one device");
    // Loading verifies and attaches the BPF programs: tens of milliseconds, once per connection.
    auto probe = BlockLatencyProbe::open();
    if (!probe)
        return QStringLiteral("latency: the probe cannot run on this host: %1").arg(probe.errorMessage());
    if (const Status watched = probe.value()->setWatched(devices.value()); !watched)
        return QStringLiteral("latency: %1").arg(watched.errorMessage());
    m_latency = std::move(probe.value());
    m_latencyId = id;
    m_latencyDevices = devices.value();
    m_send({ { "type"_L1, QStringLiteral("response") }, { "id"_L1, id } });
    return {};
}

QString AgentStreams::readLatency(qint64 id, const QJsonObject &request)
{
    const qint64 target = request.value("target"_L1).toInteger();
    if (!m_latency || target != m_latencyId)
        return QStringLiteral("latency-read: no latency probe %1").arg(target);
    const auto devices = latencyDevicesOf(request);
    if (!devices)
        return QStringLiteral("latency-read: %1").arg(devices.errorMessage());
    if (devices.value() != m_latencyDevices) {
        if (const Status watched = m_latency->setWatched(devices.value()); !watched)
            return QStringLiteral("latency-read: %1").arg(watched.errorMessage());
        m_latencyDevices = devices.value();
    }
    LatencyReading reading;
    reading.missedEvents = m_latency->missedEvents();
    for (const BlockDeviceNumber &d : std::as_const(m_latencyDevices))
        reading.devices.insert(d, m_latency->read(d));
    m_send({ { "type"_L1, QStringLiteral("response") }, { "id"_L1, id },
        { "reading"_L1, QJsonDocument::fromJson(latencyReadingJson(reading)).object() } });
    return {};
}

QString AgentStreams::startWatch(qint64 id)
{
    auto monitor = std::make_unique<UdevMonitor>();
    const Status started = monitor->start();
    if (!started)
        return QStringLiteral("watch: %1").arg(started.errorMessage());
    connect(monitor.get(), &UdevMonitor::blockEvent, this,
        [this, id](const QString &action, const QString &sysname, const QString &devtype) {
            m_send({ { "type"_L1, QStringLiteral("block") }, { "id"_L1, id }, { "action"_L1, action },
                { "name"_L1, sysname }, { "devtype"_L1, devtype } });
        });
    m_send({ { "type"_L1, QStringLiteral("response") }, { "id"_L1, id }, { "source"_L1, monitor->source() } });
    m_watches.insert(id, monitor.release());
    return {};
}

QString AgentStreams::startMap(qint64 id, const QJsonObject &request)
{
    const QString name = request.value("name"_L1).toString();
    if (const Status named = checkMapName(name); !named)
        return QStringLiteral("map: %1").arg(named.errorMessage());
    int intervalMs = 1000;
    if (request.contains("interval_ms"_L1)) {
        const QJsonValue value = request.value("interval_ms"_L1);
        const double d = value.toDouble(-1);
        if (!value.isDouble() || d < 100 || d > 60000 || d != double(int(d)))
            return QStringLiteral("map: \"interval_ms\" must be a whole number from 100 to 60000");
        intervalMs = int(d);
    }
    if (m_maps.size() >= MaxFollowedMaps)
        return QStringLiteral("map: %1 maps are followed already (cancel one)").arg(MaxFollowedMaps);
    const Result<std::shared_ptr<DeviceMapper>> dm = deviceMapperFor(m_root);
    if (!dm)
        return QStringLiteral("map: %1").arg(dm.errorMessage());
    m_maps.insert(id, new MapReports(id, name, dm.value(), m_root, intervalMs, m_send));
    return {};
}

} // namespace dmtune
