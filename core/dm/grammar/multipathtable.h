#pragma once
// The dm-multipath table (constructor) grammar, parsed and formatted without any I/O:
//   <#features> [features] <#hw args> [hw_handler [args]] <#groups> <initial group>
//   (<selector> <#selector args> [args] <#paths> <#per-path args> (<device> [args])+)+
// (drivers/md/dm-mpath.c multipath_ctr; the kernel prints a table in the same grammar).
#include "core/dm/grammar/dmtargetline.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

// The most words any counted list of a multipath table or status line may have (dm-mpath.c's dm_arg ranges).
inline constexpr quint32 multipathMaxCount = 1024;

// Appends a counted list as dm-mpath writes it: the number of items, then the items.
void appendCounted(QStringList &words, const QStringList &items);

struct PathSpec {
    QString device; // as written: "8:16" or "/dev/skd0"
    QStringList args; // the selector's per-path words, e.g. {"1"} for round-robin

    bool operator==(const PathSpec &) const = default;
};

struct PathGroupSpec {
    QString selector; // "round-robin", "service-time", ...
    QStringList selectorArgs;
    int perPathArgCount = 0; // every path carries exactly this many args
    QList<PathSpec> paths;

    bool operator==(const PathGroupSpec &) const = default;
};

struct MultipathTable {
    QStringList features; // e.g. {"queue_if_no_path", "pg_init_retries", "50"}
    QStringList hwHandler; // e.g. {"alua"} or {"emc", "1"}; empty: none
    int initialGroup = 0; // 1-based; 0 only when there are no groups
    QList<PathGroupSpec> groups;

    bool operator==(const MultipathTable &) const = default;

    bool queueIfNoPath() const;
    // The value of a feature with an argument ("pg_init_retries" -> "50"); empty when absent.
    QString featureValue(QStringView name) const;
    // Every path's device word, group by group, as written ("8:16").
    QStringList devices() const;
};

// Parses the params part (what follows "multipath" in a table line). Checks what the kernel
// checks: counts and their ranges, known features and their values, the per-path arguments of the
// known selectors, device words ("maj:min" or an absolute path), nothing left over. The error
// names the word and its column.
Result<MultipathTable> parseMultipathTable(QStringView params);
// The canonical text: single blanks, no trailing blank. format(parse(x)) == x for kernel output
// (apart from the trailing blank dmsetup prints) and for any text in canonical spacing.
QString formatMultipathTable(const MultipathTable &table);
// Whether an edited table formats to text the parser accepts with the same meaning
// (e.g. a path with fewer args than perPathArgCount fails).
Status checkMultipathTable(const MultipathTable &table);

// The multipath table of a map's table lines (a multipath map has exactly one target).
Result<MultipathTable> multipathTableOf(const QList<DmTargetLine> &lines);

} // namespace dmtune
