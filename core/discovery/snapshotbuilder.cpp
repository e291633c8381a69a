#include "core/discovery/snapshotbuilder.h"

#include "core/discovery/multipathreader.h"
#include "core/discovery/nvmemultipath.h"

#include <algorithm>

namespace dmtune {

namespace {

QString blockPath(const QString &name, const QString &attribute = {})
{
    return attribute.isEmpty() ? QStringLiteral("block/") + name : QStringLiteral("block/%1/%2").arg(name, attribute);
}

// Reads an attribute; a missing or unreadable file is noted, never fatal.
QString readNoted(const SysfsRoot &sysfs, const QString &relative, BlockDevice &device, const QString &label)
{
    auto r = sysfs.read(relative);
    if (!r) {
        device.unavailable.append(label);
        return {};
    }
    return r.value();
}

QString property(const UdevRecord &record, const char *key)
{
    return record.properties.value(QLatin1String(key));
}

// "[mq-deadline] none" -> current + all offered.
void parseScheduler(const QString &text, BlockDevice &device)
{
    const auto words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const auto &w : words) {
        if (w.startsWith(QLatin1Char('[')) && w.endsWith(QLatin1Char(']'))) {
            const QString name = w.mid(1, w.size() - 2);
            device.scheduler = name;
            device.schedulers.append(name);
        } else {
            device.schedulers.append(w);
        }
    }
}

// The SCSI VPD page 0x80 holds the unit serial number from byte 4 on.
QString serialFromVpd80(const SysfsRoot &sysfs, const QString &name)
{
    auto raw = sysfs.readRaw(blockPath(name, QStringLiteral("device/vpd_pg80")));
    if (!raw)
        return {};
    const QByteArray bytes = raw.value().toLatin1();
    if (bytes.size() <= 4)
        return {};
    return QString::fromLatin1(bytes.mid(4)).trimmed();
}

DeviceKind kindOfDm(const QString &uuid)
{
    if (uuid.startsWith(QLatin1String("mpath-")))
        return DeviceKind::Multipath;
    if (uuid.startsWith(QLatin1String("LVM-")))
        return DeviceKind::DmLvm;
    if (uuid.startsWith(QLatin1String("CRYPT-")))
        return DeviceKind::DmCrypt;
    return DeviceKind::DmOther;
}

void readScsi(const SysfsRoot &sysfs, BlockDevice &d, const UdevRecord &record)
{
    const QString dev = d.parentDevicePath + QLatin1Char('/');
    d.scsi.hctl = d.parentDevicePath.section(QLatin1Char('/'), -1);
    d.scsi.vendor = sysfs.readOr(dev + QStringLiteral("vendor"));
    d.scsi.model = sysfs.readOr(dev + QStringLiteral("model"));
    d.scsi.rev = sysfs.readOr(dev + QStringLiteral("rev"));
    d.scsi.state = sysfs.readOr(dev + QStringLiteral("state"));
    d.scsi.queueDepth = readNoted(sysfs, dev + QStringLiteral("queue_depth"), d, QStringLiteral("device/queue_depth"));
    d.scsi.timeout = sysfs.readOr(dev + QStringLiteral("timeout"));
    d.scsi.ehTimeout = sysfs.readOr(dev + QStringLiteral("eh_timeout"));
    d.vendor = d.scsi.vendor;
    d.model = d.scsi.model;
    d.firmware = d.scsi.rev;
    d.wwid = sysfs.readOr(dev + QStringLiteral("wwid"));
    d.serial = property(record, "ID_SCSI_SERIAL");
    if (d.serial.isEmpty())
        d.serial = property(record, "ID_SERIAL_SHORT");
    if (d.serial.isEmpty())
        d.serial = serialFromVpd80(sysfs, d.name);
    // The transport shows in the host's ancestors: .../host3/rport-3:0-0/... (fc), session (iscsi).
    const QString &devicePath = d.parentDevicePath;
    if (devicePath.contains(QLatin1String("/rport-")))
        d.scsi.transport = QStringLiteral("fc");
    else if (devicePath.contains(QLatin1String("/session")))
        d.scsi.transport = QStringLiteral("iscsi");
    else if (devicePath.contains(QLatin1String("/end_device-")))
        d.scsi.transport = QStringLiteral("sas");
    else if (devicePath.contains(QLatin1String("/ata")))
        d.scsi.transport = QStringLiteral("ata");
    else if (devicePath.contains(QLatin1String("/usb")))
        d.scsi.transport = QStringLiteral("usb");
    else if (devicePath.contains(QLatin1String("pseudo_")))
        d.scsi.transport = QStringLiteral("scsi_debug");
}

// The nvme-subsystem directory (under class/nvme-subsystem) that holds a controller.
QString subsystemOfController(const SysfsRoot &sysfs, const QString &controller)
{
    const auto subsystems = sysfs.list(QStringLiteral("class/nvme-subsystem"));
    for (const auto &s : subsystems) {
        if (sysfs.exists(QStringLiteral("class/nvme-subsystem/%1/%2").arg(s, controller)))
            return s;
    }
    return {};
}

void readNvme(const SysfsRoot &sysfs, BlockDevice &d, const QString &parentSubsystem)
{
    const QString parent = d.parentDevicePath.section(QLatin1Char('/'), -1);
    if (parentSubsystem == QLatin1String("nvme-subsystem")) {
        // Native multipath head: the parent is the subsystem. Its paths, their controllers and the first one's
        // transport come from readNvmeMultipath() once every device is read (buildSnapshot).
        d.nvme.subsystem = parent;
    } else {
        d.nvme.controller = parent;
        d.nvme.pathControllers = { parent };
        d.nvme.subsystem = subsystemOfController(sysfs, parent);
    }
    const QString ctrl = d.nvme.controller.isEmpty() ? QString() : QStringLiteral("class/nvme/") + d.nvme.controller;
    const QString subsys
        = d.nvme.subsystem.isEmpty() ? QString() : QStringLiteral("class/nvme-subsystem/") + d.nvme.subsystem;
    auto fromCtrlOrSubsys = [&](const QString &attr) {
        QString v = ctrl.isEmpty() ? QString() : sysfs.readOr(ctrl + QLatin1Char('/') + attr);
        if (v.isEmpty() && !subsys.isEmpty())
            v = sysfs.readOr(subsys + QLatin1Char('/') + attr);
        if (v.isEmpty())
            v = sysfs.readOr(d.parentDevicePath + QLatin1Char('/') + attr);
        return v;
    };
    d.model = fromCtrlOrSubsys(QStringLiteral("model"));
    d.serial = fromCtrlOrSubsys(QStringLiteral("serial"));
    d.firmware = fromCtrlOrSubsys(QStringLiteral("firmware_rev"));
    d.nvme.subsysNqn = fromCtrlOrSubsys(QStringLiteral("subsysnqn"));
    if (!ctrl.isEmpty()) {
        d.nvme.transport = sysfs.readOr(ctrl + QStringLiteral("/transport"));
        d.nvme.address = sysfs.readOr(ctrl + QStringLiteral("/address"));
    }
    if (!subsys.isEmpty())
        d.nvme.iopolicy = sysfs.readOr(subsys + QStringLiteral("/iopolicy"));
    d.nvme.nsid = sysfs.readOr(blockPath(d.name, QStringLiteral("nsid")));
    d.wwid = sysfs.readOr(blockPath(d.name, QStringLiteral("wwid")));
}

// Kind from what the device is (its sysfs attributes and parent bus), never from its major number.
DeviceKind classify(const SysfsRoot &sysfs, const QString &name, const QString &parentSubsystem)
{
    if (sysfs.isDir(blockPath(name, QStringLiteral("dm"))))
        return DeviceKind::DmOther; // refined from the uuid by the caller
    if (sysfs.isDir(blockPath(name, QStringLiteral("loop")))
        || (name.startsWith(QLatin1String("loop")) && parentSubsystem.isEmpty()))
        return DeviceKind::Loop;
    if (sysfs.isDir(blockPath(name, QStringLiteral("md"))))
        return DeviceKind::Md;
    if (sysfs.exists(blockPath(name, QStringLiteral("comp_algorithm"))) || name.startsWith(QLatin1String("zram")))
        return DeviceKind::Zram;
    if (parentSubsystem == QLatin1String("scsi"))
        return DeviceKind::Scsi;
    if (parentSubsystem == QLatin1String("nvme") || parentSubsystem == QLatin1String("nvme-subsystem"))
        return DeviceKind::NvmeNamespace;
    if (parentSubsystem == QLatin1String("virtio"))
        return DeviceKind::Virtio;
    if (parentSubsystem == QLatin1String("mmc"))
        return DeviceKind::Mmc;
    // Virtual devices without a parent bus: their driver's naming is all there is.
    if (name.startsWith(QLatin1String("nbd")))
        return DeviceKind::Nbd;
    if (name.startsWith(QLatin1String("nullb")))
        return DeviceKind::NullBlk;
    if (name.startsWith(QLatin1String("ram")))
        return DeviceKind::Ram;
    return DeviceKind::Other;
}

Partition readPartition(const SysfsRoot &sysfs, const QString &disk, const QString &name, const KernelBlockIndex *index)
{
    const QString base = blockPath(disk, name);
    Partition p;
    p.name = name;
    p.devnum = index ? index->devnumByName.value(name) : QString();
    if (p.devnum.isEmpty())
        p.devnum = sysfs.readOr(base + QStringLiteral("/dev"));
    bool ok = false;
    const qint64 sectors = sysfs.readOr(base + QStringLiteral("/size")).toLongLong(&ok);
    p.sizeBytes = ok ? sectors * 512 : -1;
    p.number = sysfs.readOr(base + QStringLiteral("/partition")).toInt();
    if (!index) // else the inverse of the holders' slaves (buildSnapshot)
        p.holders = sysfs.list(base + QStringLiteral("/holders"));
    return p;
}

QList<Partition> readPartitions(const SysfsRoot &sysfs, const QString &name, const KernelBlockIndex *index)
{
    QList<Partition> partitions;
    if (index) {
        for (const QString &entry : index->partitionsByDisk.value(name))
            partitions.append(readPartition(sysfs, name, entry, index));
    } else {
        const auto entries = sysfs.list(blockPath(name));
        for (const auto &entry : entries) {
            if (sysfs.exists(blockPath(name, entry) + QStringLiteral("/partition")))
                partitions.append(readPartition(sysfs, name, entry, nullptr));
        }
    }
    std::sort(partitions.begin(), partitions.end(),
        [](const Partition &a, const Partition &b) { return a.number < b.number; });
    return partitions;
}

// Whether a disk of this kind can hold others (bd_link_disk_holder: device-mapper, md, bcache and anything not
// known): only those have entries in slaves/.
bool mayHoldOthers(DeviceKind kind)
{
    switch (kind) {
    case DeviceKind::Scsi:
    case DeviceKind::NvmeNamespace:
    case DeviceKind::Virtio:
    case DeviceKind::Loop:
    case DeviceKind::Zram:
    case DeviceKind::Nbd:
    case DeviceKind::NullBlk:
    case DeviceKind::Ram:
    case DeviceKind::Mmc:
        return false;
    case DeviceKind::Multipath:
    case DeviceKind::DmLvm:
    case DeviceKind::DmCrypt:
    case DeviceKind::DmOther:
    case DeviceKind::Md:
    case DeviceKind::Other:
        break;
    }
    return true;
}

// Names as sysfs.list() gives them (sorted), then in kernel order; the same two sorts as for a listing, so
// that the order is the listing's also for names the kernel order calls equal.
QStringList inKernelOrder(QStringList names)
{
    std::sort(names.begin(), names.end());
    std::sort(names.begin(), names.end(), kernelNameLess);
    return names;
}

// The hardware device a disk hangs off: its "device" link, or, in trees that lost their links
// (umockdev, some captures), the directory above ".../block/NAME" (or ".../NAME"). Empty for
// virtual devices.
QString parentDevice(const SysfsRoot &sysfs, const QString &name, const QString &syspath, const KernelBlockIndex *index)
{
    // With the kernel's tables the directory is known resolved: the link is read where it is.
    const QString linked = index && !syspath.isEmpty() ? sysfs.linkTargetIn(syspath, QStringLiteral("device"))
                                                       : sysfs.linkTarget(blockPath(name, QStringLiteral("device")));
    if (!linked.isEmpty())
        return linked;
    if (syspath.isEmpty() || syspath.startsWith(QLatin1String("devices/virtual/")))
        return {};
    for (const QString &suffix : { QStringLiteral("/block/") + name, QLatin1Char('/') + name }) {
        if (syspath.endsWith(suffix))
            return syspath.left(syspath.size() - suffix.size());
    }
    return {};
}

} // namespace

namespace {
bool isAsciiDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

// The run of ASCII digits, or of anything else, that starts at `from` (what "(\d+|\D+)" matches); `from`
// moves past it.
QStringView nextNameToken(QStringView name, qsizetype &from)
{
    const qsizetype start = from;
    const bool digits = isAsciiDigit(name[from]);
    while (from < name.size() && isAsciiDigit(name[from]) == digits)
        ++from;
    return name.mid(start, from - start);
}
} // namespace

bool kernelNameLess(const QString &a, const QString &b)
{
    // Compare alphabetic runs as strings, numeric runs as numbers; shorter alphabetic runs first
    // (sdz < sdaa) since the kernel names disks in that order. Sorting thousands of names calls this
    // ~10^4 times: runs are views, nothing is allocated.
    qsizetype ia = 0;
    qsizetype ib = 0;
    while (ia < a.size() && ib < b.size()) {
        const QStringView ta = nextNameToken(a, ia);
        const QStringView tb = nextNameToken(b, ib);
        const bool na = ta.front().isDigit();
        const bool nb = tb.front().isDigit();
        if (na && nb) {
            const qulonglong va = ta.toULongLong();
            const qulonglong vb = tb.toULongLong();
            if (va != vb)
                return va < vb;
        } else if (na != nb) {
            return na;
        } else if (ta != tb) {
            // Same driver prefix (sd, vd, xvd...): the kernel counts sdz, sdaa, so shorter first.
            qsizetype common = 0;
            while (common < ta.size() && common < tb.size() && ta[common] == tb[common])
                ++common;
            if (common >= 2 && ta.size() != tb.size())
                return ta.size() < tb.size();
            return ta < tb;
        }
    }
    return ia >= a.size() && ib < b.size();
}

QList<UdevRecord> enumerateBlockDirectory(const SysfsRoot &sysfs)
{
    QList<UdevRecord> records;
    const auto names = sysfs.list(QStringLiteral("block"));
    for (const auto &name : names)
        records.append(UdevRecord { name, {} });
    return records;
}

namespace {

BlockDevice readDevice(const SysfsRoot &sysfs, const UdevRecord &record, const KernelBlockIndex *index)
{
    BlockDevice d;
    d.name = record.sysname;
    d.udevProperties = record.properties;
    d.syspath = index ? index->syspathByName.value(d.name) : QString();
    if (d.syspath.isEmpty())
        d.syspath = sysfs.linkTarget(blockPath(d.name));
    d.devnum = index ? index->devnumByName.value(d.name) : QString();
    if (d.devnum.isEmpty())
        d.devnum = readNoted(sysfs, blockPath(d.name, QStringLiteral("dev")), d, QStringLiteral("dev"));
    bool ok = false;
    const qint64 sectors
        = readNoted(sysfs, blockPath(d.name, QStringLiteral("size")), d, QStringLiteral("size")).toLongLong(&ok);
    d.sizeBytes = ok ? sectors * 512 : -1;
    d.readOnly = sysfs.readOr(blockPath(d.name, QStringLiteral("ro"))) == QLatin1String("1");
    d.removable = sysfs.readOr(blockPath(d.name, QStringLiteral("removable"))) == QLatin1String("1");
    d.rotational = readNoted(
        sysfs, blockPath(d.name, QStringLiteral("queue/rotational")), d, QStringLiteral("queue/rotational"));
    const QString scheduler
        = readNoted(sysfs, blockPath(d.name, QStringLiteral("queue/scheduler")), d, QStringLiteral("queue/scheduler"));
    parseScheduler(scheduler, d);
    d.partitions = readPartitions(sysfs, d.name, index);

    d.parentDevicePath = parentDevice(sysfs, d.name, d.syspath, index);
    const QString parentSubsystem
        = d.parentDevicePath.isEmpty() ? QString() : sysfs.linkName(d.parentDevicePath + QStringLiteral("/subsystem"));
    d.kind = classify(sysfs, d.name, parentSubsystem);
    if (!index || mayHoldOthers(d.kind))
        d.slaves = inKernelOrder(sysfs.list(blockPath(d.name, QStringLiteral("slaves"))));
    if (!index) // else the inverse of the holders' slaves (buildSnapshot)
        d.holders = inKernelOrder(sysfs.list(blockPath(d.name, QStringLiteral("holders"))));

    switch (d.kind) {
    case DeviceKind::DmOther:
        d.dmName = sysfs.readOr(blockPath(d.name, QStringLiteral("dm/name")), property(record, "DM_NAME"));
        d.dmUuid = sysfs.readOr(blockPath(d.name, QStringLiteral("dm/uuid")), property(record, "DM_UUID"));
        d.kind = kindOfDm(d.dmUuid);
        d.wwid = d.kind == DeviceKind::Multipath ? d.dmUuid.mid(6) : QString();
        break;
    case DeviceKind::Scsi:
        readScsi(sysfs, d, record);
        break;
    case DeviceKind::NvmeNamespace:
        readNvme(sysfs, d, parentSubsystem);
        break;
    case DeviceKind::Virtio:
        d.vendor = sysfs.readOr(d.parentDevicePath + QStringLiteral("/vendor"));
        d.serial = sysfs.readOr(blockPath(d.name, QStringLiteral("serial")));
        break;
    case DeviceKind::Loop:
        // A loop device without a backing file has no loop/ directory: nothing to open.
        if (sysfs.isDir(blockPath(d.name, QStringLiteral("loop"))))
            d.loopBackingFile = sysfs.readOr(blockPath(d.name, QStringLiteral("loop/backing_file")));
        break;
    case DeviceKind::Md:
        d.mdLevel = sysfs.readOr(blockPath(d.name, QStringLiteral("md/level")));
        d.model = d.mdLevel;
        break;
    case DeviceKind::Mmc:
        d.model = sysfs.readOr(d.parentDevicePath + QStringLiteral("/name"));
        d.serial = sysfs.readOr(d.parentDevicePath + QStringLiteral("/serial"));
        break;
    default:
        break;
    }
    // udev's identity fills what sysfs does not say (and gives the names admins grep for).
    if (d.serial.isEmpty())
        d.serial = property(record, "ID_SERIAL_SHORT");
    if (d.wwid.isEmpty()) {
        const QString wwn = property(record, "ID_WWN");
        if (!wwn.isEmpty())
            d.wwid = wwn;
    }
    return d;
}

// holders/ of every disk and partition from the slaves/ of the disks that hold others (KernelBlockIndex).
void fillHoldersFromSlaves(QList<BlockDevice> &devices)
{
    QHash<QString, QStringList> holdersOf;
    for (const BlockDevice &d : std::as_const(devices)) {
        for (const QString &slave : d.slaves)
            holdersOf[slave].append(d.name);
    }
    if (holdersOf.isEmpty())
        return;
    for (BlockDevice &d : devices) {
        d.holders = inKernelOrder(holdersOf.value(d.name));
        for (Partition &p : d.partitions) {
            p.holders = holdersOf.value(p.name);
            std::sort(p.holders.begin(), p.holders.end());
        }
    }
}

} // namespace

BlockDevice readBlockDevice(const SysfsRoot &sysfs, const UdevRecord &record)
{
    return readDevice(sysfs, record, nullptr);
}

KernelBlockIndex readKernelBlockIndex(const SysfsRoot &sysfs)
{
    KernelBlockIndex index;
    const QHash<QString, QString> syspathByDevnum = sysfs.linkTargets(QStringLiteral("dev/block"));
    QHash<QString, QString> nameBySyspath;
    nameBySyspath.reserve(syspathByDevnum.size());
    index.devnumByName.reserve(syspathByDevnum.size());
    index.syspathByName.reserve(syspathByDevnum.size());
    for (auto it = syspathByDevnum.constBegin(); it != syspathByDevnum.constEnd(); ++it) {
        const QString name = it.value().section(QLatin1Char('/'), -1);
        index.devnumByName.insert(name, it.key());
        index.syspathByName.insert(name, it.value());
        nameBySyspath.insert(it.value(), name);
    }
    for (auto it = index.syspathByName.constBegin(); it != index.syspathByName.constEnd(); ++it) {
        const auto disk = nameBySyspath.constFind(it.value().section(QLatin1Char('/'), 0, -2));
        if (disk != nameBySyspath.constEnd() && sysfs.exists(it.value() + QStringLiteral("/partition")))
            index.partitionsByDisk[disk.value()].append(it.key());
    }
    for (QStringList &names : index.partitionsByDisk)
        std::sort(names.begin(), names.end());
    return index;
}

DeviceSnapshot buildSnapshot(const SysfsRoot &sysfs, const QList<UdevRecord> &records, DeviceMapper *dm,
    const DeviceMapperState &dmState, const KernelBlockIndex *index)
{
    DeviceSnapshot snapshot;
    snapshot.sysfsRoot = sysfs.root();
    snapshot.live = sysfs.isLive();
    snapshot.deviceMapper = dmState;
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    snapshot.kernelRelease = sysfs.readProc(QStringLiteral("sys/kernel/osrelease")).valueOr({}).trimmed();
    for (const auto &record : records) {
        // A device that vanished between enumeration and reading has no dev file left: skip it.
        if (!sysfs.exists(blockPath(record.sysname)))
            continue;
        snapshot.devices.append(readDevice(sysfs, record, index));
    }
    if (index)
        fillHoldersFromSlaves(snapshot.devices);
    std::sort(snapshot.devices.begin(), snapshot.devices.end(),
        [](const BlockDevice &a, const BlockDevice &b) { return kernelNameLess(a.name, b.name); });
    snapshot.nvmeMultipath = readNvmeMultipath(sysfs, snapshot.devices);
    for (const NvmeMultipathHead &head : std::as_const(snapshot.nvmeMultipath)) {
        // The head's own record names its paths also where the kernel has no multipath/ links (before 6.14).
        for (BlockDevice &d : snapshot.devices) {
            if (d.name != head.name)
                continue;
            d.nvme.pathDevices.clear();
            d.nvme.pathControllers.clear();
            for (const NvmePath &p : head.paths) {
                d.nvme.pathDevices << p.name;
                d.nvme.pathControllers << p.controller;
            }
            if (!d.nvme.pathControllers.isEmpty()) {
                d.nvme.controller = d.nvme.pathControllers.first();
                d.nvme.transport = head.paths.first().transport;
                d.nvme.address = head.paths.first().address;
            }
        }
    }

    for (const auto &d : std::as_const(snapshot.devices)) {
        if (d.kind != DeviceKind::Multipath)
            continue;
        MultipathMap map;
        map.name = d.dmName.isEmpty() ? d.name : d.dmName;
        map.device = d.name;
        map.devnum = d.devnum;
        map.uuid = d.dmUuid;
        map.sizeBytes = d.sizeBytes;
        map.slaves = d.slaves;
        if (dm && dmState.available) {
            readMultipathGroups(map, *dm, snapshot);
        } else {
            map.groupsKnown = false;
            map.groupsUnknownReason = !sysfs.isLive()
                ? QStringLiteral("captured sysfs tree: path groups need the live device-mapper")
                : (dmState.reason.isEmpty() ? QStringLiteral("device-mapper is not available") : dmState.reason);
        }
        snapshot.maps.append(map);
    }
    std::sort(snapshot.maps.begin(), snapshot.maps.end(),
        [](const MultipathMap &a, const MultipathMap &b) { return kernelNameLess(a.name, b.name); });
    return snapshot;
}

} // namespace dmtune
