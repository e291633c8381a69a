#pragma once
// What the diagnosis rules look at, read from a snapshot and the tree it came from (live /sys or a capture): the
// maps' and paths' configuration. The numbers are attached separately: live ones from the sampler, recorded ones
// from a recording.
#include "core/diagnosis/diagnosis.h"

#include <QHash>

namespace dmtune {

class DeviceSnapshot;
class SysfsRoot;
struct MultipathMap;

DiagnosedMap readDiagnosedMap(const SysfsRoot &sysfs, const MultipathMap &map);
// The maps and native NVMe heads named (by dm name, dm-N or head name; empty: every one), configuration only.
DiagnosisInput readDiagnosisInput(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QStringList &devices);
// The lines of one udev rules file or tuned profile that set a knob current kernels ignore (comments left out).
QList<IgnoredKnobSetting> ignoredKnobSettings(const QString &file, const QString &text);
// udev's rules directories and tuned's profiles, where a knob outlives the kernel that used it.
QStringList systemConfigurationFiles();
QList<IgnoredKnobSetting> findIgnoredKnobSettings(const QStringList &files);
// The kernel names the rules want numbers for: each map's device and its paths.
QStringList diagnosedDeviceNames(const DiagnosisInput &input);
// Sets each map's and path's metrics by kernel name, and the interval they cover.
void attachMetrics(DiagnosisInput *input, const QHash<QString, IostatMetrics> &metrics, double seconds);

} // namespace dmtune
