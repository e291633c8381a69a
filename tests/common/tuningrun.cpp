#include "tuningrun.h"

#include "core/ops/operationregistry.h"
#include "core/ops/tuningoperations.h"
#include "core/params/applier.h"
#include "core/params/changehistory.h"

namespace dmtune::test {

namespace {

Result<OperationAnswers> planned(const Applier &applier, const ChangeSet &changes, bool dryRun, OperationPlan &plan)
{
    const Result<OperationPlan> made
        = planOperation(applier.environment(), QString::fromLatin1(TuningApplyKind), tuningRequest(changes));
    if (!made) {
        qWarning("tuning.apply cannot be planned: %s", qPrintable(made.errorMessage()));
        return Result<OperationAnswers>::failure(made.errorMessage());
    }
    plan = made.value();
    OperationAnswers answers = acceptAll(plan);
    answers.dryRun = dryRun;
    return answers;
}

} // namespace

bool runTuning(Applier &applier, const ChangeSet &changes, bool dryRun)
{
    OperationPlan plan;
    const Result<OperationAnswers> answers = planned(applier, changes, dryRun, plan);
    if (!answers)
        return false;
    if (!applier.run(plan, answers.value())) {
        qWarning("tuning.apply not started: the applier is busy");
        return false;
    }
    return true;
}

bool runUndo(Applier &applier, ChangeHistory &history)
{
    OperationPlan plan;
    const Result<OperationAnswers> answers = planned(applier, history.undoChanges(), false, plan);
    if (!answers)
        return false;
    if (!history.runUndo(plan, answers.value())) {
        qWarning("undo not started: nothing to undo, or the applier is busy");
        return false;
    }
    return true;
}

} // namespace dmtune::test
