#include "experiments/sweepoperation.h"

#include "discovery/discovery.h"
#include "ops/tuningoperations.h"
#include "ops/workloadoperations.h"
#include "params/deviceresolver.h"
#include "workloads/workloadsession.h"

#include <QDir>

namespace dmtune {

namespace {

using PlanResult = Result<OperationPlan>;

ChangeSet pointChanges(const PreparedSweep &sweep, const SweepPoint &point)
{
    ChangeSet changes;
    for (const SweepSetting &s : point.settings)
        changes.append({ sweep.request.device, s.attribute, s.value });
    return changes;
}

QStringList targetsOf(const Plan &plan)
{
    QStringList targets;
    for (const PlannedWrite &w : plan.writes)
        targets.append(w.device + QLatin1Char(' ') + w.attribute);
    return targets;
}

// A template's warm-up is fio's ramp_time; a job file keeps its own.
FioJob withWarmup(FioJob job, int seconds)
{
    if (!job.isCustom() && seconds > 0)
        job.options.append(QStringLiteral("--ramp_time=%1").arg(seconds));
    return job;
}

void addUnique(QStringList *list, const QString &text)
{
    if (!list->contains(text))
        list->append(text);
}

// A part's refusals, risks and notes become the sweep's (each once: every point has the same risks).
void mergeChecks(OperationPlan *sweep, const OperationPlan &part)
{
    for (const QString &refusal : part.refusals)
        addUnique(&sweep->refusals, refusal);
    for (const OperationRisk &risk : part.risks) {
        if (std::none_of(
                sweep->risks.cbegin(), sweep->risks.cend(), [&](const OperationRisk &r) { return r.id == risk.id; }))
            sweep->risks.append(risk);
    }
    for (const QString &note : part.notes)
        addUnique(&sweep->notes, note);
}

PlanResult planSweep(const OperationEnvironment &env, const QJsonObject &json)
{
    auto request = sweepRequestFromJson(json);
    if (!request)
        return PlanResult::failure(request.errorMessage());
    const DeviceSnapshot snapshot = Discovery::scan(env.sysfs);
    const auto device = resolveDeviceSpec(env.sysfs, snapshot, request->device);
    if (!device)
        return PlanResult::failure(QStringLiteral("sweep: ") + device.errorMessage());

    auto sweep = std::make_shared<PreparedSweep>();
    sweep->request = request.value();
    sweep->request.device = device.value();
    sweep->devicePath = QStringLiteral("/dev/") + device.value();
    sweep->points = sweepPoints(sweep->request);
    sweep->watched = workloadDevices(snapshot, device.value());

    OperationPlan plan;
    plan.request = json;
    plan.target = device.value();

    // The tuning of each combination of values, planned as tuning.apply plans it (the paths expanded).
    QStringList pointSteps;
    for (const SweepPoint &point : std::as_const(sweep->points)) {
        if (point.workload != 0) {
            sweep->pointTargets.insert(point.index, sweep->pointTargets.value(point.index - point.workload));
            continue;
        }
        const auto tuning = planOperation(env, QString::fromLatin1(TuningApplyKind),
            tuningRequest(pointChanges(*sweep, point), sweep->request.withPaths));
        if (!tuning) {
            plan.refusals.append(
                QStringLiteral("%1: %2").arg(sweepPointLabel(sweep->request, point), tuning.errorMessage()));
            continue;
        }
        mergeChecks(&plan, tuning.value());
        for (auto it = tuning->basis.begin(); it != tuning->basis.end(); ++it)
            plan.basis.insert(it.key(), it.value());
        if (const Plan *planned = tuningPlanOf(tuning.value())) {
            sweep->pointTargets.insert(point.index, targetsOf(*planned));
            for (const PlannedWrite &w : planned->writes) {
                const Change original { w.device, w.attribute, w.oldValue };
                if (!w.oldValue.isEmpty()
                    && std::none_of(sweep->originals.cbegin(), sweep->originals.cend(),
                        [&](const Change &c) { return c.device == w.device && c.attribute == w.attribute; }))
                    sweep->originals.append(original);
            }
            QStringList devices;
            for (const PlannedWrite &w : planned->writes)
                addUnique(&devices, w.device);
            pointSteps.append(
                QStringLiteral("%1 (%2)").arg(sweepPointLabel(sweep->request, point), devices.join(u' ')));
        }
    }

    // Each workload as workload.start checks it; its hold is let go at once (the next one, and the sweep's own
    // hold below, take the device again).
    QStringList commands;
    bool writes = false;
    for (int i = 0; i < sweep->request.workloads.size(); ++i) {
        const FioJob job = withWarmup(sweep->request.workloads.at(i), sweep->request.warmupSeconds);
        const auto workload
            = planOperation(env, QString::fromLatin1(WorkloadStartKind), workloadRequest(job, device.value()));
        if (!workload) {
            plan.refusals.append(workload.errorMessage());
            continue;
        }
        const PreparedWorkload *prepared = preparedWorkloadOf(workload.value());
        if (prepared && prepared->hold)
            prepared->hold->release();
        mergeChecks(&plan, workload.value());
        plan.basis.insert(QStringLiteral("workload %1").arg(i + 1), workload->basis);
        if (prepared && !prepared->command.isEmpty()) {
            sweep->workloads.append({ prepared->job, prepared->writes, prepared->command });
            commands.append(prepared->command);
            writes = writes || prepared->writes;
        }
    }
    // Nothing measured before is overwritten: a record directory holds one sweep.
    if (const QString dir = sweep->request.recordDir; !dir.isEmpty()) {
        const QDir records(dir);
        if (records.exists(QLatin1String(SweepManifestName))
            || !records.entryList({ QStringLiteral("point-*.dmrec") }, QDir::Files).isEmpty())
            plan.refusals.append(
                QStringLiteral("%1 already holds a sweep's recordings: give another --record-dir").arg(dir));
    }
    if (writes && plan.refusals.isEmpty()) {
        auto hold = DeviceHold::acquire(env.sysfs, device.value());
        if (!hold)
            plan.refusals.append(hold.errorMessage());
        else
            sweep->hold = std::make_shared<DeviceHold>(std::move(hold.value()));
    }

    const qsizetype runs = sweep->points.size() * sweep->request.repeats;
    QStringList swept;
    for (const SweepParameter &p : std::as_const(sweep->request.parameters))
        swept.append(QStringLiteral("%1 over %2").arg(p.attribute, p.values.join(QLatin1String(", "))));
    plan.summary = QStringLiteral("sweep %1 on %2%3: %4 point(s) x %5 repeat(s) = %6 run(s) of fio")
                       .arg(swept.join(QLatin1String(" and ")), device.value(),
                           sweep->request.withPaths ? QStringLiteral(" and its paths") : QString())
                       .arg(sweep->points.size())
                       .arg(sweep->request.repeats)
                       .arg(runs);
    if (writes)
        plan.steps.append(QStringLiteral("hold %1 (O_EXCL) until the last run ends").arg(sweep->devicePath));
    for (const SweepPoint &point : std::as_const(sweep->points)) {
        plan.steps.append(QStringLiteral("point %1/%2: %3: write the values, re-checked first; wait %4 s; run fio %5 "
                                         "time(s)%6")
                              .arg(point.index + 1)
                              .arg(sweep->points.size())
                              .arg(sweepPointLabel(sweep->request, point))
                              .arg(sweep->request.settleSeconds)
                              .arg(sweep->request.repeats)
                              .arg(sweep->request.recordDir.isEmpty() ? QString() : QStringLiteral(", each recorded")));
    }
    QStringList restore;
    for (const Change &c : std::as_const(sweep->originals))
        restore.append(QStringLiteral("%1 %2=%3").arg(c.device, c.attribute, c.value));
    plan.steps.append(QStringLiteral("restore, when the sweep ends, fails or is stopped: %1").arg(restore.join(u' ')));
    plan.preview
        = (QStringList { QStringLiteral("points:") } + pointSteps + QStringList { QStringLiteral("fio:") } + commands)
              .join(QLatin1Char('\n'));
    for (const FioJob &job : std::as_const(sweep->request.workloads)) {
        if (job.isCustom() && sweep->request.warmupSeconds > 0)
            addUnique(&plan.notes,
                QStringLiteral("%1: a job file keeps its own ramp_time (--warmup is for templates)").arg(job.jobFile));
    }
    plan.prepared = sweep;
    return plan;
}

OperationResult runSweep(const OperationEnvironment &, const OperationPlan &fresh, bool dryRun)
{
    OperationResult result;
    if (dryRun) {
        result.ok = true;
        result.changes = fresh.steps;
        return result;
    }
    result.error = QStringLiteral("experiment.sweep: a sweep runs in a SweepRunner (dmtunectl sweep), which runs the "
                                  "checked sweep startSweep() hands back");
    return result;
}

} // namespace

const PreparedSweep *preparedSweepOf(const OperationPlan &plan)
{
    if (plan.kind != QLatin1String(ExperimentSweepKind))
        return nullptr;
    return static_cast<const PreparedSweep *>(plan.prepared.get());
}

SweepStart startSweep(const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    // The plan's hold goes first: the fresh plan takes the device again.
    if (const PreparedSweep *mine = preparedSweepOf(plan); mine && mine->hold)
        mine->hold->release();
    SweepStart start;
    OperationPlan fresh;
    start.result = checkOperation(env, plan, answers, &fresh);
    if (!start.result.ok || !preparedSweepOf(fresh))
        return start;
    start.sweep = std::static_pointer_cast<const PreparedSweep>(fresh.prepared);
    start.result.changes = fresh.steps;
    return start;
}

Result<OperationPlan> planSweepPoint(
    const OperationEnvironment &env, const PreparedSweep &sweep, const SweepPoint &point)
{
    using R = Result<OperationPlan>;
    const QString label = sweepPointLabel(sweep.request, point);
    auto tuning = planOperation(
        env, QString::fromLatin1(TuningApplyKind), tuningRequest(pointChanges(sweep, point), sweep.request.withPaths));
    if (!tuning)
        return R::failure(QStringLiteral("%1: %2").arg(label, tuning.errorMessage()));
    if (!tuning->refusals.isEmpty())
        return R::failure(QStringLiteral("%1: %2").arg(label, tuning->refusals.join(QLatin1String("; "))));
    const Plan *planned = tuningPlanOf(tuning.value());
    const QStringList now = planned ? targetsOf(*planned) : QStringList();
    if (now != sweep.pointTargets.value(point.index))
        return R::failure(QStringLiteral("%1: the devices changed since the plan (it wrote %2, now it would write %3)")
                              .arg(label, sweep.pointTargets.value(point.index).join(QLatin1String(", ")),
                                  now.join(QLatin1String(", "))));
    return tuning;
}

ApplyResult restoreSweepValues(const OperationEnvironment &env, const ChangeSet &originals)
{
    const Plan plan = planChanges(env.sysfs, originals, RiskConsent::Given);
    if (!plan.ok()) {
        ApplyResult refused;
        refused.errors = plan.errors;
        return refused;
    }
    return env.executeTransaction(plan, false);
}

void registerExperimentOperations()
{
    OperationKind op;
    op.kind = QString::fromLatin1(ExperimentSweepKind);
    op.description = QStringLiteral("run fio at every combination of one or two tunables' values, each point "
                                    "re-checked and measured, the original values restored at the end");
    op.plan = planSweep;
    op.run = runSweep;
    registerOperation(std::move(op));
}

} // namespace dmtune
