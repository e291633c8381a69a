#pragma once
// Plans and runs core operations off the caller's thread, for the GUI: plan() hands back planned(),
// run() hands back finished(). One job at a time in the order asked (jobs/jobtracker.h, Serial): a plan
// made after a run sees its effect. The environment is copied per call; the DeviceMapper it points to must
// outlive the runner (hold the runner as the last member, or delete it first: it joins its jobs).
#include "jobs/jobtracker.h"
#include "ops/operationregistry.h"

#include <QObject>

namespace dmtune {

class OperationRunner : public QObject {
    Q_OBJECT
public:
    explicit OperationRunner(QObject *parent = nullptr);
    ~OperationRunner() override;

    void setEnvironment(const OperationEnvironment &env) { m_env = env; }
    const OperationEnvironment &environment() const { return m_env; }

    // `tag` comes back with the answer, so a caller can tell its requests apart.
    JobId plan(const QString &kind, const QJsonObject &request, const QString &tag = {});
    JobId run(const OperationPlan &plan, const OperationAnswers &answers, const QString &tag = {});
    // Plan, then run at once when the plan needs no answer; a plan with risks or refusals comes back as
    // planned() (nothing runs) for the caller to show.
    JobId runUnlessAsked(const QString &kind, const QJsonObject &request, const QString &tag = {});

    bool isBusy() const { return !m_jobs->isIdle(); }
    JobTracker *jobs() const { return m_jobs; }

Q_SIGNALS:
    void planned(const dmtune::OperationPlan &plan, const QString &tag);
    void planFailed(const QString &kind, const QString &error, const QString &tag);
    void finished(const dmtune::OperationResult &result, const QString &tag);

private:
    OperationEnvironment m_env;
    JobTracker *m_jobs; // child; deleted (joined) in the destructor before m_env goes
};

} // namespace dmtune
