#pragma once
// Runs tuning.apply plans (ops/tuningoperations.h) with their answers, in-process (as root, or on a temp tree) or
// through dmtune-helper under pkexec: there is no other way to write a change set. Always asynchronous for the
// caller: finished() arrives from the event loop, never from inside run(), and nothing waits in a nested event loop.
// Each run is a job (jobs/jobtracker.h); destroying the Applier joins the one running (its writes and rollback
// finish), and a helper still running is left to finish its transaction on its own (helpertransaction.h).
#include "core/ops/operation.h"
#include "core/ops/operationregistry.h"
#include "core/params/applyresult.h"
#include "core/params/changeset.h"
#include "core/params/planner.h"
#include "core/sysfs/sysfsroot.h"

#include <QObject>

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
    // Whether run() writes through the helper (the helper only knows the live /sys).
    bool usesHelper() const;
    // Program and arguments that start the helper; default: /usr/bin/pkexec <defaultHelperPath()> (pkexec by
    // absolute path from the system's directories, never from $PATH).
    void setHelperCommand(const QString &program, const QStringList &arguments);
    QString helperProgram() const { return m_helperProgram; }
    static QString defaultHelperPath();
    static QString defaultHelperProgram();

    bool isBusy() const { return m_busy; }
    // Runs a tuning.apply plan (ops/tuningoperations.h) with the user's answers: checked against the state now
    // off the caller's thread (a stale plan or an unanswered risk is refused, nothing written), then the
    // transaction, in-process or through the helper. Returns false, and emits nothing, while another one runs.
    // finished() (the transaction's ApplyResult), then operationFinished().
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
    // After finished(): the operation's result (a stale plan says so).
    void operationFinished(const dmtune::OperationResult &result);

private:
    void finishOperation(const OperationResult &result);

    SysfsRoot m_sysfs;
    Mode m_mode = Mode::Auto;
    QString m_helperProgram;
    QStringList m_helperArguments;
    bool m_busy = false;
    JobTracker *m_jobs = nullptr; // child, serial: deleted (joined) first in the destructor
};

} // namespace dmtune
