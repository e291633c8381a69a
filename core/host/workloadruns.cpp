#include "core/host/workloadruns.h"

#include "core/ops/operationservice.h"
#include "core/ops/workloadoperations.h"
#include "core/workloads/fiojob.h"

namespace dmtune {

WorkloadRuns::WorkloadRuns(OperationService *service, QObject *parent)
    : QObject(parent)
    , m_service(service)
{
    m_service->setParent(this);
}

WorkloadRuns::~WorkloadRuns()
{
    // Before the members go: the service joins what runs on it (a run's activity is deleted on its thread).
    delete m_run.data();
    delete m_service;
}

Result<QJsonObject> WorkloadRuns::startRequest(const FioJob &job, const QString &device, const WorkloadExtras &extras)
{
    // Planned and run in this process: the recording and its latency histograms are the plan's.
    return withWorkloadExtras(workloadRequest(job, device), extras);
}

bool WorkloadRuns::start(
    const OperationPlan &plan, const OperationAnswers &answers, const WorkloadExtras &extras, QString *error)
{
    Q_UNUSED(extras) // in the plan's request
    if (isRunning()) {
        *error = QStringLiteral("a workload is already running");
        return false;
    }
    m_run = m_service->start(
        plan, answers, this, [this](const QJsonObject &e) { Q_EMIT event(e); },
        [this](const OperationResult &result) { Q_EMIT finished(result); });
    return true;
}

void WorkloadRuns::stop()
{
    if (m_run)
        m_run->cancel();
}

bool WorkloadRuns::isRunning() const
{
    return m_run && !m_run->isFinished();
}

bool WorkloadRuns::attach(const QString &jobId, const QString &recordPath, QString *error)
{
    Q_UNUSED(jobId)
    Q_UNUSED(recordPath)
    *error = QStringLiteral("no workload outlives its window on this host");
    return false;
}

} // namespace dmtune
