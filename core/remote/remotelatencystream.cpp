#include "core/remote/remotelatencystream.h"

#include "core/remote/agentclient.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace dmtune {

using namespace Qt::StringLiterals;

namespace {

QJsonArray numbersJson(const QList<BlockDeviceNumber> &devices)
{
    QJsonArray out;
    for (const BlockDeviceNumber &d : devices)
        out.append(QStringLiteral("%1:%2").arg(d.major).arg(d.minor));
    return out;
}

} // namespace

RemoteLatencyStream::RemoteLatencyStream(AgentClient *client, QObject *parent)
    : LatencySource(parent)
    , m_client(client)
{
    qRegisterMetaType<dmtune::LatencyReading>();
    connect(m_client, &AgentClient::message, this, &RemoteLatencyStream::onMessage);
    connect(m_client, &AgentClient::disconnected, this, [this](const QString &problem) {
        fail(QStringLiteral("the connection to %1 was lost (%2)").arg(m_client->address().display(), problem), true);
    });
}

RemoteLatencyStream::~RemoteLatencyStream()
{
    if (m_probeId && !hasFailed() && m_client && m_client->isReady())
        m_client->request(u"cancel"_s, { { "target"_L1, m_probeId } });
}

bool RemoteLatencyStream::request(const QList<BlockDeviceNumber> &devices)
{
    if (isWaiting() || hasFailed() || !m_client)
        return false;
    if (!m_client->isReady()) {
        fail(QStringLiteral("not connected to %1").arg(m_client->address().display()), true);
        return false;
    }
    if (!m_probeId) {
        if (devices.isEmpty())
            return false; // the probe is loaded for at least one device
        m_probeId = m_client->request(u"latency"_s, { { "devices"_L1, numbersJson(devices) } });
        m_pendingId = m_probeId;
    } else {
        m_pendingId = m_client->request(
            u"latency-read"_s, { { "target"_L1, m_probeId }, { "devices"_L1, numbersJson(devices) } });
    }
    m_devices = devices;
    setWaiting(true);
    return true;
}

void RemoteLatencyStream::onMessage(const QJsonObject &message)
{
    if (!m_pendingId || message.value("id"_L1).toInteger() != m_pendingId || hasFailed())
        return;
    const QString type = message.value("type"_L1).toString();
    if (type == "error"_L1) {
        m_pendingId = 0;
        fail(message.value("error"_L1).toString());
        return;
    }
    if (type != "response"_L1)
        return;
    m_pendingId = 0;
    if (!m_probeLoaded) {
        // Loaded there: the first reading follows at once (the devices' counts from zero).
        m_probeLoaded = true;
        m_pendingId = m_client->request(
            u"latency-read"_s, { { "target"_L1, m_probeId }, { "devices"_L1, numbersJson(m_devices) } });
        return;
    }
    setWaiting(false);
    // The helper's strict parser over the reading's own JSON: the same checks as a line from dmtune-helper.
    const auto reading
        = parseLatencyReading(QJsonDocument(message.value("reading"_L1).toObject()).toJson(QJsonDocument::Compact));
    if (!reading) {
        fail(QStringLiteral("%1: a latency reading that cannot be read: %2")
                 .arg(m_client->address().display(), reading.errorMessage()));
        return;
    }
    Q_EMIT readingAvailable(reading.value());
}

} // namespace dmtune
