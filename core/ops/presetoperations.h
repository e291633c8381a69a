#pragma once
// The preset operations as core operations (operationregistry.h), over core/presets:
//   preset.apply    {"preset": "NAME" | "FILE" | {<preset JSON>}, "devices": ["sdb", "mpatha", ...]}
//   preset.verify   the same request; reports the drift, changes nothing
// "preset" names a stored or built-in preset (presetstore.h findPreset) or carries the preset itself, so a remote
// agent can send one; "devices" (optional) limits the apply to those devices (every matched one by default).
// Plan: refusals (a value the planner rejects, an unknown device, a device the preset has no setting for, maps
// that cannot be reloaded), risks (each map reload's risks, each write that puts data at risk), steps (each
// map's reload with its table diff, then the writes in order), notes (unmatched rules, multipathd).
// Basis (what run() compares): the preset's digest, the current value of every attribute it sets, the current
// table of every map it reloads.
// Run: the map reloads first (a reload re-stacks the map's limits), then the attribute writes as one transaction
// (read back, rolled back on failure), and the old tables back when the writes fail: all or nothing.
#include <QJsonObject>
#include <QStringList>

namespace dmtune {

struct Preset;

void registerPresetOperations();

// The request of preset.apply / preset.verify for a stored or built-in preset (or a file), and for a preset sent
// whole; `devices` empty: every matched device.
QJsonObject presetRequest(const QString &nameOrFile, const QStringList &devices = {});
QJsonObject presetRequest(const Preset &preset, const QStringList &devices = {});

// Risk ids, stable for the same state: "data-risk:sdb:queue/write_cache", "reload:mpatha:<digest>".
inline constexpr char presetDataRiskPrefix[] = "data-risk:";
inline constexpr char presetReloadRiskPrefix[] = "reload:";

} // namespace dmtune
