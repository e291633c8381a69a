#pragma once
// experiment.sweep (docs/operations.md, docs/experiments.md): a sweep as one core operation. The plan lists every
// point; its refusals are every point's tuning refusals (a value the kernel or the catalog refuses, a device
// that is not there) and every workload's (a job file fio refuses, a device in use); its risks, answered once
// for the whole sweep, are the workloads' (a write to a device that holds data: its name to type,
// --destroy-data-on) and the tuning's data risks (write_cache). A sweep that writes holds the device (O_EXCL)
// from the plan to its last run. The basis: the current value of every attribute swept, on every device, and
// each workload's own basis. What the sweep restores at the end is that basis.
//
// The run takes minutes and streams: a long-running operation (ops/operationactivity.h), started through an
// OperationService (start(): a handle to cancel it, progress events, the result at the end). Its start
// (startSweepOperation(), sweeprunner.h) makes runOperation()'s checks with checkSweepStart() and hands the fresh
// plan's prepared sweep to a SweepRunner on the service's thread, which re-validates each point before it runs it and
// restores the original values however the sweep ends.
#include "core/experiments/sweep.h"
#include "core/ops/operationregistry.h"
#include "core/params/changeset.h"
#include "core/workloads/devicehold.h"

#include <memory>
#include <optional>

namespace dmtune {

class DeviceMapper;

inline constexpr auto ExperimentSweepKind = "experiment.sweep";

struct SweepWorkload {
    FioJob job; // checked: a job file frozen into its arguments; a template with its warm-up
    bool writes = false;
    QString command; // the fio command line
};

struct PreparedSweep {
    SweepRequest request; // the device as a kernel name
    QString devicePath;
    QList<SweepPoint> points;
    QList<SweepWorkload> workloads; // as request.workloads
    // Each point's writes as planned (device and attribute, in write order): a point whose plan on the state
    // at its turn writes elsewhere (a path came or went) stops the sweep.
    QHash<int, QStringList> pointTargets;
    ChangeSet originals; // the value of every attribute swept before the sweep, on every device
    // A sweep of the path selector (SweepSelectorAttribute): the map's name, its table before the sweep (what the
    // end reloads) and the ids of the reload's risks the plan's answers covered.
    QString map;
    QString originalTable;
    QStringList reloadRiskIds;
    // The device-mapper the reloads go through when the shell gave none (a shell that only tunes attributes).
    std::shared_ptr<DeviceMapper> dm;
    QStringList watched; // the device and what it is built on (workloadDevices())
    std::shared_ptr<DeviceHold> hold; // held when a workload writes
};
const PreparedSweep *preparedSweepOf(const OperationPlan &plan);

struct SweepStart {
    OperationResult result; // ok: run `sweep`; else the refusal
    std::shared_ptr<const PreparedSweep> sweep;
};
// runOperation()'s checks for experiment.sweep without running it: the plan's hold let go, the answers
// checked, the plan made again on the state now (holding the device again) and its basis compared. The first step
// of startSweepOperation(); shells start the operation instead (OperationService::start).
SweepStart checkSweepStart(const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers);

// One point's plans on the state now: the tuning as tuning.apply makes it (none when only the selector is
// swept), and the table reload as multipath.reload makes it (none without a selector). An error when either has
// refusals, writes to other devices or attributes than the sweep's plan said, or a risk its answers did not cover.
struct SweepPointPlans {
    std::optional<OperationPlan> tuning;
    std::optional<OperationPlan> reload;
};
Result<SweepPointPlans> planSweepPoint(
    const OperationEnvironment &env, const PreparedSweep &sweep, const SweepPoint &point);
// `env` with the sweep's device-mapper (when it has none) and, on the live /sys, multipathd's caveats.
OperationEnvironment sweepEnvironment(const OperationEnvironment &env, const PreparedSweep &sweep);
// Runs a point's reload plan (made just now by planSweepPoint); nothing when the table is already that one.
OperationResult runSweepReload(const OperationEnvironment &env, const OperationPlan &reload);
// The transaction that puts `originals` back (planned on the state now, always consented: these values were
// there before).
ApplyResult restoreSweepValues(const OperationEnvironment &env, const ChangeSet &originals);
// Reloads the map's table from before the sweep when it differs now. changes: what was put back; error: why not.
OperationResult restoreSweepTable(const OperationEnvironment &env, const PreparedSweep &sweep);

void registerExperimentOperations();

} // namespace dmtune
