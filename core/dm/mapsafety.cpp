#include "core/dm/mapsafety.h"

#include <QHash>

namespace dmtune {

namespace {
int activePaths(const MultipathStatus &status)
{
    int count = 0;
    for (const GroupStatus &group : status.groups)
        count += group.activePathCount();
    return count;
}

// devnum -> active, from the kernel's status.
QHash<QString, bool> pathStates(const MultipathStatus &status)
{
    QHash<QString, bool> states;
    for (const GroupStatus &group : status.groups) {
        for (const PathStatus &path : group.paths)
            states.insert(path.device, path.active);
    }
    return states;
}

// The group the kernel uses now, or the one the next I/O takes when none is in use yet.
int currentGroup(const MultipathStatus &status)
{
    return status.activeGroup() ? status.activeGroup() : status.nextGroup;
}

QStringList failPathRisks(const MultipathTable &table, const MultipathStatus &status, const QString &device)
{
    const bool queueing = table.queueIfNoPath();
    for (qsizetype g = 0; g < status.groups.size(); ++g) {
        const GroupStatus &group = status.groups.at(g);
        for (const PathStatus &path : group.paths) {
            if (path.device != device || !path.active)
                continue;
            if (activePaths(status) == 1) {
                return { queueing ? QStringLiteral("fail_path %1 fails the last active path of the map: I/O queues "
                                                   "(queue_if_no_path) and hangs until a path is reinstated")
                                        .arg(device)
                                  : QStringLiteral("fail_path %1 fails the last active path of the map while "
                                                   "queue_if_no_path is off: all I/O fails with errors")
                                        .arg(device) };
            }
            if (group.activePathCount() == 1 && !queueing)
                return { QStringLiteral("fail_path %1 leaves group %2 without an active path while queue_if_no_path "
                                        "is off: I/O fails over to another group, and fails with errors once "
                                        "that group loses its paths too")
                             .arg(device)
                             .arg(g + 1) };
            return {};
        }
    }
    return {}; // not in the map, or already failed: nothing changes here
}

QStringList disableGroupRisks(const MultipathStatus &status, int number)
{
    if (number < 1 || number > status.groups.size() || status.groups.at(number - 1).state == QLatin1Char('D'))
        return {};
    if (currentGroup(status) != number)
        return {};
    bool otherUsable = false;
    for (qsizetype g = 0; g < status.groups.size(); ++g) {
        const GroupStatus &group = status.groups.at(g);
        if (g + 1 != number && group.state != QLatin1Char('D') && group.activePathCount() > 0)
            otherUsable = true;
    }
    return { otherUsable ? QStringLiteral("disable_group %1 disables the active group: I/O fails over to another group "
                                          "(a pause while it initialises; paths there must be able to serve I/O)")
                               .arg(number)
                         : QStringLiteral("disable_group %1 disables the active group and no other group has an active "
                                          "path: the kernel keeps using the bypassed group")
                               .arg(number) };
}

QList<LunId> lunIdsOf(const QStringList &wwids)
{
    QList<LunId> ids;
    for (const QString &wwid : wwids) {
        if (const auto id = parseLunId(wwid); id && !ids.contains(id.value()))
            ids.append(id.value());
    }
    return ids;
}

bool anySame(const QList<LunId> &a, const QList<LunId> &b)
{
    for (const LunId &x : a) {
        for (const LunId &y : b) {
            if (sameLun(x, y))
                return true;
        }
    }
    return false;
}

// Each key once: a map's UUID in ID_SERIAL form may give its paths' key marked truncated (a 16-digit NAA 6).
QStringList keysOf(const QList<LunId> &ids)
{
    QStringList keys;
    for (const LunId &id : ids) {
        if (!keys.contains(id.key))
            keys.append(id.key);
    }
    return keys;
}

QStringList failIfNoPathRisks(const MultipathTable &table, const MultipathStatus &status)
{
    if (!table.queueIfNoPath())
        return {};
    const int active = activePaths(status);
    if (active == 0)
        return { QStringLiteral("fail_if_no_path while no path is active: the queued I/O fails with errors now") };
    if (active == 1)
        return { QStringLiteral("fail_if_no_path with one active path left: when it fails, I/O fails with errors "
                                "instead of queueing") };
    return {};
}
} // namespace

QStringList operationRisks(
    const MultipathTable &table, const MultipathStatus &status, const MultipathMessage &operation)
{
    switch (operation.kind) {
    case MultipathMessageKind::FailPath:
        return failPathRisks(table, status, operation.device);
    case MultipathMessageKind::DisableGroup:
        return disableGroupRisks(status, operation.group);
    case MultipathMessageKind::FailIfNoPath:
        return failIfNoPathRisks(table, status);
    case MultipathMessageKind::ReinstatePath:
    case MultipathMessageKind::SwitchGroup: // the kernel falls back when the group has no usable path
    case MultipathMessageKind::EnableGroup:
    case MultipathMessageKind::QueueIfNoPath:
        return {};
    }
    return {};
}

QStringList reloadRisks(const MultipathTable &current, const MultipathStatus &status, const MultipathTable &proposed)
{
    QStringList risks;
    const QHash<QString, bool> states = pathStates(status);
    bool noneActive = false; // said once for the whole table, not again per group
    QStringList proposedPaths;
    for (const PathGroupSpec &group : proposed.groups) {
        for (const PathSpec &path : group.paths)
            proposedPaths.append(path.device);
    }
    if (proposedPaths.isEmpty()) {
        risks.append(proposed.queueIfNoPath()
                ? QStringLiteral("the new table has no path: all I/O queues until paths are added")
                : QStringLiteral("the new table has no path: all I/O fails with errors"));
    } else {
        bool anyKnownActive = false;
        bool allKnown = true;
        for (const QString &device : proposedPaths) {
            if (!states.contains(device))
                allKnown = false;
            else if (states.value(device))
                anyKnownActive = true;
        }
        noneActive = allKnown && !anyKnownActive;
        if (noneActive)
            risks.append(QStringLiteral("none of the new table's paths is active now: the kernel starts them as "
                                        "active, and I/O fails on them"));
        else if (!allKnown && !anyKnownActive && activePaths(status) > 0)
            risks.append(QStringLiteral("the new table keeps none of the paths that are active now: I/O moves to "
                                        "paths the kernel has not used yet"));
    }
    if (current.queueIfNoPath() && !proposed.queueIfNoPath())
        risks.append(QStringLiteral("the new table drops queue_if_no_path: when no path is left, I/O fails with "
                                    "errors instead of queueing"));
    if (!proposed.queueIfNoPath() && !noneActive) {
        for (qsizetype g = 0; g < proposed.groups.size(); ++g) {
            const PathGroupSpec &group = proposed.groups.at(g);
            bool failed = !group.paths.isEmpty();
            for (const PathSpec &path : group.paths) {
                if (!states.contains(path.device) || states.value(path.device))
                    failed = false;
            }
            if (failed)
                risks.append(QStringLiteral("group %1 of the new table has no active path while queue_if_no_path "
                                            "is off")
                                 .arg(g + 1));
        }
    }
    if (current.hwHandler != proposed.hwHandler)
        risks.append(
            QStringLiteral("the hardware handler changes (%1 -> %2): the kernel attaches it when the "
                           "table loads, and it may reject I/O on some ports (e.g. ALUA standby), "
                           "failing those paths")
                .arg(current.hwHandler.isEmpty() ? QStringLiteral("none") : current.hwHandler.join(QLatin1Char(' ')),
                    proposed.hwHandler.isEmpty() ? QStringLiteral("none") : proposed.hwHandler.join(QLatin1Char(' '))));
    return risks;
}

QStringList identityRisks(const MapIdentity &identity, const MultipathTable &current, const MultipathTable &proposed)
{
    const QStringList live = current.devices();
    QList<LunId> mapIds;
    if (identity.uuid.startsWith(QLatin1String("mpath-")))
        mapIds = lunIdsOf({ identity.uuid });
    for (const QString &device : live) {
        if (const PathIdentity *path = identity.path(device)) {
            for (const LunId &id : lunIdsOf(path->wwids)) {
                if (!mapIds.contains(id))
                    mapIds.append(id);
            }
        }
    }
    const QString map = identity.map;
    const QString mapLun = mapIds.isEmpty() ? QString() : keysOf(mapIds).join(QStringLiteral(" / "));
    QStringList risks;
    QStringList checked;
    for (const QString &device : proposed.devices()) {
        if (live.contains(device) || checked.contains(device))
            continue;
        checked.append(device);
        const PathIdentity *path = identity.path(device);
        const QString label = path ? path->label() : device;
        const QList<LunId> ids = path ? lunIdsOf(path->wwids) : QList<LunId>();
        if (!ids.isEmpty() && anySame(ids, mapIds))
            continue;
        if (mapIds.isEmpty())
            risks.append(QStringLiteral("the LUN of %2 is unknown (no mpath- UUID, its paths report no WWID): "
                                        "nothing shows that path %1 (LUN %3) is the same disk")
                             .arg(label, map, ids.isEmpty() ? QStringLiteral("unknown") : ids.first().key));
        else if (ids.isEmpty())
            risks.append(QStringLiteral("path %1 reports no WWID: nothing shows that it is LUN %2 of %3; another "
                                        "disk in the map would get part of its writes")
                             .arg(label, mapLun, map));
        else
            risks.append(QStringLiteral("path %1 is LUN %2, not LUN %3 of %4: the map would spread its writes over "
                                        "two different disks")
                             .arg(label, ids.first().key, mapLun, map));
    }
    return risks;
}

} // namespace dmtune
