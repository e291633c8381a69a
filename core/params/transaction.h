#pragma once
// Runs a plan as a transaction: each write read back (kernel clamping reported), and on any
// failure every value already written restored in reverse order, so nothing stays half-applied.
// The one code path for the GUI (in-process), the helper and the CLI.
#include "core/params/applyresult.h"
#include "core/params/planner.h"

namespace dmtune {

// A dry run reports the plan (old and requested values, risky writes noted) and writes nothing. A plan with data
// risks and no consent (Plan::needsConsent) is rejected whole: nothing written, one error per risky write.
ApplyResult executePlan(const SysfsRoot &sysfs, const Plan &plan, bool dryRun = false);
// planChanges + executePlan; a plan with errors is rejected whole.
ApplyResult applyChanges(
    const SysfsRoot &sysfs, const ChangeSet &changes, bool dryRun = false, RiskConsent consent = RiskConsent::None);

} // namespace dmtune
