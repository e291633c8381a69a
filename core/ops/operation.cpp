#include "core/ops/operation.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace dmtune {

namespace {

const QLatin1String PlanSchema("dmtune.operation.plan");
const QLatin1String AnswersSchema("dmtune.operation.answers");
const QLatin1String ResultSchema("dmtune.operation.result");

QJsonArray toArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

Result<QStringList> stringList(const QJsonObject &json, const char *key)
{
    const QJsonValue v = json.value(QLatin1String(key));
    if (v.isUndefined())
        return QStringList();
    if (!v.isArray())
        return Result<QStringList>::failure(QStringLiteral("\"%1\" is not a list").arg(QLatin1String(key)));
    QStringList out;
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString())
            return Result<QStringList>::failure(QStringLiteral("\"%1\" holds a non-string").arg(QLatin1String(key)));
        out.append(item.toString());
    }
    return out;
}

// The schema and major version of a document; an error line when it is not `schema` version 1.
QString schemaProblem(const QJsonObject &json, QLatin1String schema)
{
    if (json.value(QLatin1String("schema")).toString() != schema)
        return QStringLiteral("not a %1 document").arg(schema);
    const int version = json.value(QLatin1String("version")).toInt(-1);
    if (version != OperationSchemaVersion)
        return QStringLiteral("%1 version %2 is not known (this dmtune reads version %3)")
            .arg(schema)
            .arg(version)
            .arg(OperationSchemaVersion);
    return {};
}

QJsonObject header(QLatin1String schema)
{
    return { { QLatin1String("schema"), schema }, { QLatin1String("version"), OperationSchemaVersion } };
}

QString compactJson(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isUndefined())
        return QStringLiteral("(none)");
    return QString::fromUtf8(QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact).mid(1).chopped(1));
}

} // namespace

bool OperationPlan::hasUnconfirmableRisk() const
{
    return std::any_of(risks.cbegin(), risks.cend(), [](const OperationRisk &r) { return !r.confirmable; });
}

OperationRisk dataRisk(const QString &id, const QString &text, const QString &device)
{
    return { id, text, true, device, RiskKind::Data };
}

OperationRisk availabilityRisk(const QString &id, const QString &text)
{
    return { id, text, true, {}, RiskKind::Availability };
}

OperationRisk faultRisk(const QString &id, const QString &text, const QString &map)
{
    return { id, text, true, map, RiskKind::Fault };
}

OperationRisk refusedRisk(const QString &id, const QString &text)
{
    return { id, text, false, {}, RiskKind::Data };
}

QString riskKindName(RiskKind kind)
{
    switch (kind) {
    case RiskKind::Data:
        return QStringLiteral("data");
    case RiskKind::Availability:
        return QStringLiteral("availability");
    case RiskKind::Fault:
        return QStringLiteral("fault");
    }
    return {};
}

OperationAnswers acceptAll(const OperationPlan &plan)
{
    OperationAnswers answers;
    answers.planId = plan.id;
    for (const OperationRisk &risk : plan.risks)
        answers.accepted.append(risk.id);
    return answers;
}

QString answersProblem(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (!plan.refusals.isEmpty())
        return plan.refusals.first();
    if (answers.planId != plan.id)
        return QStringLiteral("the answers were given for another plan (%1, not %2)")
            .arg(answers.planId.isEmpty() ? QStringLiteral("none") : answers.planId, plan.id);
    for (const OperationRisk &risk : plan.risks) {
        if (!risk.confirmable)
            return QStringLiteral("refused: %1").arg(risk.text);
        if (!answers.accepted.contains(risk.id))
            return QStringLiteral("not confirmed: %1").arg(risk.text);
    }
    return {};
}

QStringList basisDifferences(const QJsonObject &planned, const QJsonObject &now)
{
    QStringList keys = planned.keys();
    for (const QString &key : now.keys()) {
        if (!keys.contains(key))
            keys.append(key);
    }
    std::sort(keys.begin(), keys.end());
    QStringList out;
    for (const QString &key : std::as_const(keys)) {
        const QJsonValue a = planned.value(key), b = now.value(key);
        if (a != b)
            out.append(QStringLiteral("%1: %2 -> %3").arg(key, compactJson(a), compactJson(b)));
    }
    return out;
}

QString planId(const QString &kind, const QJsonObject &request, const QJsonObject &basis)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(kind.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(QJsonDocument(request).toJson(QJsonDocument::Compact)); // QJsonObject keeps keys sorted
    hash.addData(QByteArrayView("\n"));
    hash.addData(QJsonDocument(basis).toJson(QJsonDocument::Compact));
    return QString::fromLatin1(hash.result().toHex().left(16));
}

QJsonObject planToJson(const OperationPlan &plan)
{
    QJsonObject json = header(PlanSchema);
    json.insert(QLatin1String("kind"), plan.kind);
    json.insert(QLatin1String("id"), plan.id);
    json.insert(QLatin1String("request"), plan.request);
    json.insert(QLatin1String("target"), plan.target);
    json.insert(QLatin1String("summary"), plan.summary);
    json.insert(QLatin1String("steps"), toArray(plan.steps));
    json.insert(QLatin1String("preview"), plan.preview);
    QJsonArray risks;
    for (const OperationRisk &r : plan.risks) {
        QJsonObject risk { { QLatin1String("id"), r.id }, { QLatin1String("text"), r.text },
            { QLatin1String("confirmable"), r.confirmable }, { QLatin1String("kind"), riskKindName(r.kind) } };
        if (!r.confirmDevice.isEmpty())
            risk.insert(QLatin1String("confirm_device"), r.confirmDevice);
        risks.append(risk);
    }
    json.insert(QLatin1String("risks"), risks);
    json.insert(QLatin1String("refusals"), toArray(plan.refusals));
    json.insert(QLatin1String("notes"), toArray(plan.notes));
    json.insert(QLatin1String("basis"), plan.basis);
    return json;
}

Result<OperationPlan> planFromJson(const QJsonObject &json)
{
    using R = Result<OperationPlan>;
    if (const QString problem = schemaProblem(json, PlanSchema); !problem.isEmpty())
        return R::failure(problem);
    OperationPlan plan;
    plan.kind = json.value(QLatin1String("kind")).toString();
    plan.id = json.value(QLatin1String("id")).toString();
    if (plan.kind.isEmpty() || plan.id.isEmpty())
        return R::failure(QStringLiteral("a plan needs \"kind\" and \"id\""));
    plan.request = json.value(QLatin1String("request")).toObject();
    plan.target = json.value(QLatin1String("target")).toString();
    plan.summary = json.value(QLatin1String("summary")).toString();
    plan.preview = json.value(QLatin1String("preview")).toString();
    plan.basis = json.value(QLatin1String("basis")).toObject();
    for (const auto &[key, list] : { std::pair { "steps", &plan.steps }, std::pair { "refusals", &plan.refusals },
             std::pair { "notes", &plan.notes } }) {
        const auto read = stringList(json, key);
        if (!read)
            return R::failure(read.errorMessage());
        *list = read.value();
    }
    for (const QJsonValue &v : json.value(QLatin1String("risks")).toArray()) {
        const QJsonObject r = v.toObject();
        OperationRisk risk;
        risk.id = r.value(QLatin1String("id")).toString();
        risk.text = r.value(QLatin1String("text")).toString();
        risk.confirmable = r.value(QLatin1String("confirmable")).toBool(true);
        risk.confirmDevice = r.value(QLatin1String("confirm_device")).toString();
        if (risk.id.isEmpty())
            return R::failure(QStringLiteral("a risk without an \"id\""));
        // A plan written before risks had a kind: a device to type was a data risk, a plain yes an availability one.
        const QJsonValue kind = r.value(QLatin1String("kind"));
        if (kind.isUndefined())
            risk.kind = risk.confirmDevice.isEmpty() ? RiskKind::Availability : RiskKind::Data;
        else if (kind == riskKindName(RiskKind::Data))
            risk.kind = RiskKind::Data;
        else if (kind == riskKindName(RiskKind::Availability))
            risk.kind = RiskKind::Availability;
        else if (kind == riskKindName(RiskKind::Fault))
            risk.kind = RiskKind::Fault;
        else
            return R::failure(QStringLiteral("risk %1: kind \"%2\" is not known").arg(risk.id, kind.toString()));
        // A data or fault risk that names nothing could be answered by nobody, or by anything: refused as written.
        if (risk.kind != RiskKind::Availability && risk.confirmDevice.isEmpty() && risk.confirmable)
            return R::failure(QStringLiteral("risk %1: a %2 risk without the \"confirm_device\" that answers it")
                                  .arg(risk.id, riskKindName(risk.kind)));
        plan.risks.append(risk);
    }
    // The id covers kind, request and basis: a plan edited after it was made no longer matches its id.
    if (planId(plan.kind, plan.request, plan.basis) != plan.id)
        return R::failure(QStringLiteral("plan %1 does not match its own content (edited?)").arg(plan.id));
    return plan;
}

QJsonObject answersToJson(const OperationAnswers &answers)
{
    QJsonObject json = header(AnswersSchema);
    json.insert(QLatin1String("plan"), answers.planId);
    json.insert(QLatin1String("accepted"), toArray(answers.accepted));
    json.insert(QLatin1String("dry_run"), answers.dryRun);
    return json;
}

Result<OperationAnswers> answersFromJson(const QJsonObject &json)
{
    using R = Result<OperationAnswers>;
    if (const QString problem = schemaProblem(json, AnswersSchema); !problem.isEmpty())
        return R::failure(problem);
    OperationAnswers answers;
    answers.planId = json.value(QLatin1String("plan")).toString();
    if (answers.planId.isEmpty())
        return R::failure(QStringLiteral("answers need the \"plan\" they answer"));
    const auto accepted = stringList(json, "accepted");
    if (!accepted)
        return R::failure(accepted.errorMessage());
    answers.accepted = accepted.value();
    answers.dryRun = json.value(QLatin1String("dry_run")).toBool(false);
    return answers;
}

QJsonObject resultToJson(const OperationResult &result)
{
    QJsonObject json = header(ResultSchema);
    json.insert(QLatin1String("kind"), result.kind);
    json.insert(QLatin1String("plan"), result.planId);
    json.insert(QLatin1String("target"), result.target);
    json.insert(QLatin1String("ok"), result.ok);
    json.insert(QLatin1String("error"), result.error);
    json.insert(QLatin1String("stale"), result.stale);
    json.insert(QLatin1String("dry_run"), result.dryRun);
    json.insert(QLatin1String("changes"), toArray(result.changes));
    json.insert(QLatin1String("warnings"), toArray(result.warnings));
    json.insert(QLatin1String("details"), result.details);
    return json;
}

Result<OperationResult> resultFromJson(const QJsonObject &json)
{
    using R = Result<OperationResult>;
    if (const QString problem = schemaProblem(json, ResultSchema); !problem.isEmpty())
        return R::failure(problem);
    OperationResult result;
    result.kind = json.value(QLatin1String("kind")).toString();
    result.planId = json.value(QLatin1String("plan")).toString();
    result.target = json.value(QLatin1String("target")).toString();
    result.ok = json.value(QLatin1String("ok")).toBool(false);
    result.error = json.value(QLatin1String("error")).toString();
    result.stale = json.value(QLatin1String("stale")).toBool(false);
    result.dryRun = json.value(QLatin1String("dry_run")).toBool(false);
    for (const auto &[key, list] :
        { std::pair { "changes", &result.changes }, std::pair { "warnings", &result.warnings } }) {
        const auto read = stringList(json, key);
        if (!read)
            return R::failure(read.errorMessage());
        *list = read.value();
    }
    result.details = json.value(QLatin1String("details")).toObject();
    if (!result.ok && result.error.isEmpty())
        return R::failure(QStringLiteral("a failed result without an \"error\""));
    return result;
}

} // namespace dmtune
