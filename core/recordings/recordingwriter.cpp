#include "core/recordings/recordingwriter.h"

#include "core/recordings/recordingformat.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace dmtune {

using namespace recordingformat;

namespace {

std::array<quint64, ValueCount> valuesOf(const DeviceSample &sample)
{
    std::array<quint64, ValueCount> v {};
    for (std::size_t i = 0; i < DiskFieldCount; ++i)
        v[i] = sample.counters.fields[i];
    v[DiskFieldCount] = sample.inflight[0];
    v[DiskFieldCount + 1] = sample.inflight[1];
    return v;
}

// A histogram as its sum and the (bucket, count) pairs of its non-empty buckets: a few bytes per device.
void appendHistogram(QByteArray &out, const LatencyHistogram &h)
{
    putVarint(out, h.sumNs);
    quint64 used = 0;
    for (quint64 c : h.counts)
        used += c != 0 ? 1 : 0;
    putVarint(out, used);
    for (std::size_t b = 0; b < h.counts.size(); ++b) {
        if (h.counts[b] == 0)
            continue;
        putVarint(out, b);
        putVarint(out, h.counts[b]);
    }
}

} // namespace

Result<std::unique_ptr<RecordingWriter>> RecordingWriter::create(
    const QString &path, const RecordingMeta &meta, ExistingFile existing)
{
    std::unique_ptr<RecordingWriter> writer(new RecordingWriter);
    writer->m_file = std::make_unique<AtomicFile>(path, existing);
    if (Status s = writer->m_file->open(); !s)
        return Result<std::unique_ptr<RecordingWriter>>::failure(s.errorMessage());
    const QByteArray m = magic();
    if (Status s = writer->m_file->write(m); !s) {
        writer->m_finished = true;
        return Result<std::unique_ptr<RecordingWriter>>::failure(s.errorMessage());
    }
    writer->m_bytes = m.size();
    const QDateTime started = meta.started.isValid() ? meta.started : QDateTime::currentDateTimeUtc();
    const QJsonObject header {
        { QStringLiteral("format"), QStringLiteral("dmtune-recording") },
        { QStringLiteral("version"), int(Version) },
        { QStringLiteral("writer"), QStringLiteral("dmtune " DMTUNE_VERSION) },
        { QStringLiteral("title"), meta.title },
        { QStringLiteral("host"), meta.host },
        { QStringLiteral("kernel"), meta.kernel },
        { QStringLiteral("started"), started.toUTC().toString(Qt::ISODateWithMs) },
        { QStringLiteral("started_epoch_ms"), double(started.toMSecsSinceEpoch()) },
        { QStringLiteral("interval_s"), meta.intervalSeconds },
        { QStringLiteral("devices"), QJsonArray::fromStringList(meta.devices) },
        { QStringLiteral("configuration"), meta.configuration },
    };
    if (Status s = writer->writeJsonFrame(HeaderFrame, header); !s) {
        writer->m_finished = true; // nothing worth keeping: the temp file goes with the writer
        return Result<std::unique_ptr<RecordingWriter>>::failure(s.errorMessage());
    }
    return Result<std::unique_ptr<RecordingWriter>>(std::move(writer));
}

RecordingWriter::~RecordingWriter()
{
    // Closed as far as it goes (a run that ended without finish(): its end is the last sample written); no one is
    // left to tell of a failure here, and the file says it is incomplete.
    if (!m_finished && m_file && m_file->isOpen())
        static_cast<void>(finish());
}

QString RecordingWriter::path() const
{
    return m_file ? m_file->path() : QString();
}

QString RecordingWriter::partialPath() const
{
    return m_file ? m_file->tempPath() : QString();
}

Status RecordingWriter::writeFrame(char type, const QByteArray &payload)
{
    if (m_finished || !m_file->isOpen())
        return Status::failure(QStringLiteral("recording %1 is closed").arg(m_file->path()));
    if (!m_error.isEmpty())
        return Status::failure(m_error);
    QByteArray frame;
    frame.reserve(payload.size() + 6);
    frame.append(type);
    putVarint(frame, quint64(payload.size()));
    frame.append(payload);
    // One write(2) per frame: a crash loses at most the frame in flight, never a whole tick's.
    if (Status s = m_file->write(frame); !s) {
        m_error = s.errorMessage();
        return s;
    }
    m_bytes += frame.size();
    return Status::success();
}

Status RecordingWriter::writeJsonFrame(char type, const QJsonObject &object)
{
    return writeFrame(type, QJsonDocument(object).toJson(QJsonDocument::Compact));
}

void RecordingWriter::appendDevice(QByteArray &frame, DeviceState &state, const DeviceSample &sample, bool baseline)
{
    const std::array<quint64, ValueCount> values = valuesOf(sample);
    putVarint(frame, state.id);
    quint32 mask = baseline ? BaselineFlag : 0;
    std::array<quint64, ValueCount> deltas {};
    if (baseline) {
        // The counters before this interval, so that a replay computes the same deltas as the sampler did
        // (clamped and wrapped ones included: cur - (cur - d) is d). In-flight values have no baseline.
        for (std::size_t i = 0; i < ValueCount; ++i) {
            const quint64 d = i < DiskFieldCount && i != std::size_t(DiskField::InFlight) ? sample.deltas.fields[i] : 0;
            // A delta larger than the counter is a 32-bit millisecond field that wrapped: the baseline is the
            // 32-bit value before the wrap, which counterDeltas wraps again.
            state.values[i] = d == 0 ? (i < DiskFieldCount && i != std::size_t(DiskField::InFlight) ? values[i] : 0)
                : d > values[i]      ? (values[i] - d) & 0xffffffffULL
                                     : values[i] - d;
        }
    }
    for (std::size_t i = 0; i < ValueCount; ++i) {
        deltas[i] = values[i] - state.values[i]; // modulo 2^64; read back as a signed difference
        if (deltas[i] != 0)
            mask |= 1u << i;
    }
    putVarint(frame, mask);
    if (baseline) {
        quint32 baseMask = 0;
        for (std::size_t i = 0; i < ValueCount; ++i)
            baseMask |= state.values[i] != 0 ? 1u << i : 0;
        putVarint(frame, baseMask);
        for (std::size_t i = 0; i < ValueCount; ++i) {
            if (baseMask & (1u << i))
                putVarint(frame, state.values[i]);
        }
    }
    for (std::size_t i = 0; i < ValueCount; ++i) {
        if (mask & (1u << i))
            putVarint(frame, zigzag(qint64(deltas[i])));
    }
    state.values = values;
}

Status RecordingWriter::addBatch(const SampleBatch &batch)
{
    // New devices (or a new field count) are declared in their own frame before the sample frame uses them.
    for (const DeviceSample &sample : batch.devices) {
        auto it = m_devices.find(sample.name());
        if (it != m_devices.end() && it->fieldCount == sample.counters.fieldCount)
            continue;
        if (it == m_devices.end()) {
            it = m_devices.insert(sample.name(), DeviceState {});
            it->id = m_nextDeviceId++;
        }
        it->fieldCount = sample.counters.fieldCount;
        it->lastBatch = -1; // a redeclared device starts from a baseline again
        QByteArray payload;
        putVarint(payload, it->id);
        putVarint(payload, quint64(std::max(0, sample.counters.fieldCount)));
        putVarint(payload, sample.counters.devnum);
        payload.append(sample.name().toUtf8());
        if (Status s = writeFrame(DeviceFrame, payload); !s)
            return s;
    }

    QByteArray frame;
    frame.reserve(16 + batch.devices.size() * 32);
    const qint64 monotonicUs = batch.monotonicNs / 1000;
    putVarint(frame, zigzag(batch.wallMs - m_lastWallMs));
    putVarint(frame, zigzag(monotonicUs - m_lastMonotonicUs));
    putVarint(frame, quint64(std::llround(std::max(0.0, batch.elapsedSeconds) * 1e6)));
    putVarint(frame, zigzag(qint64(batch.sequence - m_lastSequence)));
    putVarint(frame, quint64(batch.devices.size()));
    for (const DeviceSample &sample : batch.devices) {
        DeviceState &state = m_devices[sample.name()];
        // A device absent from the previous batch (new, or back after vanishing) starts a new series.
        const bool baseline = state.lastBatch != m_batches - 1 || m_batches == 0;
        appendDevice(frame, state, sample, baseline);
        state.lastBatch = m_batches;
    }
    if (Status s = writeFrame(SampleFrame, frame); !s)
        return s;
    m_lastWallMs = batch.wallMs;
    m_lastMonotonicUs = monotonicUs;
    m_lastSequence = batch.sequence;
    ++m_batches;
    m_deviceSamples += batch.devices.size();
    return Status::success();
}

Status RecordingWriter::addLatency(const QList<std::pair<QString, DeviceLatency>> &intervals)
{
    if (m_batches == 0)
        return Status::failure(QStringLiteral("latency before the first sample batch"));
    QByteArray frame;
    putVarint(frame, quint64(intervals.size()));
    for (const auto &[name, latency] : intervals) {
        const auto state = m_devices.constFind(name);
        if (state == m_devices.constEnd() || state->lastBatch != m_batches - 1)
            return Status::failure(QStringLiteral("latency of %1, which the last batch did not carry").arg(name));
        putVarint(frame, state->id);
        putVarint(frame, latency.lost);
        appendHistogram(frame, latency.device);
        appendHistogram(frame, latency.queue);
    }
    return writeFrame(LatencyFrame, frame);
}

Status RecordingWriter::addMarker(double epochSeconds, const QString &label)
{
    return writeJsonFrame(MarkerFrame, { { QStringLiteral("t"), epochSeconds }, { QStringLiteral("label"), label } });
}

Status RecordingWriter::addNote(double epochSeconds, const QString &text)
{
    return writeJsonFrame(NoteFrame, { { QStringLiteral("t"), epochSeconds }, { QStringLiteral("text"), text } });
}

Status RecordingWriter::addFioProgress(double epochSeconds, const QJsonObject &fioStatus)
{
    return writeJsonFrame(
        FioProgressFrame, { { QStringLiteral("t"), epochSeconds }, { QStringLiteral("status"), fioStatus } });
}

Status RecordingWriter::addFioResult(const QJsonObject &fioFinal, const QStringList &fioArgv)
{
    return writeJsonFrame(FioResultFrame,
        { { QStringLiteral("argv"), QJsonArray::fromStringList(fioArgv) }, { QStringLiteral("result"), fioFinal } });
}

Status RecordingWriter::finish()
{
    if (m_finished)
        return Status::failure(QStringLiteral("recording %1 is already finished").arg(m_file->path()));
    const Status s = writeJsonFrame(EndFrame,
        { { QStringLiteral("ended_epoch_ms"), double(QDateTime::currentMSecsSinceEpoch()) },
            { QStringLiteral("batches"), double(m_batches) },
            { QStringLiteral("device_samples"), double(m_deviceSamples) } });
    m_finished = true;
    // Renamed into place even without its end frame: the frames before a failed write are whole.
    const Status committed = m_file->commit();
    return s ? committed : s;
}

} // namespace dmtune
