#pragma once
// The sysfs trees `dmtunectl capture` took of native NVMe multipath in the lab VM (tests/unit/discovery/fixtures:
// nvme-6.1-native-optimized, nvme-6.1-native-ana-changed, nvme-6.1-multipath-N), for every test that reads them.
#include "core/discovery/devicesnapshot.h"

#include <QString>

class QTemporaryDir;

namespace dmtune {
class SysfsRoot;
}

namespace dmtune::test {

// The snapshot discovery builds of a tree without device-mapper (as a capture is read).
DeviceSnapshot snapshotOfTree(const SysfsRoot &sysfs);
// The same of a capture's directory (sysfsRootForDirectory).
DeviceSnapshot snapshotOfCapture(const QString &captureDir);

// The capture `name` unpacked into dir; its directory, or empty when tar failed.
QString unpackNvmeCapture(const QTemporaryDir &dir, const QString &name);

} // namespace dmtune::test
