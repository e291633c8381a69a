#include "core/params/tuningsession.h"

#include "core/ops/hostcontext.h"
#include "core/ops/operationregistry.h"
#include "core/ops/operationrunner.h"
#include "core/ops/operationservice.h"
#include "core/ops/tuningoperations.h"

#include <QDateTime>
#include <QFileInfo>

#include <unistd.h>

namespace dmtune {

TuningSession::TuningSession(SysfsRoot sysfs, Applier::Mode mode, QObject *parent)
    : TuningSession(std::make_shared<const HostContext>(sysfs), mode, parent)
{
}

TuningSession::~TuningSession() = default;

OperationEnvironment TuningSession::operationEnvironment() const
{
    OperationEnvironment env = m_host->environment();
    env.applyTransaction = m_applier->transactionHook();
    return env;
}

TuningSession::TuningSession(std::shared_ptr<const HostContext> host, Applier::Mode mode, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_applier(new Applier(m_host->sysfs(), this))
{
    m_applier->setMode(mode);
    // The history first: when our slot runs, the entry for the result is already there.
    m_history = new ChangeHistory(m_applier, this);
    connect(m_applier, &Applier::finished, this, &TuningSession::onFinished);
    connect(m_applier, &Applier::operationFinished, this, &TuningSession::operationFinished);
    connect(m_history, &ChangeHistory::applied, this, [this](const ApplyResult &result) {
        const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
        for (const QString &label : changeLabels(result))
            Q_EMIT parameterChanged(now, label);
    });
}

void TuningSession::setReadOnly(bool readOnly)
{
    if (std::exchange(m_readOnly, readOnly) != readOnly)
        Q_EMIT readOnlyChanged(readOnly);
}

void TuningSession::setRemote(OperationService *service, const QString &hostName)
{
    m_remote = service;
    m_remoteHost = hostName;
    m_readOnly = false;
}

void TuningSession::onRemoteFinished(const OperationResult &result)
{
    if (!m_remoteBusy)
        return;
    m_remoteBusy = false;
    const bool wasUndo = std::exchange(m_undoRunning, false);
    ApplyResult applied = applyResultOf(result);
    // The history names where it was written: "agent on root@db1 (in-process)".
    applied.executor = QStringLiteral("agent on %1 (%2)").arg(m_remoteHost, applied.executor);
    // The history entry (or, for an undo, the entry gone) and the chart markers, as a local transaction's.
    if (wasUndo)
        m_history->recordUndo(applied);
    else if (applied.ok() && !applied.dryRun)
        m_history->record(applied);
    Q_EMIT finished(applied, wasUndo);
    Q_EMIT operationFinished(result);
    Q_EMIT busyChanged(false);
}

Result<OperationPlan> TuningSession::plan(const ChangeSet &changes) const
{
    OperationEnvironment env;
    env.sysfs = sysfs();
    return planOperation(env, QString::fromLatin1(TuningApplyKind), tuningRequest(changes));
}

bool TuningSession::run(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (!canApply())
        return false;
    if (m_remote) {
        m_remoteBusy = true;
        m_remote->run(plan, answers, this, [this](const OperationResult &result) { onRemoteFinished(result); });
        Q_EMIT busyChanged(true);
        return true;
    }
    if (!m_applier->run(plan, answers))
        return false;
    Q_EMIT busyChanged(true);
    return true;
}

bool TuningSession::dropEmptyUndo()
{
    if (!canUndo() || !m_history->dropEmptyEntry())
        return false;
    Q_EMIT busyChanged(false);
    return true;
}

QString TuningSession::undoUnavailableReason() const
{
    if (m_readOnly)
        return QStringLiteral("Read-only: nothing is applied on a captured tree, so there is nothing to undo.");
    if (m_history->entries().isEmpty())
        return QStringLiteral("Nothing to undo: no change was applied in this session.");
    if (isBusy())
        return QStringLiteral("A transaction is running: Undo waits until it ends.");
    return {};
}

OperationService *TuningSession::planner()
{
    if (m_remote)
        return m_remote;
    if (!m_localPlanner) {
        auto *runner = new OperationRunner(this);
        OperationEnvironment env;
        env.sysfs = sysfs(); // plans read the tree; runs go through the applier (run(), runUndo())
        runner->setEnvironment(env);
        m_localPlanner = runner;
    }
    return m_localPlanner;
}

bool TuningSession::runUndo(const OperationPlan &plan, const OperationAnswers &answers)
{
    if (!undoUnavailableReason().isEmpty() || !canUndo())
        return false;
    // The plan must still be the newest entry's undo: an Apply that finished while the user read the plan made a
    // newer entry, and this plan would put back the older one's values while the newer entry left the history.
    const ChangeSet changes = m_history->undoChanges();
    if (changes.isEmpty() || plan.kind != QLatin1String(TuningApplyKind) || plan.request != tuningRequest(changes))
        return false;
    if (m_remote) { // its agent plans again on the state there and writes
        m_remoteBusy = true;
        m_undoRunning = true;
        m_remote->run(plan, answers, this, [this](const OperationResult &result) { onRemoteFinished(result); });
        Q_EMIT busyChanged(true);
        return true;
    }
    if (!m_history->runUndo(plan, answers))
        return false;
    m_undoRunning = true;
    Q_EMIT busyChanged(true);
    return true;
}

void TuningSession::record(const ApplyResult &result)
{
    m_history->record(result);
    Q_EMIT finished(result, false);
}

void TuningSession::onFinished(const ApplyResult &result)
{
    const bool wasUndo = std::exchange(m_undoRunning, false);
    Q_EMIT finished(result, wasUndo);
    Q_EMIT busyChanged(false);
}

QStringList TuningSession::changeLabels(const ApplyResult &result)
{
    QStringList out;
    if (!result.ok() || result.dryRun)
        return out;
    for (const auto &c : result.changes) {
        if ((c.written || c.sideEffect) && c.oldValue != c.newValue)
            out << c.summary();
    }
    return out;
}

QString TuningSession::executorText() const
{
    if (m_readOnly)
        return QStringLiteral("tuning: read-only (captured tree)");
    if (m_remote)
        return QStringLiteral("tuning: on %1 (its agent)").arg(m_remoteHost);
    if (m_applier->usesHelper())
        return QStringLiteral("tuning: via pkexec dmtune-helper");
    if (!m_applier->sysfs().isLive())
        return QStringLiteral("tuning: in-process (temporary tree)");
    return ::geteuid() == 0 ? QStringLiteral("tuning: in-process (root)") : QStringLiteral("tuning: in-process");
}

QString TuningSession::executorToolTip() const
{
    if (m_readOnly)
        return QStringLiteral("A captured tree is inspected, never written: edits can be previewed, not applied.");
    if (m_remote)
        return QStringLiteral("Planned on %1's capture, then planned again, checked, written and read back there by "
                              "its agent (a value that changed there since the plan is refused as stale). Undo puts "
                              "the old values back the same way.")
            .arg(m_remoteHost);
    if (m_applier->usesHelper()) {
        const QString helper = Applier::defaultHelperPath();
        QString tip = QStringLiteral("Not root: each Apply runs %1 through pkexec, which asks polkit "
                                     "(action org.dmtune.helper) for authorization.")
                          .arg(helper);
        if (!QFileInfo(helper).isExecutable())
            tip += QStringLiteral(" The helper is not installed at that path: applying will fail.");
        return tip;
    }
    return QStringLiteral("Changes are written by this process (%1), read back, and rolled back on any error.")
        .arg(m_applier->sysfs().root());
}

} // namespace dmtune
