#pragma once
// A workload on a remote host (docs/remote.md): `dmtunectl run ... --json` as a job there (the agent detaches it
// from the ssh session: a dropped connection neither stops fio nor loses the recording), its progress lines as
// they come, the recording written here when it ended. After a lost connection the job goes on; once the client
// is ready again it is attached again (its output from the start: lines already seen are skipped) and its result
// and recording are fetched. A job of an earlier window (closed, or the app quit) is adopted by attach(). The
// host's jobs are listed (listJobs) whenever the client is ready and nothing runs. Stopping is explicit (stop(): SIGINT
// to the job there). The guard runs there, in `run` itself: the caller passes --destroy-data-on only after the user
// confirmed the plan of the far side.
#include "remote/remotejobs.h"
#include "workloads/fiojob.h"
#include "workloads/fiostream.h"

#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <optional>

namespace dmtune {

class AgentClient;

// The `run` command line of a job as the editors have it: the template and what differs from it, or --job FILE
// (a custom job file, read here and sent). --json always; --destroy-data-on DEVICE when confirmed.
QStringList remoteRunArguments(const FioJob &job, const QString &device, bool destroyDataConfirmed);
// A progress line's rates ({"progress": {...}} of `run --json`, fioRatesToJson's keys) back as FioRates.
FioRates fioRatesFromJson(const QJsonObject &rates);

class RemoteWorkload : public QObject {
    Q_OBJECT
public:
    explicit RemoteWorkload(AgentClient *client, QObject *parent = nullptr);
    ~RemoteWorkload() override;

    // runArguments: `run` and its options (remoteRunArguments); recordPath: this side's file for the recording,
    // or empty. jobFileContent: what is sent as --job FILE's content (the bytes the far side's plan checked),
    // else the file is read now. False with *error when it cannot start (not connected, a run going, a file that
    // exists here).
    bool start(const QStringList &runArguments, const QString &recordPath, QString *error,
        const std::optional<QByteArray> &jobFileContent = std::nullopt);
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
    void outputLine(const QString &line); // what run printed on stderr there ("fio started on ...")
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
    void finish(const QJsonObject &exit);

    AgentClient *m_client;
    bool m_running = false;
    qint64 m_requestId = 0;
    qint64 m_jobsRequest = 0;
    QString m_job;
    QString m_recordPath;
    QString m_pending; // stdout not yet a whole line
    QString m_summaryText; // the lines after the progress: the summary's indented JSON
    double m_lastProgress = 0; // the newest progress object's t: a re-attach replays older ones
};

} // namespace dmtune
