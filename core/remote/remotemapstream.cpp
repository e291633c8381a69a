#include "core/remote/remotemapstream.h"

#include "core/remote/agentclient.h"

#include <QJsonArray>

namespace dmtune {

using namespace Qt::StringLiterals;

namespace {

// A count of the kernel's (an event number, a device number): a whole number from 0 to 2^32 - 1.
bool readCount(const QJsonObject &object, QLatin1StringView key, quint32 *out)
{
    const QJsonValue value = object.value(key);
    const double d = value.toDouble(-1);
    if (!value.isDouble() || d < 0 || d > 4294967295.0 || d != double(quint64(d)))
        return false;
    *out = quint32(d);
    return true;
}

class ReportedMapReader final : public DeviceMapper {
public:
    explicit ReportedMapReader(MapStateReport report)
        : m_report(std::move(report))
    {
    }
    Result<QList<DmMapName>> listMaps() override
    {
        return QList<DmMapName> { { m_report.name, m_report.info.major, m_report.info.minor } };
    }
    Result<DmInfo> info(const QString &name) override { return name == m_report.name ? m_report.info : DmInfo(); }
    Result<QList<DmTargetLine>> table(const QString &name) override
    {
        if (name != m_report.name)
            return Result<QList<DmTargetLine>>::failure(QStringLiteral("%1: no such map reported").arg(name));
        return m_report.table;
    }
    Result<QList<DmTargetLine>> status(const QString &name) override
    {
        if (name != m_report.name)
            return Result<QList<DmTargetLine>>::failure(QStringLiteral("%1: no such map reported").arg(name));
        return m_report.status;
    }
    Status message(const QString &name, const QString &) override { return Status::failure(refusal(name)); }
    Status reload(const QString &name, const QList<DmTargetLine> &) override { return Status::failure(refusal(name)); }
    Result<quint32> waitEvent(const QString &name, quint32) override { return Result<quint32>::failure(refusal(name)); }
    QString readOnlyReason() const override { return QStringLiteral("a map's state as its host reported it"); }

private:
    QString refusal(const QString &name) const { return QStringLiteral("%1: %2").arg(name, readOnlyReason()); }
    const MapStateReport m_report;
};

} // namespace

QJsonObject mapStateReportJson(const MapStateReport &report)
{
    const DmInfo &i = report.info;
    const QJsonObject info { { "exists"_L1, i.exists }, { "suspended"_L1, i.suspended }, { "read_only"_L1, i.readOnly },
        { "live_table"_L1, i.liveTable }, { "inactive_table"_L1, i.inactiveTable }, { "open_count"_L1, i.openCount },
        { "event_nr"_L1, qint64(i.eventNr) }, { "major"_L1, qint64(i.major) }, { "minor"_L1, qint64(i.minor) },
        { "target_count"_L1, i.targetCount }, { "uuid"_L1, i.uuid } };
    return { { "name"_L1, report.name }, { "info"_L1, info }, { "table"_L1, targetLinesJson(report.table) },
        { "status"_L1, targetLinesJson(report.status) } };
}

Result<MapStateReport> parseMapStateReport(const QJsonObject &message)
{
    MapStateReport report;
    report.name = message.value("name"_L1).toString();
    if (const Status named = checkMapName(report.name); !named)
        return Result<MapStateReport>::failure(QStringLiteral("a map report: %1").arg(named.errorMessage()));
    const QJsonValue infoValue = message.value("info"_L1);
    if (!infoValue.isObject())
        return Result<MapStateReport>::failure(QStringLiteral("%1: a report without \"info\"").arg(report.name));
    const QJsonObject info = infoValue.toObject();
    DmInfo &i = report.info;
    const auto flag = [&info](QLatin1StringView key, bool *out) {
        const QJsonValue v = info.value(key);
        *out = v.toBool();
        return v.isBool();
    };
    const double openCount = info.value("open_count"_L1).toDouble(-1);
    const double targetCount = info.value("target_count"_L1).toDouble(-1);
    if (!flag("exists"_L1, &i.exists) || !flag("suspended"_L1, &i.suspended) || !flag("read_only"_L1, &i.readOnly)
        || !flag("live_table"_L1, &i.liveTable) || !flag("inactive_table"_L1, &i.inactiveTable)
        || !readCount(info, "event_nr"_L1, &i.eventNr) || !readCount(info, "major"_L1, &i.major)
        || !readCount(info, "minor"_L1, &i.minor) || openCount < 0 || openCount > 1e9
        || openCount != double(int(openCount)) || targetCount < 0 || targetCount > 1e6
        || targetCount != double(int(targetCount)) || !info.value("uuid"_L1).isString())
        return Result<MapStateReport>::failure(
            QStringLiteral("%1: a report whose \"info\" is malformed").arg(report.name));
    i.openCount = int(openCount);
    i.targetCount = int(targetCount);
    i.uuid = info.value("uuid"_L1).toString();
    const Result<QList<DmTargetLine>> table = targetLinesFromJson(message.value("table"_L1), u"table"_s);
    const Result<QList<DmTargetLine>> status = targetLinesFromJson(message.value("status"_L1), u"status"_s);
    if (!table || !status)
        return Result<MapStateReport>::failure(
            QStringLiteral("%1: %2").arg(report.name, table ? status.errorMessage() : table.errorMessage()));
    report.table = table.value();
    report.status = status.value();
    return report;
}

std::shared_ptr<DeviceMapper> reportedMapReader(MapStateReport report)
{
    return std::make_shared<ReportedMapReader>(std::move(report));
}

RemoteMapStream::RemoteMapStream(AgentClient *client, QObject *parent)
    : MapStream(parent)
    , m_client(client)
{
    connect(m_client, &AgentClient::message, this, &RemoteMapStream::onMessage);
    // After a lost connection the agent is a new one: follow the map again there.
    connect(m_client, &AgentClient::ready, this, &RemoteMapStream::request);
    connect(m_client, &AgentClient::disconnected, this, [this] {
        m_id = 0;
        m_reader.reset(); // what was reported is no longer known to be so
    });
}

RemoteMapStream::~RemoteMapStream()
{
    cancel();
}

bool RemoteMapStream::isSupported() const
{
    return m_client && m_client->agentHello().value("ops"_L1).toArray().contains(u"map"_s);
}

void RemoteMapStream::follow(const QString &map)
{
    if (map == m_map && (m_id || map.isEmpty()))
        return;
    cancel();
    m_map = map;
    m_reader.reset();
    request();
}

void RemoteMapStream::cancel()
{
    if (m_id && m_client && m_client->isReady())
        m_client->request(u"cancel"_s, { { "target"_L1, m_id } });
    m_id = 0;
}

void RemoteMapStream::request()
{
    if (m_map.isEmpty() || !m_client || !m_client->isReady() || !isSupported())
        return;
    cancel();
    m_id = m_client->request(u"map"_s, { { "name"_L1, m_map } });
}

void RemoteMapStream::onMessage(const QJsonObject &message)
{
    if (!m_id || message.value("id"_L1).toInteger() != m_id)
        return;
    const QString type = message.value("type"_L1).toString();
    if (type == "map"_L1) {
        Result<MapStateReport> report = parseMapStateReport(message);
        if (!report || report->name != m_map) {
            Q_EMIT failed(m_map,
                report ? QStringLiteral("a report of another map: %1").arg(report->name) : report.errorMessage());
            return;
        }
        m_reader = reportedMapReader(std::move(report.value()));
        Q_EMIT changed(m_map);
    } else if (type == "map-failed"_L1 || type == "error"_L1) {
        if (type == "error"_L1)
            m_id = 0; // refused: nothing follows
        Q_EMIT failed(m_map, message.value("error"_L1).toString());
    }
}

} // namespace dmtune
