#pragma once
// A workload on a remote host (docs/remote.md): the workload.start operation as a job of the agent there (it detaches
// it from the ssh session: a dropped connection neither stops fio nor loses the recording), its progress events as
// they come, the recording written here when it ended. After a lost connection the job goes on; once the client
// is ready again it is attached again (its output from the start: lines already seen are skipped) and its result
// and recording are fetched. A job of an earlier window (closed, or the app quit) is adopted by attach(). The
// host's jobs are listed (listJobs) whenever the client is ready and nothing runs. Stopping is explicit (stop(): SIGINT
// to the job there). The guard runs there: the job plans again and starts only on the state the user's answers were
// given for. Jobs of `dmtunectl --host H run` (a `run` command line, its --json lines) are attached and read too.
#include "ops/operation.h"
#include "remote/remotejobs.h"
#include "workloads/fiojob.h"
#include "workloads/fiostream.h"
#include "workloads/workloadsession.h" // fioRatesFromJson

#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <optional>

namespace dmtune {

class AgentClient;

class RemoteWorkload : public QObject {
    Q_OBJECT
public:
    explicit RemoteWorkload(AgentClient *client, QObject *parent = nullptr);
    ~RemoteWorkload() override;

    // workload.start as the agent's detached job (remote/operationjob.h): `plan` made there (the far side's
    // workload.start), `answers` the user's for it; the job plans again there and refuses a changed state.
    // jobFileContent: the job file's bytes the plan was made with, sent again (the plan's copy is gone there).
    // Its events come as progress() and outputLine(), its result as finished() (a refusal: failed() then
    // finished() with status 1). Re-attached after a lost connection, stopped and listed as a `run` job.
    bool startOperation(const OperationPlan &plan, const OperationAnswers &answers, const QString &recordPath,
        QString *error, const std::optional<QByteArray> &jobFileContent = std::nullopt);
    // Adopts the job `jobId` there (one this GUI started, from a window since closed): its output from the start,
    // then its result and recording, written to recordPath here (empty: none; never over an existing file), and
    // the job forgotten there. Stop works on it as on a run started here. False with *error as start().
    bool attach(const QString &jobId, const QString &recordPath, QString *error);
    // Asks the agent for its jobs: jobsListed() with the answer.
    void listJobs();
    void stop();
    bool isRunning() const { return m_running; }
    QString jobId() const { return m_job; }
    QString recordPath() const { return m_recordPath; }

Q_SIGNALS:
    void started(const QString &jobId);
    // The agent attached this client to the job: adopted by attach(), or again after a lost connection.
    void attached(const QString &jobId);
    void jobsListed(const QList<dmtune::AgentJob> &jobs);
    void jobsListFailed(const QString &message);
    // One `run --json` progress object: t (epoch s), the rates, "devices" (iostat keys per device).
    void progress(double epochSeconds, const dmtune::FioRates &rates, const QJsonObject &line);
    void outputLine(const QString &line); // what run printed on stderr there, fio's own lines, a job's notes
    // The job ended there: its exit status, its summary object (empty when it printed none), the recording
    // written here (empty when there is none).
    void finished(int status, const QJsonObject &summary, const QString &recordedTo);
    void failed(const QString &message);
    // The connection was lost while the job ran: it goes on there and is attached again on reconnect.
    void detached(const QString &message);

private:
    // Why neither a start nor an attach can begin now (a run going, not connected, the recording's file there);
    // empty when one can.
    QString cannotRun(const QString &recordPath, const QString &whenRecordingExists) const;
    void begin(const QString &jobId, const QString &recordPath); // a run's state afresh
    void onMessage(const QJsonObject &message);
    void onReady();
    void takeOutput(const QString &text);
    void takeOperationLine(const QJsonObject &line); // an operation job's event or result
    void finish(const QJsonObject &exit);

    AgentClient *m_client;
    bool m_running = false;
    qint64 m_requestId = 0;
    qint64 m_jobsRequest = 0;
    QString m_job;
    QString m_recordPath;
    QString m_pending; // stdout not yet a whole line
    QString m_summaryText; // the lines after the progress: the summary's indented JSON
    std::optional<OperationResult> m_result; // an operation job's result line
    double m_lastProgress = 0; // the newest progress object's t: a re-attach replays older ones
};

} // namespace dmtune
