#pragma once
// The new table of a reload as a request names it (multipath.reload, docs/operations.md): either text (a whole
// "0 LEN multipath ..." line or only the multipath params) or its parts (one selector, the groups' paths as the
// user names them). Built in core so that dmtunectl, the GUI and a remote agent get the same table and the same
// errors for the same request.
#include "core/dm/grammar/dmtargetline.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/result.h"

#include <optional>

namespace dmtune {

// `text` as a table for the map whose target line is `current`: a whole line must cover the same sectors.
Result<MultipathTable> reloadTableFromText(const QString &text, const DmTargetLine &current);

struct ReloadGroups {
    QString selector; // every group's
    QList<QStringList> groups; // the paths of each group, in order; "sdb", "/dev/sdb", "8:16"
    std::optional<QStringList> features; // the table's features (words); absent: the map's own are kept
};
// A table with `groups` (the hardware handler and, unless given, the features of `current`); each path gets the
// selector's default arguments; group 1 first. Errors name the selector, the group or the device.
Result<MultipathTable> reloadTableFromGroups(
    const SysfsRoot &sysfs, const MultipathTable &current, const ReloadGroups &groups);

} // namespace dmtune
