#pragma once
// `dmtunectl agent`: serves one client on stdin/stdout (agentprotocol.h) inside the user's ssh session; it never
// listens on a socket. Protocol 1.0 serves:
//   cli      runs one dmtunectl command line here, as `dmtunectl COMMAND ...` would run it (same code, same
//            output, same exit status), with the near side's files (nearsidefiles.h) sent in and fetched back.
//            `run` goes to a detached job (its own session, output in a job directory): a dropped connection
//            neither stops the workload nor loses its recording.
//   signal   passes SIGINT/SIGTERM to a running command or job (the client's Ctrl-C; an explicit stop).
//   jobs     the detached jobs on this host, running or ended.
//   attach   streams a job's output from the start and its exit status and files once it ended.
//   stream, stream-update, watch, cancel   (1.1) the host's counters and device events (agentstreams.h).
//   kinds, plan, run   (1.1) the core operations on this host, planned and run here (agentoperations.h).
//   start with "detach": true   (1.2) workload.start as a detached job (remote/operationjob.h): the job's output is
//            its progress events and result as JSON lines; jobs, attach, signal and forget work on it as on `run`.
// An end of stdin (the connection gone) stops the commands that are not jobs, as a closed terminal would.
#include "core/sysfs/sysfsroot.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QString>

class QProcess;
class QSocketNotifier;
class QTimer;

namespace dmtune {

class AgentOperations;
class AgentStreams;

class AgentServer : public QObject {
    Q_OBJECT
public:
    // `program`: the dmtunectl binary that runs each command (this process's own); `jobsDir`: where detached jobs
    // keep their files (created 0700).
    AgentServer(QString program, QString jobsDir, QObject *parent = nullptr);
    ~AgentServer() override;

    // Where the counter streams and events read (default the live /sys and /proc; a captured or generated tree for
    // tests and benchmarks). The `cli` commands are not affected.
    void setSysfsRoot(const SysfsRoot &root);

    // Says hello and serves until stdin ends; finished() then.
    void start(int inFd = 0, int outFd = 1);

    // The default jobs directory: $DMTUNE_AGENT_JOBS, else /run/dmtune/jobs as root, else
    // $XDG_RUNTIME_DIR/dmtune/jobs, else /tmp/dmtune-UID/jobs.
    static QString defaultJobsDir();

Q_SIGNALS:
    void finished();

private:
    struct Command;
    void readInput();
    void handle(const QJsonObject &message);
    void send(const QJsonObject &message);
    void sendError(qint64 id, const QString &error);
    void startCli(qint64 id, const QJsonObject &request);
    // command: how the job list shows it (an operation's job); empty: the argv, its files' near names put back.
    bool startJob(qint64 id, const QString &workDir, const QStringList &argv, const QJsonArray &files,
        const QHash<QString, QString> &replacements, const QString &command = {});
    // {"op": "start", "detach": true, "plan", "answers"[, "record": the near side's file][, "job_file":
    // {"job_file_data", "job_file_name"}: the job file the plan was made with, sent again]}: a detachable operation
    // (remote/operationjob.h) as a job of its own, as `run` is.
    void startOperationJob(qint64 id, const QJsonObject &request);
    void attach(qint64 id, const QString &job);
    void pollJobs();
    void listJobs(qint64 id);
    void signalTarget(qint64 id, const QJsonObject &request);
    void forward(qint64 id, const QString &stream, QByteArray *pending, const QByteArray &data, bool flush);
    void finishCommand(qint64 id, int status);
    void endOfInput();

    QString m_program;
    QString m_jobsDir;
    int m_outFd = 1;
    int m_inFd = 0;
    bool m_helloReceived = false;
    QByteArray m_input;
    QSocketNotifier *m_notifier = nullptr;
    QHash<qint64, Command *> m_commands; // by request id: the running commands and attached jobs
    QTimer *m_jobPoll = nullptr;
    AgentStreams *m_streams = nullptr;
    SysfsRoot m_root;
    AgentOperations *m_operations = nullptr; // made at the first operation: device-mapper is opened then
};

} // namespace dmtune
