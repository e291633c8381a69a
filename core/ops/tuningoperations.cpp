#include "core/ops/tuningoperations.h"

#include "core/discovery/discovery.h"
#include "core/ops/operationregistry.h"
#include "core/params/catalog.h"
#include "core/params/deviceresolver.h"
#include "core/params/transaction.h"

#include <QJsonArray>

#include <optional>

namespace dmtune {

namespace {

using PlanResult = Result<OperationPlan>;

QString key(const QString &device, const QString &attribute)
{
    return device + QLatin1Char(' ') + attribute;
}

// The change set a request names, every device resolved to its kernel name (and a map's paths added).
Result<ChangeSet> changesOf(const SysfsRoot &sysfs, const QJsonObject &request)
{
    using R = Result<ChangeSet>;
    const QJsonArray list = request.value(QLatin1String("changes")).toArray();
    if (list.isEmpty())
        return R::failure(QStringLiteral("tuning.apply needs \"changes\": [{\"device\", \"attribute\", \"value\"}]"));
    const bool withPaths = request.value(QLatin1String("with_paths")).toBool(false);
    std::optional<DeviceSnapshot> snapshot; // one scan, only when a name needs it
    auto scanned = [&]() -> const DeviceSnapshot & {
        if (!snapshot)
            snapshot = Discovery::scan(sysfs);
        return *snapshot;
    };
    ChangeSet out;
    for (const QJsonValue &v : list) {
        const QJsonObject o = v.toObject();
        Change c { o.value(QLatin1String("device")).toString(), o.value(QLatin1String("attribute")).toString(),
            o.value(QLatin1String("value")).toString() };
        if (c.device.isEmpty() || c.attribute.isEmpty() || !o.value(QLatin1String("value")).isString())
            return R::failure(
                QStringLiteral("tuning.apply: each change needs \"device\", \"attribute\" and \"value\""));
        const bool plainName = !c.device.contains(QLatin1Char('/')) && !c.device.contains(QLatin1Char(':'))
            && sysfs.isDir(QStringLiteral("block/") + c.device);
        if (!plainName || withPaths) {
            const auto device = resolveDeviceSpec(sysfs, scanned(), c.device);
            if (!device)
                return R::failure(device.errorMessage());
            c.device = device.value();
        }
        QStringList devices { c.device };
        if (withPaths) {
            // A SCSI device's attribute (device/queue_depth) is only the paths': a map has no SCSI device.
            const TunableDef *def = catalog::find(c.attribute);
            const bool pathsOnly = def && def->location == TunableLocation::ScsiDevice;
            const auto expanded
                = scopeDevices(scanned(), pathsOnly ? ChangeScope::PathsOfMap : ChangeScope::MapAndPaths, { c.device });
            if (!expanded)
                return R::failure(expanded.errorMessage());
            devices = expanded.value();
        }
        for (const ChangeSet &more = makeChangeSet(devices, { { c.attribute, c.value } }); const Change &m : more) {
            if (!out.contains(m))
                out.append(m);
        }
    }
    return out;
}

QString stepText(const PlannedWrite &w)
{
    return QStringLiteral("%1 %2: %3 -> %4")
        .arg(w.device, w.attribute, w.oldValue.isEmpty() ? QStringLiteral("(new scheduler's default)") : w.oldValue,
            w.value);
}

PlanResult planTuning(const OperationEnvironment &env, const QJsonObject &request)
{
    const auto changes = changesOf(env.sysfs, request);
    if (!changes)
        return PlanResult::failure(changes.errorMessage());
    // Consent is the operation's answers now: the planner's plan is made as if given, runOperation() checks
    // that every risk was accepted before run() executes it.
    auto planned = std::make_shared<Plan>(planChanges(env.sysfs, changes.value(), RiskConsent::Given));
    OperationPlan plan;
    plan.request = request;
    QStringList devices;
    for (const Change &c : changes.value()) {
        if (!devices.contains(c.device))
            devices.append(c.device);
    }
    plan.target = devices.join(QLatin1Char(' '));
    plan.summary = QStringLiteral("write %1 queue attribute value(s) on %2 as one transaction")
                       .arg(planned->writes.size())
                       .arg(plan.target);
    for (const ApplyError &e : std::as_const(planned->errors))
        plan.refusals.append(e.text());
    for (const PlannedWrite &w : std::as_const(planned->writes)) {
        plan.steps.append(stepText(w));
        plan.basis.insert(key(w.device, w.attribute), w.oldValue);
    }
    if (!plan.steps.isEmpty())
        plan.steps.append(QStringLiteral("read every value back; on any error restore what was written"));
    plan.preview = plan.steps.mid(0, planned->writes.size()).join(QLatin1Char('\n'));
    for (const DataRisk &r : std::as_const(planned->risks))
        plan.risks.append(
            dataRisk(QStringLiteral("data-risk:%1:%2=%3").arg(r.device, r.attribute, r.value), r.text(), r.device));
    for (const StackingWarning &w : std::as_const(planned->warnings))
        plan.notes.append(w.message);
    plan.prepared = planned;
    return plan;
}

} // namespace

OperationResult operationResultOf(const ApplyResult &r)
{
    OperationResult result;
    result.ok = r.ok();
    if (!r.errors.isEmpty()) {
        result.error = r.errors.first().text();
        if (r.errors.size() > 1)
            result.error += QStringLiteral(" (and %1 more errors)").arg(r.errors.size() - 1);
    }
    for (const ChangeOutcome &c : r.changes) {
        if (r.dryRun)
            result.changes.append(
                QStringLiteral("would: %1 %2 %3 -> %4").arg(c.device, c.attribute, c.oldValue, c.requested));
        else if ((c.written || c.sideEffect) && c.oldValue != c.newValue)
            result.changes.append(c.summary());
    }
    for (const StackingWarning &w : r.warnings)
        result.warnings.append(w.message);
    if (r.rolledBack)
        result.warnings.append(QStringLiteral("rolled back: every value written was restored"));
    result.details = toJson(r);
    return result;
}

namespace {

OperationResult runTuning(const OperationEnvironment &env, const OperationPlan &fresh, bool dryRun)
{
    const auto *planned = fresh.prepared.get<Plan>();
    return operationResultOf(env.executeTransaction(*planned, dryRun));
}

} // namespace

QJsonObject tuningRequest(const ChangeSet &changes, bool withPaths)
{
    QJsonArray list;
    for (const Change &c : changes)
        list.append(QJsonObject { { QLatin1String("device"), c.device }, { QLatin1String("attribute"), c.attribute },
            { QLatin1String("value"), c.value } });
    QJsonObject request { { QLatin1String("changes"), list } };
    if (withPaths)
        request.insert(QLatin1String("with_paths"), true);
    return request;
}

const Plan *tuningPlanOf(const OperationPlan &plan)
{
    if (plan.kind != QLatin1String(TuningApplyKind))
        return nullptr;
    return plan.prepared.get<Plan>();
}

ApplyResult applyResultOf(const OperationResult &result)
{
    if (!result.details.isEmpty()) {
        if (auto parsed = applyResultFromJson(result.details))
            return parsed.value();
    }
    ApplyResult r;
    r.executor = QStringLiteral("in-process");
    r.dryRun = result.dryRun;
    if (!result.ok)
        r.errors << ApplyError { ApplyError::Stage::Validate, {}, {}, {}, result.error };
    return r;
}

ApplyResult tuningRefusal(const OperationPlan &plan, bool dryRun)
{
    const Plan *planned = tuningPlanOf(plan);
    Plan rejected = planned ? *planned : Plan();
    for (const QString &why : plan.refusals) {
        if (rejected.ok())
            rejected.errors << ApplyError { ApplyError::Stage::Validate, {}, {}, {}, why };
    }
    return executePlan(SysfsRoot(), rejected, dryRun); // not ok: nothing is read or written
}

void registerTuningOperations()
{
    OperationKind op;
    op.kind = QString::fromLatin1(TuningApplyKind);
    op.description = QStringLiteral("write queue attributes as one transaction (safe order, read back, rollback)");
    op.plan = planTuning;
    op.run = runTuning;
    registerOperation(std::move(op));
}

} // namespace dmtune
