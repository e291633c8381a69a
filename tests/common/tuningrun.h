#pragma once
// Tuning as the Tune tab does it once its questions are answered, for tests that drive an Applier and its
// ChangeHistory without a window: a tuning.apply plan made on the applier's tree, run with every risk accepted (the
// test has decided). The product has no other way to write a change set either.
#include "core/params/changeset.h"

namespace dmtune {
class Applier;
class ChangeHistory;
} // namespace dmtune

namespace dmtune::test {

// Plans `changes` and starts the run; Applier::finished() follows a start. False (why on stderr) when the plan
// cannot be made or the applier is busy; a plan the run refuses (a refusal, a stale basis) still starts and
// finishes with the refusal, as in the product.
bool runTuning(Applier &applier, const ChangeSet &changes, bool dryRun = false);
// The newest history entry's undo: ChangeHistory::undoChanges() planned the same way and run through runUndo().
bool runUndo(Applier &applier, ChangeHistory &history);

} // namespace dmtune::test
