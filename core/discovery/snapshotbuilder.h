#pragma once
// Builds a DeviceSnapshot from sysfs (through one root) plus whatever udev knows.
#include "core/discovery/devicesnapshot.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

class DeviceMapper;

// What an enumeration (a walk of <root>/block) found for one disk.
struct UdevRecord {
    QString sysname;
    QHash<QString, QString> properties; // the E: properties of udev's database; empty without udevd
};

// Disks of a tree by walking <root>/block.
QList<UdevRecord> enumerateBlockDirectory(const SysfsRoot &sysfs);

// What the kernel's own tables say of every block device at once, so that a scan of thousands of devices opens
// only each device's attribute files (the live /sys, where the kernel keeps these tables consistent):
// - dev/block/MAJ:MIN links name every disk and partition: the device numbers, their directories (the links'
//   targets, as block/NAME's), and which block device sits in another's directory (a partition, with its
//   "partition" attribute);
// - slaves/ and holders/ are filled together, only by bd_link_disk_holder() (device-mapper, md, bcache: kinds
//   DmOther.., Md, Other): holders/ of every disk and partition is the inverse of those holders' slaves/, and
//   the disks of the other kinds (loop, SCSI, NVMe...) have an empty slaves/.
struct KernelBlockIndex {
    QHash<QString, QString> devnumByName; // disks and partitions
    QHash<QString, QString> syspathByName; // where their directories are ("devices/virtual/block/loop0")
    QHash<QString, QStringList> partitionsByDisk; // names, sorted
};
KernelBlockIndex readKernelBlockIndex(const SysfsRoot &sysfs);

// Reads one device. Never fails: what cannot be read is listed in BlockDevice::unavailable.
BlockDevice readBlockDevice(const SysfsRoot &sysfs, const UdevRecord &record);

// The whole snapshot. dm may be null (captured tree, or no device-mapper in the kernel):
// maps then come from sysfs alone, with groupsUnknownReason set. index: the kernel's tables in place of each
// device's dev file, partition walk and slaves/holders listings (null: every device read on its own, as a
// captured or test tree needs, where those tables may be missing or partial).
DeviceSnapshot buildSnapshot(const SysfsRoot &sysfs, const QList<UdevRecord> &records, DeviceMapper *dm,
    const DeviceMapperState &dmState, const KernelBlockIndex *index = nullptr);

// Natural order of kernel names: sda < sdb < sdz < sdaa; nvme0n2 < nvme0n10.
bool kernelNameLess(const QString &a, const QString &b);

} // namespace dmtune
