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

void OperationRunner::startPlan(
    const QString &kind, const QJsonObject &request, const Replies &replies, bool runUnlessAsked)
{
    const OperationEnvironment env = m_env;
    m_jobs->start(
        QStringLiteral("%1 %2").arg(runUnlessAsked ? QStringLiteral("run") : QStringLiteral("plan"), kind),
        [env, kind, request, runUnlessAsked](JobContext &context) {
            PlanOrResult out { planOperation(env, kind, request), false, {} };
            if (runUnlessAsked && out.plan && out.plan->risks.isEmpty() && out.plan->refusals.isEmpty()
                && !context.isCancelled()) {
                OperationEnvironment withCancel = env;
                withCancel.cancelled = [&context] { return context.isCancelled(); };
                out.ran = true;
                out.result = runOperation(withCancel, out.plan.value(), acceptAll(out.plan.value()));
            }
            return out;
        },
        [this, replies](const PlanOrResult &out) {
            if (!out.plan)
                deliverPlanFailed(replies, out.plan.errorMessage());
            else if (out.ran)
                deliverFinished(replies, out.result);
            else
                deliverPlanned(replies, out.plan.value());
        });
}

void OperationRunner::startRun(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies)
{
    const OperationEnvironment env = m_env;
    m_jobs->start(
        QStringLiteral("run %1").arg(plan.kind),
        [env, plan, answers](JobContext &context) {
            OperationEnvironment withCancel = env;
            withCancel.cancelled = [&context] { return context.isCancelled(); };
            return runOperation(withCancel, plan, answers);
        },
        [this, replies](const OperationResult &result) { deliverFinished(replies, result); });
}

} // namespace dmtune
