#pragma once
// Applies change sets in-process (as root, or on a temp tree) or through dmtune-helper under
// pkexec. Always asynchronous for the caller: finished() arrives from the event loop, never
// from inside apply(), and nothing waits in a nested event loop.
#include "params/applyresult.h"
#include "params/changeset.h"
#include "sysfs/sysfsroot.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QThreadPool>

namespace dmtune {

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
    // Program and arguments that start the helper; default: pkexec <defaultHelperPath()>.
    void setHelperCommand(const QString &program, const QStringList &arguments);
    static QString defaultHelperPath();

    bool isBusy() const { return m_busy; }
    // Starts one transaction. Returns false, and emits nothing, while another one runs.
    bool apply(const dmtune::ChangeSet &changes, bool dryRun = false);

    const SysfsRoot &sysfs() const { return m_sysfs; }

Q_SIGNALS:
    void finished(const dmtune::ApplyResult &result);

private:
    QThreadPool m_pool; // in-process transactions run here, off the caller's thread
    void runInProcess(const ChangeSet &changes, bool dryRun);
    void startHelper(const ChangeSet &changes, bool dryRun);
    void onHelperFinished(int exitCode, QProcess::ExitStatus status);
    void onHelperError(QProcess::ProcessError error);
    void finish(const ApplyResult &result);

    SysfsRoot m_sysfs;
    Mode m_mode = Mode::Auto;
    QString m_helperProgram;
    QStringList m_helperArguments;
    QPointer<QProcess> m_process;
    bool m_busy = false;
    bool m_dryRun = false;
};

} // namespace dmtune
