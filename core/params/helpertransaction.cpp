#include "core/params/helpertransaction.h"

#include "core/params/helperprotocol.h"
#include "core/params/transaction.h"
#include "core/util/systemprogram.h"

#include <QJsonDocument>

#include <memory>

namespace dmtune {

ChangeSet helperChanges(const Plan &plan)
{
    ChangeSet changes;
    for (const PlannedWrite &w : plan.writes)
        changes << Change { w.device, w.attribute, w.value };
    return changes;
}

RiskConsent helperConsent(const Plan &plan)
{
    return plan.risks.isEmpty() ? RiskConsent::None : RiskConsent::Given;
}

Result<QString> helperProgramPath(const QString &program)
{
    // By absolute path: a "pkexec" found first in PATH could be anyone's (as root: system directories only).
    if (program.startsWith(u'/'))
        return program;
    return findProgram(program);
}

ApplyResult helperFailure(const QString &message, bool dryRun)
{
    ApplyResult r;
    r.executor = QStringLiteral("helper");
    r.dryRun = dryRun;
    r.errors << ApplyError { ApplyError::Stage::Helper, {}, {}, {}, message };
    return r;
}

ApplyResult helperOutcome(
    int exitCode, QProcess::ExitStatus status, const QByteArray &out, const QString &err, bool dryRun)
{
    const QJsonDocument doc = QJsonDocument::fromJson(out);
    if (status == QProcess::NormalExit && doc.isObject()) {
        if (auto parsed = applyResultFromJson(doc.object()))
            return *parsed;
    }
    // pkexec: 126 the user dismissed the dialog, 127 not authorized (or the helper is missing).
    QString message;
    if (status != QProcess::NormalExit)
        message = QStringLiteral("the helper crashed");
    else if (exitCode == 126)
        message = QStringLiteral("authentication dismissed; nothing was changed");
    else if (exitCode == 127)
        message = QStringLiteral("not authorized to change queue parameters; nothing was changed");
    else
        message = QStringLiteral("the helper exited with %1 without a result").arg(exitCode);
    if (!err.isEmpty())
        message += QStringLiteral(" (%1)").arg(err);
    return helperFailure(message, dryRun);
}

ApplyResult runHelperTransaction(
    const HelperCommand &command, const Plan &plan, bool dryRun, const std::function<bool()> &cancelled)
{
    if (!plan.ok())
        return executePlan(SysfsRoot(), plan, dryRun); // rejected whole: nothing is read or written
    const Result<QString> program = helperProgramPath(command.program);
    if (!program)
        return helperFailure(program.errorMessage(), dryRun);
    auto process = std::make_unique<QProcess>();
    process->start(program.value(), command.arguments);
    if (!process->waitForStarted(10000))
        return helperFailure(
            QStringLiteral("cannot start %1: %2").arg(command.program, process->errorString()), dryRun);
    process->write(helperRequestJson(helperChanges(plan), dryRun, helperConsent(plan)));
    process->closeWriteChannel();
    // pkexec may wait for the user's password for minutes: a cancel (the window closing) must not wait for it.
    while (!process->waitForFinished(100)) {
        if (process->state() == QProcess::NotRunning)
            break;
        if (cancelled && cancelled()) {
            // Never killed: root's transaction finishes (or rolls back) on its own. Its QProcess is let go, so
            // that its destructor does not kill it either; the child is reaped when dmtune exits.
            (void)process.release();
            return helperFailure(QStringLiteral("cancelled while dmtune-helper ran: it finishes on its own; "
                                                "re-read the values to see what it did"),
                dryRun);
        }
    }
    const QByteArray out = process->readAllStandardOutput();
    const QString err = QString::fromLocal8Bit(process->readAllStandardError()).trimmed();
    return helperOutcome(process->exitCode(), process->exitStatus(), out, err, dryRun);
}

} // namespace dmtune
