// captureConfiguration (declared in recordingwriter.h): what a recording remembers of the machine.
#include "core/recordings/recordingwriter.h"

#include "core/discovery/devicesnapshot.h"
#include "core/discovery/snapshotjson.h"
#include "core/params/tunable.h"
#include "core/sysfs/sysfsroot.h"

#include <QJsonArray>
#include <QSysInfo>

namespace dmtune {

namespace {

QJsonObject tunablesOf(const SysfsRoot &root, const QString &device)
{
    QJsonObject tunables;
    for (const Tunable &t : readTunables(root, device))
        tunables.insert(t.attribute, t.readable ? QJsonValue(t.value) : QJsonValue(QJsonValue::Null));
    return tunables;
}

bool mapConcerns(const MultipathMap &map, const QStringList &devices)
{
    if (devices.contains(map.device) || devices.contains(map.name))
        return true;
    for (const QString &path : map.slaves) {
        if (devices.contains(path))
            return true;
    }
    return false;
}

} // namespace

QJsonObject captureConfiguration(const SysfsRoot &root, const DeviceSnapshot &snapshot, const QStringList &devices)
{
    QJsonArray deviceList;
    for (const QString &name : devices) {
        const BlockDevice *device = snapshot.device(name);
        QJsonObject entry = device ? deviceToJson(*device) : QJsonObject { { QStringLiteral("name"), name } };
        entry.insert(QStringLiteral("tunables"), tunablesOf(root, name));
        deviceList.append(entry);
    }
    QJsonArray maps;
    for (const MultipathMap &map : snapshot.maps) {
        if (mapConcerns(map, devices))
            maps.append(mapToJson(map));
    }
    QString kernel = snapshot.kernelRelease;
    if (kernel.isEmpty())
        kernel = root.readProc(QStringLiteral("sys/kernel/osrelease")).valueOr({}).trimmed();
    return {
        { QStringLiteral("host"), QSysInfo::machineHostName() },
        { QStringLiteral("kernel"), kernel },
        { QStringLiteral("captured"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs) },
        { QStringLiteral("sysfs_root"), root.root() },
        { QStringLiteral("device_mapper"),
            QJsonObject { { QStringLiteral("available"), snapshot.deviceMapper.available },
                { QStringLiteral("driver_version"), snapshot.deviceMapper.driverVersion } } },
        { QStringLiteral("devices"), deviceList },
        { QStringLiteral("maps"), maps },
    };
}

} // namespace dmtune
