#pragma once
// Plans and runs core operations in this process, off the caller's thread, for the GUI (the OperationService of
// a local window; a remote window's is RemoteOperationRunner): plan() hands back planned(),
// run() hands back finished(). One job at a time in the order asked (jobs/jobtracker.h, Serial): a plan
// made after a run sees its effect. The environment is copied per call; the DeviceMapper it points to must
// outlive the runner (hold the runner as the last member, or delete it first: it joins its jobs).
#include "jobs/jobtracker.h"
#include "ops/operationregistry.h"
#include "ops/operationservice.h"

namespace dmtune {

class OperationRunner : public OperationService {
    Q_OBJECT
public:
    explicit OperationRunner(QObject *parent = nullptr);
    ~OperationRunner() override;

    void setEnvironment(const OperationEnvironment &env) { m_env = env; }
    const OperationEnvironment &environment() const { return m_env; }

    // `tag` comes back with the answer, so a caller can tell its requests apart.
    void plan(const QString &kind, const QJsonObject &request, const QString &tag = {}) override;
    void run(const OperationPlan &plan, const OperationAnswers &answers, const QString &tag = {}) override;
    // Plan, then run at once when the plan needs no answer; a plan with risks or refusals comes back as
    // planned() (nothing runs) for the caller to show.
    void runUnlessAsked(const QString &kind, const QJsonObject &request, const QString &tag = {}) override;

    bool isBusy() const override { return !m_jobs->isIdle(); }
    JobTracker *jobs() const { return m_jobs; }

private:
    OperationEnvironment m_env;
    JobTracker *m_jobs; // child; deleted (joined) in the destructor before m_env goes
};

} // namespace dmtune
