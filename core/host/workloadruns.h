#pragma once
// The workloads a window starts on its host (workload.start, ops/workloadoperations.h), one at a time: the request
// as the host plans it, the plan through the host's planner, then start() with the user's answers; the operation's
// progress events ({"event": "started" | "progress" | "output" | "note" | "recording-failed", ...}) come as event()
// in order and its result once as finished(). This class starts the operation through an OperationService
// (OperationService::start: this machine's runner runs it on a thread the core owns). A remote host's
// (remote/remoteworkload.h) runs it as a job of its agent that outlives a lost connection: it adds the events
// "job" (the job's id; "attached": true when attached again) and "detached" (the connection was lost, the job goes
// on there), lists the host's jobs (jobsListed) and adopts one (attach()). The panel does not ask which one it has.
// Made by HostSession::newWorkloadRuns().
#include "core/ops/operation.h"
#include "core/remote/remotejobs.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace dmtune {

struct FioJob;
struct WorkloadExtras;
class OperationRun;
class OperationService;

class WorkloadRuns : public QObject {
    Q_OBJECT
public:
    // Plans and starts through `service`, which becomes a child of this.
    explicit WorkloadRuns(OperationService *service, QObject *parent = nullptr);
    // A run under way is stopped and let go first (this machine's: fio killed, the recording closed, the device
    // released before this returns); its result is dropped.
    ~WorkloadRuns() override;

    // Who plans workload.start on the host (the plan start() is given must be this one's).
    OperationService *planner() const { return m_service; }
    // The workload.start request for `job` on `device` as the host's planner takes it; `extras` (the recording, this
    // machine's latency histograms) go where the host keeps them. An error when the job cannot be sent (a job file
    // that cannot be read here).
    virtual Result<QJsonObject> startRequest(const FioJob &job, const QString &device, const WorkloadExtras &extras);
    // Starts `plan` (planner()'s, for the last startRequest) with the user's answers: checked again on the state
    // then; the recording goes to `extras.recordPath` here. False with *error when nothing could begin (then no
    // finished() comes).
    virtual bool start(
        const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras, QString *error);
    // Asks the run to stop (fio gets SIGINT); its result still comes.
    virtual void stop();
    virtual bool isRunning() const;
    // The host's jobs that outlive a window: asked for (jobsListed) and adopted (attach(): its output from the start,
    // then its result, the recording to `recordPath` here). None here: attach() is refused.
    virtual void listJobs() { }
    virtual bool attach(const QString &jobId, const QString &recordPath, QString *error);
    virtual QString jobId() const { return {}; } // the run's job there, once it is one

Q_SIGNALS:
    void event(const QJsonObject &event);
    void finished(const dmtune::OperationResult &result);
    void jobsListed(const QList<dmtune::AgentJob> &jobs);
    void jobsListFailed(const QString &message);

private:
    OperationService *m_service;
    QPointer<OperationRun> m_run;
};

} // namespace dmtune
