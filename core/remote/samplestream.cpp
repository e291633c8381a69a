#include "remote/samplestream.h"

#include "remote/z85.h"

#include <QJsonArray>

namespace dmtune {

namespace {

QLatin1String key(const char *k)
{
    return QLatin1String(k);
}

} // namespace

QJsonObject SampleStreamWriter::encode(qint64 id, const SampleBatch &batch)
{
    QJsonObject message { { key("type"), QStringLiteral("samples") }, { key("id"), id },
        { key("seq"), qint64(batch.sequence) }, { key("wall_ms"), batch.wallMs }, { key("mono_ns"), batch.monotonicNs },
        { key("elapsed_us"), qint64(batch.elapsedSeconds * 1e6 + 0.5) } };
    bool sameNames = m_names.size() == batch.devices.size();
    for (qsizetype i = 0; sameNames && i < batch.devices.size(); ++i)
        sameNames = m_names.at(i) == batch.devices.at(i).name();
    if (!sameNames) {
        m_names.clear();
        QJsonArray names;
        for (const DeviceSample &d : batch.devices) {
            m_names << d.name();
            names.append(d.name());
        }
        m_encoders.assign(std::size_t(batch.devices.size()), SampleEncoder());
        message.insert(key("names"), names);
    }
    m_bytes.clear();
    const auto dtUs = quint64(message.value(key("elapsed_us")).toInteger());
    for (qsizetype i = 0; i < batch.devices.size(); ++i) {
        const DeviceSample &d = batch.devices.at(i);
        m_encoders[std::size_t(i)].encode(toHistoryValues(d.deltas, d.inflight, dtUs), &m_bytes);
    }
    message.insert(key("size"), qint64(m_bytes.size()));
    message.insert(key("data"),
        QString::fromLatin1(z85Encode(
            QByteArray::fromRawData(reinterpret_cast<const char *>(m_bytes.data()), qsizetype(m_bytes.size())))));
    return message;
}

void SampleStreamReader::reset()
{
    m_names.clear();
    m_decoders.clear();
}

Result<SampleBatch> SampleStreamReader::decode(const QJsonObject &message)
{
    if (message.contains(key("names"))) {
        const QJsonValue value = message.value(key("names"));
        if (!value.isArray())
            return Result<SampleBatch>::failure(QStringLiteral("samples: \"names\" is not an array"));
        QStringList names;
        for (const QJsonValue &n : value.toArray()) {
            if (!n.isString() || n.toString().isEmpty())
                return Result<SampleBatch>::failure(QStringLiteral("samples: a device name that is not a string"));
            names << n.toString();
        }
        m_names = names;
        m_decoders.assign(std::size_t(names.size()), SampleDecoder());
    } else if (m_names.isEmpty() && !message.value(key("data")).toString().isEmpty()) {
        return Result<SampleBatch>::failure(QStringLiteral("samples: data before the device names"));
    }
    const QJsonValue data = message.value(key("data"));
    if (!data.isString())
        return Result<SampleBatch>::failure(QStringLiteral("samples: no \"data\""));
    const QJsonValue size = message.value(key("size"));
    if (!size.isDouble())
        return Result<SampleBatch>::failure(QStringLiteral("samples: no \"size\""));
    const Result<QByteArray> decoded = z85Decode(data.toString().toLatin1(), qsizetype(size.toInteger(-1)));
    if (!decoded)
        return Result<SampleBatch>::failure(QStringLiteral("samples: \"data\": %1").arg(decoded.errorMessage()));
    const QByteArray &bytes = *decoded;

    SampleBatch batch;
    batch.sequence = quint64(message.value(key("seq")).toInteger());
    batch.wallMs = message.value(key("wall_ms")).toInteger();
    batch.monotonicNs = message.value(key("mono_ns")).toInteger();
    const qint64 elapsedUs = message.value(key("elapsed_us")).toInteger();
    if (elapsedUs <= 0)
        return Result<SampleBatch>::failure(QStringLiteral("samples: no positive \"elapsed_us\""));
    batch.elapsedSeconds = double(elapsedUs) / 1e6;
    batch.devices.reserve(m_names.size());
    const auto *p = reinterpret_cast<const quint8 *>(bytes.constData());
    const quint8 *const end = p + bytes.size();
    for (qsizetype i = 0; i < m_names.size(); ++i) {
        HistoryValues values;
        p = m_decoders[std::size_t(i)].decode(p, end, &values);
        if (!p)
            return Result<SampleBatch>::failure(
                QStringLiteral("samples: the data ends before device %1 of %2").arg(i + 1).arg(m_names.size()));
        DeviceSample sample;
        sample.counters.name = m_names.at(i);
        sample.deltas = deltasOf(values);
        sample.inflight
            = { quint32(values.v[HistoryValues::InflightReads]), quint32(values.v[HistoryValues::InflightWrites]) };
        batch.devices.append(std::move(sample));
    }
    if (p != end)
        return Result<SampleBatch>::failure(QStringLiteral("samples: %1 bytes after the last device").arg(end - p));
    return batch;
}

} // namespace dmtune
