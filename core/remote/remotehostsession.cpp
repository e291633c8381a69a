#include "core/remote/remotehostsession.h"

#include "core/discovery/discovery.h"
#include "core/ops/hostcontext.h"
#include "core/params/tuningsession.h"
#include "core/remote/remotehost.h"
#include "core/remote/remotelatencystream.h"
#include "core/remote/remotemapstream.h"
#include "core/remote/remoteoperationrunner.h"
#include "core/remote/remotesampler.h"
#include "core/remote/remoteworkload.h"

namespace dmtune {

namespace {
HostSession::State sessionState(RemoteHost::State state)
{
    switch (state) {
    case RemoteHost::State::Connected:
        return HostSession::State::Connected;
    case RemoteHost::State::Connecting:
        return HostSession::State::Connecting;
    case RemoteHost::State::Disconnected:
        break;
    }
    return HostSession::State::Disconnected;
}
} // namespace

RemoteHostSession::RemoteHostSession(RemoteHost *host, QObject *parent)
    : HostSession(std::make_shared<const HostContext>(host->sysfsRoot()), parent)
    , m_host(host)
{
    m_host->setParent(this);
    // A lost connection ends every series (deviceVanished): the charts show the gap.
    m_sampler = new RemoteSampler(m_host->client(), this);
    auto *operations = new RemoteOperationRunner(m_host->client(), this);
    refreshAfterResults(operations);
    auto *discovery = new Discovery(m_host->sysfsRoot(), this);
    setParts(discovery, m_sampler, operations);
    // Every fetched capture is rescanned (the tree diffs it row by row, as a local rescan does).
    connect(m_host, &RemoteHost::captureFetched, discovery, &Discovery::refresh);
    connect(m_host, &RemoteHost::captureFailed, this, &HostSession::message);
    connect(m_host, &RemoteHost::stateChanged, this,
        [this](RemoteHost::State state) { Q_EMIT stateChanged(sessionState(state)); });
    connect(m_host, &RemoteHost::retryScheduled, this, &HostSession::retryScheduled);
}

RemoteHostSession::~RemoteHostSession()
{
    // Its operations answer nobody from here on (the connection goes with the host).
    delete operations();
}

QString RemoteHostSession::name() const
{
    return m_host->displayName();
}

HostAddress RemoteHostSession::address() const
{
    return m_host->address();
}

QString RemoteHostSession::agentHostName() const
{
    return m_host->agentHostName();
}

std::function<LatencySource *()> RemoteHostSession::latencySourceMaker() const
{
    return [client = m_host->client()] { return new RemoteLatencyStream(client); };
}

OperationService *RemoteHostSession::newOperationService(QObject *parent)
{
    auto *service = new RemoteOperationRunner(m_host->client(), parent);
    refreshAfterResults(service);
    return service;
}

MapStream *RemoteHostSession::newMapStream(QObject *parent)
{
    return new RemoteMapStream(m_host->client(), parent);
}

WorkloadRuns *RemoteHostSession::newWorkloadRuns(QObject *parent)
{
    return new RemoteWorkload(m_host->client(), newOperationService(nullptr), parent);
}

TuningSession *RemoteHostSession::newTuningSession(QObject *parent)
{
    // Planned on the host's capture, run by its agent there (which plans again on the live state).
    TuningSession *session = HostSession::newTuningSession(parent);
    session->setRemote(newOperationService(session), name());
    return session;
}

HostSession::State RemoteHostSession::state() const
{
    return sessionState(m_host->state());
}

QString RemoteHostSession::problem() const
{
    return m_host->problem();
}

bool RemoteHostSession::needsPassword() const
{
    return m_host->need() == RemoteHost::Need::Password;
}

qint64 RemoteHostSession::msecsUntilRetry() const
{
    return m_host->msecsUntilRetry();
}

int RemoteHostSession::attempts() const
{
    return m_host->attempts();
}

void RemoteHostSession::connectToHost(const QByteArray &sudoPassword)
{
    m_host->connectToHost(sudoPassword);
}

QDateTime RemoteHostSession::devicesTime() const
{
    return m_host->hasCapture() ? m_host->captureTime() : QDateTime();
}

HostSession::Hotplug RemoteHostSession::hotplug() const
{
    if (m_host->state() != RemoteHost::State::Connected)
        return Hotplug::NotConnected;
    return m_host->isWatching() ? Hotplug::AgentEvents : Hotplug::OnRequest;
}

void RemoteHostSession::refresh()
{
    m_host->refetch(); // the rescan follows when the capture is in
}

} // namespace dmtune
