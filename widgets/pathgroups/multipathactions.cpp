#include "widgets/pathgroups/multipathactions.h"

#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreenode.h"

#include "core/ops/operationservice.h"
#include "widgets/ops/plandialog.h"

#include <QAction>
#include <QMenu>
#include <QModelIndex>

namespace dmtune {

MultipathActions::MultipathActions(OperationService *runner, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_dialogParent(dialogParent)
{
    setRunner(runner);
}

void MultipathActions::setRunner(OperationService *runner)
{
    m_runner = runner;
}

void MultipathActions::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
}

void MultipathActions::setUnavailableReason(const QString &reason)
{
    m_unavailable = reason;
}

PlanDialog *MultipathActions::pendingPlan() const
{
    return m_dialog.data();
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
    const PathGroupInfo *groupInfo
        = map && groupOk && group >= 1 && group <= map->groups.size() ? &map->groups.at(group - 1) : nullptr;
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
        const QString &dev = key.at(5);
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
    if (reason.isEmpty() && !m_runner)
        reason = tr("no device-mapper access");
    const MultipathMap *map = m_snapshot.map(target.map);
    if (reason.isEmpty() && target.kind != MultipathRowTarget::Map && map && !map->groupsKnown)
        reason = map->groupsUnknownReason.isEmpty() ? tr("the path groups are unknown") : map->groupsUnknownReason;
    const auto add = [&](const QString &text, bool applicable, const QString &notApplicable, auto slot) {
        QAction *action = menu->addAction(text, this, slot);
        action->setEnabled(reason.isEmpty() && applicable);
        if (!reason.isEmpty())
            action->setToolTip(tr("Not possible: %1").arg(reason));
        else if (!applicable)
            action->setToolTip(notApplicable);
        return action;
    };
    if (!menu->isEmpty())
        menu->addSeparator();

    switch (target.kind) {
    case MultipathRowTarget::Map: {
        QAction *edit = menu->addAction(tr("Edit path groups of %1…").arg(target.map), this,
            [this, map = target.map] { Q_EMIT editPathGroupsRequested(map); });
        edit->setObjectName(QStringLiteral("editPathGroups"));
        // The table's features follow the queue_if_no_path / fail_if_no_path messages.
        const bool queueing = map && map->features.contains(QLatin1String("queue_if_no_path"));
        add(queueing ? tr("Fail I/O when no path is left (fail_if_no_path)")
                     : tr("Queue I/O when no path is left (queue_if_no_path)"),
            map != nullptr, tr("The map's table is unknown"),
            [this, name = target.map, queueing] { setQueueing(name, !queueing); })
            ->setObjectName(QStringLiteral("setQueueing"));
        break;
    }
    case MultipathRowTarget::Group: {
        const QString map = target.map;
        const int group = target.group;
        add(tr("Switch %1 to group %2").arg(map).arg(group), target.groupState != QLatin1String("A"),
            tr("Group %1 is the active group").arg(group), [this, map, group] { switchGroup(map, group); })
            ->setObjectName(QStringLiteral("switchGroup"));
        add(tr("Enable group %1").arg(group), target.groupState == QLatin1String("D"),
            tr("Group %1 is not disabled").arg(group), [this, map, group] { enableGroup(map, group); })
            ->setObjectName(QStringLiteral("enableGroup"));
        add(tr("Disable group %1").arg(group), target.groupState != QLatin1String("D"),
            tr("Group %1 is disabled already").arg(group), [this, map, group] { disableGroup(map, group); })
            ->setObjectName(QStringLiteral("disableGroup"));
        break;
    }
    case MultipathRowTarget::Path: {
        const QString map = target.map;
        const QString device = target.device;
        const QString label = target.pathName.isEmpty() ? device : target.pathName;
        const bool known = !device.isEmpty();
        add(tr("Fail path %1").arg(label), known && target.pathState != QLatin1String("F"),
            known ? tr("%1 is failed already").arg(label) : tr("Its device number is unknown"),
            [this, map, device] { failPath(map, device); })
            ->setObjectName(QStringLiteral("failPath"));
        add(tr("Reinstate path %1").arg(label), known && target.pathState != QLatin1String("A"),
            known ? tr("%1 is active").arg(label) : tr("Its device number is unknown"),
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

bool MultipathActions::run(
    const QString &mapName, const QString &kind, const QJsonObject &request, const QString &startText, bool alwaysAsk)
{
    if (!m_runner) {
        Q_EMIT operationRefused(QStringLiteral("%1: %2").arg(
            mapName, m_unavailable.isEmpty() ? tr("no device-mapper access") : m_unavailable));
        return false;
    }
    // alwaysAsk: the operation changes where I/O goes even without a risk (fail a path, switch or disable a
    // group); the others ask only when the plan has risks (runUnlessAsked runs them at once otherwise).
    // The panel shows the results (the runner's finished(), every run's).
    OperationService *runner = m_runner;
    const auto planned = [this, runner, startText, alwaysAsk](const OperationPlan &plan) {
        if (runner == m_runner) // not a runner replaced since
            onPlanned(plan, startText, alwaysAsk);
    };
    const auto failed = [this, runner](const QString &error) {
        if (runner == m_runner)
            Q_EMIT operationRefused(error);
    };
    if (alwaysAsk)
        m_runner->plan(kind, request, this, planned, failed);
    else
        m_runner->runUnlessAsked(kind, request, this, planned, failed, nullptr);
    if (!alwaysAsk)
        Q_EMIT operationStarted(startText);
    return true;
}

void MultipathActions::onPlanned(const OperationPlan &plan, const QString &startText, bool alwaysAsk)
{
    if (!plan.runnable()) {
        Q_EMIT operationRefused(plan.refusals.isEmpty()
                ? tr("%1: refused: %2").arg(plan.target, plan.risks.first().text)
                : plan.refusals.first());
        return;
    }
    if (!alwaysAsk && !plan.needsAnswers()) { // runUnlessAsked hands back only plans that ask
        m_runner->run(plan, acceptAll(plan), this, nullptr);
        return;
    }
    if (m_dialog) // one question at a time: a newer one replaces the older (it was not answered)
        m_dialog->close();
    m_lastAsked = plan;
    auto *dialog = new PlanDialog(plan, m_dialogParent);
    dialog->setObjectName(QStringLiteral("multipathPlanDialog"));
    dialog->setWindowTitle(plan.summary);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    QPointer<OperationService> runner = m_runner;
    connect(dialog, &PlanDialog::answered, this, [this, runner, plan, startText](const OperationAnswers &answers) {
        if (!runner)
            return;
        Q_EMIT operationStarted(startText);
        runner->run(plan, answers, this, nullptr);
    });
    dialog->open();
    Q_EMIT planOpened(dialog);
}

bool MultipathActions::failPath(const QString &map, const QString &device)
{
    return run(map, QStringLiteral("multipath.fail-path"),
        { { QLatin1String("map"), map }, { QLatin1String("path"), device } },
        tr("Failing path %1 of %2…").arg(pathLabel(map, device), map), true);
}

bool MultipathActions::reinstatePath(const QString &map, const QString &device)
{
    return run(map, QStringLiteral("multipath.reinstate-path"),
        { { QLatin1String("map"), map }, { QLatin1String("path"), device } },
        tr("Reinstating path %1 of %2…").arg(pathLabel(map, device), map), false);
}

bool MultipathActions::switchGroup(const QString &map, int group)
{
    return run(map, QStringLiteral("multipath.switch-group"),
        { { QLatin1String("map"), map }, { QLatin1String("group"), group } },
        tr("Switching %1 to group %2…").arg(map).arg(group), true);
}

bool MultipathActions::enableGroup(const QString &map, int group)
{
    return run(map, QStringLiteral("multipath.enable-group"),
        { { QLatin1String("map"), map }, { QLatin1String("group"), group } },
        tr("Enabling group %2 of %1…").arg(map).arg(group), false);
}

bool MultipathActions::disableGroup(const QString &map, int group)
{
    return run(map, QStringLiteral("multipath.disable-group"),
        { { QLatin1String("map"), map }, { QLatin1String("group"), group } },
        tr("Disabling group %2 of %1…").arg(map).arg(group), true);
}

bool MultipathActions::setQueueing(const QString &map, bool queueIfNoPath)
{
    return run(map, QStringLiteral("multipath.queueing"),
        { { QLatin1String("map"), map }, { QLatin1String("queue_if_no_path"), queueIfNoPath } },
        queueIfNoPath ? tr("Turning queue_if_no_path on for %1…").arg(map)
                      : tr("Turning queue_if_no_path off for %1…").arg(map),
        !queueIfNoPath);
}

} // namespace dmtune
