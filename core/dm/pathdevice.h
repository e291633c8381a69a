#pragma once
// A path device as the user names it ("sdb", "/dev/sdb", "/dev/disk/by-id/...", "8:16") resolved
// to what the kernel's table uses (MAJ:MIN) and what multipathd takes (the kernel name).
#include "core/sysfs/sysfsroot.h"
#include "core/util/result.h"

#include <QString>

namespace dmtune {

struct PathDevice {
    QString devnum; // "8:16"
    QString name; // "sdb"; empty when sysfs has no block device with that number (gone)

    bool operator==(const PathDevice &) const = default;
};

// MAJ:MIN is taken as it is (the name looked up when sysfs has it); a name is looked up in
// <sysfs>/class/block; a /dev path is stat()ed (live root only), so symlinks work.
Result<PathDevice> resolvePathDevice(const SysfsRoot &sysfs, const QString &spec);

} // namespace dmtune
