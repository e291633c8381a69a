#include "core/dm/backend/captureddevicemapper.h"

#include <QJsonArray>

namespace dmtune {

namespace {

Status readOnly()
{
    return Status::failure(QStringLiteral("a captured system is read-only: nothing is sent to this host's "
                                          "device-mapper or multipathd"));
}

} // namespace

QJsonObject capturedMapToJson(
    const QString &name, const DmInfo &info, const QList<DmTargetLine> &table, const QList<DmTargetLine> &status)
{
    return QJsonObject {
        { QStringLiteral("name"), name },
        { QStringLiteral("uuid"), info.uuid },
        { QStringLiteral("major"), qint64(info.major) },
        { QStringLiteral("minor"), qint64(info.minor) },
        { QStringLiteral("suspended"), info.suspended },
        { QStringLiteral("read_only"), info.readOnly },
        { QStringLiteral("open_count"), info.openCount },
        { QStringLiteral("event_nr"), qint64(info.eventNr) },
        { QStringLiteral("table"), targetLinesJson(table) },
        { QStringLiteral("status"), targetLinesJson(status) },
    };
}

Result<QList<CapturedMap>> CapturedDeviceMapper::parseMaps(const QJsonObject &deviceMapper)
{
    const QJsonValue maps = deviceMapper.value(QStringLiteral("maps"));
    if (!maps.isArray())
        return Result<QList<CapturedMap>>::failure(QStringLiteral("device_mapper.maps: not an array"));
    QList<CapturedMap> out;
    int i = 0;
    for (const QJsonValue &v : maps.toArray()) {
        const QJsonObject o = v.toObject();
        const QString where = QStringLiteral("device_mapper.maps[%1]").arg(i++);
        CapturedMap m;
        m.name = o.value(QStringLiteral("name")).toString();
        if (const Status valid = checkMapName(m.name); !valid)
            return Result<QList<CapturedMap>>::failure(QStringLiteral("%1.name: %2").arg(where, valid.errorMessage()));
        m.info.exists = true;
        m.info.liveTable = true;
        m.info.uuid = o.value(QStringLiteral("uuid")).toString();
        m.info.major = quint32(o.value(QStringLiteral("major")).toInteger());
        m.info.minor = quint32(o.value(QStringLiteral("minor")).toInteger());
        m.info.suspended = o.value(QStringLiteral("suspended")).toBool();
        m.info.readOnly = o.value(QStringLiteral("read_only")).toBool();
        m.info.openCount = o.value(QStringLiteral("open_count")).toInt();
        m.info.eventNr = quint32(o.value(QStringLiteral("event_nr")).toInteger());
        auto table = targetLinesFromJson(o.value(QStringLiteral("table")), where + QStringLiteral(".table"));
        if (!table)
            return Result<QList<CapturedMap>>::failure(table.errorMessage());
        auto status = targetLinesFromJson(o.value(QStringLiteral("status")), where + QStringLiteral(".status"));
        if (!status)
            return Result<QList<CapturedMap>>::failure(status.errorMessage());
        m.table = table.value();
        m.status = status.value();
        m.info.targetCount = int(m.table.size());
        out.append(m);
    }
    return out;
}

CapturedDeviceMapper::CapturedDeviceMapper(QList<CapturedMap> maps)
    : m_maps(std::move(maps))
{
}

const CapturedMap *CapturedDeviceMapper::find(const QString &name) const
{
    for (const CapturedMap &m : m_maps) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

Result<QList<DmMapName>> CapturedDeviceMapper::listMaps()
{
    QList<DmMapName> names;
    for (const CapturedMap &m : std::as_const(m_maps))
        names.append(DmMapName { m.name, m.info.major, m.info.minor });
    return names;
}

Result<DmInfo> CapturedDeviceMapper::info(const QString &name)
{
    const CapturedMap *m = find(name);
    return m ? m->info : DmInfo {};
}

Result<QList<DmTargetLine>> CapturedDeviceMapper::table(const QString &name)
{
    const CapturedMap *m = find(name);
    if (!m)
        return Result<QList<DmTargetLine>>::failure(QStringLiteral("%1: not in the capture").arg(name));
    return m->table;
}

Result<QList<DmTargetLine>> CapturedDeviceMapper::status(const QString &name)
{
    const CapturedMap *m = find(name);
    if (!m)
        return Result<QList<DmTargetLine>>::failure(QStringLiteral("%1: not in the capture").arg(name));
    return m->status;
}

Status CapturedDeviceMapper::message(const QString &, const QString &)
{
    return readOnly();
}

Status CapturedDeviceMapper::reload(const QString &, const QList<DmTargetLine> &)
{
    return readOnly();
}

QString CapturedDeviceMapper::readOnlyReason() const
{
    return readOnly().errorMessage();
}

Result<quint32> CapturedDeviceMapper::waitEvent(const QString &, quint32)
{
    return Result<quint32>::failure(readOnly().errorMessage());
}

} // namespace dmtune
