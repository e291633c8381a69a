#pragma once
// Which devices of a snapshot a preset rule selects: pure, over the snapshot's identities.
#include "core/discovery/devicesnapshot.h"
#include "core/presets/preset.h"

namespace dmtune {

// Shell-style glob (* ? [...]) over the whole text, case-sensitive.
bool globMatches(const QString &glob, const QString &text);
// The WWID a preset matches on: the device's own, or a multipath map's uuid without "mpath-".
QString presetWwid(const BlockDevice &device);
// Whether the device satisfies every field of the match except pathsOf.
bool deviceMatches(const BlockDevice &device, const PresetMatch &match);
// The devices a match selects, in snapshot order; with pathsOf: the slaves of the multipath maps
// it matches that also satisfy the other fields.
QStringList matchDevices(const DeviceSnapshot &snapshot, const PresetMatch &match);

} // namespace dmtune
