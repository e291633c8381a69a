#include "core/dm/multipathchange.h"

#include "core/dm/grammar/tablediff.h"
#include "core/dm/mapsafety.h"
#include "core/dm/multipathd/multipathdclient.h"
#include "core/dm/pathdevice.h"

namespace dmtune {

namespace {
const PathStatus *findPath(const MultipathStatus &status, const QString &device, int *group = nullptr)
{
    for (qsizetype g = 0; g < status.groups.size(); ++g) {
        for (const PathStatus &path : status.groups.at(g).paths) {
            if (path.device == device) {
                if (group)
                    *group = int(g + 1);
                return &path;
            }
        }
    }
    return nullptr;
}

bool isPathOperation(MultipathMessageKind kind)
{
    return kind == MultipathMessageKind::FailPath || kind == MultipathMessageKind::ReinstatePath;
}

bool isGroupOperation(MultipathMessageKind kind)
{
    return kind == MultipathMessageKind::SwitchGroup || kind == MultipathMessageKind::EnableGroup
        || kind == MultipathMessageKind::DisableGroup;
}

QString pathLabel(const PreparedOperation &op)
{
    return op.pathName.isEmpty() ? op.message.device : QStringLiteral("%1 (%2)").arg(op.message.device, op.pathName);
}

// What the kernel shows after the operation when it took effect; a warning otherwise. Not an
// error: the operation was accepted, and the kernel or multipathd may have acted since.
QString checkAfter(const PreparedOperation &op, const MultipathMapState &after)
{
    const MultipathMessage &m = op.message;
    switch (m.kind) {
    case MultipathMessageKind::FailPath:
    case MultipathMessageKind::ReinstatePath: {
        const bool wantActive = m.kind == MultipathMessageKind::ReinstatePath;
        const PathStatus *path = findPath(after.status, m.device);
        if (path && path->active != wantActive)
            return QStringLiteral("the kernel shows %1 %2 right after %3")
                .arg(pathLabel(op), path->active ? QStringLiteral("active") : QStringLiteral("failed"),
                    multipathMessageKeyword(m.kind));
        return {};
    }
    case MultipathMessageKind::SwitchGroup:
        if (after.status.nextGroup != m.group && after.status.activeGroup() != m.group)
            return QStringLiteral("the kernel went on with group %1, not %2 (it falls back when a group has no "
                                  "usable path)")
                .arg(after.status.activeGroup() ? after.status.activeGroup() : after.status.nextGroup)
                .arg(m.group);
        return {};
    case MultipathMessageKind::EnableGroup:
    case MultipathMessageKind::DisableGroup: {
        const bool wantDisabled = m.kind == MultipathMessageKind::DisableGroup;
        if (m.group <= after.status.groups.size()
            && (after.status.groups.at(m.group - 1).state == QLatin1Char('D')) != wantDisabled)
            return QStringLiteral("the kernel shows group %1 %2 right after %3")
                .arg(m.group)
                .arg(wantDisabled ? QStringLiteral("not disabled") : QStringLiteral("still disabled"),
                    multipathMessageKeyword(m.kind));
        return {};
    }
    case MultipathMessageKind::QueueIfNoPath:
    case MultipathMessageKind::FailIfNoPath:
        if (after.table.queueIfNoPath() != (m.kind == MultipathMessageKind::QueueIfNoPath))
            return QStringLiteral("the kernel's table %1 queue_if_no_path after %2")
                .arg(after.table.queueIfNoPath() ? QStringLiteral("still has") : QStringLiteral("has no"),
                    multipathMessageKeyword(m.kind));
        return {};
    }
    return {};
}

MultipathOperationResult failed(MultipathOperationResult result, const QString &error)
{
    result.status = Status::failure(error);
    return result;
}
} // namespace

MultipathdCommand liveMultipathd()
{
    if (!MultipathdClient::isRunning())
        return {};
    return [](const QString &command) { return MultipathdClient().command(command); };
}

Result<MultipathMapState> readMultipathMapState(DeviceMapper &dm, const QString &map)
{
    using R = Result<MultipathMapState>;
    if (const Status s = checkMapName(map); !s)
        return R::failure(s.errorMessage());
    const auto info = dm.info(map);
    if (!info)
        return R::failure(info.errorMessage());
    if (!info->exists)
        return R::failure(QStringLiteral("%1: no such map").arg(map));
    const auto lines = dm.table(map);
    if (!lines)
        return R::failure(lines.errorMessage());
    const auto table = multipathTableOf(lines.value());
    if (!table)
        return R::failure(QStringLiteral("%1: %2").arg(map, table.errorMessage()));
    const auto statusLines = dm.status(map);
    if (!statusLines)
        return R::failure(statusLines.errorMessage());
    const auto status = multipathStatusOf(statusLines.value());
    if (!status)
        return R::failure(QStringLiteral("%1: status: %2").arg(map, status.errorMessage()));
    MultipathMapState state;
    state.info = info.value();
    for (const DmTargetLine &line : lines.value()) {
        if (line.targetType == QLatin1String("multipath"))
            state.line = line;
    }
    state.table = table.value();
    state.status = status.value();
    return state;
}

QString multipathdCommandFor(const QString &map, const MultipathMessage &message, const QString &pathName)
{
    const QString quotedMap = quoteMultipathdArgument(map);
    switch (message.kind) {
    case MultipathMessageKind::FailPath:
        return pathName.isEmpty() ? QString() : QStringLiteral("fail path ") + pathName;
    case MultipathMessageKind::ReinstatePath:
        return pathName.isEmpty() ? QString() : QStringLiteral("reinstate path ") + pathName;
    case MultipathMessageKind::SwitchGroup:
        return QStringLiteral("switchgroup map %1 group %2").arg(quotedMap).arg(message.group);
    case MultipathMessageKind::QueueIfNoPath:
        return QStringLiteral("restorequeueing map ") + quotedMap;
    case MultipathMessageKind::FailIfNoPath:
        return QStringLiteral("disablequeueing map ") + quotedMap;
    case MultipathMessageKind::EnableGroup:
    case MultipathMessageKind::DisableGroup:
        return {}; // multipathd has no such command
    }
    return {};
}

Result<PreparedOperation> prepareMultipathOperation(
    DeviceMapper &dm, const SysfsRoot &sysfs, const QString &map, const MultipathMessage &message)
{
    using R = Result<PreparedOperation>;
    const auto state = readMultipathMapState(dm, map);
    if (!state)
        return R::failure(state.errorMessage());
    PreparedOperation op;
    op.map = map;
    op.message = message;
    op.before = state.value();
    if (isPathOperation(message.kind)) {
        const auto path = resolvePathDevice(sysfs, message.device);
        if (!path)
            return R::failure(path.errorMessage());
        const QStringList devices = op.before.table.devices();
        if (!devices.contains(path->devnum))
            return R::failure(
                QStringLiteral("%1: %2 is not a path of this map (its paths: %3)")
                    .arg(map,
                        path->name.isEmpty() ? path->devnum : QStringLiteral("%1 (%2)").arg(path->name, path->devnum),
                        devices.join(QLatin1Char(' '))));
        op.message.device = path->devnum;
        op.pathName = path->name;
    }
    if (isGroupOperation(message.kind)) {
        const auto text = formatMultipathMessage(op.message, int(op.before.table.groups.size()));
        if (!text)
            return R::failure(QStringLiteral("%1: %2").arg(map, text.errorMessage()));
    }
    op.risks = operationRisks(op.before.table, op.before.status, op.message);
    return op;
}

MultipathOperationResult executeMultipathOperation(
    DeviceMapper &dm, const PreparedOperation &prepared, const MultipathdCommand &multipathd)
{
    MultipathOperationResult result;
    result.map = prepared.map;
    // Before multipathd too: it would act on this host's map of that name.
    if (const QString why = dm.readOnlyReason(); !why.isEmpty())
        return failed(result, QStringLiteral("%1: %2").arg(prepared.map, why));
    const auto text = formatMultipathMessage(prepared.message, int(prepared.before.table.groups.size()));
    if (!text)
        return failed(result, QStringLiteral("%1: %2").arg(prepared.map, text.errorMessage()));
    result.operation = text.value();

    const QString command
        = multipathd ? multipathdCommandFor(prepared.map, prepared.message, prepared.pathName) : QString();
    bool useMultipathd = false;
    if (!command.isEmpty()) {
        // multipathd acts on paths by name wherever they are; only use it for maps it manages,
        // so that a map made by hand (dmsetup) is not routed through a daemon that ignores it.
        const auto names = multipathd(multipathdMapNamesCommand());
        if (!names)
            result.warnings.append(QStringLiteral("multipathd runs but did not list its maps (%1): sent as a "
                                                  "device-mapper message")
                                       .arg(names.errorMessage()));
        else if (!parseMultipathdNames(names.value()).contains(prepared.map))
            result.warnings.append(QStringLiteral("multipathd runs but does not manage %1: sent as a device-mapper "
                                                  "message")
                                       .arg(prepared.map));
        else
            useMultipathd = true;
    } else if (multipathd) {
        if (prepared.message.kind == MultipathMessageKind::EnableGroup
            || prepared.message.kind == MultipathMessageKind::DisableGroup)
            result.warnings.append(QStringLiteral("multipathd has no command for %1: sent as a device-mapper "
                                                  "message; multipathd may enable the group again when its "
                                                  "checker reinstates one of its paths")
                                       .arg(multipathMessageKeyword(prepared.message.kind)));
        else if (isPathOperation(prepared.message.kind))
            result.warnings.append(QStringLiteral("%1 has no device name for multipathd: sent as a device-mapper "
                                                  "message")
                                       .arg(prepared.message.device));
    }

    if (useMultipathd) {
        result.via = QStringLiteral("multipathd");
        result.command = command;
        const auto reply = multipathd(command);
        if (!reply)
            return failed(result, QStringLiteral("%1: %2").arg(prepared.map, reply.errorMessage()));
        if (reply->trimmed() != QLatin1String("ok"))
            return failed(result,
                QStringLiteral("%1: multipathd: \"%2\": unexpected reply \"%3\"")
                    .arg(prepared.map, command, QStringView(reply.value()).trimmed().left(200).toString()));
    } else {
        result.via = QStringLiteral("device-mapper");
        result.command = result.operation;
        if (const Status sent = dm.message(prepared.map, result.operation); !sent)
            return failed(result, sent.errorMessage());
    }

    auto after = readMultipathMapState(dm, prepared.map);
    if (!after) {
        result.warnings.append(QStringLiteral("could not read the map back: ") + after.errorMessage());
        result.status = Status::success();
        return result;
    }
    // restorequeueing only turns queueing on when multipath.conf's no_path_retry allows it (not
    // "fail"); the user asked for queueing, so say so and set it in the kernel directly.
    if (useMultipathd && prepared.message.kind == MultipathMessageKind::QueueIfNoPath
        && !after->table.queueIfNoPath()) {
        if (const Status sent = dm.message(prepared.map, result.operation); !sent)
            return failed(result,
                QStringLiteral("%1: multipathd's restorequeueing left queueing off (no_path_retry fail?), and %2")
                    .arg(prepared.map, sent.errorMessage()));
        result.via = QStringLiteral("device-mapper");
        result.command = result.operation;
        result.warnings.append(QStringLiteral("multipathd's restorequeueing left queueing off (no_path_retry is "
                                              "\"fail\" or unset for this map): sent queue_if_no_path to "
                                              "device-mapper; multipathd may turn it off again"));
        after = readMultipathMapState(dm, prepared.map);
    }
    if (after) {
        const QString mismatch = checkAfter(prepared, after.value());
        if (!mismatch.isEmpty())
            result.warnings.append(mismatch);
    }
    result.status = Status::success();
    return result;
}

Result<PreparedReload> prepareMultipathReload(
    DeviceMapper &dm, const QString &map, const MultipathTable &table, const SysfsRoot &sysfs)
{
    using R = Result<PreparedReload>;
    if (const Status s = checkMultipathTable(table); !s)
        return R::failure(QStringLiteral("%1: invalid table: %2").arg(map, s.errorMessage()));
    const auto state = readMultipathMapState(dm, map);
    if (!state)
        return R::failure(state.errorMessage());
    PreparedReload reload;
    reload.map = map;
    reload.table = table;
    reload.before = state.value();
    reload.line = { state->line.start, state->line.length, QStringLiteral("multipath"), formatMultipathTable(table) };
    reload.risks
        = identityRisks(readMapIdentity(sysfs, map, state->info.uuid, state->table, table), state->table, table);
    reload.dataRiskCount = reload.risks.size();
    reload.risks += reloadRisks(state->table, state->status, table);
    reload.diff = tableDiff(state->table, table);
    return reload;
}

MultipathOperationResult executeMultipathReload(
    DeviceMapper &dm, const PreparedReload &prepared, bool multipathdRunning)
{
    MultipathOperationResult result;
    result.map = prepared.map;
    result.operation = QStringLiteral("reload");
    result.via = QStringLiteral("device-mapper");
    result.command = formatTargetLine(prepared.line);
    if (const QString why = dm.readOnlyReason(); !why.isEmpty())
        return failed(result, QStringLiteral("%1: %2").arg(prepared.map, why));
    if (multipathdRunning)
        result.warnings.append(QStringLiteral("multipathd runs: it adopts this table for now, but \"multipathd "
                                              "reload map\", \"reconfigure\" or a path event may load the table "
                                              "from multipath.conf again (it also re-adds queue_if_no_path per "
                                              "no_path_retry)"));
    const Status reloaded = dm.reload(prepared.map, { prepared.line });
    if (!reloaded) {
        QString error = reloaded.errorMessage();
        // The backend promises never to leave the map suspended; say so loudly if it did.
        if (const auto info = dm.info(prepared.map); info && info->exists && info->suspended)
            error += QStringLiteral("; the map is still SUSPENDED: resume it (dmsetup resume %1)").arg(prepared.map);
        return failed(result, error);
    }
    const auto after = readMultipathMapState(dm, prepared.map);
    if (!after) {
        result.warnings.append(QStringLiteral("could not read the map back: ") + after.errorMessage());
    } else if (after->table != prepared.table) {
        // The kernel prints its own canonical form (e.g. round-robin repeat_count 1).
        result.warnings.append(QStringLiteral("the kernel reports the table differently: ")
            + tableDiffLines(prepared.table, after->table).join(QStringLiteral("; ")));
    }
    result.status = Status::success();
    return result;
}

MultipathOperationResult runMultipathReload(
    DeviceMapper &dm, const QString &map, const MultipathTable &table, bool multipathdRunning, const SysfsRoot &sysfs)
{
    const auto prepared = prepareMultipathReload(dm, map, table, sysfs);
    if (!prepared) {
        MultipathOperationResult result;
        result.map = map;
        result.operation = QStringLiteral("reload");
        result.status = Status::failureOf(prepared);
        return result;
    }
    MultipathOperationResult result = executeMultipathReload(dm, prepared.value(), multipathdRunning);
    result.warnings = prepared->risks + result.warnings;
    return result;
}

} // namespace dmtune
