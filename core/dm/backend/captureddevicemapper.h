#pragma once
// The device-mapper of a captured system (dmtunectl capture): the maps, tables and statuses recorded in
// dmtune-capture.json, read-only. A support engineer sees a customer's path groups as the kernel had them.
#include "core/dm/backend/devicemapper.h"

#include <QJsonObject>

namespace dmtune {

struct CapturedMap {
    DmInfo info;
    QString name;
    QList<DmTargetLine> table;
    QList<DmTargetLine> status;
};

class CapturedDeviceMapper : public DeviceMapper {
public:
    // The "device_mapper" object of a capture file; errors name the map and the field.
    static Result<QList<CapturedMap>> parseMaps(const QJsonObject &deviceMapper);
    explicit CapturedDeviceMapper(QList<CapturedMap> maps);

    Result<QList<DmMapName>> listMaps() override;
    Result<DmInfo> info(const QString &name) override;
    Result<QList<DmTargetLine>> table(const QString &name) override;
    Result<QList<DmTargetLine>> status(const QString &name) override;
    Status message(const QString &name, const QString &text) override;
    Status reload(const QString &name, const QList<DmTargetLine> &table) override;
    Result<quint32> waitEvent(const QString &name, quint32 eventNr) override;
    QString readOnlyReason() const override;

private:
    const CapturedMap *find(const QString &name) const;
    QList<CapturedMap> m_maps;
};

// The JSON of one map as a capture stores it (the inverse of parseMaps for one entry).
QJsonObject capturedMapToJson(
    const QString &name, const DmInfo &info, const QList<DmTargetLine> &table, const QList<DmTargetLine> &status);

} // namespace dmtune
