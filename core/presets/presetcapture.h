#pragma once
// "Save from the current state": the writable tunables of the chosen devices as a preset, each
// device keyed by its stable identity (WWID, DM UUID) rather than its sdX name.
#include "core/discovery/devicesnapshot.h"
#include "core/presets/preset.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/result.h"

namespace dmtune {

// The most stable match for one device: WWID (SCSI, NVMe, multipath maps), else DM UUID, else its
// kind and kernel name (loop, null_blk: nothing stable to key on; the rule's comment says so).
PresetMatch identityMatch(const BlockDevice &device, QString *comment = nullptr);

// One rule per device with the current values of `attributes` (catalog keys or any last part of one that names it
// alone, catalog::resolve; empty: every writable per-device tunable the device has). Module parameters are global and
// never captured; an attribute that is unknown, ignored or not writable on a device is an error naming both.
Result<Preset> presetFromDevices(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QStringList &devices,
    const QStringList &attributes, const QString &name);

// The attributes to save of one device (catalog keys or unique last parts; empty: every savable one).
struct DeviceAttributes {
    QString device;
    QStringList attributes;
};
// As presetFromDevices, with each device's own attributes (the GUI's New from selection: the checked ones);
// presetFromDevices is this with the same attributes for every device.
Result<Preset> presetFromSelection(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot,
    const QList<DeviceAttributes> &selection, const QString &name);

} // namespace dmtune
