#pragma once
// A workload on a remote host (docs/remote.md): the workload.start operation as a job of the agent there (it detaches
// it from the ssh session: a dropped connection neither stops fio nor loses the recording), its progress events as
// they come, the recording written here when it ended. After a lost connection the job goes on; once the client
// is ready again it is attached again (its output from the start: lines already seen are skipped) and its result
// and recording are fetched. A job of an earlier window (closed, or the app quit) is adopted by attach(). The
// host's jobs are listed (listJobs) whenever the client is ready and nothing runs. Stopping is explicit (stop(): SIGINT
// to the job there). The guard runs there: the job plans again and starts only on the state the user's answers were
// given for. Jobs of `dmtunectl --host H run` (a `run` command line, its --json lines) are attached and read too.
#include "core/host/workloadruns.h"
#include "core/workloads/fiostream.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace dmtune {

class AgentClient;

class RemoteWorkload : public WorkloadRuns {
    Q_OBJECT
public:
    // `planner`: the host's (a RemoteOperationRunner on `client`), a child from now on.
    RemoteWorkload(AgentClient *client, OperationService *planner, QObject *parent = nullptr);
    ~RemoteWorkload() override;

    // A job file's content goes in the request (read here once: these bytes are planned and run there); the
    // recording is made there and fetched to extras.recordPath here; the latency histograms are the far side's.
    Result<QJsonObject> startRequest(const FioJob &job, const QString &device, const WorkloadExtras &extras) override;
    // workload.start as the agent's detached job (remote/operationjob.h): the job plans again there and refuses a
    // changed state. Its events as event() (a "job" event once it is one), its result as finished(); re-attached
    // after a lost connection, stopped and listed as a `run` job. Refused while one runs, when not connected, or
    // when the recording's file exists here and was not asked to be replaced.
    bool start(const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras,
        QString *error) override;
    // Adopts the job `jobId` there (one this GUI started, from a window since closed): its output from the start,
    // then its result and recording, written to recordPath here (empty: none; never over an existing file), and
    // the job forgotten there. Stop works on it as on a run started here.
    bool attach(const QString &jobId, const QString &recordPath, QString *error) override;
    // Asks the agent for its jobs: jobsListed() with the answer; also when the client is ready and nothing runs,
    // and after each run.
    void listJobs() override;
    void stop() override; // SIGINT to the job there
    bool isRunning() const override { return m_running; }
    QString jobId() const override { return m_job; }
    QString recordPath() const { return m_recordPath; }

private:
    // Why neither a start nor an attach can begin now (a run going, not connected, the recording's file there);
    // empty when one can.
    QString cannotRun(const QString &recordPath, bool replace, const QString &whenRecordingExists) const;
    void begin(const QString &jobId, const QString &recordPath, bool replace); // a run's state afresh
    void onMessage(const QJsonObject &message);
    void onReady();
    void takeOutput(const QString &text);
    void takeOperationLine(const QJsonObject &line); // an operation job's event or result
    void output(const QString &line); // an "output" event
    void takeProgress(double t, const QJsonArray &rates, const QJsonValue &devices);
    void finish(const QJsonObject &exit);
    void fail(const QString &error); // a result that failed; the run is over

    AgentClient *m_client;
    bool m_running = false;
    qint64 m_requestId = 0;
    qint64 m_jobsRequest = 0;
    QString m_job;
    QString m_recordPath;
    bool m_replaceRecording = false;
    std::optional<QByteArray> m_jobFileContent; // the last startRequest's job file, sent again with its start
    QString m_pending; // stdout not yet a whole line
    QString m_summaryText; // the lines after the progress: the summary's indented JSON
    std::optional<OperationResult> m_result; // an operation job's result line
    double m_lastProgress = 0; // the newest progress object's t: a re-attach replays older ones
    bool m_startedSeen = false; // the "started" event (a re-attach replays it)
};

} // namespace dmtune
