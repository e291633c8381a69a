#include "core/remote/operationjob.h"

#include "core/ops/workloadoperations.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

using namespace Qt::StringLiterals;

bool isDetachableOperation(const QString &kind)
{
    return kind == QLatin1String(WorkloadStartKind);
}

QJsonObject operationJobToJson(const OperationJob &job)
{
    return { { "kind"_L1, job.kind }, { "request"_L1, job.request }, { "basis"_L1, job.basis },
        { "accepted"_L1, QJsonArray::fromStringList(job.accepted) }, { "command"_L1, job.command } };
}

Result<OperationJob> operationJobFromJson(const QJsonObject &json)
{
    using R = Result<OperationJob>;
    OperationJob job;
    job.kind = json.value("kind"_L1).toString();
    if (!isDetachableOperation(job.kind))
        return R::failure(QStringLiteral("the job's operation '%1' does not run as a job").arg(job.kind));
    if (!json.value("request"_L1).isObject() || !json.value("basis"_L1).isObject()
        || !json.value("accepted"_L1).isArray())
        return R::failure(QStringLiteral("the job's operation is not {kind, request, basis, accepted}"));
    job.request = json.value("request"_L1).toObject();
    job.basis = json.value("basis"_L1).toObject();
    for (const QJsonValue &id : json.value("accepted"_L1).toArray()) {
        if (!id.isString())
            return R::failure(QStringLiteral("the job's accepted risks are not names"));
        job.accepted << id.toString();
    }
    job.command = json.value("command"_L1).toString();
    return job;
}

QString operationJobCommand(const QString &kind, const QJsonObject &request)
{
    const QJsonObject job = request.value("job"_L1).toObject();
    QString name = job.value("id"_L1).toString();
    if (const QString file = job.value("job_file"_L1).toString(); !file.isEmpty())
        name = QFileInfo(job.value("title"_L1).toString(file)).fileName();
    return QStringLiteral("%1 %2 --device %3").arg(kind, name, request.value("device"_L1).toString());
}

std::variant<CheckedOperationJob, OperationResult> checkOperationJob(
    const OperationEnvironment &env, const OperationJob &job)
{
    OperationResult refused;
    refused.kind = job.kind;
    const auto fresh = planOperation(env, job.kind, job.request);
    if (!fresh) {
        refused.error = fresh.errorMessage();
        return refused;
    }
    refused.planId = fresh->id;
    refused.target = fresh->target;
    if (!fresh->refusals.isEmpty()) {
        refused.error = fresh->refusals.join(QLatin1String("; "));
        return refused;
    }
    // What the user saw is the plan's basis: anything that differs now was not what they answered.
    if (const QStringList changed = basisDifferences(job.basis, fresh->basis); !changed.isEmpty()) {
        refused.stale = true;
        refused.error = QStringLiteral("the state changed since the plan: %1").arg(changed.join(QLatin1String("; ")));
        return refused;
    }
    QStringList unanswered;
    for (const OperationRisk &risk : fresh->risks) {
        if (!risk.confirmable || !job.accepted.contains(risk.id))
            unanswered << risk.text;
    }
    if (!unanswered.isEmpty()) {
        refused.error = QStringLiteral("not answered: %1").arg(unanswered.join(QLatin1String("; ")));
        return refused;
    }
    return CheckedOperationJob { fresh.value(), acceptAll(fresh.value()) };
}

QByteArray operationJobEventLine(const QJsonObject &event)
{
    return QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray operationJobResultLine(const OperationResult &result)
{
    return QJsonDocument(QJsonObject { { "result"_L1, resultToJson(result) } }).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace dmtune
