#pragma once
// Turns a change set into an ordered list of checked writes: every device name, attribute and
// value validated, the writes put in a safe order, stacking warnings added. Nothing is written.
#include "params/applyresult.h"
#include "params/changeset.h"
#include "sysfs/sysfsroot.h"

namespace dmtune {

struct PlannedWrite {
    QString device;
    QString attribute;
    QString path; // relative to the sysfs root
    QString oldValue; // normalized, when planned (empty for iosched files the scheduler change creates)
    QString value; // the text to write
    int level = 0; // stack level of the device (paths 0, maps 1)
};

struct Plan {
    QList<PlannedWrite> writes; // in execution order
    QList<StackingWarning> warnings;
    QList<ApplyError> errors; // any error: nothing may be written

    bool ok() const { return errors.isEmpty(); }
};

Plan planChanges(const SysfsRoot &sysfs, const ChangeSet &changes);

// The order rules alone, on planned writes with their old values and levels:
// scheduler first (it resets nr_requests and the iosched files), then nr_requests and
// iosched/*, then the rest; max_sectors_kb going up lowest level first (paths before the map),
// going down highest level first (the map before its paths). Otherwise the given order.
void orderWrites(QList<PlannedWrite> &writes);

} // namespace dmtune
