#pragma once
// A tuning transaction written by dmtune-helper (as root, through pkexec) instead of this process: the planned
// writes go to the helper as its JSON request, the helper plans again as root, writes, reads back, rolls back,
// and answers with the ApplyResult. Synchronous: for a job's thread (the Applier's, an OperationRunner's),
// never the UI thread. How tuning.apply and preset.apply reach it: OperationEnvironment::applyTransaction.
#include "core/params/applyresult.h"
#include "core/params/changeset.h"
#include "core/params/planner.h"

#include <QProcess>
#include <QStringList>

#include <functional>

namespace dmtune {

struct HelperCommand {
    QString program; // absolute (pkexec), or a name looked up by findProgram() (never $PATH as root)
    QStringList arguments; // the helper's path first
};

// The writes of a checked plan as the helper's change set, and the consent its risks need (all were accepted).
ChangeSet helperChanges(const Plan &plan);
RiskConsent helperConsent(const Plan &plan);

// The program to start, by absolute path; the error names where it was looked for.
Result<QString> helperProgramPath(const QString &program);
// What a finished helper run means: its ApplyResult, or an error of stage Helper that says why there is none
// (pkexec 126: dismissed, 127: not authorized; a crash; no result).
ApplyResult helperOutcome(
    int exitCode, QProcess::ExitStatus status, const QByteArray &out, const QString &err, bool dryRun);
ApplyResult helperFailure(const QString &message, bool dryRun);

// Runs the helper for `plan` and waits for its answer, checking `cancelled` every 100 ms. A plan with errors
// is refused here (nothing started). Cancelled while the helper runs: the helper is left to finish its own
// transaction (killing it could stop it half-way; it has its own rollback) and the result says so.
ApplyResult runHelperTransaction(
    const HelperCommand &command, const Plan &plan, bool dryRun, const std::function<bool()> &cancelled = {});

} // namespace dmtune
