#include "core/discovery/multipathreader.h"

#include "core/dm/backend/devicemapper.h"
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"

namespace dmtune {

namespace {
// Paths are "maj:min" in kernel output (or /dev/... as a user wrote them): name them from sysfs.
QString pathName(const QString &device, const DeviceSnapshot &snapshot)
{
    if (const BlockDevice *d = snapshot.deviceByDevnum(device))
        return d->name;
    if (device.startsWith(QLatin1String("/dev/"))) {
        const QString name = device.mid(5);
        if (snapshot.device(name))
            return name;
    }
    return {};
}
} // namespace

void readMultipathGroups(MultipathMap &map, DeviceMapper &dm, const DeviceSnapshot &snapshot)
{
    auto unknown = [&map](const QString &why) {
        map.groupsKnown = false;
        map.groupsUnknownReason = why;
        map.groups.clear();
    };
    const auto tableLines = dm.table(map.name);
    if (!tableLines)
        return unknown(QStringLiteral("table of %1: %2").arg(map.name, tableLines.errorMessage()));
    const auto table = multipathTableOf(tableLines.value());
    if (!table)
        return unknown(QStringLiteral("table of %1: %2").arg(map.name, table.errorMessage()));
    const auto statusLines = dm.status(map.name);
    if (!statusLines)
        return unknown(QStringLiteral("status of %1: %2").arg(map.name, statusLines.errorMessage()));
    const auto status = multipathStatusOf(statusLines.value());
    if (!status)
        return unknown(QStringLiteral("status of %1: %2").arg(map.name, status.errorMessage()));
    if (status->groups.size() != table->groups.size())
        return unknown(QStringLiteral("%1: table has %2 path groups, status %3 (changed while read)")
                           .arg(map.name)
                           .arg(table->groups.size())
                           .arg(status->groups.size()));

    map.tableLine = formatMultipathTable(table.value());
    map.tableTargetLine = formatTargetLine(tableLines->first());
    map.statusLine = statusLines->isEmpty() ? QString() : statusLines->first().params;
    map.features = table->features;
    map.hwHandler = table->hwHandler;
    map.nextGroup = status->nextGroup;
    map.groups.clear();
    for (int g = 0; g < table->groups.size(); ++g) {
        const PathGroupSpec &spec = table->groups[g];
        const GroupStatus &gs = status->groups[g];
        PathGroupInfo group;
        group.index = g + 1;
        group.state = QString(gs.state);
        group.selector = spec.selector;
        group.selectorArgs = spec.selectorArgs;
        for (int p = 0; p < spec.paths.size(); ++p) {
            PathInfo path;
            path.devnum = spec.paths[p].device;
            path.name = pathName(path.devnum, snapshot);
            path.selectorArgs = spec.paths[p].args;
            if (p < gs.paths.size()) {
                const PathStatus &ps = gs.paths[p];
                path.state = ps.active ? QStringLiteral("A") : QStringLiteral("F");
                path.failCount = ps.failCount;
                path.selectorInfo = ps.selectorInfo;
            }
            group.paths.append(path);
        }
        map.groups.append(group);
    }
    map.groupsKnown = true;
    map.groupsUnknownReason.clear();
}

} // namespace dmtune
