#pragma once
// A remote host as a window's host (host/hostsession.h), through its agent over ssh (RemoteHost): its devices as the
// capture the host fetches (again on each of its agent's udev and device-mapper events and after every operation),
// its counters from the agent's stream, its probe's readings from the agent, its operations planned and run there.
#include "core/host/hostsession.h"

namespace dmtune {

class RemoteHost;
class RemoteSampler;

class RemoteHostSession : public HostSession {
    Q_OBJECT
public:
    // Takes the host (a child from now on); connect with connectToHost().
    explicit RemoteHostSession(RemoteHost *host, QObject *parent = nullptr);
    ~RemoteHostSession() override;

    QString name() const override;
    HostAddress address() const override;
    QString agentHostName() const override;
    std::function<LatencySource *()> latencySourceMaker() const override;
    OperationService *newOperationService(QObject *parent) override;
    MapStream *newMapStream(QObject *parent) override;
    TuningSession *newTuningSession(QObject *parent) override;
    WorkloadRuns *newWorkloadRuns(QObject *parent) override;

    State state() const override;
    QString problem() const override;
    bool needsPassword() const override;
    qint64 msecsUntilRetry() const override;
    int attempts() const override;
    void connectToHost(const QByteArray &sudoPassword = {}) override;
    QDateTime devicesTime() const override;
    bool fetchesCaptures() const override { return true; }
    Hotplug hotplug() const override;
    void refresh() override;

    RemoteHost *remoteHost() const { return m_host; }
    RemoteSampler *remoteSampler() const { return m_sampler; }

private:
    RemoteHost *m_host;
    RemoteSampler *m_sampler = nullptr;
};

} // namespace dmtune
