#include "params/applier.h"

#include "jobs/jobtracker.h"
#include "ops/operationregistry.h"
#include "ops/tuningoperations.h"
#include "params/helperprotocol.h"
#include "params/helpertransaction.h"
#include "params/transaction.h"
#include "util/systemprogram.h"

#include <QMetaObject>

#include <unistd.h>

#ifndef DMTUNE_HELPER_PATH
#define DMTUNE_HELPER_PATH "/usr/libexec/dmtune/dmtune-helper"
#endif

namespace dmtune {

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
    if (usesHelper())
        startHelper(changes, dryRun, consent);
    else
        runInProcess(changes, dryRun, consent); // a job: finished() never arrives inside apply()
    return true;
}

TransactionHook Applier::transactionHook() const
{
    if (!usesHelper())
        return {};
    // The helper plans again as root: it gets the checked writes and the consent the answers gave.
    const HelperCommand command { m_helperProgram, m_helperArguments };
    return [command](const OperationEnvironment &env, const Plan &plan, bool dryRun) {
        return runHelperTransaction(command, plan, dryRun, [&env] { return env.isCancelled(); });
    };
}

bool Applier::run(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (m_busy)
        return false;
    m_busy = true;
    m_dryRun = answers.dryRun;
    // Checked and run in one job, the check reading sysfs off the caller's thread; the writes in this process
    // (root: nothing else of dmtune writes between the check and them) or through the helper (transactionHook).
    m_jobs->start(
        QStringLiteral("tuning.apply"),
        [env = environment(), plan, answers](JobContext &job) {
            OperationEnvironment e = env;
            e.cancelled = [&job] { return job.isCancelled(); };
            return runOperation(e, plan, answers);
        },
        [this](const OperationResult &result) { finishOperation(result); });
    return true;
}

OperationEnvironment Applier::environment() const
{
    OperationEnvironment env;
    env.sysfs = m_sysfs;
    env.applyTransaction = transactionHook();
    return env;
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
    const Result<QString> program = helperProgramPath(m_helperProgram);
    if (!program) {
        QMetaObject::invokeMethod(
            this, [this, message = program.errorMessage(), dryRun] { finish(helperFailure(message, dryRun)); },
            Qt::QueuedConnection);
        return;
    }
    auto *process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, &Applier::onHelperFinished);
    connect(process, &QProcess::errorOccurred, this, &Applier::onHelperError);
    process->start(program.value(), m_helperArguments);
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
    finish(helperOutcome(exitCode, status, out, err, m_dryRun));
}

void Applier::finish(const ApplyResult &result)
{
    m_busy = false;
    m_process = nullptr;
    Q_EMIT finished(result);
}

void Applier::finishOperation(const OperationResult &result)
{
    m_busy = false;
    Q_EMIT finished(applyResultOf(result));
    Q_EMIT operationFinished(result);
}

} // namespace dmtune
