#pragma once
// What discovery knows about one block device and one multipath map: plain values.
#include <QHash>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace dmtune {

enum class DeviceKind {
    Multipath, // dm map whose uuid starts with mpath-
    DmLvm,
    DmCrypt,
    DmOther,
    Scsi,
    NvmeNamespace, // a namespace block device (with native multipath: the head device)
    Virtio,
    Loop,
    Md,
    Zram,
    Nbd,
    NullBlk,
    Ram,
    Mmc,
    Other,
};

QString deviceKindName(DeviceKind kind); // stable identifiers used in JSON: "multipath", "scsi", ...
QString deviceKindLabel(DeviceKind kind); // human text: "dm-multipath map", "SCSI disk", ...

struct ScsiIdentity {
    QString hctl; // H:C:T:L, from the device link
    QString vendor, model, rev, state;
    QString queueDepth, timeout, ehTimeout;
    QString transport; // from the host's class, when known (fc, iscsi, sas, ...)
};

struct NvmeIdentity {
    QString controller; // nvme0
    QString subsystem; // nvme-subsys0
    QString transport; // pcie, tcp, rdma, fc, loop
    QString address;
    QString subsysNqn;
    QString iopolicy; // native multipath policy of the subsystem
    QString nsid;
    QStringList pathDevices; // native multipath: nvme0c0n1, nvme0c1n1 (hidden path devices)
    QStringList pathControllers; // controllers that reach the namespace
};

struct Partition {
    QString name;
    QString devnum;
    qint64 sizeBytes = 0;
    int number = 0;
    QStringList holders;
};

struct BlockDevice {
    QString name; // kernel name, as in /sys/block
    QString devnum; // MAJ:MIN
    DeviceKind kind = DeviceKind::Other;
    qint64 sizeBytes = -1; // size x 512; -1 unavailable
    bool readOnly = false;
    bool removable = false;
    QString rotational; // "0"/"1", empty when unavailable
    QString model, vendor, serial, wwid, firmware;
    QString scheduler; // current (the bracketed one); empty when none/unavailable
    QStringList schedulers; // all offered
    QStringList slaves;
    QStringList holders;
    QList<Partition> partitions;
    QString dmName, dmUuid; // device-mapper only
    QString loopBackingFile; // loop only
    QString mdLevel; // md only
    ScsiIdentity scsi; // Scsi only
    NvmeIdentity nvme; // NvmeNamespace only
    QString parentDevicePath; // sysfs path of the parent hardware device (relative to the root)
    QString syspath; // relative to the root: devices/.../block/sda
    QHash<QString, QString> udevProperties; // only what udev's database has (may be empty)
    QStringList unavailable; // attributes that could not be read ("queue/scheduler: ...")

    bool isDeviceMapper() const { return !dmUuid.isEmpty() || !dmName.isEmpty(); }
};

struct PathInfo {
    QString name; // sdX / nvmeXnY, resolved from the devnum when possible
    QString devnum; // MAJ:MIN as in the table
    QString state; // "A" active, "F" failed; empty when unknown
    int failCount = -1;
    QStringList selectorArgs; // per-path table args (e.g. repeat_count)
    QStringList selectorInfo; // per-path status info (e.g. in-flight count)
};

struct PathGroupInfo {
    int index = 0; // 1-based, as dm messages count
    QString state; // A active, E enabled, D disabled
    QString selector;
    QStringList selectorArgs;
    QList<PathInfo> paths;
};

struct MultipathMap {
    QString name; // dm name
    QString device; // dm-N
    QString devnum;
    QString uuid;
    qint64 sizeBytes = -1;
    QStringList features;
    QStringList hwHandler;
    QString tableLine; // params of the multipath target, as the kernel reports it
    QString tableTargetLine; // the whole table line, "0 SECTORS multipath PARAMS", as dmsetup table prints it
    QString statusLine;
    bool groupsKnown = false;
    QString groupsUnknownReason; // why groups could not be read (no device-mapper, captured tree, ...)
    int nextGroup = 0;
    QList<PathGroupInfo> groups;
    QStringList slaves; // paths from sysfs (always known)
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::BlockDevice)
