#pragma once
// One fio process, run asynchronously: fio found by absolute path and its version checked first (through
// QProcess signals, never waiting), its JSON status stream turned into progress as it arrives, stop() as
// SIGINT and SIGKILL after a grace period. fio runs in its own process group, so that a Ctrl-C meant for the
// caller does not reach fio behind its back (fio passes SIGINT on to its job processes; SIGKILL goes to them
// directly, as fio puts each in a session of its own); and it
// dies with its parent (PR_SET_PDEATHSIG): a killed dmtune leaves no fio writing to a device it let go.
// It runs in a private working directory made for the run, its state files kept there (--aux-path): nothing
// fio writes by a relative name lands on a link in the caller's directory.
#include "core/workloads/fiostream.h"

#include <QObject>
#include <QProcess>
#include <QTimer>
#include <QVersionNumber>

#include <memory>
#include <optional>

class QTemporaryDir;

namespace dmtune {

struct FioProgress {
    double epochSeconds = 0; // fio's timestamp of the object
    QJsonObject status; // the object as fio printed it (cumulative)
    FioStatus parsed;
    QList<FioRates> rates; // per group, since the previous object (or the start)
};

struct FioOutcome {
    QStringList argv; // program first
    QJsonObject final; // the last object fio printed (its final report, unless it was killed)
    QList<FioRates> overall; // per group, over the whole run
    int exitCode = 0;
    bool stopped = false; // stop() was called
    bool killed = false; // it took SIGKILL
    double startedAt = 0, endedAt = 0; // epoch seconds
    QStringList otherLines; // what fio printed besides JSON ("note: ...", "fio: terminating on signal 2")
};

class FioRun : public QObject {
    Q_OBJECT
public:
    static constexpr int MinimumMajorVersion = 3;
    static constexpr int DefaultGraceMs = 5000;

    // fio's absolute path, or why there is none: as root from the system directories only, never $PATH
    // (see findProgram()).
    static Result<QString> findFio();
    // "fio-3.33\n" -> "3.33" (QVersionNumber::fromString() of it); the error says what was printed instead. The
    // text, not a QVersionNumber: clang's analyzer misreads that one's storage inside the result's optional.
    static Result<QString> parseFioVersion(const QString &text);

    explicit FioRun(QObject *parent = nullptr);
    ~FioRun() override; // a run still going is killed (process group, SIGKILL)

    // An absolute fio path to use instead of findFio()'s (tests, a custom build).
    void setProgram(const QString &absolutePath) { m_program = absolutePath; }
    void setGraceMs(int ms) { m_graceMs = ms; }

    // Checks fio's version, then runs it with `args` (and `environment` entries "NAME=value" added to the
    // inherited ones). Returns at once; the outcome comes as finished() or failed(). False if already running.
    bool start(const QStringList &args, const QStringList &environment = {});
    // SIGINT (fio writes its final report and exits), then SIGKILL after the grace period.
    void stop();
    bool isRunning() const { return m_phase != Phase::Idle; }
    QStringList argv() const { return m_argv; }
    QVersionNumber fioVersion() const { return m_version; }

Q_SIGNALS:
    void started(double epochSeconds, const QStringList &argv);
    void progress(const dmtune::FioProgress &progress);
    void outputLine(const QString &line);
    void finished(const dmtune::FioOutcome &outcome);
    void failed(const QString &message);

private:
    enum class Phase { Idle, CheckingVersion, Running };
    void onVersionFinished();
    void launch();
    void onReadyRead();
    void takeChunk(const FioStreamChunk &chunk);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void signalGroup(int signal);
    void fail(const QString &message);

    QString m_program;
    int m_graceMs = DefaultGraceMs;
    Phase m_phase = Phase::Idle;
    QProcess *m_process = nullptr; // the version check, then fio itself
    std::unique_ptr<QTemporaryDir> m_workDir; // fio's working directory during a run (see launch())
    QTimer m_killTimer;
    QStringList m_args, m_environment, m_argv;
    QVersionNumber m_version;
    FioStreamBuffer m_stream;
    std::optional<FioStatus> m_previous;
    QJsonObject m_last;
    QByteArray m_stderr;
    FioOutcome m_outcome;
    bool m_stopRequested = false;
    bool m_killed = false;
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::FioProgress)
Q_DECLARE_METATYPE(dmtune::FioOutcome)
