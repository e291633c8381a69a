#pragma once
// Applies change sets in-process (as root, or on a temp tree) or through dmtune-helper under
// pkexec. Always asynchronous for the caller: finished() arrives from the event loop, never
// from inside apply(), and nothing waits in a nested event loop. In-process transactions run as jobs
// (jobs/jobtracker.h); destroying the Applier joins the one running (its writes and rollback finish), and a
// helper still running is left to finish its transaction on its own: nothing here ever blocks on it.
#include "ops/operation.h"
#include "ops/operationregistry.h"
#include "params/applyresult.h"
#include "params/changeset.h"
#include "params/planner.h"
#include "sysfs/sysfsroot.h"

#include <QObject>
#include <QPointer>
#include <QProcess>

namespace dmtune {

class JobTracker;

class Applier : public QObject {
    Q_OBJECT
public:
    enum class Mode {
        Auto, // in-process when root or on a non-live tree, the helper otherwise
        InProcess,
        Helper,
    };

    explicit Applier(SysfsRoot sysfs = SysfsRoot(), QObject *parent = nullptr);
    ~Applier() override;

    void setMode(Mode mode) { m_mode = mode; }
    Mode mode() const { return m_mode; }
    // Whether apply() will run the helper (the helper only knows the live /sys).
    bool usesHelper() const;
    // Program and arguments that start the helper; default: /usr/bin/pkexec <defaultHelperPath()> (pkexec by
    // absolute path from the system's directories, never from $PATH).
    void setHelperCommand(const QString &program, const QStringList &arguments);
    QString helperProgram() const { return m_helperProgram; }
    static QString defaultHelperPath();
    static QString defaultHelperProgram();

    bool isBusy() const { return m_busy; }
    // Starts one transaction. Returns false, and emits nothing, while another one runs.
    // `consent`: the user confirmed the change set's data risks (planner.h); without it risky writes are refused.
    bool apply(
        const dmtune::ChangeSet &changes, bool dryRun = false, dmtune::RiskConsent consent = dmtune::RiskConsent::None);
    // Runs a tuning.apply plan (ops/tuningoperations.h) with the user's answers: checked against the state now
    // off the caller's thread (a stale plan or an unanswered risk is refused, nothing written), then the
    // transaction, in-process or through the helper. finished() as for apply(), then operationFinished().
    bool run(const dmtune::OperationPlan &plan, const dmtune::OperationAnswers &answers);

    const SysfsRoot &sysfs() const { return m_sysfs; }
    // How this applier's tuning transactions are written, for any operation that writes one (preset.apply in
    // the preset manager too): empty in-process, else pkexec dmtune-helper (helpertransaction.h). The rule of
    // usesHelper() in one place; synchronous, for a job.
    TransactionHook transactionHook() const;
    // The sysfs root and transactionHook(): what an operation of this window that writes attributes needs.
    OperationEnvironment environment() const;

Q_SIGNALS:
    void finished(const dmtune::ApplyResult &result);
    // After finished(), for transactions started by run(): the operation's result (a stale plan says so).
    void operationFinished(const dmtune::OperationResult &result);

private:
    void runInProcess(const ChangeSet &changes, bool dryRun, RiskConsent consent);
    void startHelper(const ChangeSet &changes, bool dryRun, RiskConsent consent);
    void onHelperFinished(int exitCode, QProcess::ExitStatus status);
    void onHelperError(QProcess::ProcessError error);
    void finish(const ApplyResult &result);
    void finishOperation(const OperationResult &result);

    SysfsRoot m_sysfs;
    Mode m_mode = Mode::Auto;
    QString m_helperProgram;
    QStringList m_helperArguments;
    QPointer<QProcess> m_process;
    bool m_busy = false;
    bool m_dryRun = false;
    JobTracker *m_jobs = nullptr; // child, serial: deleted (joined) first in the destructor
};

} // namespace dmtune
