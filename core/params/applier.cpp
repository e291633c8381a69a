#include "params/applier.h"

#include "jobs/jobtracker.h"
#include "ops/operationregistry.h"
#include "ops/tuningoperations.h"
#include "params/helperprotocol.h"
#include "params/transaction.h"
#include "util/systemprogram.h"

#include <QJsonDocument>
#include <QMetaObject>

#include <unistd.h>

#ifndef DMTUNE_HELPER_PATH
#define DMTUNE_HELPER_PATH "/usr/libexec/dmtune/dmtune-helper"
#endif

namespace dmtune {

namespace {
ApplyResult helperFailure(const QString &message, bool dryRun)
{
    ApplyResult r;
    r.executor = QStringLiteral("helper");
    r.dryRun = dryRun;
    r.errors << ApplyError { ApplyError::Stage::Helper, {}, {}, {}, message };
    return r;
}
} // namespace

Applier::Applier(SysfsRoot sysfs, QObject *parent)
    : QObject(parent)
    , m_sysfs(std::move(sysfs))
    , m_helperProgram(defaultHelperProgram())
    , m_helperArguments { defaultHelperPath() }
    , m_jobs(new JobTracker(this, JobTracker::Order::Serial))
{
    qRegisterMetaType<dmtune::ApplyResult>();
    qRegisterMetaType<dmtune::ChangeSet>();
    qRegisterMetaType<dmtune::OperationResult>();
}

Applier::~Applier()
{
    // Joins an in-process transaction that has begun: its writes, read-back and rollback finish (the result
    // is dropped); one not begun yet never starts.
    delete m_jobs;
    m_jobs = nullptr;
    if (m_process) {
        // The helper is root's transaction with its own rollback: killing it could stop it half-way, and
        // waiting for it would block this (the UI) thread. It finishes on its own; its QProcess deletes itself
        // when it has (or is reclaimed with the process when dmtune exits first).
        QProcess *process = m_process;
        process->disconnect(this);
        process->setParent(nullptr);
        connect(process, &QProcess::finished, process, &QObject::deleteLater);
    }
}

QString Applier::defaultHelperProgram()
{
    // Absolute, from the system's directories: a "pkexec" on a user's $PATH is never run. When there is none,
    // the path it would have, so that the error names it.
    // pkexec is root's own (setuid) program: looked up as root would, whoever runs dmtune.
    const Result<QString> found = findProgram(QStringLiteral("pkexec"), true);
    return found ? found.value() : QStringLiteral("/usr/bin/pkexec");
}

QString Applier::defaultHelperPath()
{
    return QStringLiteral(DMTUNE_HELPER_PATH);
}

bool Applier::usesHelper() const
{
    switch (m_mode) {
    case Mode::InProcess:
        return false;
    case Mode::Helper:
        return m_sysfs.isWritable(); // a captured tree stays in-process, where the transaction refuses it
    case Mode::Auto:
        return m_sysfs.isLive() && ::geteuid() != 0;
    }
    return false;
}

void Applier::setHelperCommand(const QString &program, const QStringList &arguments)
{
    m_helperProgram = program;
    m_helperArguments = arguments;
}

bool Applier::apply(const ChangeSet &changes, bool dryRun, RiskConsent consent)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_dryRun = dryRun;
    m_operation = false;
    if (usesHelper())
        startHelper(changes, dryRun, consent);
    else
        runInProcess(changes, dryRun, consent); // a job: finished() never arrives inside apply()
    return true;
}

bool Applier::run(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_dryRun = answers.dryRun;
    m_operation = true;
    OperationEnvironment env;
    env.sysfs = m_sysfs;
    if (!usesHelper()) {
        // Checked and run in the same job: nothing can change the attributes between the check and the writes
        // from this process, and the check reads sysfs off the caller's thread.
        m_jobs->start(
            QStringLiteral("tuning.apply"),
            [env, plan, answers](JobContext &) { return runOperation(env, plan, answers); },
            [this](const OperationResult &result) { finishOperation(result); });
        return true;
    }
    // The helper plans and writes as root; this process checks first that the plan still holds (the same check
    // runOperation() makes), then sends the checked writes with the consent the answers gave.
    struct Checked {
        OperationResult result;
        ChangeSet changes;
        bool risky = false;
    };
    m_jobs->start(
        QStringLiteral("check tuning.apply"),
        [env, plan, answers](JobContext &) {
            Checked out;
            OperationPlan fresh;
            out.result = checkOperation(env, plan, answers, &fresh);
            if (const Plan *planned = tuningPlanOf(fresh); out.result.ok && planned) {
                for (const PlannedWrite &w : planned->writes)
                    out.changes << Change { w.device, w.attribute, w.value };
                out.risky = !planned->risks.isEmpty();
            }
            return out;
        },
        [this, dryRun = answers.dryRun](const Checked &checked) {
            if (!checked.result.ok) {
                finishOperation(checked.result);
                return;
            }
            m_checked = checked.result;
            startHelper(checked.changes, dryRun, checked.risky ? RiskConsent::Given : RiskConsent::None);
        });
    return true;
}

void Applier::runInProcess(const ChangeSet &changes, bool dryRun, RiskConsent consent)
{
    // sysfs writes can stall (a scheduler switch drains the queue): never on the caller's thread.
    const SysfsRoot sysfs = m_sysfs;
    m_jobs->start(
        QStringLiteral("transaction"),
        [sysfs, changes, dryRun, consent](JobContext &) { return applyChanges(sysfs, changes, dryRun, consent); },
        [this](const ApplyResult &result) { finish(result); });
}

void Applier::startHelper(const ChangeSet &changes, bool dryRun, RiskConsent consent)
{
    // By absolute path: a "pkexec" found first in PATH could be anyone's (as root: system directories only).
    QString program = m_helperProgram;
    if (!program.startsWith(u'/')) {
        const Result<QString> found = findProgram(program);
        if (!found) {
            QMetaObject::invokeMethod(
                this, [this, message = found.errorMessage(), dryRun] { finish(helperFailure(message, dryRun)); },
                Qt::QueuedConnection);
            return;
        }
        program = found.value();
    }
    auto *process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, &Applier::onHelperFinished);
    connect(process, &QProcess::errorOccurred, this, &Applier::onHelperError);
    process->start(program, m_helperArguments);
    process->write(helperRequestJson(changes, dryRun, consent));
    process->closeWriteChannel();
}

void Applier::onHelperError(QProcess::ProcessError error)
{
    // Crashes and exits end in finished(); only a program that never started ends here.
    if (error != QProcess::FailedToStart || !m_process)
        return;
    const QString message = QStringLiteral("cannot start %1: %2").arg(m_helperProgram, m_process->errorString());
    m_process->deleteLater();
    finish(helperFailure(message, m_dryRun));
}

void Applier::onHelperFinished(int exitCode, QProcess::ExitStatus status)
{
    if (!m_process)
        return;
    const QByteArray out = m_process->readAllStandardOutput();
    const QString err = QString::fromLocal8Bit(m_process->readAllStandardError()).trimmed();
    m_process->deleteLater();
    const QJsonDocument doc = QJsonDocument::fromJson(out);
    if (status == QProcess::NormalExit && doc.isObject()) {
        if (auto parsed = applyResultFromJson(doc.object())) {
            finish(*parsed);
            return;
        }
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
    finish(helperFailure(message, m_dryRun));
}

void Applier::finish(const ApplyResult &result)
{
    m_busy = false;
    m_process = nullptr;
    const bool operation = std::exchange(m_operation, false);
    Q_EMIT finished(result);
    if (operation) {
        // Through the helper: the check's result completed with what the helper did.
        OperationResult done = std::exchange(m_checked, OperationResult());
        const QString planId = done.planId;
        const QString target = done.target;
        done = operationResultOf(result);
        done.kind = QString::fromLatin1(TuningApplyKind);
        done.planId = planId;
        done.target = target;
        Q_EMIT operationFinished(done);
    }
}

void Applier::finishOperation(const OperationResult &result)
{
    m_busy = false;
    m_operation = false;
    m_checked = OperationResult();
    Q_EMIT finished(applyResultOf(result));
    Q_EMIT operationFinished(result);
}

} // namespace dmtune
