#include "core/experiments/sweepoperation.h"

#include "core/experiments/sweeprunner.h"

#include "core/discovery/discovery.h"
#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/devicemapper.h"
#include "core/dm/grammar/pathgroupdraft.h"
#include "core/dm/multipathchange.h"
#include "core/ops/tuningoperations.h"
#include "core/ops/workloadoperations.h"
#include "core/params/deviceresolver.h"
#include "core/util/atomicfile.h"
#include "core/workloads/workloadsession.h"

#include <QDir>

namespace dmtune {

namespace {

using PlanResult = Result<OperationPlan>;

inline constexpr auto ReloadKind = "multipath.reload";

bool isSelector(const QString &attribute)
{
    return attribute == QLatin1String(SweepSelectorAttribute);
}

ChangeSet pointChanges(const PreparedSweep &sweep, const SweepPoint &point)
{
    ChangeSet changes;
    for (const SweepSetting &s : point.settings) {
        if (!isSelector(s.attribute))
            changes.append({ sweep.request.device, s.attribute, s.value });
    }
    return changes;
}

QString selectorOf(const SweepPoint &point)
{
    for (const SweepSetting &s : point.settings) {
        if (isSelector(s.attribute))
            return s.value;
    }
    return {};
}

// multipath.reload of the map's table as it is now, with every group's path selector set to `selector` (each
// path's arguments converted: repeat_count kept, the rest the selector's defaults).
Result<OperationPlan> planSelectorReload(const OperationEnvironment &env, const QString &map, const QString &selector)
{
    using R = Result<OperationPlan>;
    if (!env.dm)
        return R::failure(QStringLiteral("%1: no device-mapper here").arg(map));
    const auto state = readMultipathMapState(*env.dm, map);
    if (!state)
        return R::failure(state.errorMessage());
    // "service-time:1:4": the selector, then each path's first arguments (the rest converted from the old ones).
    const QStringList words = selector.split(QLatin1Char(':'));
    PathGroupDraft draft(state->table);
    for (int g = 0; g < draft.groupCount(); ++g) {
        if (const Status set = draft.setSelector(g, words.first()); !set)
            return R::failure(QStringLiteral("%1: group %2: %3").arg(map).arg(g + 1).arg(set.errorMessage()));
        if (words.size() < 2)
            continue;
        const QList<PathSpec> paths = draft.table().groups.at(g).paths; // a copy: the edits change the table
        for (const PathSpec &path : paths) {
            QStringList args = path.args;
            for (qsizetype i = 1; i < words.size(); ++i) {
                if (i - 1 < args.size())
                    args[i - 1] = words.at(i);
            }
            if (const Status set = draft.setPathArgs(path.device, args); !set)
                return R::failure(QStringLiteral("%1: %2: %3").arg(map, path.device, set.errorMessage()));
        }
    }
    if (const Status valid = draft.validate(); !valid)
        return R::failure(QStringLiteral("%1: %2").arg(map, valid.errorMessage()));
    return planOperation(env, QString::fromLatin1(ReloadKind),
        QJsonObject { { QStringLiteral("map"), map }, { QStringLiteral("table"), draft.tableText() } });
}

QStringList riskIds(const OperationPlan &plan)
{
    QStringList ids;
    for (const OperationRisk &r : plan.risks)
        ids << r.id;
    return ids;
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

    // A path selector belongs to a map's table: the sweep reloads it, and the end reloads the table it found.
    const bool sweepsSelector = std::any_of(sweep->request.parameters.cbegin(), sweep->request.parameters.cend(),
        [](const SweepParameter &p) { return isSelector(p.attribute); });
    if (sweepsSelector) {
        const auto map = std::find_if(snapshot.maps.cbegin(), snapshot.maps.cend(),
            [&](const MultipathMap &m) { return m.device == device.value(); });
        if (map == snapshot.maps.cend()) {
            plan.refusals.append(
                QStringLiteral("selector: %1 is not a multipath map (a path selector is part of a map's table)")
                    .arg(device.value()));
        } else if (!env.dm) {
            if (auto dm = deviceMapperFor(env.sysfs))
                sweep->dm = dm.value();
            else
                plan.refusals.append(QStringLiteral("selector: %1: %2").arg(map->name, dm.errorMessage()));
        }
        if (map != snapshot.maps.cend() && (env.dm || sweep->dm)) {
            if (const auto state = readMultipathMapState(*sweepEnvironment(env, *sweep).dm, map->name); !state) {
                plan.refusals.append(QStringLiteral("selector: %1").arg(state.errorMessage()));
            } else {
                sweep->map = map->name;
                sweep->originalTable = formatMultipathTable(state->table);
            }
        }
    }
    const OperationEnvironment reloadEnv = sweepEnvironment(env, *sweep);

    // The tuning of each combination of values, planned as tuning.apply plans it (the paths expanded), and the
    // table reload of its selector as multipath.reload plans it.
    QStringList pointSteps;
    for (const SweepPoint &point : std::as_const(sweep->points)) {
        if (point.workload != 0) {
            sweep->pointTargets.insert(point.index, sweep->pointTargets.value(point.index - point.workload));
            continue;
        }
        const QString label = sweepPointLabel(sweep->request, point);
        QStringList targets, devices;
        if (const ChangeSet changes = pointChanges(*sweep, point); !changes.isEmpty()) {
            const auto tuning = planOperation(
                env, QString::fromLatin1(TuningApplyKind), tuningRequest(changes, sweep->request.withPaths));
            if (!tuning) {
                plan.refusals.append(QStringLiteral("%1: %2").arg(label, tuning.errorMessage()));
                continue;
            }
            mergeChecks(&plan, tuning.value());
            for (auto it = tuning->basis.begin(); it != tuning->basis.end(); ++it)
                plan.basis.insert(it.key(), it.value());
            if (const Plan *planned = tuningPlanOf(tuning.value())) {
                targets = targetsOf(*planned);
                for (const PlannedWrite &w : planned->writes) {
                    const Change original { w.device, w.attribute, w.oldValue };
                    if (!w.oldValue.isEmpty()
                        && std::none_of(sweep->originals.cbegin(), sweep->originals.cend(),
                            [&](const Change &c) { return c.device == w.device && c.attribute == w.attribute; }))
                        sweep->originals.append(original);
                    addUnique(&devices, w.device);
                }
            }
        }
        if (const QString selector = selectorOf(point); !selector.isEmpty() && !sweep->map.isEmpty()) {
            const auto reload = planSelectorReload(reloadEnv, sweep->map, selector);
            if (!reload) {
                plan.refusals.append(QStringLiteral("%1: %2").arg(label, reload.errorMessage()));
                continue;
            }
            mergeChecks(&plan, reload.value());
            plan.basis.insert(QStringLiteral("table of ") + sweep->map, reload->basis);
            for (const QString &id : riskIds(reload.value()))
                addUnique(&sweep->reloadRiskIds, id);
            targets.append(sweep->map + QStringLiteral(" table"));
            addUnique(&devices, sweep->map + QStringLiteral(" (table reload)"));
        }
        sweep->pointTargets.insert(point.index, targets);
        pointSteps.append(QStringLiteral("%1 (%2)").arg(label, devices.join(u' ')));
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
        else if (const QString why = outputDirectoryProblem(dir); !why.isEmpty())
            plan.refusals.append(why + QStringLiteral(": --record-dir is a new or empty directory"));
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
    if (!sweep->originalTable.isEmpty())
        restore.append(QStringLiteral("%1's table as it is now (%2)").arg(sweep->map, sweep->originalTable));
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
    result.error
        = QStringLiteral("experiment.sweep runs for minutes: it is started (OperationService::start), not run");
    return result;
}

} // namespace

const PreparedSweep *preparedSweepOf(const OperationPlan &plan)
{
    if (plan.kind != QLatin1String(ExperimentSweepKind))
        return nullptr;
    return plan.prepared.get<PreparedSweep>();
}

SweepStart checkSweepStart(const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    // The plan's hold goes first: the fresh plan takes the device again.
    if (const PreparedSweep *mine = preparedSweepOf(plan); mine && mine->hold)
        mine->hold->release();
    SweepStart start;
    OperationPlan fresh;
    start.result = checkOperation(env, plan, answers, &fresh);
    if (!start.result.ok || !preparedSweepOf(fresh))
        return start;
    start.sweep = fresh.prepared.share<PreparedSweep>();
    start.result.changes = fresh.steps;
    return start;
}

Result<SweepPointPlans> planSweepPoint(
    const OperationEnvironment &env, const PreparedSweep &sweep, const SweepPoint &point)
{
    using R = Result<SweepPointPlans>;
    const QString label = sweepPointLabel(sweep.request, point);
    SweepPointPlans plans;
    QStringList now;
    if (const ChangeSet changes = pointChanges(sweep, point); !changes.isEmpty()) {
        auto tuning
            = planOperation(env, QString::fromLatin1(TuningApplyKind), tuningRequest(changes, sweep.request.withPaths));
        if (!tuning)
            return R::failure(QStringLiteral("%1: %2").arg(label, tuning.errorMessage()));
        if (!tuning->refusals.isEmpty())
            return R::failure(QStringLiteral("%1: %2").arg(label, tuning->refusals.join(QLatin1String("; "))));
        if (const Plan *planned = tuningPlanOf(tuning.value()))
            now = targetsOf(*planned);
        plans.tuning = tuning.value();
    }
    if (const QString selector = selectorOf(point); !selector.isEmpty()) {
        auto reload = planSelectorReload(sweepEnvironment(env, sweep), sweep.map, selector);
        if (!reload)
            return R::failure(QStringLiteral("%1: %2").arg(label, reload.errorMessage()));
        if (!reload->refusals.isEmpty())
            return R::failure(QStringLiteral("%1: %2").arg(label, reload->refusals.join(QLatin1String("; "))));
        // The sweep's answers covered the risks its plan listed; a new one (a path of another LUN) was never asked.
        for (const OperationRisk &risk : std::as_const(reload->risks)) {
            if (!sweep.reloadRiskIds.contains(risk.id))
                return R::failure(
                    QStringLiteral("%1: the reload now carries a risk the plan did not: %2").arg(label, risk.text));
        }
        now.append(sweep.map + QStringLiteral(" table"));
        plans.reload = reload.value();
    }
    if (now != sweep.pointTargets.value(point.index))
        return R::failure(QStringLiteral("%1: the devices changed since the plan (it wrote %2, now it would write %3)")
                              .arg(label, sweep.pointTargets.value(point.index).join(QLatin1String(", ")),
                                  now.join(QLatin1String(", "))));
    return plans;
}

OperationEnvironment sweepEnvironment(const OperationEnvironment &env, const PreparedSweep &sweep)
{
    OperationEnvironment out = env;
    if (!out.dm)
        out.dm = sweep.dm.get();
    if (!out.multipathd && out.sysfs.isLive())
        out.multipathd = [] { return liveMultipathd(); };
    return out;
}

OperationResult runSweepReload(const OperationEnvironment &env, const OperationPlan &reload)
{
    const QString table = reload.request.value(QLatin1String("table")).toString();
    if (reload.preview.isEmpty()) { // the table is that one already
        OperationResult same;
        same.ok = true;
        same.changes = { QStringLiteral("%1: table %2 (already)").arg(reload.target, table) };
        return same;
    }
    OperationResult result = findOperation(QString::fromLatin1(ReloadKind))->run(env, reload, false);
    if (result.ok)
        result.changes = { QStringLiteral("%1: table %2").arg(reload.target, table) };
    return result;
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

OperationResult restoreSweepTable(const OperationEnvironment &shellEnv, const PreparedSweep &sweep)
{
    const OperationEnvironment env = sweepEnvironment(shellEnv, sweep);
    OperationResult result;
    result.ok = true;
    if (sweep.originalTable.isEmpty() || !env.dm)
        return result;
    const auto state = readMultipathMapState(*env.dm, sweep.map);
    if (!state) {
        result.ok = false;
        result.error = state.errorMessage();
        return result;
    }
    if (formatMultipathTable(state->table) == sweep.originalTable)
        return result;
    // Planned on the state now and always run: this table was there before the sweep.
    const auto plan = planOperation(env, QString::fromLatin1(ReloadKind),
        QJsonObject { { QStringLiteral("map"), sweep.map }, { QStringLiteral("table"), sweep.originalTable } });
    if (!plan || !plan->refusals.isEmpty()) {
        result.ok = false;
        result.error = QStringLiteral("%1: its table was not put back: %2")
                           .arg(sweep.map, plan ? plan->refusals.join(QLatin1String("; ")) : plan.errorMessage());
        return result;
    }
    result = findOperation(QString::fromLatin1(ReloadKind))->run(env, plan.value(), false);
    if (result.ok)
        result.changes = { QStringLiteral("%1: table %2").arg(sweep.map, sweep.originalTable) };
    return result;
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
    registerLongOperation(QString::fromLatin1(ExperimentSweepKind), startSweepOperation);
}

} // namespace dmtune
