#pragma once
// What a user may type for a device: sdb, dm-3, a map name (mpatha), /dev/sdb, /dev/mapper/mpatha,
// /dev/disk/by-id/..., or MAJ:MIN. Resolved to the kernel name the rest of the code uses.
#include "core/discovery/devicesnapshot.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/result.h"

namespace dmtune {

Result<QString> resolveDeviceSpec(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QString &spec);

} // namespace dmtune
