#include "core/ops/operationrunner.h"

#include "core/jobs/eventloopthread.h"
#include "core/ops/operationactivity.h"

namespace dmtune {

namespace {

// The handle of a local long-running operation: its activity is made, driven and deleted on the handle's own
// event thread; the activity's signals come back to the handle (queued: it lives on the runner's thread).
class LocalRun final : public OperationRun {
public:
    using OperationRun::OperationRun;
    ~LocalRun() override
    {
        if (!m_thread)
            return;
        // A running activity's destructor stops it and puts back what it changed (a sweep's values); waited for.
        m_thread->post([this] { delete std::exchange(m_activity, nullptr); });
        m_thread->finish();
    }

    // After the checks: the activity made on a new thread and started there.
    void launch(std::function<std::unique_ptr<OperationActivity>()> make,
        std::function<void(const QJsonObject &)> onProgress, std::function<void(const OperationResult &)> onFinished)
    {
        m_thread = std::make_unique<EventLoopThread>(QStringLiteral("run ") + kind());
        m_thread->post([this, make = std::move(make), onProgress = std::move(onProgress),
                           onFinished = std::move(onFinished)]() mutable {
            m_activity = make().release();
            // The receiver is this handle, on the runner's thread: queued, in the order emitted.
            QObject::connect(m_activity, &OperationActivity::progress, this, onProgress);
            QObject::connect(m_activity, &OperationActivity::finished, this, onFinished);
            m_activity->start();
        });
    }

protected:
    void requestCancel() override
    {
        if (m_thread)
            m_thread->post([this] {
                if (m_activity)
                    m_activity->cancel();
            });
    }

private:
    OperationActivity *m_activity = nullptr; // on m_thread only (made, started, cancelled and deleted there)
    std::unique_ptr<EventLoopThread> m_thread; // last: joined before the members above go
};
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
    m_jobs = nullptr;
    // Long-running operations stop and put back what they changed, each on its thread, before the runner goes.
    qDeleteAll(findChildren<OperationRun *>(Qt::FindDirectChildrenOnly)); // its LocalRuns
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

namespace dmtune {

OperationRun *OperationRunner::startLong(
    const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies)
{
    auto *run = new LocalRun(plan.kind, this);
    ++m_runs;
    connect(run, &QObject::destroyed, this, [this] { --m_runs; });
    const QPointer<LocalRun> handle(run);
    const OperationEnvironment env = m_env;
    m_jobs->start(
        QStringLiteral("check %1").arg(plan.kind),
        [env, plan, answers](JobContext &) { return startOperation(env, plan, answers); },
        [this, handle, replies, kind = plan.kind](const OperationStart &checked) {
            if (!handle)
                return; // deleted meanwhile (its runner goes): nothing began
            OperationResult result = checked.result;
            if (checked.result.ok && handle->isCancelRequested()) {
                result.ok = false;
                result.changes.clear();
                result.error = QStringLiteral("%1: cancelled before it began: nothing was changed").arg(kind);
            }
            if (!result.ok || !checked.make)
                return deliverRunFinished(handle, replies, result);
            handle->launch(
                checked.make, [replies](const QJsonObject &event) { deliverProgress(replies, event); },
                [this, handle, replies](const OperationResult &end) {
                    if (handle)
                        deliverRunFinished(handle, replies, end);
                });
        });
    return run;
}

} // namespace dmtune
