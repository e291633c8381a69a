#include "widgets/devices/deviceproperties.h"

#include "widgets/devices/devicelabels.h"

#include <QCoreApplication>

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
    return names.isEmpty() ? QCoreApplication::translate("DeviceProperties", "none") : names.join(QStringLiteral(", "));
}

QString sizeWithBytes(qint64 bytes)
{
    return bytes < 0
        ? formatSize(bytes)
        : QCoreApplication::translate("DeviceProperties", "%1 (%2 bytes)").arg(formatSize(bytes)).arg(bytes);
}

QString yesNo(bool value)
{
    return value ? QCoreApplication::translate("DeviceProperties", "yes")
                 : QCoreApplication::translate("DeviceProperties", "no");
}

void writeIdentity(RowWriter &out, const BlockDevice &d)
{
    out.heading(QCoreApplication::translate("DeviceProperties", "Identity"));
    out.add(QCoreApplication::translate("DeviceProperties", "Name"), d.name);
    out.add(QCoreApplication::translate("DeviceProperties", "Device number"), d.devnum);
    out.add(QCoreApplication::translate("DeviceProperties", "Kind"), deviceKindLabel(d.kind));
    out.add(QCoreApplication::translate("DeviceProperties", "Size"), sizeWithBytes(d.sizeBytes));
    out.add(d.kind == DeviceKind::Virtio ? QCoreApplication::translate("DeviceProperties", "PCI vendor ID")
                                         : QCoreApplication::translate("DeviceProperties", "Vendor"),
        d.vendor);
    out.add(QCoreApplication::translate("DeviceProperties", "Model"), d.model);
    out.add(QCoreApplication::translate("DeviceProperties", "Serial"), d.serial);
    out.add(QStringLiteral("WWID"), d.wwid);
    out.add(QCoreApplication::translate("DeviceProperties", "Firmware"), d.firmware);
    out.add(QCoreApplication::translate("DeviceProperties", "Read-only"), yesNo(d.readOnly));
    out.add(QCoreApplication::translate("DeviceProperties", "Removable"), yesNo(d.removable));
    if (!d.rotational.isEmpty())
        out.add(QCoreApplication::translate("DeviceProperties", "Rotational"),
            d.rotational == QLatin1String("1") ? QCoreApplication::translate("DeviceProperties", "yes")
                                               : QCoreApplication::translate("DeviceProperties", "no"));
    if (!d.schedulers.isEmpty())
        out.add(QCoreApplication::translate("DeviceProperties", "Scheduler"),
            QCoreApplication::translate("DeviceProperties", "%1 (offered: %2)")
                .arg(d.scheduler, d.schedulers.join(QLatin1Char(' '))));
    out.add(QCoreApplication::translate("DeviceProperties", "sysfs path"), d.syspath);
}

void writeKindSpecific(RowWriter &out, const BlockDevice &d)
{
    switch (d.kind) {
    case DeviceKind::Scsi:
        out.heading(QCoreApplication::translate("DeviceProperties", "SCSI device"));
        out.add(QStringLiteral("H:C:T:L"), d.scsi.hctl);
        out.add(QCoreApplication::translate("DeviceProperties", "Transport"), d.scsi.transport);
        out.add(QCoreApplication::translate("DeviceProperties", "State"), d.scsi.state);
        out.add(QStringLiteral("queue_depth"), d.scsi.queueDepth);
        out.add(
            QStringLiteral("timeout"), d.scsi.timeout.isEmpty() ? QString() : d.scsi.timeout + QStringLiteral(" s"));
        out.add(QStringLiteral("eh_timeout"),
            d.scsi.ehTimeout.isEmpty() ? QString() : d.scsi.ehTimeout + QStringLiteral(" s"));
        out.add(QCoreApplication::translate("DeviceProperties", "Revision"), d.scsi.rev);
        out.add(QCoreApplication::translate("DeviceProperties", "Parent device"), d.parentDevicePath);
        break;
    case DeviceKind::NvmeNamespace:
        out.heading(QStringLiteral("NVMe"));
        out.add(QCoreApplication::translate("DeviceProperties", "Controller"), d.nvme.controller);
        out.add(QCoreApplication::translate("DeviceProperties", "Subsystem"), d.nvme.subsystem);
        out.add(QCoreApplication::translate("DeviceProperties", "Transport"), d.nvme.transport);
        out.add(QCoreApplication::translate("DeviceProperties", "Address"), d.nvme.address);
        out.add(QCoreApplication::translate("DeviceProperties", "Subsystem NQN"), d.nvme.subsysNqn);
        out.add(QCoreApplication::translate("DeviceProperties", "I/O policy"), d.nvme.iopolicy);
        out.add(QCoreApplication::translate("DeviceProperties", "Namespace ID"), d.nvme.nsid);
        if (!d.nvme.pathDevices.isEmpty())
            out.add(QCoreApplication::translate("DeviceProperties", "Native multipath paths"),
                d.nvme.pathDevices.join(QStringLiteral(", ")));
        if (d.nvme.pathControllers.size() > 1)
            out.add(QCoreApplication::translate("DeviceProperties", "Controllers"),
                d.nvme.pathControllers.join(QStringLiteral(", ")));
        break;
    case DeviceKind::Loop:
        out.heading(QCoreApplication::translate("DeviceProperties", "Loop device"));
        out.addAlways(QCoreApplication::translate("DeviceProperties", "Backing file"), d.loopBackingFile,
            QCoreApplication::translate("DeviceProperties", "none (not bound)"));
        break;
    case DeviceKind::Md:
        out.heading(QStringLiteral("MD RAID"));
        out.add(QCoreApplication::translate("DeviceProperties", "Level"), d.mdLevel);
        break;
    default:
        if (!d.parentDevicePath.isEmpty()) {
            out.heading(QCoreApplication::translate("DeviceProperties", "Hardware"));
            out.add(QCoreApplication::translate("DeviceProperties", "Parent device"), d.parentDevicePath);
        }
        break;
    }
    if (d.isDeviceMapper()) {
        out.heading(QCoreApplication::translate("DeviceProperties", "Device-mapper"));
        out.add(QCoreApplication::translate("DeviceProperties", "dm name"), d.dmName);
        out.add(QCoreApplication::translate("DeviceProperties", "dm uuid"), d.dmUuid);
    }
}

void writeMap(RowWriter &out, const MultipathMap &map)
{
    // Name and WWID are in the identity rows already (dm name, WWID).
    out.heading(QCoreApplication::translate("DeviceProperties", "Multipath map"));
    if (!map.groupsKnown) {
        // Features, handler, table and status all come from dm's table and status: say why they are missing.
        out.addAlways(QCoreApplication::translate("DeviceProperties", "Path groups"),
            QCoreApplication::translate("DeviceProperties", "unknown: %1").arg(map.groupsUnknownReason), {});
        out.add(QCoreApplication::translate("DeviceProperties", "Paths (sysfs slaves)"), listOrNone(map.slaves));
        return;
    }
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Features"), map.features.join(QLatin1Char(' ')),
        QCoreApplication::translate("DeviceProperties", "none"));
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Hardware handler"),
        map.hwHandler.join(QLatin1Char(' ')), QCoreApplication::translate("DeviceProperties", "none"));
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Table"), map.tableLine,
        QCoreApplication::translate("DeviceProperties", "not read"));
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Status"), map.statusLine,
        QCoreApplication::translate("DeviceProperties", "not read"));
    if (map.nextGroup > 0)
        out.add(QCoreApplication::translate("DeviceProperties", "Next path group"), QString::number(map.nextGroup));
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
        out.add(QCoreApplication::translate("DeviceProperties", "Group %1").arg(group.index),
            QStringLiteral("%1: %2").arg(facts.join(QStringLiteral(" · ")), listOrNone(paths)));
    }
}

void writeMembership(RowWriter &out, const DeviceSnapshot &snapshot, const BlockDevice &d)
{
    const MultipathMap *map = snapshot.mapOfPath(d.name);
    if (!map)
        return;
    out.heading(QCoreApplication::translate("DeviceProperties", "Multipath path"));
    out.add(
        QCoreApplication::translate("DeviceProperties", "Map"), QStringLiteral("%1 (%2)").arg(map->name, map->device));
    if (!map->groupsKnown) {
        out.add(QCoreApplication::translate("DeviceProperties", "Path state"),
            QCoreApplication::translate("DeviceProperties", "unknown: %1").arg(map->groupsUnknownReason));
        return;
    }
    for (const auto &group : map->groups) {
        for (const auto &path : group.paths) {
            if (path.name == d.name || (!path.devnum.isEmpty() && path.devnum == d.devnum)) {
                out.add(QCoreApplication::translate("DeviceProperties", "Path group"), pathGroupLabel(group));
                out.add(QCoreApplication::translate("DeviceProperties", "Path state"), pathStatusText(path));
                if (!path.selectorInfo.isEmpty())
                    out.add(QCoreApplication::translate("DeviceProperties", "Selector info"),
                        path.selectorInfo.join(QLatin1Char(' ')));
            }
        }
    }
}

void writeTopology(RowWriter &out, const BlockDevice &d)
{
    out.heading(QCoreApplication::translate("DeviceProperties", "Topology"));
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Slaves (below)"), listOrNone(d.slaves), {});
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Holders (above)"), listOrNone(d.holders), {});
    QStringList partitions;
    for (const auto &p : d.partitions)
        partitions.append(QStringLiteral("%1 (%2)").arg(p.name, formatSize(p.sizeBytes)));
    if (!partitions.isEmpty())
        out.add(QCoreApplication::translate("DeviceProperties", "Partitions"), partitions.join(QStringLiteral(", ")));
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
            out.heading(QCoreApplication::translate("DeviceProperties", "Not readable"));
            out.add(QCoreApplication::translate("DeviceProperties", "Attributes"),
                d->unavailable.join(QStringLiteral(", ")));
        }
        return out.take();
    }
    if (const BlockDevice *disk = diskOfPartition(snapshot, name)) {
        for (const auto &p : disk->partitions) {
            if (p.name != name)
                continue;
            out.heading(QCoreApplication::translate("DeviceProperties", "Partition"));
            out.add(QCoreApplication::translate("DeviceProperties", "Name"), p.name);
            out.add(QCoreApplication::translate("DeviceProperties", "Device number"), p.devnum);
            out.add(QCoreApplication::translate("DeviceProperties", "Partition number"), QString::number(p.number));
            out.add(QCoreApplication::translate("DeviceProperties", "Size"), sizeWithBytes(p.sizeBytes));
            out.add(QCoreApplication::translate("DeviceProperties", "Disk"), disk->name);
            out.addAlways(
                QCoreApplication::translate("DeviceProperties", "Holders (above)"), listOrNone(p.holders), {});
        }
    }
    return out.take();
}

QList<PropertyRow> describeSnapshot(const DeviceSnapshot &snapshot, const QString &machine)
{
    RowWriter out;
    out.heading(machine);
    out.addAlways(QCoreApplication::translate("DeviceProperties", "Kernel"), snapshot.kernelRelease,
        QCoreApplication::translate("DeviceProperties", "unknown"));
    out.add(QCoreApplication::translate("DeviceProperties", "sysfs root"),
        snapshot.live
            ? snapshot.sysfsRoot
            : QCoreApplication::translate("DeviceProperties", "%1 (captured tree, read-only)").arg(snapshot.sysfsRoot));
    out.add(QStringLiteral("device-mapper"),
        snapshot.deviceMapper.available
            ? QCoreApplication::translate("DeviceProperties", "available")
            : QCoreApplication::translate("DeviceProperties", "not available: %1").arg(snapshot.deviceMapper.reason));
    out.add(QCoreApplication::translate("DeviceProperties", "dm driver"), snapshot.deviceMapper.driverVersion);
    out.add(QStringLiteral("libdevmapper"), snapshot.deviceMapper.libraryVersion);
    out.add(QCoreApplication::translate("DeviceProperties", "Multipath maps"), QString::number(snapshot.maps.size()));
    out.add(QCoreApplication::translate("DeviceProperties", "Block devices"), QString::number(snapshot.devices.size()));
    if (snapshot.takenAt.isValid())
        out.add(QCoreApplication::translate("DeviceProperties", "Scanned at"),
            snapshot.takenAt.toLocalTime().toString(Qt::ISODate));
    return out.take();
}

} // namespace dmtune
