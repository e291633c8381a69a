#pragma once
// Turns a change set into an ordered list of checked writes: every device name, attribute and
// value validated, the writes put in a safe order, stacking warnings added. Nothing is written.
#include "core/params/applyresult.h"
#include "core/params/changeset.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

struct PlannedWrite {
    QString device;
    QString attribute;
    QString path; // relative to the sysfs root
    QString oldValue; // normalized, when planned (empty for iosched files the scheduler change creates)
    QString value; // the text to write
    int level = 0; // stack level of the device (paths 0, maps 1)
};

// A planned write that puts data at risk (TunableDef::riskyValues, e.g. queue/write_cache=write through).
struct DataRisk {
    QString device;
    QString attribute;
    QString oldValue;
    QString value;
    QString note; // what can be lost (the catalog's riskNote)
    // "sdb queue/write_cache=write through: the kernel stops sending cache flushes ..."
    QString text() const;
};

// Whether the user explicitly accepted the plan's data risks: --force in the CLI, a typed confirmation in the
// GUI. Without it executePlan() writes nothing of a plan with risks (a dry run still shows them).
enum class RiskConsent { None, Given };

struct Plan {
    QList<PlannedWrite> writes; // in execution order
    QList<StackingWarning> warnings;
    QList<ApplyError> errors; // any error: nothing may be written
    QList<DataRisk> risks; // risky writes among `writes`
    RiskConsent consent = RiskConsent::None;

    bool ok() const { return errors.isEmpty(); }
    bool needsConsent() const { return !risks.isEmpty() && consent != RiskConsent::Given; }
};

Plan planChanges(const SysfsRoot &sysfs, const ChangeSet &changes, RiskConsent consent = RiskConsent::None);

// The risk of writing `value` (normalized) over `oldValue`: the catalog's note when `value` is one of the
// attribute's risky values and differs from the current one (an unknown current value counts as different);
// empty otherwise. For previews that do not plan (presets).
QString dataRiskNote(const QString &attribute, const QString &oldValue, const QString &value);
// The error executePlan() reports for a risky write without consent.
ApplyError consentError(const DataRisk &risk);

// The order rules alone, on planned writes with their old values and levels:
// scheduler first (it resets nr_requests and the iosched files), then nr_requests and
// iosched/*, then the rest; max_sectors_kb going up lowest level first (paths before the map),
// going down highest level first (the map before its paths). Otherwise the given order.
void orderWrites(QList<PlannedWrite> &writes);

} // namespace dmtune
