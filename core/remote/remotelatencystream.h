#pragma once
// The near side of the agent's latency probe (agentstreams.h: `latency`, `latency-read`): a LatencySource for a
// remote host's Latency tab. The first request loads the probe there with the devices asked for; each later one is
// a `latency-read` of the shown set, answered with the cumulative reading in dmtune-helper's format
// (latencystream.h). The probe is the host's (root there, its BTF and lockdown): the agent's one line when it cannot
// load. A lost connection fails it with mayRetry() (the probe there went with the connection).
#include "core/latency/latencysource.h"

#include <QPointer>

namespace dmtune {

class AgentClient;

class RemoteLatencyStream : public LatencySource {
    Q_OBJECT
public:
    explicit RemoteLatencyStream(AgentClient *client, QObject *parent = nullptr);
    // Ends the probe there (`cancel`) when the connection is still up.
    ~RemoteLatencyStream() override;

    bool request(const QList<BlockDeviceNumber> &devices) override;

private:
    void onMessage(const QJsonObject &message);

    QPointer<AgentClient> m_client; // the window's host may go first
    qint64 m_probeId = 0; // the `latency` request's id: the probe there
    qint64 m_pendingId = 0; // the request being answered
    bool m_probeLoaded = false;
    QList<BlockDeviceNumber> m_devices; // the set asked for with the pending request
};

} // namespace dmtune
