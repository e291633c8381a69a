#include "core/remote/remotesampler.h"

#include "core/remote/agentclient.h"
#include "core/stats/sampler.h"

#include <QJsonArray>

#include <ctime>

namespace dmtune {

RemoteSampler::RemoteSampler(AgentClient *client, QObject *parent)
    : SampleSource(parent)
    , m_client(client)
{
    connect(m_client, &AgentClient::message, this, &RemoteSampler::onMessage);
    connect(m_client, &AgentClient::ready, this, [this] {
        if (m_running && !m_streamId)
            request();
    });
    connect(m_client, &AgentClient::disconnected, this, [this] { endStream(); });
}

RemoteSampler::~RemoteSampler() = default;

void RemoteSampler::setWatched(const QStringList &names)
{
    if (names == m_names)
        return;
    m_names = names;
    if (m_streamId) {
        QJsonArray devices;
        for (const QString &n : names)
            devices.append(n);
        m_client->request(QStringLiteral("stream-update"),
            { { QLatin1String("target"), m_streamId }, { QLatin1String("devices"), devices } });
    }
}

bool RemoteSampler::setInterval(int ms)
{
    if (ms < Sampler::MinIntervalMs || ms > Sampler::MaxIntervalMs)
        return false;
    m_intervalMs = ms;
    if (m_streamId)
        m_client->request(QStringLiteral("stream-update"),
            { { QLatin1String("target"), m_streamId }, { QLatin1String("interval_ms"), ms } });
    return true;
}

void RemoteSampler::start()
{
    m_running = true;
    if (!m_streamId && m_client->isReady())
        request();
}

void RemoteSampler::stop()
{
    m_running = false;
    if (m_streamId && m_client->isReady())
        m_client->request(QStringLiteral("cancel"), { { QLatin1String("target"), m_streamId } });
    endStream();
}

void RemoteSampler::request()
{
    QJsonObject fields { { QLatin1String("interval_ms"), m_intervalMs },
        { QLatin1String("inflight"), m_readInflight } };
    if (!m_names.isEmpty()) {
        QJsonArray devices;
        for (const QString &n : std::as_const(m_names))
            devices.append(n);
        fields.insert(QLatin1String("devices"), devices);
    }
    m_reader.reset();
    m_streamId = m_client->request(QStringLiteral("stream"), fields);
}

void RemoteSampler::endStream()
{
    m_streamId = 0;
    m_reader.reset();
    const QStringList ended = std::exchange(m_present, {});
    for (const QString &name : ended)
        Q_EMIT deviceVanished(name);
}

void RemoteSampler::onMessage(const QJsonObject &message)
{
    if (!m_streamId || message.value(QLatin1String("id")).toInteger() != m_streamId)
        return;
    const QString type = message.value(QLatin1String("type")).toString();
    if (type == QLatin1String("stream-failed")) {
        Q_EMIT samplingFailed(message.value(QLatin1String("error")).toString());
        return;
    }
    if (type == QLatin1String("error")) { // the agent refused the stream: not asked again until start()
        m_running = false;
        endStream();
        Q_EMIT samplingFailed(message.value(QLatin1String("error")).toString());
        return;
    }
    if (type != QLatin1String("samples"))
        return;
    const Result<SampleBatch> batch = m_reader.decode(message);
    if (!batch) {
        // The stream's state is lost with a bad message: end every series and ask for a new stream.
        const QString &problem = batch.errorMessage(); // batch is this function's: the reference stays valid
        m_client->request(QStringLiteral("cancel"), { { QLatin1String("target"), m_streamId } });
        endStream();
        Q_EMIT samplingFailed(problem);
        if (m_running)
            request();
        return;
    }
    m_lastLatencyNs = monotonicNowNs() - batch->monotonicNs;
    QStringList now;
    now.reserve(batch->devices.size());
    for (const DeviceSample &d : batch->devices)
        now << d.name();
    if (now != m_present) {
        for (const QString &name : std::as_const(m_present)) {
            if (!now.contains(name))
                Q_EMIT deviceVanished(name);
        }
        for (const QString &name : std::as_const(now)) {
            if (!m_present.contains(name))
                Q_EMIT deviceAppeared(name);
        }
        m_present = now;
    }
    Q_EMIT samplesAvailable(*batch);
}

} // namespace dmtune
