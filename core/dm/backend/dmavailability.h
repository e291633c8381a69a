#pragma once
// Whether the running kernel offers device-mapper, checked before any libdevmapper call: run as
// root on a kernel without it, libdevmapper creates /dev/mapper/control and prints errors.
#include <QString>

namespace dmtune {

class SysfsRoot;

struct DmAvailability {
    bool available = false;
    QString reason; // why not, for the user; empty when available
};

// Device-mapper is there when <sysfs>/module/dm_mod exists (module or built in) or <proc>/misc
// lists "device-mapper", and controlPath exists and may be opened for reading and writing.
DmAvailability checkDeviceMapper(
    const SysfsRoot &root, const QString &controlPath = QStringLiteral("/dev/mapper/control"));

} // namespace dmtune
