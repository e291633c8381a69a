#pragma once
// A tuning preset: settings carried by stable identity (WWID, DM UUID, vendor/model), not by
// sdX names that change between boots. Plain values; presetjson.h reads and writes them.
#include "core/params/changeset.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace dmtune {

inline constexpr int presetSchemaVersion = 1;

// Which devices a rule applies to. Every field given must match (AND); globs use * ? [...].
struct PresetMatch {
    QString wwid; // glob on the device's WWID (a multipath map's: its uuid without "mpath-")
    QString dmUuid; // glob on the dm uuid
    QString vendor; // glob on the SCSI vendor (trimmed)
    QString model; // glob on the model (trimmed)
    QStringList kinds; // deviceKindName() values: "scsi", "multipath", "loop", ...
    QString name; // glob on the kernel name or the dm map name
    // Glob on an NVMe namespace's subsystem NQN: every namespace of the subsystems it names (never their hidden
    // per-controller paths). Subsystem attributes (nvme/iopolicy) are carried this way.
    QString nqn;
    // "The paths of the maps matching X": the rule applies to the slaves of the maps this matches.
    std::shared_ptr<PresetMatch> pathsOf;

    bool isEmpty() const;
    // "wwid=naa.6001* kind=scsi" for previews and exports.
    QString describe() const;
    bool operator==(const PresetMatch &other) const;
};

// Per-map dm-multipath settings (applied by a table reload, exported to multipath.conf).
struct MultipathSettings {
    QString selector; // "service-time 0", "round-robin 0", ...: name and its arguments
    QString grouping; // failover | multibus | group_by_serial | group_by_prio | group_by_node_name
    QStringList features; // {"queue_if_no_path"}, {"pg_init_retries", "50"}
    bool isEmpty() const { return selector.isEmpty() && grouping.isEmpty() && features.isEmpty(); }
    bool operator==(const MultipathSettings &) const = default;
};

struct PresetRule {
    QString comment;
    PresetMatch match;
    QList<Assignment> settings; // catalog key -> value, sorted by key (JSON objects are), normalized by the loader
    MultipathSettings multipath;
    bool operator==(const PresetRule &other) const;
};

struct Preset {
    int schema = presetSchemaVersion;
    QString name;
    QString description;
    QString reasoning; // why these values (built-in presets cite the seed threads)
    QString host; // where and when it was made
    QString kernel;
    QDateTime created;
    QList<PresetRule> rules;
    bool operator==(const Preset &other) const;
};

// Multipath grouping policies multipath.conf knows.
const QStringList &multipathGroupingPolicies();

} // namespace dmtune
