#pragma once
// The dm-multipath status (STATUSTYPE_INFO) grammar, parsed and formatted without any I/O:
//   <#features> [features] <#hw status> [hw status] <#groups> <current group>
//   (A|E|D <#selector status> [status] <#paths> <#info per path> (<device> A|F <fail count> [info])+)+
// Current kernels print the features as "2 <queue_io> <pg_init_count>" and the hardware handler
// status as "0" (drivers/md/dm-mpath.c multipath_status). The per-path info words come from the
// group's selector: none for round-robin, 1 for queue-length, 2 for service-time, 3 for
// historical-service-time, 1 for io-affinity (see pathselectors.h).
#include "core/dm/grammar/dmtargetline.h"
#include "core/util/result.h"

#include <QChar>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

struct MultipathTable;

struct PathStatus {
    QString device; // "8:16" (the kernel prints major:minor)
    bool active = true; // A (true) or F (false)
    int failCount = 0;
    QStringList selectorInfo;

    bool operator==(const PathStatus &) const = default;
};

struct GroupStatus {
    QChar state = QLatin1Char('E'); // 'A' active (the current group), 'E' enabled, 'D' disabled (bypassed)
    QStringList selectorStatusArgs; // historical-service-time: {base weight, threshold}; others none
    int perPathInfoCount = 0; // every path carries exactly this many info words
    QList<PathStatus> paths;

    bool operator==(const GroupStatus &) const = default;

    int activePathCount() const;
};

struct MultipathStatus {
    QStringList features; // current kernels: {"<queue_io>", "<pg_init_count>"}
    QStringList hwHandlerStatus;
    // The kernel's "current group" field: the current group when one is in use, else the group
    // chosen by switch_group (or the initial one) for the next I/O, else 1 (0 without groups).
    int nextGroup = 0;
    QList<GroupStatus> groups;

    bool operator==(const MultipathStatus &) const = default;

    // From the features of current kernels; -1 when the status has another shape.
    int queueIo() const;
    int pgInitCount() const;
    // 1-based number of the group in state 'A'; 0 when none is in use.
    int activeGroup() const;
};

// Parses the params part of a status line (what follows "multipath"). The error names the word
// and its column.
Result<MultipathStatus> parseMultipathStatus(QStringView params);
// Canonical text: single blanks, no trailing blank; format(parse(x)) == x for kernel output
// without dmsetup's trailing blank.
QString formatMultipathStatus(const MultipathStatus &status);

Result<MultipathStatus> multipathStatusOf(const QList<DmTargetLine> &lines);

// What the kernel reports right after loading `table` and before any I/O: all paths active,
// no group in use, the initial group next, the selectors' counters at their start values.
MultipathStatus initialMultipathStatus(const MultipathTable &table);

} // namespace dmtune
