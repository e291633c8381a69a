#pragma once
// The near side of the agent's counter stream (agentstreams.h): what a Sampler is for the host the agent runs on,
// a SampleSource as Sampler is, so charts and the history take its batches unchanged. Batches carry the deltas and the
// in-flight split; the cumulative counters stay on the far side (each device's counters carry its name only).
// A lost connection ends every series (deviceVanished: the charts show the gap); when the client is ready again
// a running sampler asks for a new stream by itself, whose first batch starts new segments.
#include "core/remote/samplestream.h"
#include "core/stats/samplebatch.h"
#include "core/stats/samplesource.h"

#include <QStringList>

namespace dmtune {

class AgentClient;

class RemoteSampler : public SampleSource {
    Q_OBJECT
public:
    explicit RemoteSampler(AgentClient *client, QObject *parent = nullptr);
    ~RemoteSampler() override;

    // As Sampler's: exactly these kernel names in this order; empty is every whole device of the host.
    void setWatched(const QStringList &names) override;
    void watchAll() { setWatched({}); }
    QStringList watched() const override { return m_names; }
    bool watchesAll() const { return m_names.isEmpty(); }
    // 100 ms .. 60 s (Sampler's range); false and no change outside it.
    bool setInterval(int ms) override;
    int interval() const override { return m_intervalMs; }

    // The split of busy devices (default on, as Sampler's); set before start().
    void setReadInflight(bool on) { m_readInflight = on; }

    void start() override;
    void stop() override;
    // Wanted running (it streams whenever the client is ready).
    bool isRunning() const override { return m_running; }
    bool isStreaming() const { return m_streamId != 0; }

    // CLOCK_MONOTONIC now minus the agent's read of the last batch, in ns: the wire's and both sides' latency when
    // the agent runs on this machine (loopback: one clock); meaningless across machines.
    qint64 lastLatencyNs() const { return m_lastLatencyNs; }

private:
    void request();
    void endStream();
    void onMessage(const QJsonObject &message);

    AgentClient *m_client;
    QStringList m_names;
    int m_intervalMs = 1000;
    bool m_running = false;
    bool m_readInflight = true;
    qint64 m_streamId = 0;
    SampleStreamReader m_reader;
    QStringList m_present; // the devices of the stream's last batch
    qint64 m_lastLatencyNs = 0;
};

} // namespace dmtune
