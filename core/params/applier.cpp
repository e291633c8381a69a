#include "core/params/applier.h"

#include "core/jobs/jobtracker.h"
#include "core/ops/operationregistry.h"
#include "core/ops/tuningoperations.h"
#include "core/params/helpertransaction.h"
#include "core/util/systemprogram.h"

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

void Applier::finishOperation(const OperationResult &result)
{
    m_busy = false;
    Q_EMIT finished(applyResultOf(result));
    Q_EMIT operationFinished(result);
}

} // namespace dmtune
