#pragma once
// The one Applier and ChangeHistory of a window, shared by the parameter editor, the history panel and the
// presets: whoever starts a transaction, all see the applier busy and all see the result. Pure logic (QtCore):
// the Tune tab plans a tuning.apply operation (ops/tuningoperations.h), asks, and runs it through here.
#include "core/params/applier.h"
#include "core/params/changehistory.h"

#include <QObject>

#include <memory>

namespace dmtune {

class HostContext;
class OperationService;

class TuningSession : public QObject {
    Q_OBJECT
public:
    // mode: Auto applies in-process as root (or on a temp tree), through pkexec dmtune-helper otherwise.
    // The host (ops/hostcontext.h) is the window's, shared with its other widgets; `sysfs` alone makes one.
    explicit TuningSession(
        std::shared_ptr<const HostContext> host, Applier::Mode mode = Applier::Mode::Auto, QObject *parent = nullptr);
    explicit TuningSession(SysfsRoot sysfs, Applier::Mode mode = Applier::Mode::Auto, QObject *parent = nullptr);
    ~TuningSession() override;

    Applier *applier() const { return m_applier; }
    ChangeHistory *history() const { return m_history; }
    const SysfsRoot &sysfs() const { return m_applier->sysfs(); }
    const std::shared_ptr<const HostContext> &host() const { return m_host; }
    // What an operation that writes attributes gets here: the host's environment with the applier's way of
    // writing a transaction (in this process, or pkexec dmtune-helper).
    OperationEnvironment operationEnvironment() const;

    // Captured trees are inspected, not written: the editor previews but does not apply.
    void setReadOnly(bool readOnly);
    // A remote host's window: the tree is the host's capture (plans are made on it), runs go to `service` (its
    // agent plans again on the live state there, refuses a stale plan, writes and reads back). The results go into
    // the history and the markers as local ones do. Undo too: the newest entry's old values planned on the capture
    // and run by the agent (stale there: refused, nothing written), the entry gone when it wrote. Not owned.
    void setRemote(OperationService *service, const QString &hostName);
    bool isRemote() const { return m_remote != nullptr; }
    // The service a remote host's transactions run through (null: this process's applier), and that host.
    OperationService *remoteService() const { return m_remote; }
    const QString &remoteHostName() const { return m_remoteHost; }
    bool isReadOnly() const { return m_readOnly; }
    bool isBusy() const { return m_applier->isBusy() || m_remoteBusy; }
    bool canApply() const { return !m_readOnly && !isBusy(); }
    bool canUndo() const { return !m_readOnly && !m_remoteBusy && m_history->canUndo(); }

    // Plans a tuning.apply operation for `changes` on this session's tree (reads sysfs; writes nothing).
    Result<OperationPlan> plan(const ChangeSet &changes) const;
    // Runs a plan with the answers given for it: re-checked against the state now (stale: refused, nothing
    // written); operationFinished() follows finished().
    bool run(const OperationPlan &plan, const OperationAnswers &answers);
    // The newest entry when it has nothing to put back (every value is as before it): dropped at once, nothing
    // written. False when Undo is unavailable or the entry has values to put back (runUndo()).
    bool dropEmptyUndo();
    // Undo as every change is made: a tuning.apply operation (plan -> answers -> run). undoUnavailableReason() says
    // why there is none now (empty when Undo can start): nothing to undo, a transaction running, read-only.
    QString undoUnavailableReason() const;
    // What Undo puts back (the newest entry's old values; empty: nothing to undo, or nothing to put back).
    ChangeSet undoChanges() const { return m_history->undoChanges(); }
    // Who plans a transaction (Undo's: undoChanges() as a tuning.apply request) on the host's state now: a remote
    // host's agent (its window's tree is a capture that may not have the newest change yet: an undo planned on it would
    // be refused as stale there), or a runner of this process over the session's tree (a job). Undo plans through it.
    OperationService *planner();
    // Runs an undo plan with the answers given for it; false (nothing started) when Undo is unavailable or the
    // plan is not the newest entry's undo any more (another change came in since it was made). finished(result,
    // true) follows; on success the entry leaves the history.
    bool runUndo(const OperationPlan &plan, const OperationAnswers &answers);
    // A transaction a core operation ran (preset.apply): into the history (Undo), markers, finished(result, false).
    void record(const ApplyResult &result);

    // "in-process (root)", "pkexec dmtune-helper", "read-only (captured tree)": for the status bar.
    QString executorText() const;
    QString executorToolTip() const;

    // "sdb nomerges 0 -> 2" for each value a transaction changed (written or reset as a side effect).
    static QStringList changeLabels(const ApplyResult &result);

Q_SIGNALS:
    void busyChanged(bool busy);
    // setReadOnly() changed it (a captured tree made writable by a test or a demo): Undo's availability follows.
    void readOnlyChanged(bool readOnly);
    // Every transaction of the applier, including undos; wasUndo tells which.
    void finished(const dmtune::ApplyResult &result, bool wasUndo);
    // One per value changed by a successful transaction (undos included), for chart markers.
    void parameterChanged(double epochSeconds, const QString &label);
    // After finished(), for run(): the operation's result ("changed since the plan was made" when stale).
    void operationFinished(const dmtune::OperationResult &result);

private:
    void onFinished(const ApplyResult &result);
    void onRemoteFinished(const OperationResult &result); // run()'s answer from the remote service

    std::shared_ptr<const HostContext> m_host;
    Applier *m_applier = nullptr;
    ChangeHistory *m_history = nullptr;
    bool m_readOnly = false;
    bool m_undoRunning = false;
    OperationService *m_remote = nullptr;
    OperationService *m_localPlanner = nullptr; // planner() on this machine: a child, made when first asked
    QString m_remoteHost;
    bool m_remoteBusy = false;
};

} // namespace dmtune
