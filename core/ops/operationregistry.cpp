#include "core/ops/operationregistry.h"

#include "core/experiments/sweepoperation.h"
#include "core/ops/laboperations.h"
#include "core/ops/multipathoperations.h"
#include "core/ops/presetoperations.h"
#include "core/ops/tuningoperations.h"
#include "core/ops/workloadoperations.h"
#include "core/params/transaction.h"

#include <QMutex>

namespace dmtune {

namespace {

struct Registry {
    QMutex mutex;
    QList<OperationKind> kinds;
};

Registry &registry()
{
    static Registry r;
    return r;
}

OperationResult refusal(const OperationPlan &plan, QString error, bool stale = false)
{
    OperationResult result;
    result.kind = plan.kind;
    result.planId = plan.id;
    result.target = plan.target;
    result.error = std::move(error);
    result.stale = stale;
    return result;
}

} // namespace

ApplyResult OperationEnvironment::executeTransaction(const Plan &plan, bool dryRun) const
{
    return applyTransaction ? applyTransaction(*this, plan, dryRun) : executePlan(sysfs, plan, dryRun);
}

void registerOperation(OperationKind kind)
{
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    for (OperationKind &known : r.kinds) {
        if (known.kind == kind.kind) {
            known = std::move(kind);
            return;
        }
    }
    r.kinds.append(std::move(kind));
}

const OperationKind *findOperation(const QString &kind)
{
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    for (const OperationKind &known : std::as_const(r.kinds)) {
        if (known.kind == kind)
            return &known; // kinds are only added at start-up; the list does not move afterwards
    }
    return nullptr;
}

QStringList operationKinds()
{
    Registry &r = registry();
    QMutexLocker lock(&r.mutex);
    QStringList out;
    for (const OperationKind &known : std::as_const(r.kinds))
        out.append(known.kind);
    return out;
}

void registerBuiltinOperations()
{
    static const bool done = [] {
        registerMultipathOperations();
        registerTuningOperations();
        registerWorkloadOperations();
        registerPresetOperations();
        registerLabOperations();
        registerExperimentOperations();
        return true;
    }();
    Q_UNUSED(done);
}

Result<OperationPlan> planOperation(const OperationEnvironment &env, const QString &kind, const QJsonObject &request)
{
    registerBuiltinOperations();
    const OperationKind *op = findOperation(kind);
    if (!op)
        return Result<OperationPlan>::failure(QStringLiteral("no operation \"%1\"").arg(kind));
    auto plan = op->plan(env, request);
    if (plan) {
        plan.value().kind = kind;
        plan.value().id = planId(kind, plan->request, plan->basis);
    }
    return plan;
}

OperationResult checkOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers, OperationPlan *fresh)
{
    registerBuiltinOperations();
    if (const QString problem = answersProblem(plan, answers); !problem.isEmpty())
        return refusal(plan, problem);
    const OperationKind *op = findOperation(plan.kind);
    if (!op)
        return refusal(plan, QStringLiteral("no operation \"%1\"").arg(plan.kind));
    // Plan again on the state now: the answers were given for what the user saw.
    auto now = planOperation(env, plan.kind, plan.request);
    if (!now)
        return refusal(plan, now.errorMessage());
    if (const QStringList changed = basisDifferences(plan.basis, now->basis); !changed.isEmpty())
        return refusal(plan,
            QStringLiteral("%1 changed since the plan was made (plan again): %2")
                .arg(plan.target.isEmpty() ? QStringLiteral("the state") : plan.target,
                    changed.join(QStringLiteral("; "))),
            true);
    if (!now->refusals.isEmpty())
        return refusal(plan, now->refusals.first());
    for (const OperationRisk &risk : now->risks) {
        if (!risk.confirmable)
            return refusal(plan, QStringLiteral("refused: %1").arg(risk.text));
        if (!answers.accepted.contains(risk.id))
            return refusal(plan, QStringLiteral("not confirmed: %1").arg(risk.text), true);
    }
    OperationResult ok;
    ok.kind = plan.kind;
    ok.planId = plan.id;
    ok.target = plan.target;
    ok.ok = true;
    ok.dryRun = answers.dryRun;
    if (fresh)
        *fresh = std::move(now.value());
    return ok;
}

OperationResult runOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers)
{
    OperationPlan fresh;
    if (OperationResult checked = checkOperation(env, plan, answers, &fresh); !checked.ok)
        return checked;
    OperationResult result = findOperation(plan.kind)->run(env, fresh, answers.dryRun);
    result.kind = plan.kind;
    result.planId = plan.id;
    result.target = plan.target;
    result.dryRun = answers.dryRun;
    return result;
}

} // namespace dmtune
