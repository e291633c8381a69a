#pragma once
// Long-running operations (docs/operations.md, "Long-running operations"): a kind whose run acts for minutes and
// reports as it goes (experiment.sweep) is started, not run. Its start function makes runOperation()'s checks (the
// answers, the plan made again on the state now, the basis compared) and hands back how to make its activity: an
// event-driven object that an OperationService runs on a thread it owns (OperationRunner: jobs/eventloopthread.h)
// and drives only by start() and cancel(). The activity says how far it got in progress events and ends with one
// finished() result, also when cancelled (a sweep puts its original values back first).
#include "core/ops/operationregistry.h"

#include <QJsonObject>
#include <QObject>

#include <functional>
#include <memory>

namespace dmtune {

class OperationActivity : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Begins; called once, on the activity's thread, inside its event loop.
    virtual void start() = 0;
    // Asks it to stop; finished() still follows (after what a stop must put back).
    virtual void cancel() = 0;

Q_SIGNALS:
    // {"event": NAME, ...}: each kind documents its events (docs/operations.md).
    void progress(const QJsonObject &event);
    // The one result, once.
    void finished(const dmtune::OperationResult &result);
};

struct OperationStart {
    OperationResult result; // ok: `make` makes the activity; else the refusal (stale, an unanswered risk, ...)
    // Called once on the thread the activity will live on.
    std::function<std::unique_ptr<OperationActivity>()> make;
};

using StartOperation
    = std::function<OperationStart(const OperationEnvironment &, const OperationPlan &, const OperationAnswers &)>;

// A long-running kind (registered with registerOperation() too: its plan, and its run, which answers a dry run).
void registerLongOperation(const QString &kind, const StartOperation &start);
bool isLongOperation(const QString &kind);
// The checks of `plan` with `answers` on the state now, on the caller's thread (a job): a refusal, or the maker
// of the activity. A kind that is not long-running is refused with the line that says to run it.
OperationStart startOperation(
    const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers);

} // namespace dmtune
