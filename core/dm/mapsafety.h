#pragma once
// Which multipath operations can cause I/O errors or hangs (pure): the warnings the GUI shows
// before it acts and that dmtunectl refuses without --force.
#include "core/dm/grammar/multipathmessages.h"
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/dm/lunidentity.h"

#include <QStringList>

namespace dmtune {

// Warnings, each with its reason, for an operation on a map in the given state: a group left
// without an active path while queue_if_no_path is off, failing the last active path, disabling
// the active group, turning queueing off while no path is active. Empty when safe. Path devices
// are compared as written in the status ("8:16"): resolve names first.
QStringList operationRisks(
    const MultipathTable &table, const MultipathStatus &status, const MultipathMessage &operation);
// The same for replacing `current` by `proposed`: no path left, none of the proposed paths active
// now, queue_if_no_path dropped, a group without an active path while queueing is off, a changed
// hardware handler (it may reject I/O on some ports, e.g. ALUA standby).
QStringList reloadRisks(const MultipathTable &current, const MultipathStatus &status, const MultipathTable &proposed);
// A reload must keep the map's identity, its LUN: every path of `proposed` that is not in `current`
// must report it. The map's LUN is what its mpath- UUID and the paths of `current` report; a new path
// that reports another LUN, or none, or a map whose LUN is unknown, is a risk naming both LUNs (the
// kernel would spread the map's writes over two disks). Paths already in `current` are not judged.
QStringList identityRisks(const MapIdentity &identity, const MultipathTable &current, const MultipathTable &proposed);

} // namespace dmtune
