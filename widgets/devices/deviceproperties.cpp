#include "devices/deviceproperties.h"

#include "devices/devicelabels.h"

namespace dmtune {

namespace {

class RowWriter {
public:
    void heading(const QString &title) { m_rows.append({ title, QString(), true }); }
    // Only what is known: an empty value would be a row that says nothing.
    void add(const QString &label, const QString &value)
    {
        if (!value.isEmpty())
            m_rows.append({ label, value, false });
    }
    void addAlways(const QString &label, const QString &value, const QString &whenEmpty)
    {
        m_rows.append({ label, value.isEmpty() ? whenEmpty : value, false });
    }
    QList<PropertyRow> take() { return std::move(m_rows); }

private:
    QList<PropertyRow> m_rows;
};

QString listOrNone(const QStringList &names)
{
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

QString sizeWithBytes(qint64 bytes)
{
    return bytes < 0 ? formatSize(bytes) : QStringLiteral("%1 (%2 bytes)").arg(formatSize(bytes)).arg(bytes);
}

QString yesNo(bool value)
{
    return value ? QStringLiteral("yes") : QStringLiteral("no");
}

void writeIdentity(RowWriter &out, const BlockDevice &d)
{
    out.heading(QStringLiteral("Identity"));
    out.add(QStringLiteral("Name"), d.name);
    out.add(QStringLiteral("Device number"), d.devnum);
    out.add(QStringLiteral("Kind"), deviceKindLabel(d.kind));
    out.add(QStringLiteral("Size"), sizeWithBytes(d.sizeBytes));
    out.add(d.kind == DeviceKind::Virtio ? QStringLiteral("PCI vendor ID") : QStringLiteral("Vendor"), d.vendor);
    out.add(QStringLiteral("Model"), d.model);
    out.add(QStringLiteral("Serial"), d.serial);
    out.add(QStringLiteral("WWID"), d.wwid);
    out.add(QStringLiteral("Firmware"), d.firmware);
    out.add(QStringLiteral("Read-only"), yesNo(d.readOnly));
    out.add(QStringLiteral("Removable"), yesNo(d.removable));
    if (!d.rotational.isEmpty())
        out.add(QStringLiteral("Rotational"),
            d.rotational == QLatin1String("1") ? QStringLiteral("yes") : QStringLiteral("no"));
    if (!d.schedulers.isEmpty())
        out.add(QStringLiteral("Scheduler"),
            QStringLiteral("%1 (offered: %2)").arg(d.scheduler, d.schedulers.join(QLatin1Char(' '))));
    out.add(QStringLiteral("sysfs path"), d.syspath);
}

void writeKindSpecific(RowWriter &out, const BlockDevice &d)
{
    switch (d.kind) {
    case DeviceKind::Scsi:
        out.heading(QStringLiteral("SCSI device"));
        out.add(QStringLiteral("H:C:T:L"), d.scsi.hctl);
        out.add(QStringLiteral("Transport"), d.scsi.transport);
        out.add(QStringLiteral("State"), d.scsi.state);
        out.add(QStringLiteral("queue_depth"), d.scsi.queueDepth);
        out.add(
            QStringLiteral("timeout"), d.scsi.timeout.isEmpty() ? QString() : d.scsi.timeout + QStringLiteral(" s"));
        out.add(QStringLiteral("eh_timeout"),
            d.scsi.ehTimeout.isEmpty() ? QString() : d.scsi.ehTimeout + QStringLiteral(" s"));
        out.add(QStringLiteral("Revision"), d.scsi.rev);
        out.add(QStringLiteral("Parent device"), d.parentDevicePath);
        break;
    case DeviceKind::NvmeNamespace:
        out.heading(QStringLiteral("NVMe"));
        out.add(QStringLiteral("Controller"), d.nvme.controller);
        out.add(QStringLiteral("Subsystem"), d.nvme.subsystem);
        out.add(QStringLiteral("Transport"), d.nvme.transport);
        out.add(QStringLiteral("Address"), d.nvme.address);
        out.add(QStringLiteral("Subsystem NQN"), d.nvme.subsysNqn);
        out.add(QStringLiteral("I/O policy"), d.nvme.iopolicy);
        out.add(QStringLiteral("Namespace ID"), d.nvme.nsid);
        if (!d.nvme.pathDevices.isEmpty())
            out.add(QStringLiteral("Native multipath paths"), d.nvme.pathDevices.join(QStringLiteral(", ")));
        if (d.nvme.pathControllers.size() > 1)
            out.add(QStringLiteral("Controllers"), d.nvme.pathControllers.join(QStringLiteral(", ")));
        break;
    case DeviceKind::Loop:
        out.heading(QStringLiteral("Loop device"));
        out.addAlways(QStringLiteral("Backing file"), d.loopBackingFile, QStringLiteral("none (not bound)"));
        break;
    case DeviceKind::Md:
        out.heading(QStringLiteral("MD RAID"));
        out.add(QStringLiteral("Level"), d.mdLevel);
        break;
    default:
        if (!d.parentDevicePath.isEmpty()) {
            out.heading(QStringLiteral("Hardware"));
            out.add(QStringLiteral("Parent device"), d.parentDevicePath);
        }
        break;
    }
    if (d.isDeviceMapper()) {
        out.heading(QStringLiteral("Device-mapper"));
        out.add(QStringLiteral("dm name"), d.dmName);
        out.add(QStringLiteral("dm uuid"), d.dmUuid);
    }
}

void writeMap(RowWriter &out, const MultipathMap &map)
{
    // Name and WWID are in the identity rows already (dm name, WWID).
    out.heading(QStringLiteral("Multipath map"));
    if (!map.groupsKnown) {
        // Features, handler, table and status all come from dm's table and status: say why they are missing.
        out.addAlways(QStringLiteral("Path groups"), QStringLiteral("unknown: ") + map.groupsUnknownReason, {});
        out.add(QStringLiteral("Paths (sysfs slaves)"), listOrNone(map.slaves));
        return;
    }
    out.addAlways(QStringLiteral("Features"), map.features.join(QLatin1Char(' ')), QStringLiteral("none"));
    out.addAlways(QStringLiteral("Hardware handler"), map.hwHandler.join(QLatin1Char(' ')), QStringLiteral("none"));
    out.addAlways(QStringLiteral("Table"), map.tableLine, QStringLiteral("not read"));
    out.addAlways(QStringLiteral("Status"), map.statusLine, QStringLiteral("not read"));
    if (map.nextGroup > 0)
        out.add(QStringLiteral("Next path group"), QString::number(map.nextGroup));
    for (const auto &group : map.groups) {
        QStringList paths;
        for (const auto &path : group.paths)
            paths.append(
                QStringLiteral("%1 (%2)").arg(path.name.isEmpty() ? path.devnum : path.name, pathStatusText(path)));
        // "Group 1" as label keeps the label column narrow; selector and state go in the value.
        QStringList facts;
        if (!group.selector.isEmpty())
            facts.append(group.selector);
        facts.append(groupStateLabel(group.state));
        out.add(QStringLiteral("Group %1").arg(group.index),
            facts.join(QStringLiteral(" · ")) + QStringLiteral(": ") + listOrNone(paths));
    }
}

void writeMembership(RowWriter &out, const DeviceSnapshot &snapshot, const BlockDevice &d)
{
    const MultipathMap *map = snapshot.mapOfPath(d.name);
    if (!map)
        return;
    out.heading(QStringLiteral("Multipath path"));
    out.add(QStringLiteral("Map"), QStringLiteral("%1 (%2)").arg(map->name, map->device));
    if (!map->groupsKnown) {
        out.add(QStringLiteral("Path state"), QStringLiteral("unknown: ") + map->groupsUnknownReason);
        return;
    }
    for (const auto &group : map->groups) {
        for (const auto &path : group.paths) {
            if (path.name == d.name || (!path.devnum.isEmpty() && path.devnum == d.devnum)) {
                out.add(QStringLiteral("Path group"), pathGroupLabel(group));
                out.add(QStringLiteral("Path state"), pathStatusText(path));
                if (!path.selectorInfo.isEmpty())
                    out.add(QStringLiteral("Selector info"), path.selectorInfo.join(QLatin1Char(' ')));
            }
        }
    }
}

void writeTopology(RowWriter &out, const BlockDevice &d)
{
    out.heading(QStringLiteral("Topology"));
    out.addAlways(QStringLiteral("Slaves (below)"), listOrNone(d.slaves), {});
    out.addAlways(QStringLiteral("Holders (above)"), listOrNone(d.holders), {});
    QStringList partitions;
    for (const auto &p : d.partitions)
        partitions.append(QStringLiteral("%1 (%2)").arg(p.name, formatSize(p.sizeBytes)));
    if (!partitions.isEmpty())
        out.add(QStringLiteral("Partitions"), partitions.join(QStringLiteral(", ")));
}

} // namespace

const BlockDevice *diskOfPartition(const DeviceSnapshot &snapshot, const QString &name)
{
    for (const auto &d : snapshot.devices) {
        for (const auto &p : d.partitions) {
            if (p.name == name)
                return &d;
        }
    }
    return nullptr;
}

QList<PropertyRow> describeDevice(const DeviceSnapshot &snapshot, const QString &name)
{
    RowWriter out;
    if (const BlockDevice *d = snapshot.device(name)) {
        writeIdentity(out, *d);
        writeKindSpecific(out, *d);
        if (const MultipathMap *map = d->kind == DeviceKind::Multipath ? snapshot.map(d->name) : nullptr)
            writeMap(out, *map);
        writeMembership(out, snapshot, *d);
        writeTopology(out, *d);
        if (!d->unavailable.isEmpty()) {
            out.heading(QStringLiteral("Not readable"));
            out.add(QStringLiteral("Attributes"), d->unavailable.join(QStringLiteral(", ")));
        }
        return out.take();
    }
    if (const BlockDevice *disk = diskOfPartition(snapshot, name)) {
        for (const auto &p : disk->partitions) {
            if (p.name != name)
                continue;
            out.heading(QStringLiteral("Partition"));
            out.add(QStringLiteral("Name"), p.name);
            out.add(QStringLiteral("Device number"), p.devnum);
            out.add(QStringLiteral("Partition number"), QString::number(p.number));
            out.add(QStringLiteral("Size"), sizeWithBytes(p.sizeBytes));
            out.add(QStringLiteral("Disk"), disk->name);
            out.addAlways(QStringLiteral("Holders (above)"), listOrNone(p.holders), {});
        }
    }
    return out.take();
}

QList<PropertyRow> describeSnapshot(const DeviceSnapshot &snapshot, const QString &machine)
{
    RowWriter out;
    out.heading(machine);
    out.addAlways(QStringLiteral("Kernel"), snapshot.kernelRelease, QStringLiteral("unknown"));
    out.add(QStringLiteral("sysfs root"),
        snapshot.live ? snapshot.sysfsRoot : snapshot.sysfsRoot + QStringLiteral(" (captured tree, read-only)"));
    out.add(QStringLiteral("device-mapper"),
        snapshot.deviceMapper.available ? QStringLiteral("available")
                                        : QStringLiteral("not available: ") + snapshot.deviceMapper.reason);
    out.add(QStringLiteral("dm driver"), snapshot.deviceMapper.driverVersion);
    out.add(QStringLiteral("libdevmapper"), snapshot.deviceMapper.libraryVersion);
    out.add(QStringLiteral("Multipath maps"), QString::number(snapshot.maps.size()));
    out.add(QStringLiteral("Block devices"), QString::number(snapshot.devices.size()));
    if (snapshot.takenAt.isValid())
        out.add(QStringLiteral("Scanned at"), snapshot.takenAt.toLocalTime().toString(Qt::ISODate));
    return out.take();
}

} // namespace dmtune
