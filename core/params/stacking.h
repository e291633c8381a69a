#pragma once
// Stacking rules between a multipath map and its paths, checked before applying: a map that
// builds requests its paths cannot take, a map queue that never fills, schedulers twice.
#include "core/params/applyresult.h"
#include "core/params/changeset.h"
#include "core/sysfs/sysfsroot.h"

#include <QHash>

namespace dmtune {

struct PathFacts {
    QString name;
    qint64 maxSectorsKb = -1; // -1: unknown
    qint64 queueDepth = -1; // SCSI device/queue_depth; -1 for paths without one
    QString scheduler;
};

// The values that will hold after the change set (pending values over current ones).
struct MapStackFacts {
    QString device; // dm-0
    QString name; // mpatha (for messages; may be empty)
    bool requestBased = true;
    qint64 maxSectorsKb = -1;
    qint64 nrRequests = -1;
    QList<PathFacts> paths;
};

// Stacking levels: 0 for a device without slaves, 1 + its deepest slave's otherwise (a map over paths: 1).
// Memoised, and walked without recursion: each device's slaves/ is listed once however many devices stack
// on it, so a crafted tree (a slaves cycle, a diamond lattice 60 levels deep) costs time linear in its
// devices and links, and terminates. A cycle (never in a real kernel) counts as no slave.
class StackLevels {
public:
    explicit StackLevels(const SysfsRoot &sysfs)
        : m_sysfs(sysfs)
    {
    }
    int level(const QString &device);
    // Devices whose slaves/ was listed so far.
    int listed() const { return m_listed; }

private:
    const SysfsRoot &m_sysfs;
    QHash<QString, int> m_levels; // -1 while the device is on the walk's stack
    int m_listed = 0;
};
int stackLevel(const SysfsRoot &sysfs, const QString &name);

// Pure: the warnings for one map, with their numbers.
QList<StackingWarning> checkStacking(const MapStackFacts &facts);

// Reads the facts of every multipath map the change set touches (the map itself or one of its
// paths) with the changes laid over them, and checks them. Only the warnings about a value the change set names
// are returned (nr_requests vs queue_depth for a change of the map's nr_requests or a path's queue_depth, not for
// one of its read_ahead_kb): a standing warning is not repeated on every change.
QList<StackingWarning> stackingWarnings(const SysfsRoot &sysfs, const ChangeSet &changes);
MapStackFacts readMapStackFacts(const SysfsRoot &sysfs, const QString &mapDevice, const ChangeSet &changes);

} // namespace dmtune
