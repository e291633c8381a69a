#pragma once
// Who plans and runs core operations for a window (docs/operations.md): this process on a job (OperationRunner)
// or a remote host's agent (RemoteOperationRunner, remote/remoteoperationrunner.h). The widgets take this and
// only render plans, ask and render results; every rule is in the operation, on whichever side runs it.
// Each call carries its continuation, bound to a context object: the answer comes after the call has returned,
// on the service's thread, to that call's callback alone, and is dropped when the context is gone by then (a
// closed panel is never called back). finished() tells observers (a rescan) of every run's result too.
#include "ops/operation.h"

#include <QObject>
#include <QPointer>

#include <functional>

namespace dmtune {

class OperationService : public QObject {
    Q_OBJECT
public:
    using Planned = std::function<void(const OperationPlan &plan)>;
    using PlanFailed = std::function<void(const QString &error)>;
    using Finished = std::function<void(const OperationResult &result)>;

    using QObject::QObject;

    // onPlanned or onFailed (the plan could not be made).
    void plan(
        const QString &kind, const QJsonObject &request, QObject *context, Planned onPlanned, PlanFailed onFailed);
    // onFinished: the run checks the answers and plans again on the state then (a stale plan is refused).
    void run(const OperationPlan &plan, const OperationAnswers &answers, QObject *context, Finished onFinished);
    // Plan, then run at once when the plan needs no answer (no risk, no refusal): onFinished; a plan with risks
    // or refusals comes back to onPlanned (nothing runs) for the caller to show.
    void runUnlessAsked(const QString &kind, const QJsonObject &request, QObject *context, Planned onPlanned,
        PlanFailed onFailed, Finished onFinished);
    virtual bool isBusy() const = 0;

Q_SIGNALS:
    // Every run's result, after the caller's continuation: for observers that read the state again.
    void finished(const dmtune::OperationResult &result);

protected:
    // One call's continuation; a null callback is a call that does not expect that answer.
    struct Replies {
        QPointer<QObject> context;
        Planned planned;
        PlanFailed planFailed;
        Finished finished;
    };
    // runUnlessAsked: a plan that needs no answer is run at once (the implementation's run keeps the replies).
    virtual void startPlan(const QString &kind, const QJsonObject &request, const Replies &replies, bool runUnlessAsked)
        = 0;
    virtual void startRun(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) = 0;

    // For the implementations, on the service's thread: the callback unless its context is gone.
    static void deliverPlanned(const Replies &replies, const OperationPlan &plan);
    static void deliverPlanFailed(const Replies &replies, const QString &error);
    // Then finished() for the observers.
    void deliverFinished(const Replies &replies, const OperationResult &result);
};

} // namespace dmtune
