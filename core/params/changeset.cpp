#include "core/params/changeset.h"

#include "core/params/catalog.h"

namespace dmtune {

Result<Assignment> parseAssignment(const QString &text)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return Result<Assignment>::failure(
            QStringLiteral("'%1' is not ATTRIBUTE=VALUE").arg(text), ErrorCode::InvalidInput);
    const auto key = catalog::resolve(text.left(eq));
    if (!key)
        return Result<Assignment>::failure(key.errorMessage(), key.errorCode());
    return Assignment { key.value(), text.mid(eq + 1) };
}

Result<QStringList> scopeDevices(const DeviceSnapshot &snapshot, ChangeScope scope, const QStringList &devices)
{
    if (devices.isEmpty())
        return Result<QStringList>::failure(QStringLiteral("no device selected"));
    if (scope == ChangeScope::Device || scope == ChangeScope::Selection) {
        for (const auto &d : devices) {
            if (!snapshot.device(d))
                return Result<QStringList>::failure(QStringLiteral("%1: no such device").arg(d));
        }
        return devices;
    }
    QStringList out;
    for (const auto &d : devices) {
        const MultipathMap *map = snapshot.map(d);
        const BlockDevice *dev = snapshot.device(map ? map->device : d);
        QStringList paths = map ? map->slaves : QStringList();
        if (paths.isEmpty() && dev && dev->isDeviceMapper())
            paths = dev->slaves;
        if (!dev || paths.isEmpty())
            return Result<QStringList>::failure(QStringLiteral("%1 is not a map with paths").arg(d));
        if (scope == ChangeScope::MapAndPaths && !out.contains(dev->name))
            out << dev->name;
        for (const auto &p : paths) {
            if (!out.contains(p))
                out << p;
        }
    }
    return out;
}

ChangeSet makeChangeSet(const QStringList &devices, const QList<Assignment> &assignments)
{
    ChangeSet out;
    for (const auto &a : assignments) {
        const TunableDef *def = catalog::find(a.attribute);
        const bool global = def && def->location == TunableLocation::Module;
        for (const auto &d : devices) {
            out << Change { d, a.attribute, a.value };
            if (global)
                break;
        }
    }
    return out;
}

} // namespace dmtune
