#pragma once
// The words the tree and the detail pane use for snapshot values: one wording everywhere.
#include "core/discovery/blockdevice.h"

namespace dmtune {

// "512 B", "4 KiB", "1.5 GiB"; "unknown" for -1 (sysfs could not say).
QString formatSize(qint64 bytes);
// dm-multipath group states: A -> active, E -> enabled, D -> disabled.
QString groupStateLabel(const QString &state);
// "Group 1 · round-robin · active"
QString pathGroupLabel(const PathGroupInfo &group);
// dm-multipath path states: A -> active, F -> failed.
QString pathStateLabel(const QString &state);
// "active · 0 failures"
QString pathStatusText(const PathInfo &path);
// What identifies the device to an admin: vendor and model, backing file, RAID level, dm name.
QString identityText(const BlockDevice &device);
// SCSI state, read-only, removable: only what is worth a glance.
QString stateText(const BlockDevice &device);
// The WWID part of a multipath map's uuid ("mpath-3600..." -> "3600...").
QString mapWwid(const MultipathMap &map);

} // namespace dmtune
