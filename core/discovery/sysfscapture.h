#pragma once
// `dmtunectl capture`: copies what dmtune reads of a system into a directory that dmtune and dmtunectl open
// with --sysfs-root, for support engineers. Unlike `tar` of /sys it keeps each attribute's real length
// (sysfs says 4096 for all), skips write-only files, and records device-mapper's tables and statuses, which
// are not in sysfs, in dmtune-capture.json.
#include "core/dm/multipathd/multipathdview.h"
#include "core/sysfs/sysfsroot.h"

#include <QJsonObject>
#include <QStringList>

#include <memory>
#include <optional>
#include <sys/types.h>

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

// multipathd's answer when the capture was taken: its priorities and checker states are not in sysfs, and a
// remote window reads them from the capture it fetched.
struct MultipathdCapture {
    bool running = false;
    QString mapsJson; // `show maps json` as multipathd replied
    QString error; // why there is no reply although it runs
};

// Copies from `source` (the live /sys and /proc, or any tree) into outDir/sys, outDir/proc and
// outDir/dmtune-capture.json. outDir is created (mode 0700; an existing one is refused, even empty) and every
// file in it is created O_EXCL|O_NOFOLLOW under directories entered without following links. dm may be null;
// without `multipathd` the capture does not say anything of it.
Result<CaptureReport> captureSystem(const SysfsRoot &source, const QString &outDir, DeviceMapper *dm,
    const DeviceMapperState &dmState, const std::optional<MultipathdCapture> &multipathd = std::nullopt);

// Creates `relative` (its directories must exist) under dirFd with `data`: O_CREAT|O_EXCL|O_NOFOLLOW, and no
// link on the way is followed; an existing file or any link is an error, never written through.
Status createNewFile(int dirFd, const QString &relative, const QByteArray &data, mode_t mode);

// The root to use for a directory given as --sysfs-root: a capture's top directory (with sys/ and proc/), its
// sys/ directory, or any sysfs-shaped tree (no proc then).
SysfsRoot sysfsRootForDirectory(const QString &dir);

// The capture description next to a root made by captureSystem (outDir/dmtune-capture.json), or an empty
// object when the root is not a capture.
QJsonObject captureDescription(const SysfsRoot &root);

// The device-mapper that goes with a root: this kernel's (LibDevmapperBackend) for the live /sys, for any
// other the maps its capture recorded (CapturedDeviceMapper, read-only), never this host's. An error says
// why there is none (device-mapper missing here, a tree without a capture file).
Result<std::shared_ptr<DeviceMapper>> deviceMapperFor(const SysfsRoot &root);

// multipathd's maps as the capture next to `root` recorded them, parsed as the live reply is; an error says why
// there are none (not a capture, multipathd not recorded, not running then, its error then).
Result<QList<MultipathdMapView>> capturedMultipathdMaps(const SysfsRoot &root);

// multipathd as dmtune knows it for `root`: asked now on the live system, or as the capture recorded it (a remote
// window's capture, `list --sysfs-root`). One answer for the CLI and the windows.
struct MultipathdKnowledge {
    bool captured = false; // what a capture recorded, not the daemon now
    bool recorded = true; // false: a capture that says nothing of multipathd (an older one, a capture's copy)
    bool running = false; // now, or when the capture was taken
    Result<QList<MultipathdMapView>> maps; // when running: its maps, or why there are none
};
MultipathdKnowledge multipathdKnowledgeOf(const SysfsRoot &root);

} // namespace dmtune
