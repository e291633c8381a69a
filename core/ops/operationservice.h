#pragma once
// Who plans and runs core operations for a window (docs/operations.md): this process on a job (OperationRunner)
// or a remote host's agent (RemoteOperationRunner, remote/remoteoperationrunner.h). The widgets take this and
// only render plans, ask and render results; every rule is in the operation, on whichever side runs it.
// Each call carries its continuation, bound to a context object: the answer comes after the call has returned,
// on the service's thread, to that call's callback alone, and is dropped when the context is gone by then (a
// closed panel is never called back). finished() tells observers (a rescan) of every run's result too.
// A long-running operation (ops/operationactivity.h: experiment.sweep) is started instead: start() gives a handle
// (OperationRun) that cancels it, its progress events come to the call's onProgress in order, its result once.
#include "core/ops/operation.h"

#include <QObject>
#include <QPointer>

#include <functional>

namespace dmtune {

class OperationService;

// A long-running operation under way (OperationService::start). Owned by its service, which deletes it once the
// result was delivered: hold it in a QPointer.
class OperationRun : public QObject {
    Q_OBJECT
public:
    explicit OperationRun(QString kind, QObject *parent = nullptr);
    const QString &kind() const { return m_kind; }
    // Asks the operation to stop; its result still comes to the start's onFinished (a sweep puts its original values
    // back first). Before the operation began (its checks still running), it never begins.
    void cancel();
    bool isCancelRequested() const { return m_cancelRequested; }
    bool isFinished() const { return m_finished; } // its result was delivered

protected:
    // The implementation's part of cancel(); called once.
    virtual void requestCancel() { }

private:
    friend class OperationService;
    QString m_kind;
    bool m_cancelRequested = false;
    bool m_finished = false;
};

class OperationService : public QObject {
    Q_OBJECT
public:
    using Planned = std::function<void(const OperationPlan &plan)>;
    using PlanFailed = std::function<void(const QString &error)>;
    using Finished = std::function<void(const OperationResult &result)>;
    using Progress = std::function<void(const QJsonObject &event)>;

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
    // A long-running kind (isLongOperation()): run()'s checks on the state now (answers, a fresh plan, its basis;
    // a refusal comes to onFinished), then the operation acts off the caller's thread: each progress event
    // ({"event": NAME, ...}, the kind's) to onProgress in order, then the result to onFinished once, also when
    // cancelled. The context gone cancels it. A kind that is not long-running is refused (run() it).
    OperationRun *start(const OperationPlan &plan, const OperationAnswers &answers, QObject *context,
        Progress onProgress, Finished onFinished);
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
        Progress progress;
    };
    // runUnlessAsked: a plan that needs no answer is run at once (the implementation's run keeps the replies).
    virtual void startPlan(const QString &kind, const QJsonObject &request, const Replies &replies, bool runUnlessAsked)
        = 0;
    virtual void startRun(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) = 0;
    // The handle of a start(), made by the implementation (parented to it); the result through deliverRunFinished().
    virtual OperationRun *startLong(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies)
        = 0;

    // For the implementations, on the service's thread: the callback unless its context is gone.
    static void deliverPlanned(const Replies &replies, const OperationPlan &plan);
    static void deliverPlanFailed(const Replies &replies, const QString &error);
    // Then finished() for the observers.
    void deliverFinished(const Replies &replies, const OperationResult &result);
    static void deliverProgress(const Replies &replies, const QJsonObject &event);
    // A start()'s result: the handle is finished, the result delivered as deliverFinished(), the handle deleted later.
    void deliverRunFinished(OperationRun *run, const Replies &replies, const OperationResult &result);
};

} // namespace dmtune
