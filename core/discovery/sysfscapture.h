#pragma once
// `dmtunectl capture`: copies what dmtune reads of a system into a directory that dmtune and dmtunectl open
// with --sysfs-root, for support engineers. Unlike `tar` of /sys it keeps each attribute's real length
// (sysfs says 4096 for all), skips write-only files, and records device-mapper's tables and statuses, which
// are not in sysfs, in dmtune-capture.json.
#include "sysfs/sysfsroot.h"

#include <QJsonObject>
#include <QStringList>

namespace dmtune {

class DeviceMapper;
struct DeviceMapperState;

struct CaptureReport {
    int files = 0;
    int links = 0;
    int maps = 0;
    QStringList skipped; // "sys/block/sda/device/rescan: write-only"
};

inline constexpr char captureFileName[] = "dmtune-capture.json";

// Copies from `source` (the live /sys and /proc, or any tree) into outDir/sys, outDir/proc and
// outDir/dmtune-capture.json. outDir must be missing or empty. dm may be null (no device-mapper).
Result<CaptureReport> captureSystem(
    const SysfsRoot &source, const QString &outDir, DeviceMapper *dm, const DeviceMapperState &dmState);

// The root to use for a directory given as --sysfs-root: a capture's top directory (with sys/ and proc/), its
// sys/ directory, or any sysfs-shaped tree (no proc then).
SysfsRoot sysfsRootForDirectory(const QString &dir);

// The capture description next to a root made by captureSystem (outDir/dmtune-capture.json), or an empty
// object when the root is not a capture.
QJsonObject captureDescription(const SysfsRoot &root);

} // namespace dmtune
