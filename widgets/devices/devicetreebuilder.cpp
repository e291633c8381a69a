#include "widgets/devices/devicetreebuilder.h"

#include "widgets/devices/devicelabels.h"

#include <QCoreApplication>

namespace dmtune {

namespace {

// Holders can stack (dm on md on a partition); a captured tree could even loop. Real stacks are
// shallow, so a bound costs nothing and keeps a malformed tree from recursing forever.
constexpr int maxStackDepth = 8;

std::unique_ptr<DeviceTreeNode> makeNode(DeviceRowType type, QString key, QString deviceName)
{
    auto node = std::make_unique<DeviceTreeNode>();
    node->type = type;
    node->key = std::move(key);
    node->deviceName = std::move(deviceName);
    return node;
}

void fillDeviceColumns(DeviceTreeNode &node, const BlockDevice &device)
{
    node.text[KindColumn] = deviceKindLabel(device.kind);
    node.text[SizeColumn] = formatSize(device.sizeBytes);
    node.text[IdentityColumn] = identityText(device);
    node.text[StateColumn] = stateText(device);
    // A bio-based device (zram, dm) offers just "none", unbracketed: say so rather than show nothing.
    node.text[SchedulerColumn] = device.scheduler.isEmpty() && !device.schedulers.isEmpty()
        ? device.schedulers.join(QLatin1Char(' '))
        : device.scheduler;
    node.attention = device.scsi.state == QLatin1String("offline") || device.scsi.state == QLatin1String("blocked");
}

class TreeBuilder {
public:
    explicit TreeBuilder(const DeviceSnapshot &snapshot)
        : m_snapshot(snapshot)
    {
    }

    std::unique_ptr<DeviceTreeNode> build()
    {
        auto root = makeNode(DeviceRowType::Section, QString(), QString());
        auto maps = makeNode(DeviceRowType::Section, mapsSectionKey(), QString());
        maps->text[NameColumn] = QCoreApplication::translate("DeviceTreeBuilder", "Multipath maps");
        // dm-multipath maps and native NVMe multipath heads side by side: both are one device over several paths.
        maps->text[IdentityColumn] = countText(m_snapshot.maps.size() + m_snapshot.nvmeMultipath.size(),
            QCoreApplication::translate("DeviceTreeBuilder", "1 map"),
            QCoreApplication::translate("DeviceTreeBuilder", "%1 maps"));
        for (const auto &map : m_snapshot.maps)
            maps->addChild(mapNode(map));
        for (const auto &head : m_snapshot.nvmeMultipath)
            maps->addChild(nvmeHeadNode(head));
        root->addChild(std::move(maps));

        auto other = makeNode(DeviceRowType::Section, otherDevicesSectionKey(), QString());
        other->text[NameColumn] = QCoreApplication::translate("DeviceTreeBuilder", "Other devices");
        for (const auto &device : m_snapshot.devices) {
            if (device.kind == DeviceKind::Multipath || m_snapshot.mapOfPath(device.name)
                || m_snapshot.nvmeHead(device.name) || m_snapshot.nvmeHeadOfPath(device.name))
                continue;
            other->addChild(deviceNode(device));
        }
        other->text[IdentityColumn]
            = countText(int(other->children.size()), QCoreApplication::translate("DeviceTreeBuilder", "1 device"),
                QCoreApplication::translate("DeviceTreeBuilder", "%1 devices"));
        root->addChild(std::move(other));
        return root;
    }

private:
    // `one` is the text for 1 ("1 map"), `many` has %1 for the number ("%1 maps").
    static QString countText(qsizetype n, const QString &one, const QString &many)
    {
        return n == 0 ? QCoreApplication::translate("DeviceTreeBuilder", "none") : n == 1 ? one : many.arg(n);
    }

    std::unique_ptr<DeviceTreeNode> mapNode(const MultipathMap &map)
    {
        const QString key = QStringLiteral("map/") + map.name;
        auto node = makeNode(DeviceRowType::Map, key, map.device);
        node->text[NameColumn] = map.device.isEmpty() || map.device == map.name
            ? map.name
            : QStringLiteral("%1 · %2").arg(map.name, map.device);
        node->text[KindColumn] = deviceKindLabel(DeviceKind::Multipath);
        node->text[SizeColumn] = formatSize(map.sizeBytes);
        // The WWID alone keeps the column narrow; vendor and model show on every path row, and in
        // the tooltip as multipath -ll names the storage: by its first path's vendor and model.
        node->text[IdentityColumn] = mapWwid(map);
        QString storage;
        for (const auto &slave : map.slaves) {
            if (const auto *path = m_snapshot.device(slave)) {
                storage = QStringList { path->vendor, path->model }.join(QLatin1Char(' ')).simplified();
                if (!storage.isEmpty())
                    break;
            }
        }
        if (const auto *device = m_snapshot.device(map.device))
            node->text[SchedulerColumn] = device->scheduler;
        node->toolTip = storage.isEmpty()
            ? QCoreApplication::translate("DeviceTreeBuilder", "uuid %1").arg(map.uuid)
            : QCoreApplication::translate("DeviceTreeBuilder", "%1, uuid %2").arg(storage, map.uuid);

        if (map.groupsKnown) {
            int paths = 0;
            int active = 0;
            for (const auto &group : map.groups) {
                node->addChild(groupNode(map, key, group));
                for (const auto &path : group.paths) {
                    ++paths;
                    active += path.state == QLatin1String("A") ? 1 : 0;
                }
            }
            node->text[StateColumn]
                = QCoreApplication::translate("DeviceTreeBuilder", "%1 of %2 paths active").arg(active).arg(paths);
            node->attention = active < paths;
        } else {
            node->addChild(unknownGroupsNode(map, key));
            node->text[StateColumn]
                = countText(map.slaves.size(), QCoreApplication::translate("DeviceTreeBuilder", "1 path"),
                      QCoreApplication::translate("DeviceTreeBuilder", "%1 paths"))
                + QStringLiteral(" · ") + QCoreApplication::translate("DeviceTreeBuilder", "groups unknown");
        }
        // A map is often stacked on (kpartx partitions, LVM): show that too.
        if (const auto *device = m_snapshot.device(map.device)) {
            for (const auto &holder : device->holders)
                node->addChild(holderNode(holder, key, 1));
        }
        return node;
    }

    // A native NVMe multipath head: its subsystem (NQN, iopolicy) as the one group, each controller's hidden path
    // device under it with the controller's state and the path's ANA state, and the controller under each path.
    std::unique_ptr<DeviceTreeNode> nvmeHeadNode(const NvmeMultipathHead &head)
    {
        const QString key = QStringLiteral("nvme/") + head.name;
        auto node = makeNode(DeviceRowType::Map, key, head.name);
        node->text[NameColumn] = head.name;
        node->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "NVMe native multipath");
        node->text[SizeColumn] = formatSize(head.sizeBytes);
        node->text[IdentityColumn] = head.wwid;
        const int usable = head.usablePaths();
        node->text[StateColumn] = QCoreApplication::translate("DeviceTreeBuilder", "%1 of %2 paths usable")
                                      .arg(usable)
                                      .arg(head.paths.size());
        node->attention = usable < head.paths.size() || head.paths.size() < 2;
        const BlockDevice *device = m_snapshot.device(head.name);
        if (device)
            node->text[SchedulerColumn] = device->scheduler;
        node->toolTip = QCoreApplication::translate("DeviceTreeBuilder", "%1, subsystem %2 (%3), nsid %4")
                            .arg(head.subsystem.model, head.subsystem.name, head.subsystem.nqn, head.nsid);

        auto subsystem = makeNode(DeviceRowType::PathGroup, key + QStringLiteral("/subsystem"), head.name);
        subsystem->text[NameColumn]
            = QStringLiteral("%1 · iopolicy %2")
                  .arg(head.subsystem.name,
                      head.subsystem.iopolicy.isEmpty() ? QStringLiteral("?") : head.subsystem.iopolicy);
        subsystem->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "NVMe subsystem");
        subsystem->text[IdentityColumn] = head.subsystem.nqn;
        subsystem->text[StateColumn] = head.paths.size() == 1
            ? QCoreApplication::translate("DeviceTreeBuilder", "one path only: no failover")
            : QCoreApplication::translate("DeviceTreeBuilder", "%1 paths").arg(head.paths.size());
        subsystem->toolTip
            = QCoreApplication::translate("DeviceTreeBuilder", "Subsystem %1: %2, controllers %3")
                  .arg(head.subsystem.name, head.subsystem.nqn, head.subsystem.controllers.join(QStringLiteral(", ")));
        for (const NvmePath &path : head.paths)
            subsystem->addChild(nvmePathNode(subsystem->key, path));
        node->addChild(std::move(subsystem));
        if (device) {
            for (const auto &holder : device->holders)
                node->addChild(holderNode(holder, key, 1));
        }
        return node;
    }

    std::unique_ptr<DeviceTreeNode> nvmePathNode(const QString &subsystemKey, const NvmePath &path)
    {
        const QString key = subsystemKey + QStringLiteral("/path/") + path.name;
        auto node = makeNode(DeviceRowType::Path, key, path.name);
        const BlockDevice *device = m_snapshot.device(path.name);
        if (device)
            fillDeviceColumns(*node, *device);
        node->text[NameColumn] = path.name;
        node->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "NVMe path");
        // The controller's state and the path's ANA state, as nvme list-subsys prints them.
        QStringList state { path.state.isEmpty() ? QStringLiteral("?") : path.state };
        if (!path.anaState.isEmpty())
            state << path.anaState;
        if (!path.queueDepth.isEmpty())
            state << QCoreApplication::translate("DeviceTreeBuilder", "queue depth %1").arg(path.queueDepth);
        node->text[StateColumn] = state.join(QStringLiteral(" · "));
        node->attention = !path.usable();
        node->toolTip = QCoreApplication::translate("DeviceTreeBuilder", "%1 through controller %2 (%3 %4)")
                            .arg(path.name, path.controller, path.transport, path.address);
        if (device) {
            if (auto hardware = hardwareNode(key, *device))
                node->addChild(std::move(hardware));
        }
        return node;
    }

    std::unique_ptr<DeviceTreeNode> groupNode(
        const MultipathMap &map, const QString &mapKey, const PathGroupInfo &group)
    {
        const QString key = QStringLiteral("%1/group/%2").arg(mapKey).arg(group.index);
        auto node = makeNode(DeviceRowType::PathGroup, key, map.device);
        node->text[NameColumn] = pathGroupLabel(group);
        node->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "path group");
        int active = 0;
        for (const auto &path : group.paths)
            active += path.state == QLatin1String("A") ? 1 : 0;
        QString state = QCoreApplication::translate("DeviceTreeBuilder", "%1 of %2 paths active")
                            .arg(active)
                            .arg(group.paths.size());
        if (group.index == map.nextGroup)
            state += QStringLiteral(" · ")
                + QCoreApplication::translate("DeviceTreeBuilder", "next", "the path group dm switches to next");
        node->text[StateColumn] = state;
        // Selector arguments are nearly always the default "0": the tooltip has them, the column stays narrow.
        node->toolTip
            = QCoreApplication::translate("DeviceTreeBuilder", "Path group %1 of %2, path selector %3 %4")
                  .arg(group.index)
                  .arg(map.name, group.selector,
                      group.selectorArgs.isEmpty() ? QCoreApplication::translate("DeviceTreeBuilder", "(no arguments)")
                                                   : QCoreApplication::translate("DeviceTreeBuilder", "(arguments: %1)")
                                                         .arg(group.selectorArgs.join(QLatin1Char(' '))));
        for (const auto &path : group.paths)
            node->addChild(pathNode(key, path.name.isEmpty() ? path.devnum : path.name, &path));
        return node;
    }

    // Without device-mapper the kernel still lists the map's paths under slaves/; the groups,
    // their selectors and the path states need dm's table and status, and this row says why
    // they are missing instead of pretending there is one group.
    std::unique_ptr<DeviceTreeNode> unknownGroupsNode(const MultipathMap &map, const QString &mapKey)
    {
        auto node = makeNode(DeviceRowType::PathGroup, mapKey + QStringLiteral("/group/unknown"), map.device);
        const QString reason = map.groupsUnknownReason.isEmpty()
            ? QCoreApplication::translate("DeviceTreeBuilder", "device-mapper did not say")
            : map.groupsUnknownReason;
        node->text[NameColumn]
            = QCoreApplication::translate("DeviceTreeBuilder", "Path groups unknown: %1; paths from sysfs").arg(reason);
        node->spansRow = true;
        node->toolTip = QCoreApplication::translate(
            "DeviceTreeBuilder", "Path groups unknown: %1. The paths below come from %2's slaves in sysfs.")
                            .arg(reason, map.device);
        for (const auto &slave : map.slaves)
            node->addChild(pathNode(node->key, slave, nullptr));
        return node;
    }

    std::unique_ptr<DeviceTreeNode> pathNode(const QString &groupKey, const QString &name, const PathInfo *info)
    {
        const BlockDevice *device = m_snapshot.device(name);
        if (!device && info && !info->devnum.isEmpty())
            device = m_snapshot.deviceByDevnum(info->devnum);
        const QString deviceName = device ? device->name : name;
        const QString key = groupKey + QStringLiteral("/path/") + deviceName;
        auto node = makeNode(DeviceRowType::Path, key, deviceName);
        if (device)
            fillDeviceColumns(*node, *device);
        node->text[NameColumn] = deviceName;
        if (info) {
            // dm's view of the path first: that is what decides whether I/O goes there.
            QString state = pathStatusText(*info);
            if (device && !device->scsi.state.isEmpty() && device->scsi.state != QLatin1String("running"))
                state += QStringLiteral(" · ") + device->scsi.state;
            node->text[StateColumn] = state;
            node->attention = node->attention || info->state == QLatin1String("F");
            node->toolTip = QStringLiteral("%1 (%2)").arg(deviceName, info->devnum);
        }
        if (device) {
            if (auto hardware = hardwareNode(key, *device))
                node->addChild(std::move(hardware));
        } else {
            node->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "path");
            if (node->text[StateColumn].isEmpty())
                node->text[StateColumn] = QCoreApplication::translate("DeviceTreeBuilder", "not in sysfs");
        }
        return node;
    }

    std::unique_ptr<DeviceTreeNode> hardwareNode(const QString &pathKey, const BlockDevice &device)
    {
        auto node = makeNode(DeviceRowType::PathHardware, pathKey + QStringLiteral("/hw"), device.name);
        if (device.kind == DeviceKind::Scsi && !device.scsi.hctl.isEmpty()) {
            node->text[NameColumn] = device.scsi.hctl;
            node->text[KindColumn] = device.scsi.transport.isEmpty()
                ? QCoreApplication::translate("DeviceTreeBuilder", "SCSI device")
                : QCoreApplication::translate("DeviceTreeBuilder", "SCSI device (%1)").arg(device.scsi.transport);
            node->text[IdentityColumn] = QStringList { device.scsi.vendor, device.scsi.model, device.scsi.rev }
                                             .join(QLatin1Char(' '))
                                             .simplified();
            QStringList state;
            if (!device.scsi.state.isEmpty())
                state.append(device.scsi.state);
            if (!device.scsi.queueDepth.isEmpty())
                state.append(
                    QCoreApplication::translate("DeviceTreeBuilder", "queue depth %1").arg(device.scsi.queueDepth));
            node->text[StateColumn] = state.join(QStringLiteral(" · "));
            node->toolTip = QCoreApplication::translate("DeviceTreeBuilder", "H:C:T:L %1, sysfs %2")
                                .arg(device.scsi.hctl, device.parentDevicePath);
        } else if (device.kind == DeviceKind::NvmeNamespace && !device.nvme.controller.isEmpty()) {
            node->text[NameColumn] = device.nvme.controller;
            node->text[KindColumn] = device.nvme.transport.isEmpty()
                ? QCoreApplication::translate("DeviceTreeBuilder", "NVMe controller")
                : QCoreApplication::translate("DeviceTreeBuilder", "NVMe controller (%1)").arg(device.nvme.transport);
            node->text[IdentityColumn] = QStringList { device.model, device.nvme.address }.join(QStringLiteral(" · "));
            node->text[StateColumn] = device.nvme.subsystem;
            node->toolTip = device.parentDevicePath;
        } else if (!device.parentDevicePath.isEmpty()) {
            node->text[NameColumn] = device.parentDevicePath.section(QLatin1Char('/'), -1);
            node->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "parent device");
            node->text[IdentityColumn] = device.parentDevicePath;
        } else {
            return nullptr;
        }
        return node;
    }

    std::unique_ptr<DeviceTreeNode> deviceNode(const BlockDevice &device)
    {
        const QString key = QStringLiteral("device/") + device.name;
        auto node = makeNode(DeviceRowType::Device, key, device.name);
        node->text[NameColumn] = device.name;
        fillDeviceColumns(*node, device);
        node->toolTip = QStringLiteral("%1 (%2)").arg(device.name, device.devnum);
        for (const auto &partition : device.partitions) {
            const QString partKey = key + QStringLiteral("/part/") + partition.name;
            auto part = makeNode(DeviceRowType::Partition, partKey, partition.name);
            part->text[NameColumn] = partition.name;
            part->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "partition");
            part->text[SizeColumn] = formatSize(partition.sizeBytes);
            part->text[IdentityColumn] = QCoreApplication::translate("DeviceTreeBuilder", "partition %1 of %2")
                                             .arg(partition.number)
                                             .arg(device.name);
            part->toolTip = QStringLiteral("%1 (%2)").arg(partition.name, partition.devnum);
            for (const auto &holder : partition.holders)
                part->addChild(holderNode(holder, partKey, 1));
            node->addChild(std::move(part));
        }
        for (const auto &holder : device.holders)
            node->addChild(holderNode(holder, key, 1));
        return node;
    }

    std::unique_ptr<DeviceTreeNode> holderNode(const QString &name, const QString &parentKey, int depth)
    {
        const QString key = parentKey + QStringLiteral("/holder/") + name;
        auto node = makeNode(DeviceRowType::Holder, key, name);
        const BlockDevice *device = m_snapshot.device(name);
        if (!device) {
            node->text[NameColumn] = name;
            node->text[KindColumn] = QCoreApplication::translate("DeviceTreeBuilder", "holder");
            node->text[StateColumn] = QCoreApplication::translate("DeviceTreeBuilder", "not in sysfs");
            return node;
        }
        fillDeviceColumns(*node, *device);
        node->text[NameColumn] = name;
        node->toolTip = QCoreApplication::translate("DeviceTreeBuilder", "%1 (%2), stacked on %3")
                            .arg(name, device->devnum, parentKey.section(QLatin1Char('/'), -1));
        if (depth < maxStackDepth) {
            for (const auto &holder : device->holders)
                node->addChild(holderNode(holder, key, depth + 1));
        }
        return node;
    }

    const DeviceSnapshot &m_snapshot;
};

} // namespace

std::unique_ptr<DeviceTreeNode> buildDeviceTree(const DeviceSnapshot &snapshot)
{
    return TreeBuilder(snapshot).build();
}

} // namespace dmtune
