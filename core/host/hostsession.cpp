#include "core/host/hostsession.h"

#include "core/discovery/discovery.h"
#include "core/host/workloadruns.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationservice.h"
#include "core/params/tuningsession.h"
#include "core/stats/samplesource.h"

namespace dmtune {

HostSession::HostSession(std::shared_ptr<const HostContext> context, QObject *parent)
    : QObject(parent)
    , m_context(std::move(context))
{
}

HostSession::~HostSession() = default;

const SysfsRoot &HostSession::sysfs() const
{
    return m_context->sysfs();
}

void HostSession::setParts(Discovery *discovery, SampleSource *samples, OperationService *operations)
{
    m_discovery = discovery;
    m_samples = samples;
    m_operations = operations;
}

void HostSession::refreshAfterResults(OperationService *service)
{
    // A result changed the host (or may have: a connection lost during the run leaves the outcome unknown); a dry
    // run changed nothing.
    connect(service, &OperationService::finished, this, [this](const OperationResult &result) {
        if (!result.dryRun)
            refresh();
    });
}

WorkloadRuns *HostSession::newWorkloadRuns(QObject *parent)
{
    return new WorkloadRuns(newOperationService(nullptr), parent);
}

TuningSession *HostSession::newTuningSession(QObject *parent)
{
    auto *session = new TuningSession(m_context, Applier::Mode::Auto, parent);
    session->setReadOnly(!sysfs().isLive()); // a captured tree is inspected, not written
    return session;
}

void HostSession::start()
{
    m_discovery->start();
}

void HostSession::refresh()
{
    m_discovery->refresh();
}

} // namespace dmtune
