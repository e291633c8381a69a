#pragma once
// Plans and runs core operations in this process, off the caller's thread, for the GUI (the OperationService of
// a local window; a remote window's is RemoteOperationRunner): each call's continuation gets the plan or the
// result on the runner's thread. One job at a time in the order asked (jobs/jobtracker.h, Serial): a plan
// made after a run sees its effect. The environment is copied per call; the DeviceMapper it points to must
// outlive the runner (hold the runner as the last member, or delete it first: it joins its jobs).
// A long-running operation (start()): its checks are a job in that order; then its activity runs on a thread of
// its own (jobs/eventloopthread.h) owned by its handle, so the serial jobs go on meanwhile. Deleting the runner
// (or a handle) while one runs deletes its activity on that thread and waits: a sweep stops fio and puts its
// values back before the destructor returns.
#include "core/jobs/jobtracker.h"
#include "core/ops/operationregistry.h"
#include "core/ops/operationservice.h"

namespace dmtune {

class OperationRunner : public OperationService {
    Q_OBJECT
public:
    explicit OperationRunner(QObject *parent = nullptr);
    ~OperationRunner() override;

    void setEnvironment(const OperationEnvironment &env) { m_env = env; }
    const OperationEnvironment &environment() const { return m_env; }

    bool isBusy() const override { return !m_jobs->isIdle() || m_runs > 0; }
    JobTracker *jobs() const { return m_jobs; }

protected:
    void startPlan(
        const QString &kind, const QJsonObject &request, const Replies &replies, bool runUnlessAsked) override;
    void startRun(const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) override;
    OperationRun *startLong(
        const OperationPlan &plan, const OperationAnswers &answers, const Replies &replies) override;

private:
    OperationEnvironment m_env;
    int m_runs = 0; // handles of start() not deleted yet
    JobTracker *m_jobs; // child; deleted (joined) in the destructor before m_env goes
};

} // namespace dmtune
