#include "core/ops/workloadoperations.h"

#include "core/discovery/discovery.h"
#include "core/ops/operationactivity.h"
#include "core/params/deviceresolver.h"
#include "core/util/atomicfile.h"
#include "core/workloads/fiojobfile.h"
#include "core/workloads/fiorun.h"
#include "core/workloads/workloadactivity.h"
#include "core/workloads/writeguard.h"

#include <QFile>

namespace dmtune {

namespace {

using PlanResult = Result<OperationPlan>;

Result<FioJob> jobOf(const QJsonObject &request)
{
    const QJsonObject o = request.value(QLatin1String("job")).toObject();
    if (o.isEmpty())
        return Result<FioJob>::failure(QStringLiteral("workload.start needs \"job\""));
    // Content is an agent's to write (withJobFileAt); a plan here never writes a file it was sent.
    if (o.contains(QLatin1String("job_file_data")))
        return Result<FioJob>::failure(
            QStringLiteral("workload.start: \"job_file_data\" is taken by a remote "
                           "host's agent only; here give the job file's path as \"job_file\""));
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
            plan.risks.append(dataRisk(QStringLiteral("destroy-data:%1").arg(device.value()),
                decision.reasons.join(QStringLiteral("; ")), device.value()));
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
    // A recording is a new file, never through a link; an existing one only when the request says to replace it.
    if (const QString record = request.value(QLatin1String("record")).toString(); !record.isEmpty()) {
        const bool replace = request.value(QLatin1String("replace_recording")).toBool();
        if (const QString problem = outputFileProblem(record, replace ? ExistingFile::Replace : ExistingFile::Refuse);
            !problem.isEmpty())
            plan.refusals.append(problem);
        else
            plan.steps.append(QStringLiteral("record the run to %1").arg(record));
    }
    if (const QString latency = request.value(QLatin1String("latency")).toString(); !latency.isEmpty()) {
        if (latency != QLatin1String(WorkloadLatencyRequired) && latency != QLatin1String(WorkloadLatencyWanted))
            plan.refusals.append(
                QStringLiteral("workload.start: \"latency\" is \"%1\" or \"%2\", not \"%3\"")
                    .arg(QLatin1String(WorkloadLatencyRequired), QLatin1String(WorkloadLatencyWanted), latency));
        else
            plan.steps.append(QStringLiteral("count the block-layer latency of the watched devices (BPF probe)"));
    }
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
    result.error = QStringLiteral("workload.start is started, not run (fio runs for minutes and reports as it goes)");
    return result;
}

} // namespace

QJsonObject withWorkloadExtras(QJsonObject request, const WorkloadExtras &extras)
{
    if (!extras.recordPath.isEmpty()) {
        request.insert(QStringLiteral("record"), extras.recordPath);
        if (extras.replaceRecording)
            request.insert(QStringLiteral("replace_recording"), true);
    }
    if (!extras.latency.isEmpty())
        request.insert(QStringLiteral("latency"), extras.latency);
    return request;
}

QJsonObject workloadRequest(const FioJob &job, const QString &device)
{
    QJsonObject o = fioJobToJson(job);
    o.remove(QStringLiteral("checked_arguments")); // always checked again: the plan freezes its own
    return { { QStringLiteral("device"), device }, { QStringLiteral("job"), o } };
}

Result<QByteArray> readJobFileContent(const QString &path)
{
    // Its includes inlined, as this side reads them: the far side gets the whole job, and opens no file for it.
    const auto inlined = inlineFioJobFile(fioJobFileArgument(path), fioJobFilesOnDisk());
    if (!inlined)
        return Result<QByteArray>::failure(inlined.errorMessage());
    const QByteArray content = inlined->toUtf8();
    if (content.size() > MaxJobFileBytes)
        return Result<QByteArray>::failure(
            QStringLiteral("%1 is larger than %2 KiB: not a fio job file").arg(path).arg(MaxJobFileBytes / 1024));
    return content;
}

QJsonObject workloadRequestWithContent(const FioJob &job, const QString &device, const QByteArray &content)
{
    QJsonObject request = workloadRequest(job, device);
    QJsonObject o = request.value(QLatin1String("job")).toObject();
    o.remove(QStringLiteral("job_file"));
    o.insert(QStringLiteral("job_file_name"), job.jobFile);
    o.insert(QStringLiteral("job_file_data"), QString::fromLatin1(content.toBase64()));
    request.insert(QStringLiteral("job"), o);
    return request;
}

Result<std::optional<SentJobFile>> sentJobFileOf(const QJsonObject &request)
{
    using R = Result<std::optional<SentJobFile>>;
    const QJsonObject o = request.value(QLatin1String("job")).toObject();
    const QJsonValue data = o.value(QLatin1String("job_file_data"));
    if (data.isUndefined())
        return R(std::nullopt);
    if (o.contains(QLatin1String("job_file")))
        return R::failure(QStringLiteral("workload.start: a job file as a path here (\"job_file\") and as content "
                                         "(\"job_file_data\"): send one"));
    // Checked before decoding: base64 is 4 characters for every 3 bytes.
    const QString text = data.toString();
    if (!data.isString() || text.size() > (MaxJobFileBytes + 2) / 3 * 4 + 4)
        return R::failure(QStringLiteral("workload.start: the job file is larger than %1 KiB or not text")
                              .arg(MaxJobFileBytes / 1024));
    auto decoded = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return R::failure(QStringLiteral("workload.start: \"job_file_data\" is not base64"));
    if (decoded.decoded.size() > MaxJobFileBytes)
        return R::failure(
            QStringLiteral("workload.start: the job file is larger than %1 KiB").arg(MaxJobFileBytes / 1024));
    QString name = o.value(QLatin1String("job_file_name")).toString().section(QLatin1Char('/'), -1);
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String(".."))
        name = QStringLiteral("job.fio");
    return R(SentJobFile { std::move(decoded.decoded), name });
}

QJsonObject withJobFileAt(const QJsonObject &request, const QString &path)
{
    QJsonObject o = request.value(QLatin1String("job")).toObject();
    const QString sentName = o.value(QLatin1String("job_file_name")).toString();
    o.remove(QStringLiteral("job_file_data"));
    o.remove(QStringLiteral("job_file_name"));
    o.insert(QStringLiteral("job_file"), path);
    if (o.value(QLatin1String("title")).toString().isEmpty())
        o.insert(QStringLiteral("title"), sentName.isEmpty() ? path : sentName);
    QJsonObject out = request;
    out.insert(QStringLiteral("job"), o);
    return out;
}

const PreparedWorkload *preparedWorkloadOf(const OperationPlan &plan)
{
    if (plan.kind != QLatin1String(WorkloadStartKind))
        return nullptr;
    return plan.prepared.get<PreparedWorkload>();
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
    registerLongOperation(QString::fromLatin1(WorkloadStartKind), startWorkloadOperation);
}

} // namespace dmtune
