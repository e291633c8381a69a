#pragma once
// Builds a DeviceSnapshot from sysfs (through one root) plus whatever udev knows.
#include "discovery/devicesnapshot.h"
#include "sysfs/sysfsroot.h"

namespace dmtune {

class DeviceMapper;

// What an enumeration (libudev, or a walk of a captured tree) found for one disk.
struct UdevRecord {
    QString sysname;
    QHash<QString, QString> properties; // from the udev database; empty without udevd
};

// Disks of a tree by walking <root>/block (captured trees, or when libudev is not usable).
QList<UdevRecord> enumerateBlockDirectory(const SysfsRoot &sysfs);

// Reads one device. Never fails: what cannot be read is listed in BlockDevice::unavailable.
BlockDevice readBlockDevice(const SysfsRoot &sysfs, const UdevRecord &record);

// The whole snapshot. dm may be null (captured tree, or no device-mapper in the kernel):
// maps then come from sysfs alone, with groupsUnknownReason set.
DeviceSnapshot buildSnapshot(
    const SysfsRoot &sysfs, const QList<UdevRecord> &records, DeviceMapper *dm, const DeviceMapperState &dmState);

// Natural order of kernel names: sda < sdb < sdz < sdaa; nvme0n2 < nvme0n10.
bool kernelNameLess(const QString &a, const QString &b);

} // namespace dmtune
