#include "ops/workloadoperations.h"

#include "discovery/discovery.h"
#include "params/deviceresolver.h"
#include "workloads/fiojobfile.h"
#include "workloads/fiorun.h"
#include "workloads/writeguard.h"

namespace dmtune {

namespace {

using PlanResult = Result<OperationPlan>;

Result<FioJob> jobOf(const QJsonObject &request)
{
    const QJsonObject o = request.value(QLatin1String("job")).toObject();
    if (o.isEmpty())
        return Result<FioJob>::failure(QStringLiteral("workload.start needs \"job\""));
    if (const QString file = o.value(QLatin1String("job_file")).toString(); !file.isEmpty()) {
        FioJob job;
        job.id = QStringLiteral("custom");
        job.jobFile = file;
        job.title = o.value(QLatin1String("title")).toString(file);
        return job;
    }
    return fioJobFromJson(o);
}

Result<QString> deviceOf(const SysfsRoot &sysfs, const QString &spec)
{
    if (spec.isEmpty())
        return Result<QString>::failure(QStringLiteral("workload.start needs \"device\""));
    // A kernel name (a partition too: the dock offers them) as it is; anything else through the resolver. A plain
    // name nothing resolves stays as given: the job is checked first, then the guard says it is no block device.
    const bool plain = !spec.contains(QLatin1Char('/')) && !spec.contains(QLatin1Char(':'));
    if (plain && sysfs.exists(QStringLiteral("class/block/%1/dev").arg(spec)))
        return spec;
    const auto resolved = resolveDeviceSpec(sysfs, Discovery::scan(sysfs), spec);
    return resolved || !plain ? resolved : Result<QString>(spec);
}

PlanResult planWorkload(const OperationEnvironment &env, const QJsonObject &request)
{
    const auto device = deviceOf(env.sysfs, request.value(QLatin1String("device")).toString());
    if (!device)
        return PlanResult::failure(device.errorMessage());
    auto job = jobOf(request);
    if (!job)
        return PlanResult::failure(job.errorMessage());
    auto prepared = std::make_shared<PreparedWorkload>();
    prepared->job = job.value();
    prepared->device = device.value();
    prepared->devicePath = QStringLiteral("/dev/") + device.value();
    const auto fio = FioRun::findFio();

    OperationPlan plan;
    plan.request = request;
    plan.target = device.value();
    plan.summary = QStringLiteral("run fio (%1) on %2").arg(prepared->job.title, prepared->devicePath);
    plan.basis.insert(
        QStringLiteral("dev"), env.sysfs.readOr(QStringLiteral("class/block/%1/dev").arg(device.value())));
    // The one check of the job (fiojobfile.h): a job file is read by fio --showcmd and frozen; what runs is that.
    const auto checked = prepareFioJob(&prepared->job, prepared->devicePath, fio ? fio.value() : QString());
    if (!checked) {
        plan.refusals.append(checked.errorMessage());
        plan.prepared = prepared;
        return plan;
    }
    prepared->writes = checked->writes;
    prepared->command = fioCommandLine(fio ? fio.value() : QStringLiteral("fio"), prepared->job, prepared->devicePath);
    plan.preview = prepared->command;
    plan.basis.insert(QStringLiteral("arguments"),
        prepared->job.checkedArguments.isEmpty() ? prepared->command : prepared->job.checkedArguments.join(u' '));
    if (prepared->writes) {
        // Held (O_EXCL) from this look on: nothing can mount or claim the device while the user is asked.
        prepared->hold = std::make_shared<DeviceHold>();
        const DeviceFacts facts = gatherDeviceFacts(env.sysfs, device.value(), prepared->hold.get());
        const WriteDecision decision = decideWrite(facts, true, QString());
        QStringList signatures;
        for (const BlockSignature &s : facts.signatures)
            signatures.append(s.device + QLatin1Char('=') + s.type);
        plan.basis.insert(QStringLiteral("holders"), facts.holders.join(u' '));
        plan.basis.insert(QStringLiteral("partitions"), facts.partitions.join(u' '));
        plan.basis.insert(QStringLiteral("signatures"), signatures.join(u' '));
        if (decision.needsConfirmation)
            plan.risks.append({ QStringLiteral("destroy-data:%1").arg(device.value()),
                decision.reasons.join(QStringLiteral("; ")), true, device.value() });
        else if (!decision.allowed)
            plan.refusals.append(decision.reasons);
        if (decision.allowed)
            plan.notes = decision.reasons;
        plan.steps.append(
            QStringLiteral("hold %1 (O_EXCL) until fio ends: nothing can mount or claim it").arg(prepared->devicePath));
    } else {
        plan.notes.append(QStringLiteral("reads only: nothing on %1 is changed").arg(prepared->devicePath));
    }
    plan.steps.append(QStringLiteral("run %1").arg(prepared->command));
    if (!fio)
        plan.notes.append(fio.errorMessage()); // a template is checked without fio; it cannot run without
    plan.prepared = prepared;
    return plan;
}

OperationResult runWorkload(const OperationEnvironment &, const OperationPlan &fresh, bool dryRun)
{
    OperationResult result;
    if (dryRun) {
        result.ok = true;
        result.changes.append(QStringLiteral("would: %1").arg(fresh.preview));
        return result;
    }
    result.error = QStringLiteral("workload.start: fio runs in a workload session (dmtunectl run, the Workloads "
                                  "dock), which starts the checked job startWorkload() hands back");
    return result;
}

} // namespace

QJsonObject workloadRequest(const FioJob &job, const QString &device)
{
    QJsonObject o = fioJobToJson(job);
    o.remove(QStringLiteral("checked_arguments")); // always checked again: the plan freezes its own
    return { { QStringLiteral("device"), device }, { QStringLiteral("job"), o } };
}

const PreparedWorkload *preparedWorkloadOf(const OperationPlan &plan)
{
    if (plan.kind != QLatin1String(WorkloadStartKind))
        return nullptr;
    return static_cast<const PreparedWorkload *>(plan.prepared.get());
}

WorkloadStart startWorkload(const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    // The plan's hold goes first: the fresh plan takes the device again (an O_EXCL open fails while another
    // one, ours too, is open). Anything that claims it in between makes the fresh plan refuse.
    if (const PreparedWorkload *mine = preparedWorkloadOf(plan); mine && mine->hold)
        mine->hold->release();
    WorkloadStart start;
    OperationPlan fresh;
    start.result = checkOperation(env, plan, answers, &fresh);
    const PreparedWorkload *prepared = preparedWorkloadOf(fresh);
    if (!start.result.ok || !prepared)
        return start;
    if (answers.dryRun) {
        start.result.changes.append(QStringLiteral("would: %1").arg(fresh.preview));
        return start;
    }
    start.job = prepared->job;
    start.devicePath = prepared->devicePath;
    start.hold = prepared->hold;
    start.result.changes.append(QStringLiteral("started: %1").arg(prepared->command));
    return start;
}

void registerWorkloadOperations()
{
    OperationKind op;
    op.kind = QString::fromLatin1(WorkloadStartKind);
    op.description = QStringLiteral("run fio on a device, with the write guard (a device holding data is confirmed "
                                    "by its name, one in use is refused)");
    op.plan = planWorkload;
    op.run = runWorkload;
    registerOperation(std::move(op));
}

} // namespace dmtune
