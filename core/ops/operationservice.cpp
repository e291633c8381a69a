#include "core/ops/operationservice.h"

namespace dmtune {

OperationRun::OperationRun(QString kind, QObject *parent)
    : QObject(parent)
    , m_kind(std::move(kind))
{
}

void OperationRun::cancel()
{
    if (m_cancelRequested || m_finished)
        return;
    m_cancelRequested = true;
    requestCancel();
}

void OperationService::plan(
    const QString &kind, const QJsonObject &request, QObject *context, Planned onPlanned, PlanFailed onFailed)
{
    startPlan(kind, request, Replies { context, std::move(onPlanned), std::move(onFailed), {}, {} }, false);
}

void OperationService::run(
    const OperationPlan &plan, const OperationAnswers &answers, QObject *context, Finished onFinished)
{
    startRun(plan, answers, Replies { context, {}, {}, std::move(onFinished), {} });
}

void OperationService::runUnlessAsked(const QString &kind, const QJsonObject &request, QObject *context,
    Planned onPlanned, PlanFailed onFailed, Finished onFinished)
{
    startPlan(
        kind, request, Replies { context, std::move(onPlanned), std::move(onFailed), std::move(onFinished), {} }, true);
}

OperationRun *OperationService::start(const OperationPlan &plan, const OperationAnswers &answers, QObject *context,
    Progress onProgress, Finished onFinished)
{
    OperationRun *run
        = startLong(plan, answers, Replies { context, {}, {}, std::move(onFinished), std::move(onProgress) });
    // A caller that goes away (a closed panel) stops what it started; it is no longer told.
    if (context)
        connect(context, &QObject::destroyed, run, &OperationRun::cancel);
    return run;
}

void OperationService::deliverProgress(const Replies &replies, const QJsonObject &event)
{
    if (replies.context && replies.progress)
        replies.progress(event);
}

void OperationService::deliverRunFinished(OperationRun *run, const Replies &replies, const OperationResult &result)
{
    if (run->m_finished)
        return;
    run->m_finished = true;
    run->deleteLater();
    deliverFinished(replies, result);
}

void OperationService::deliverPlanned(const Replies &replies, const OperationPlan &plan)
{
    if (replies.context && replies.planned)
        replies.planned(plan);
}

void OperationService::deliverPlanFailed(const Replies &replies, const QString &error)
{
    if (replies.context && replies.planFailed)
        replies.planFailed(error);
}

void OperationService::deliverFinished(const Replies &replies, const OperationResult &result)
{
    // The callback may delete this service's owner; the observers are told only while this is still there.
    const QPointer<OperationService> self(this);
    if (replies.context && replies.finished)
        replies.finished(result);
    if (self)
        Q_EMIT finished(result);
}

} // namespace dmtune
