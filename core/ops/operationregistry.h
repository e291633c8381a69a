#pragma once
// The operations dmtune knows, by kind, and the one flow they all run through:
//   planOperation(kind, request)   reads the state, computes steps, risks, preview and basis; changes nothing
//   runOperation(plan, answers)    checks the answers against the plan, plans again on the state now, refuses
//                                  when the basis differs (stale) or a new risk appeared, then acts and reads back
// Both are synchronous and may block on devices: the GUI calls them from a job (jobs/jobtracker.h), dmtunectl
// directly, a remote agent on its host. What an operation needs from the system comes in OperationEnvironment.
#include "core/dm/multipathchange.h"
#include "core/ops/operation.h"
#include "core/params/applyresult.h"
#include "core/params/planner.h"
#include "core/sysfs/sysfsroot.h"

#include <functional>

namespace dmtune {

class DeviceMapper;
class LabDevices;
struct OperationEnvironment;

// How a tuning transaction (the writes of tuning.apply and preset.apply, already checked) reaches the kernel.
using TransactionHook = std::function<ApplyResult(const OperationEnvironment &env, const Plan &plan, bool dryRun)>;

struct OperationEnvironment {
    SysfsRoot sysfs;
    DeviceMapper *dm = nullptr; // not owned; null: operations that need device-mapper refuse
    // How to reach multipathd (asked per operation); empty: device-mapper only.
    std::function<MultipathdCommand()> multipathd;
    // The process's lab devices (workloads/labdevices.h; thread-safe), not owned; null: lab.create and lab.remove
    // refuse. Only a shell that outlives its lab devices' use keeps one (the GUI; not a one-shot dmtunectl).
    LabDevices *labs = nullptr;
    // Whether the caller asked the run to stop (a job's JobContext::isCancelled); empty: never. An operation with
    // several steps checks it between them; a step that has begun is finished (a map is never left suspended).
    std::function<bool()> cancelled;
    bool isCancelled() const { return cancelled && cancelled(); }
    // Who writes a tuning transaction: empty: this process (executePlan() on `sysfs`: as root, or a scratch tree);
    // the GUI as a user sets Applier::transactionHook() (pkexec dmtune-helper, which plans again as root).
    TransactionHook applyTransaction;
    // The one way tuning.apply and preset.apply write their attributes: through the hook when there is one.
    ApplyResult executeTransaction(const Plan &plan, bool dryRun) const;
};

struct OperationKind {
    QString kind;
    QString description; // one line, for docs and `dmtunectl op kinds`
    // Reads and prepares; refusals go into the plan (a plan is returned whenever the request could be read).
    std::function<Result<OperationPlan>(const OperationEnvironment &, const QJsonObject &request)> plan;
    // Acts on a fresh plan (just made by `plan` on the state now, answers checked).
    std::function<OperationResult(const OperationEnvironment &, const OperationPlan &fresh, bool dryRun)> run;
};

// Adds a kind (each area registers its kinds once, at start-up: registerBuiltinOperations()).
void registerOperation(OperationKind kind);
const OperationKind *findOperation(const QString &kind);
QStringList operationKinds();
// Registers every kind the core has; idempotent.
void registerBuiltinOperations();

Result<OperationPlan> planOperation(const OperationEnvironment &env, const QString &kind, const QJsonObject &request);
OperationResult runOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers);
// runOperation() without the act: the answers checked, the plan made again on the state now (into `fresh`) and
// compared. ok: the operation may run; else the refusal runOperation() would return. For callers that act by
// other means once checked (the Tune tab through pkexec dmtune-helper).
OperationResult checkOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers, OperationPlan *fresh);

} // namespace dmtune
