#include "core/remote/samplestream.h"

#include "core/remote/z85.h"

#include <QJsonArray>

namespace dmtune {

using namespace Qt::StringLiterals;

QJsonObject SampleStreamWriter::encode(qint64 id, const SampleBatch &batch)
{
    QJsonObject message { { "type"_L1, QStringLiteral("samples") }, { "id"_L1, id },
        { "seq"_L1, qint64(batch.sequence) }, { "wall_ms"_L1, batch.wallMs }, { "mono_ns"_L1, batch.monotonicNs },
        { "elapsed_us"_L1, qint64(batch.elapsedSeconds * 1e6 + 0.5) } };
    bool sameNames = m_names.size() == batch.devices.size();
    for (qsizetype i = 0; sameNames && i < batch.devices.size(); ++i)
        sameNames = m_names.at(i) == batch.devices.at(i).name();
    if (!sameNames) {
        m_names.clear();
        QJsonArray names, numbers;
        for (const DeviceSample &d : batch.devices) {
            m_names << d.name();
            names.append(d.name());
            numbers.append(QStringLiteral("%1:%2").arg(d.counters.majorNumber()).arg(d.counters.minorNumber()));
        }
        m_encoders.assign(std::size_t(batch.devices.size()), SampleEncoder());
        message.insert("names"_L1, names);
        message.insert("devs"_L1, numbers);
    }
    m_bytes.clear();
    const auto dtUs = quint64(message.value("elapsed_us"_L1).toInteger());
    for (qsizetype i = 0; i < batch.devices.size(); ++i) {
        const DeviceSample &d = batch.devices.at(i);
        m_encoders[std::size_t(i)].encode(toHistoryValues(d.deltas, d.inflight, dtUs), &m_bytes);
    }
    message.insert("size"_L1, qint64(m_bytes.size()));
    message.insert("data"_L1,
        QString::fromLatin1(z85Encode(
            QByteArray::fromRawData(reinterpret_cast<const char *>(m_bytes.data()), qsizetype(m_bytes.size())))));
    return message;
}

void SampleStreamReader::reset()
{
    m_names.clear();
    m_devnums.clear();
    m_decoders.clear();
}

Result<SampleBatch> SampleStreamReader::decode(const QJsonObject &message)
{
    if (message.contains("names"_L1)) {
        const QJsonValue value = message.value("names"_L1);
        if (!value.isArray())
            return Result<SampleBatch>::failure(QStringLiteral("samples: \"names\" is not an array"));
        QStringList names;
        for (const QJsonValue &n : value.toArray()) {
            if (!n.isString() || n.toString().isEmpty())
                return Result<SampleBatch>::failure(QStringLiteral("samples: a device name that is not a string"));
            names << n.toString();
        }
        // Their device numbers ("MAJ:MIN", the latency probe's key), from agents that send them.
        QList<quint64> devnums(names.size(), 0);
        if (message.contains("devs"_L1)) {
            const QJsonArray devs = message.value("devs"_L1).toArray();
            if (devs.size() != names.size())
                return Result<SampleBatch>::failure(QStringLiteral("samples: \"devs\" and \"names\" differ in length"));
            for (qsizetype i = 0; i < devs.size(); ++i) {
                const auto devnum = parseDevnum(devs.at(i).toString());
                if (!devs.at(i).isString() || !devnum)
                    return Result<SampleBatch>::failure(QStringLiteral("samples: a device number that is not MAJ:MIN"));
                devnums[i] = devnum.value();
            }
        }
        m_names = names;
        m_devnums = devnums;
        m_decoders.assign(std::size_t(names.size()), SampleDecoder());
    } else if (m_names.isEmpty() && !message.value("data"_L1).toString().isEmpty()) {
        return Result<SampleBatch>::failure(QStringLiteral("samples: data before the device names"));
    }
    const QJsonValue data = message.value("data"_L1);
    if (!data.isString())
        return Result<SampleBatch>::failure(QStringLiteral("samples: no \"data\""));
    const QJsonValue size = message.value("size"_L1);
    if (!size.isDouble())
        return Result<SampleBatch>::failure(QStringLiteral("samples: no \"size\""));
    const Result<QByteArray> decoded = z85Decode(data.toString().toLatin1(), qsizetype(size.toInteger(-1)));
    if (!decoded)
        return Result<SampleBatch>::failure(QStringLiteral("samples: \"data\": %1").arg(decoded.errorMessage()));
    const QByteArray &bytes = *decoded;

    SampleBatch batch;
    batch.sequence = quint64(message.value("seq"_L1).toInteger());
    batch.wallMs = message.value("wall_ms"_L1).toInteger();
    batch.monotonicNs = message.value("mono_ns"_L1).toInteger();
    const qint64 elapsedUs = message.value("elapsed_us"_L1).toInteger();
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
        sample.counters.devnum = m_devnums.at(i);
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
