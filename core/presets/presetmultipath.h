#pragma once
// A preset's per-map multipath settings applied by safe table reloads (core/dm: load, resume
// without flush or lockfs; the old table stays on failure). All maps are prepared (and their
// risks checked) before the first reload; when a later step fails, the maps already reloaded get their old
// tables back, so a preset apply stays all-or-nothing.
#include "core/dm/backend/devicemapper.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/presets/presetresolution.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

// The table a rule's settings give a map, from its current table: the selector (with the
// kernel's default per-path arguments) in every group; failover = one path per group, multibus =
// one group of every path (path order kept); features added when missing. group_by_* need path
// properties only multipathd knows: an error (use the multipath.conf export).
Result<MultipathTable> tableWithSettings(const MultipathTable &current, const MultipathSettings &settings);

struct PresetMapReload {
    QString map;
    MultipathTable before;
    MultipathTable after;
    QStringList diff; // tableDiffLines(before, after)
    QStringList risks; // identityRisks (a path of another LUN), reloadRisks (I/O errors the reload could cause)
    qsizetype dataRiskCount = 0; // the first ones of `risks`, the identityRisks(): the map's data is at stake
};

// Reads every differing map and builds its new table; an error (nothing changed) names the map.
// `sysfs` gives the paths' WWIDs for the identity check.
Result<QList<PresetMapReload>> prepareMapReloads(
    DeviceMapper &dm, const QList<PresetMapItem> &maps, const SysfsRoot &sysfs = SysfsRoot());

struct MapReloadOutcome {
    QStringList done; // "mpatha: reloaded: <table>"
    QStringList warnings;
    Status status; // on failure, every map already reloaded got its old table back
    bool ok() const { return status.ok(); }
};

MapReloadOutcome executeMapReloads(DeviceMapper &dm, const QList<PresetMapReload> &reloads, bool multipathdRunning);
// Puts the old tables back (after a failed sysfs transaction); the errors of maps that would not.
QStringList restoreMapReloads(DeviceMapper &dm, const QList<PresetMapReload> &reloads);

} // namespace dmtune
