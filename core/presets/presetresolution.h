#pragma once
// A preset laid over the live system: for every matched device and attribute the current value,
// the preset's value and the rule that asks for it. The same value feeds apply (its change set),
// the preview, and verify (its drift), like tuned-adm verify.
#include "core/discovery/devicesnapshot.h"
#include "core/params/changeset.h"
#include "core/presets/preset.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

enum class PresetItemState {
    Same, // the device already has the preset's value
    Differs, // apply would write it; verify reports drift
    Unavailable, // the device has no such attribute, or it is read-only
};

struct PresetItem {
    QString device;
    QString attribute;
    QString current; // normalized; empty when unavailable or created by a scheduler change
    QString wanted;
    int rule = 0; // 0-based index into Preset::rules (a later rule overrides an earlier one)
    PresetItemState state = PresetItemState::Same;
    QString note; // why unavailable, or "set by the scheduler change"
    QString risk; // what writing it can lose (planner.h dataRiskNote: write_cache=write through), else empty
};

// The per-map multipath settings of a rule against the map's table.
struct PresetMapItem {
    QString map; // dm name
    QString device; // dm-N
    int rule = 0;
    MultipathSettings wanted;
    QString currentSelector; // "service-time 0" (the first group's), empty when unknown
    QString currentGrouping; // failover / multibus as seen from the groups, else "N groups"
    QStringList currentFeatures;
    bool differs = false;
    QString note; // e.g. "groups unknown: no device-mapper"
};

struct PresetResolution {
    QList<PresetItem> items; // rule order, then device order, then the rule's attribute order
    QList<PresetMapItem> maps;
    QStringList unmatched; // "rule 2 (comment) matched no device"

    // The writes apply makes: every item that differs (only on `devices` when given).
    ChangeSet changes(const QStringList &devices = {}) const;
    // Items that differ or are unavailable, and maps that differ: what verify reports.
    QList<PresetItem> drift() const;
    bool hasDrift() const;
    // Items whose write puts data at risk: apply needs --force (CLI) or a typed confirmation (GUI).
    QList<PresetItem> risky() const;
};

PresetResolution resolvePreset(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const Preset &preset);

QString presetItemStateName(PresetItemState state); // "same", "differs", "unavailable"
// "rule 2 (comment)" for tables and messages.
QString presetRuleLabel(const Preset &preset, int rule);

} // namespace dmtune
