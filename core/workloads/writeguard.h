#pragma once
// Data safety for workloads. A write workload on a device in use (mounted in any mount namespace, swap, held
// by LVM, dm, md, LIO, ZFS or another exclusive opener, open by another process in any mode, or a partition of
// a disk that is held or open) is refused;
// one on a device that holds data (any signature libblkid recognises, partitions) is refused unless the user
// types the device's name. Read workloads never need confirmation.
//
// Two halves: gatherDeviceFacts() looks at the machine (an O_EXCL hold on the device, sysfs through
// SysfsRoot, /proc/self/mountinfo, /proc/swaps, every process's descriptors in /proc/<pid>/fd, libblkid on
// the held descriptor); decideWrite() is a pure
// decision over those facts. The hold is what makes the decision last: kept until fio ends (DeviceHold).
#include "core/sysfs/sysfsroot.h"
#include "core/workloads/devicehold.h"
#include "core/workloads/deviceopeners.h"

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
    QString parentDisk; // the disk of a partition target ("sdb" for "sdb1"); empty for a whole disk
    QStringList parentHolders; // holders of that disk ("dm-3": the disk is a path of a multipath map...)
    bool held = false; // the O_EXCL hold was taken for this look (see DeviceHold)
    QString exclusiveError; // the O_EXCL hold (or its st_rdev check) failed: the device is in use
    // Other processes with a descriptor on the device, its partitions or its disk, read-write or not (a database
    // on a raw device, a VM's disk): O_EXCL does not see them. dmtune's own processes are left out
    // (ownProcesses), and a short-lived opener (udev's probe after a write, a checker) is waited out briefly.
    QList<DeviceOpener> openers;
    QStringList openerDevices; // the kernel name each opener's descriptor is on, index for index
    QList<BlockSignature> signatures;
    QString probeError; // libblkid could not look (then the device counts as holding something)
};

// hold: where the O_EXCL hold taken for the decision goes (held until the caller releases it); null: it is
// taken for the look and released at return. A captured tree is never held (it is not this machine's).
DeviceFacts gatherDeviceFacts(const SysfsRoot &root, const QString &device, DeviceHold *hold = nullptr);

struct WriteDecision {
    bool allowed = false;
    // It holds data but is not in use: allowed only when confirmed with the device name. A device in use is
    // refused whatever is typed (allowed and needsConfirmation both false).
    bool needsConfirmation = false;
    QStringList reasons; // one sentence each: what is in use, what would be destroyed
};

// writes: the workload writes (see rwWrites). confirmation: what the user typed (GUI) or --destroy-data-on's
// value (CLI); it confirms when it equals the device's kernel name or its /dev path.
WriteDecision decideWrite(const DeviceFacts &facts, bool writes, const QString &confirmation);

// decideWrite over freshly gathered facts. hold: as for gatherDeviceFacts; it is left empty unless the write
// is allowed (a refused write holds nothing).
WriteDecision checkWrite(
    const SysfsRoot &root, const QString &device, bool writes, const QString &confirmation, DeviceHold *hold = nullptr);

} // namespace dmtune
