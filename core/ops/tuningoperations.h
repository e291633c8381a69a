#pragma once
// tuning.apply (docs/operations.md): a change set of queue attributes as one core operation. The plan is
// planChanges() (params/planner.h): its errors are the refusals, its data risks the risks (the device to type),
// its stacking warnings the notes, its ordered writes the steps; the basis is the current value of every
// attribute written. The run is the transaction with read-back and rollback (params/transaction.h); the
// ApplyResult is the result's details. dmtunectl set and the Tune tab both go through it.
#include "core/ops/operation.h"
#include "core/params/applyresult.h"
#include "core/params/changeset.h"
#include "core/params/planner.h"

namespace dmtune {

inline constexpr auto TuningApplyKind = "tuning.apply";

// {"changes": [{"device", "attribute", "value"}...], "with_paths": bool}. A device may be any spec
// resolveDeviceSpec() knows (mpatha, /dev/sdb, 8:16); with_paths adds every path of a map (dmtunectl set
// --with-paths), once per attribute.
QJsonObject tuningRequest(const ChangeSet &changes, bool withPaths = false);
// The planner's plan behind a tuning.apply plan made in this process (null for one read from JSON).
const Plan *tuningPlanOf(const OperationPlan &plan);
// The transaction's result of a tuning.apply run; a run that was refused before the transaction (stale plan,
// unanswered risk) becomes a rejected ApplyResult with that one line as its error.
ApplyResult applyResultOf(const OperationResult &result);

// The operation's result for a transaction's result (what run() returns).
OperationResult operationResultOf(const ApplyResult &result);
// What the transaction reports for a plan with refusals: every error, each write "not written" (nothing was).
ApplyResult tuningRefusal(const OperationPlan &plan, bool dryRun);

void registerTuningOperations();

} // namespace dmtune
