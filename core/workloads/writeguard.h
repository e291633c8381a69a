#pragma once
// Data safety for workloads: a write workload on a block device that holds anything (a mounted file system,
// a holder such as LVM, dm or md, partitions in use, or any signature libblkid recognises) is refused unless
// the user types the device's name. Read workloads never need confirmation.
//
// Two halves: gatherDeviceFacts() looks at the machine (sysfs through SysfsRoot, /proc/self/mountinfo,
// /proc/swaps, libblkid); decideWrite() is a pure decision over those facts.
#include "sysfs/sysfsroot.h"

#include <QList>
#include <QStringList>

namespace dmtune {

struct MountEntry {
    QString devnum; // "7:0"
    QString mountPoint;
    QString fsType;
    QString source; // "/dev/loop0"
};
// /proc/self/mountinfo -> its entries (mount points with \040 etc. decoded). Malformed lines are skipped.
QList<MountEntry> parseMountinfo(const QString &text);
// /proc/swaps -> the swap device paths in use ("/dev/sda2").
QStringList parseSwaps(const QString &text);

struct BlockSignature {
    QString device; // kernel name of the device or partition it was found on
    QString type; // "ext4", "LVM2_member", "linux_raid_member", "dos", "gpt"
    QString usage; // "filesystem", "raid", "crypto", "other", "partition table"
};

struct DeviceFacts {
    QString device; // kernel name
    bool exists = false;
    QStringList partitions; // kernel names of its partitions
    QList<MountEntry> mounts; // of the device and its partitions
    QStringList swaps; // the device or its partitions used as swap
    QStringList holders; // holders of the device and of its partitions ("dm-0", "md0")
    QList<BlockSignature> signatures;
    QString probeError; // libblkid could not look (then the device counts as holding something)
};

DeviceFacts gatherDeviceFacts(const SysfsRoot &root, const QString &device);

struct WriteDecision {
    bool allowed = false;
    bool needsConfirmation = false; // it holds something; allowed only when confirmed with the device name
    QStringList reasons; // one sentence each: what would be destroyed
};

// writes: the workload writes (see rwWrites). confirmation: what the user typed (GUI) or --destroy-data-on's
// value (CLI); it confirms when it equals the device's kernel name or its /dev path.
WriteDecision decideWrite(const DeviceFacts &facts, bool writes, const QString &confirmation);

// decideWrite over freshly gathered facts.
WriteDecision checkWrite(const SysfsRoot &root, const QString &device, bool writes, const QString &confirmation);

} // namespace dmtune
