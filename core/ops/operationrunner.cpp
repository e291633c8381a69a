#include "ops/operationrunner.h"

namespace dmtune {

namespace {
struct PlanOrResult {
    Result<OperationPlan> plan;
    bool ran = false;
    OperationResult result;
};
} // namespace

OperationRunner::OperationRunner(QObject *parent)
    : OperationService(parent)
    , m_jobs(new JobTracker(this, JobTracker::Order::Serial))
{
    qRegisterMetaType<dmtune::OperationPlan>();
    qRegisterMetaType<dmtune::OperationResult>();
    registerBuiltinOperations();
}

OperationRunner::~OperationRunner()
{
    delete m_jobs; // joins: an operation that has begun finishes (a suspended map is resumed)
}

void OperationRunner::plan(const QString &kind, const QJsonObject &request, const QString &tag)
{
    const OperationEnvironment env = m_env;
    m_jobs->start(
        QStringLiteral("plan %1").arg(kind),
        [env, kind, request](JobContext &) { return planOperation(env, kind, request); },
        [this, kind, tag](const Result<OperationPlan> &plan) {
            if (plan)
                Q_EMIT planned(plan.value(), tag);
            else
                Q_EMIT planFailed(kind, plan.errorMessage(), tag);
        });
}

void OperationRunner::run(const OperationPlan &plan, const OperationAnswers &answers, const QString &tag)
{
    const OperationEnvironment env = m_env;
    m_jobs->start(
        QStringLiteral("run %1").arg(plan.kind),
        [env, plan, answers](JobContext &context) {
            OperationEnvironment withCancel = env;
            withCancel.cancelled = [&context] { return context.isCancelled(); };
            return runOperation(withCancel, plan, answers);
        },
        [this, tag](const OperationResult &result) { Q_EMIT finished(result, tag); });
}

void OperationRunner::runUnlessAsked(const QString &kind, const QJsonObject &request, const QString &tag)
{
    const OperationEnvironment env = m_env;
    m_jobs->start(
        QStringLiteral("run %1").arg(kind),
        [env, kind, request](JobContext &context) {
            PlanOrResult out { planOperation(env, kind, request), false, {} };
            if (out.plan && out.plan->risks.isEmpty() && out.plan->refusals.isEmpty() && !context.isCancelled()) {
                OperationEnvironment withCancel = env;
                withCancel.cancelled = [&context] { return context.isCancelled(); };
                out.ran = true;
                out.result = runOperation(withCancel, out.plan.value(), acceptAll(out.plan.value()));
            }
            return out;
        },
        [this, kind, tag](const PlanOrResult &out) {
            if (!out.plan)
                Q_EMIT planFailed(kind, out.plan.errorMessage(), tag);
            else if (out.ran)
                Q_EMIT finished(out.result, tag);
            else
                Q_EMIT planned(out.plan.value(), tag);
        });
}

} // namespace dmtune
