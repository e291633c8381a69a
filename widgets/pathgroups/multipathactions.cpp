#include "multipathactions.h"

#include "devicetreemodel.h"
#include "devicetreenode.h"

#include "dm/multipathcontrol.h"
#include "dm/multipathoperation.h"

#include <QAction>
#include <QMenu>
#include <QModelIndex>

namespace dmtune {

MultipathActions::MultipathActions(MultipathControl *control, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_control(control)
    , m_dialogParent(dialogParent)
    , m_confirmer(askConfirmation)
{
}

void MultipathActions::setControl(MultipathControl *control)
{
    m_control = control;
}

void MultipathActions::setDeviceMapper(DeviceMapper *dm)
{
    m_dm = dm;
}

void MultipathActions::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
}

void MultipathActions::setUnavailableReason(const QString &reason)
{
    m_unavailable = reason;
}

void MultipathActions::setConfirmer(Confirmer confirmer)
{
    m_confirmer = confirmer ? std::move(confirmer) : Confirmer(askConfirmation);
}

MultipathRowTarget MultipathActions::targetOf(const QModelIndex &treeIndex) const
{
    MultipathRowTarget target;
    const QModelIndex first = treeIndex.siblingAtColumn(0);
    const auto type = DeviceRowType(first.data(DeviceTreeModel::RowTypeRole).toInt());
    // Keys: "map/NAME", "map/NAME/group/N", "map/NAME/group/N/path/DEV", "map/NAME/group/unknown/path/DEV".
    const QStringList key = first.data(DeviceTreeModel::RowKeyRole).toString().split(QLatin1Char('/'));
    if (key.size() < 2 || key.at(0) != QLatin1String("map"))
        return target;
    target.map = key.at(1);
    const MultipathMap *map = nullptr;
    for (const MultipathMap &m : m_snapshot.maps) {
        if (m.name == target.map)
            map = &m;
    }
    bool groupOk = false;
    const int group = key.value(3).toInt(&groupOk);
    const PathGroupInfo *groupInfo = map && groupOk && group >= 1 && group <= map->groups.size() ? &map->groups.at(group - 1)
                                                                                               : nullptr;
    switch (type) {
    case DeviceRowType::Map:
        if (key.size() == 2)
            target.kind = MultipathRowTarget::Map;
        break;
    case DeviceRowType::PathGroup:
        if (key.size() == 4 && groupOk) {
            target.kind = MultipathRowTarget::Group;
            target.group = group;
            target.groupState = groupInfo ? groupInfo->state : QString();
        }
        break;
    case DeviceRowType::Path: {
        if (key.size() != 6 || key.at(4) != QLatin1String("path"))
            break;
        const QString dev = key.at(5);
        target.kind = MultipathRowTarget::Path;
        target.group = groupOk ? group : 0;
        if (groupInfo) {
            for (const PathInfo &path : groupInfo->paths) {
                if (path.name == dev || path.devnum == dev) {
                    target.device = path.devnum;
                    target.pathName = path.name;
                    target.pathState = path.state;
                }
            }
        }
        if (target.device.isEmpty()) {
            if (const BlockDevice *device = m_snapshot.device(dev)) {
                target.device = device->devnum;
                target.pathName = device->name;
            } else if (dev.contains(QLatin1Char(':'))) {
                target.device = dev;
            }
        }
        break;
    }
    default:
        break;
    }
    return target;
}

void MultipathActions::fillMenu(QMenu *menu, const QModelIndex &treeIndex)
{
    const MultipathRowTarget target = targetOf(treeIndex);
    if (target.kind == MultipathRowTarget::None)
        return;
    menu->setToolTipsVisible(true);
    QString reason = m_unavailable;
    if (reason.isEmpty() && !m_control)
        reason = QStringLiteral("no device-mapper access");
    const MultipathMap *map = m_snapshot.map(target.map);
    if (reason.isEmpty() && target.kind != MultipathRowTarget::Map && map && !map->groupsKnown)
        reason = map->groupsUnknownReason.isEmpty() ? QStringLiteral("the path groups are unknown")
                                                    : map->groupsUnknownReason;
    const auto add = [&](const QString &text, bool applicable, const QString &notApplicable, auto slot) {
        QAction *action = menu->addAction(text, this, slot);
        action->setEnabled(reason.isEmpty() && applicable);
        if (!reason.isEmpty())
            action->setToolTip(QStringLiteral("Not possible: %1").arg(reason));
        else if (!applicable)
            action->setToolTip(notApplicable);
        return action;
    };
    if (!menu->isEmpty())
        menu->addSeparator();

    switch (target.kind) {
    case MultipathRowTarget::Map: {
        QAction *edit = menu->addAction(QStringLiteral("Edit path groups of %1…").arg(target.map), this,
                                        [this, map = target.map] { Q_EMIT editPathGroupsRequested(map); });
        edit->setObjectName(QStringLiteral("editPathGroups"));
        break;
    }
    case MultipathRowTarget::Group: {
        const QString map = target.map;
        const int group = target.group;
        add(QStringLiteral("Switch %1 to group %2").arg(map).arg(group), target.groupState != QLatin1String("A"),
            QStringLiteral("Group %1 is the active group").arg(group), [this, map, group] { switchGroup(map, group); })
            ->setObjectName(QStringLiteral("switchGroup"));
        add(QStringLiteral("Enable group %1").arg(group), target.groupState == QLatin1String("D"),
            QStringLiteral("Group %1 is not disabled").arg(group), [this, map, group] { enableGroup(map, group); })
            ->setObjectName(QStringLiteral("enableGroup"));
        add(QStringLiteral("Disable group %1").arg(group), target.groupState != QLatin1String("D"),
            QStringLiteral("Group %1 is disabled already").arg(group), [this, map, group] { disableGroup(map, group); })
            ->setObjectName(QStringLiteral("disableGroup"));
        break;
    }
    case MultipathRowTarget::Path: {
        const QString map = target.map;
        const QString device = target.device;
        const QString label = target.pathName.isEmpty() ? device : target.pathName;
        const bool known = !device.isEmpty();
        add(QStringLiteral("Fail path %1").arg(label), known && target.pathState != QLatin1String("F"),
            known ? QStringLiteral("%1 is failed already").arg(label) : QStringLiteral("Its device number is unknown"),
            [this, map, device] { failPath(map, device); })
            ->setObjectName(QStringLiteral("failPath"));
        add(QStringLiteral("Reinstate path %1").arg(label), known && target.pathState != QLatin1String("A"),
            known ? QStringLiteral("%1 is active").arg(label) : QStringLiteral("Its device number is unknown"),
            [this, map, device] { reinstatePath(map, device); })
            ->setObjectName(QStringLiteral("reinstatePath"));
        break;
    }
    case MultipathRowTarget::None:
        break;
    }
}

QString MultipathActions::pathLabel(const QString &mapName, const QString &device) const
{
    if (const MultipathMap *map = m_snapshot.map(mapName)) {
        for (const PathGroupInfo &group : map->groups) {
            for (const PathInfo &path : group.paths) {
                if (path.devnum == device && !path.name.isEmpty())
                    return QStringLiteral("%1 (%2)").arg(path.name, device);
            }
        }
    }
    if (const BlockDevice *d = m_snapshot.deviceByDevnum(device))
        return QStringLiteral("%1 (%2)").arg(d->name, device);
    return device;
}

bool MultipathActions::run(const QString &mapName, const MultipathMessage &message, bool alwaysAsk)
{
    if (!m_control) {
        Q_EMIT operationRefused(QStringLiteral("%1: %2").arg(mapName, m_unavailable.isEmpty() ? QStringLiteral("no device-mapper access") : m_unavailable));
        return false;
    }
    MultipathTable table;
    MultipathStatus status;
    if (m_dm) {
        const auto state = readMultipathMapState(*m_dm, mapName);
        if (!state) {
            Q_EMIT operationRefused(state.errorMessage());
            return false;
        }
        table = state->table;
        status = state->status;
    } else {
        const MultipathMap *map = m_snapshot.map(mapName);
        const auto parsedTable = map ? parseMultipathTable(map->tableLine) : Result<MultipathTable>::failure(QString());
        const auto parsedStatus = map ? parseMultipathStatus(map->statusLine) : Result<MultipathStatus>::failure(QString());
        if (!parsedTable || !parsedStatus) {
            Q_EMIT operationRefused(QStringLiteral("%1: its table and status are unknown").arg(mapName));
            return false;
        }
        table = parsedTable.value();
        status = parsedStatus.value();
    }
    const QString label = message.device.isEmpty() ? QString() : pathLabel(mapName, message.device);
    m_lastConfirmation = operationConfirmation(mapName, table, status, message, m_control->multipathdRunning(), label);
    if ((alwaysAsk || m_lastConfirmation.risky()) && !m_confirmer(m_dialogParent, m_lastConfirmation))
        return false;

    switch (message.kind) {
    case MultipathMessageKind::FailPath:
        Q_EMIT operationStarted(QStringLiteral("Failing path %1 of %2…").arg(label, mapName));
        m_control->failPath(mapName, message.device);
        break;
    case MultipathMessageKind::ReinstatePath:
        Q_EMIT operationStarted(QStringLiteral("Reinstating path %1 of %2…").arg(label, mapName));
        m_control->reinstatePath(mapName, message.device);
        break;
    case MultipathMessageKind::SwitchGroup:
        Q_EMIT operationStarted(QStringLiteral("Switching %1 to group %2…").arg(mapName).arg(message.group));
        m_control->switchGroup(mapName, message.group);
        break;
    case MultipathMessageKind::EnableGroup:
        Q_EMIT operationStarted(QStringLiteral("Enabling group %2 of %1…").arg(mapName).arg(message.group));
        m_control->enableGroup(mapName, message.group);
        break;
    case MultipathMessageKind::DisableGroup:
        Q_EMIT operationStarted(QStringLiteral("Disabling group %2 of %1…").arg(mapName).arg(message.group));
        m_control->disableGroup(mapName, message.group);
        break;
    case MultipathMessageKind::QueueIfNoPath:
    case MultipathMessageKind::FailIfNoPath:
        m_control->setQueueIfNoPath(mapName, message.kind == MultipathMessageKind::QueueIfNoPath);
        break;
    }
    return true;
}

bool MultipathActions::failPath(const QString &map, const QString &device)
{
    MultipathMessage message;
    message.kind = MultipathMessageKind::FailPath;
    message.device = device;
    return run(map, message, true);
}

bool MultipathActions::reinstatePath(const QString &map, const QString &device)
{
    MultipathMessage message;
    message.kind = MultipathMessageKind::ReinstatePath;
    message.device = device;
    return run(map, message, false);
}

bool MultipathActions::switchGroup(const QString &map, int group)
{
    MultipathMessage message;
    message.kind = MultipathMessageKind::SwitchGroup;
    message.group = group;
    return run(map, message, true);
}

bool MultipathActions::enableGroup(const QString &map, int group)
{
    MultipathMessage message;
    message.kind = MultipathMessageKind::EnableGroup;
    message.group = group;
    return run(map, message, false);
}

bool MultipathActions::disableGroup(const QString &map, int group)
{
    MultipathMessage message;
    message.kind = MultipathMessageKind::DisableGroup;
    message.group = group;
    return run(map, message, true);
}

} // namespace dmtune
