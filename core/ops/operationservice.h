#pragma once
// Who plans and runs core operations for a window (docs/operations.md): this process on a job (OperationRunner)
// or a remote host's agent (RemoteOperationRunner, remote/remoteoperationrunner.h). The widgets take this and
// only render plans, ask and render results; every rule is in the operation, on whichever side runs it.
// Every answer is a signal that comes after the call has returned, with the caller's `tag`.
#include "ops/operation.h"

#include <QObject>

namespace dmtune {

class OperationService : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // planned() or planFailed().
    virtual void plan(const QString &kind, const QJsonObject &request, const QString &tag = {}) = 0;
    // finished(): the run checks the answers and plans again on the state then (a stale plan is refused).
    virtual void run(const OperationPlan &plan, const OperationAnswers &answers, const QString &tag = {}) = 0;
    // Plan, then run at once when the plan needs no answer (no risk, no refusal): finished(); a plan with risks
    // or refusals comes back as planned() (nothing runs) for the caller to show.
    virtual void runUnlessAsked(const QString &kind, const QJsonObject &request, const QString &tag = {}) = 0;
    virtual bool isBusy() const = 0;

Q_SIGNALS:
    void planned(const dmtune::OperationPlan &plan, const QString &tag);
    void planFailed(const QString &kind, const QString &error, const QString &tag);
    void finished(const dmtune::OperationResult &result, const QString &tag);
};

} // namespace dmtune
