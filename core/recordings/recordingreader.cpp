#include "core/recordings/recordingreader.h"

#include "core/recordings/recordingformat.h"
#include "core/util/fd.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>

namespace dmtune {

using namespace recordingformat;

namespace {

Result<QJsonObject> jsonPayload(QByteArrayView payload)
{
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(payload.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return Result<QJsonObject>::failure(QStringLiteral("bad JSON: %1").arg(error.errorString()));
    return doc.object();
}

RecordingMeta metaFromHeader(const QJsonObject &h)
{
    RecordingMeta meta;
    meta.title = h.value(QStringLiteral("title")).toString();
    meta.host = h.value(QStringLiteral("host")).toString();
    meta.kernel = h.value(QStringLiteral("kernel")).toString();
    // A double from the file: clamped before the conversion (out of range it would be undefined).
    const double startedMs = std::clamp(h.value(QStringLiteral("started_epoch_ms")).toDouble(), -8.64e15, 8.64e15);
    meta.started = QDateTime::fromMSecsSinceEpoch(std::isfinite(startedMs) ? qint64(startedMs) : 0, Qt::UTC);
    meta.intervalSeconds = h.value(QStringLiteral("interval_s")).toDouble();
    for (const QJsonValue &d : h.value(QStringLiteral("devices")).toArray())
        meta.devices.append(d.toString());
    meta.configuration = h.value(QStringLiteral("configuration")).toObject();
    return meta;
}

// Per device id: index into Recording::devices, and its newest values while batches are decoded.
struct DecodeState {
    QHash<quint64, int> deviceIndex;
    QList<RecordedValues> last;
    qint64 wallMs = 0;
    qint64 monotonicUs = 0;
    quint64 sequence = 0;
    qsizetype latencyBatch = -1; // the batch the last latency frame belonged to
};

QString parseDevice(QByteArrayView payload, Recording &rec, DecodeState &state)
{
    VarintReader r(payload);
    const quint64 id = r.next();
    const quint64 fieldCount = r.next();
    const quint64 devnum = r.next();
    if (!r.ok() || fieldCount > DiskFieldCount)
        return QStringLiteral("malformed device frame");
    RecordedDevice device { QString::fromUtf8(r.rest()), devnum, int(fieldCount) };
    if (device.name.isEmpty())
        return QStringLiteral("device frame without a name");
    const auto known = state.deviceIndex.constFind(id);
    if (known != state.deviceIndex.constEnd()) { // redeclared (its field count changed)
        rec.devices[*known] = device;
        return {};
    }
    state.deviceIndex.insert(id, int(rec.devices.size()));
    rec.devices.append(device);
    state.last.append(RecordedValues {});
    return {};
}

QString parseSamples(QByteArrayView payload, Recording &rec, DecodeState &state)
{
    VarintReader r(payload);
    RecordedBatch batch;
    // Differences from the file, added modulo 2^64 (a crafted one must not overflow a signed sum); a clock
    // whose nanoseconds do not fit 64 bits is no clock of this machine (fuzz_recordingreader found it).
    state.wallMs = qint64(quint64(state.wallMs) + quint64(r.nextSigned()));
    state.monotonicUs = qint64(quint64(state.monotonicUs) + quint64(r.nextSigned()));
    constexpr qint64 maxMonotonicUs = std::numeric_limits<qint64>::max() / 1000;
    if (state.monotonicUs > maxMonotonicUs || state.monotonicUs < -maxMonotonicUs)
        return QStringLiteral("monotonic clock out of range (%1 µs)").arg(state.monotonicUs);
    batch.wallMs = state.wallMs;
    batch.monotonicNs = state.monotonicUs * 1000;
    batch.elapsedSeconds = double(r.next()) / 1e6;
    state.sequence += quint64(r.nextSigned());
    batch.sequence = state.sequence;
    const quint64 count = r.next();
    if (!r.ok())
        return QStringLiteral("malformed sample frame header");
    // Every device-sample takes at least 2 bytes (id, mask): a count the payload cannot hold is a lie, and the
    // room reserved is what the bytes present can fill, never what the count claims.
    const quint64 room = quint64(payload.size() - r.position()) / 2;
    if (count > room)
        return QStringLiteral("claims %1 device-samples in %2 bytes").arg(count).arg(payload.size() - r.position());
    batch.samples.reserve(qsizetype(std::min<quint64>(count, 4096)));
    for (quint64 n = 0; n < count; ++n) {
        const quint64 id = r.next();
        const quint64 mask = r.next();
        const auto index = state.deviceIndex.constFind(id);
        if (!r.ok())
            return QStringLiteral("sample %1 is cut short").arg(n);
        if (index == state.deviceIndex.constEnd())
            return QStringLiteral("sample %1 names undeclared device id %2").arg(n).arg(id);
        if (mask >= (quint64(BaselineFlag) << 1))
            return QStringLiteral("sample %1 has an unknown flag (mask %2)").arg(n).arg(mask, 0, 16);
        RecordedSample sample;
        sample.device = *index;
        RecordedValues &prev = state.last[*index];
        if (mask & BaselineFlag) {
            sample.hasBaseline = true;
            const quint64 baseMask = r.next();
            for (int i = 0; i < ValueCount; ++i)
                sample.baseline[i] = (baseMask & (1u << i)) ? r.next() : 0;
            prev = sample.baseline;
        }
        for (int i = 0; i < ValueCount; ++i)
            sample.values[i] = prev[i] + ((mask & (1u << i)) ? quint64(r.nextSigned()) : 0);
        if (!r.ok())
            return QStringLiteral("sample %1 is cut short").arg(n);
        prev = sample.values;
        batch.samples.append(sample);
    }
    if (!r.atEnd())
        return QStringLiteral("%1 bytes after the last sample").arg(payload.size() - r.position());
    rec.deviceSamples += qint64(count);
    rec.batches.append(std::move(batch));
    return {};
}

QString parseHistogram(VarintReader &r, LatencyHistogram &h)
{
    h.sumNs = r.next();
    const quint64 used = r.next();
    if (used > quint64(h.counts.size()))
        return QStringLiteral("claims %1 histogram buckets of %2").arg(used).arg(h.counts.size());
    qint64 previous = -1;
    for (quint64 n = 0; n < used; ++n) {
        const quint64 bucket = r.next();
        const quint64 count = r.next();
        if (!r.ok())
            return QStringLiteral("histogram cut short");
        if (bucket >= quint64(h.counts.size()) || qint64(bucket) <= previous)
            return QStringLiteral("histogram bucket %1 out of order or range").arg(bucket);
        h.counts[bucket] = count;
        previous = qint64(bucket);
    }
    return {};
}

// The probe's histograms over the last batch's interval.
QString parseLatency(QByteArrayView payload, Recording &rec, DecodeState &state)
{
    if (rec.batches.isEmpty())
        return QStringLiteral("latency before the first sample frame");
    RecordedBatch &batch = rec.batches.last();
    if (state.latencyBatch == rec.batches.size() - 1)
        return QStringLiteral("a second latency frame for one batch");
    state.latencyBatch = rec.batches.size() - 1;
    VarintReader r(payload);
    const quint64 count = r.next();
    // Each entry takes at least 6 bytes (id, lost, two empty histograms): the count must fit the payload.
    if (!r.ok() || count > quint64(payload.size() - r.position()) / 6)
        return QStringLiteral("claims %1 latency entries in %2 bytes").arg(count).arg(payload.size());
    for (quint64 n = 0; n < count; ++n) {
        const quint64 id = r.next();
        const auto index = state.deviceIndex.constFind(id);
        if (!r.ok())
            return QStringLiteral("latency entry %1 is cut short").arg(n);
        if (index == state.deviceIndex.constEnd())
            return QStringLiteral("latency entry %1 names undeclared device id %2").arg(n).arg(id);
        RecordedLatency entry;
        entry.device = *index;
        entry.latency.lost = r.next();
        if (QString e = parseHistogram(r, entry.latency.device); !e.isEmpty())
            return QStringLiteral("latency entry %1: %2").arg(n).arg(e);
        if (QString e = parseHistogram(r, entry.latency.queue); !e.isEmpty())
            return QStringLiteral("latency entry %1: %2").arg(n).arg(e);
        if (!r.ok())
            return QStringLiteral("latency entry %1 is cut short").arg(n);
        batch.latency.append(entry);
    }
    if (!r.atEnd())
        return QStringLiteral("%1 bytes after the last latency entry").arg(payload.size() - r.position());
    rec.hasLatency = true;
    return {};
}

QString parseJsonFrame(char type, QByteArrayView payload, Recording &rec)
{
    static constexpr char jsonTypes[] = { MarkerFrame, NoteFrame, FioProgressFrame, FioResultFrame, EndFrame };
    if (std::find(std::begin(jsonTypes), std::end(jsonTypes), type) == std::end(jsonTypes))
        return QStringLiteral("unknown frame type 0x%1").arg(quint8(type), 2, 16, QLatin1Char('0'));
    const Result<QJsonObject> json = jsonPayload(payload);
    if (!json)
        return json.errorMessage();
    const QJsonObject &o = json.value();
    const double t = o.value(QStringLiteral("t")).toDouble();
    switch (type) {
    case MarkerFrame:
        rec.markers.append({ t, o.value(QStringLiteral("label")).toString() });
        break;
    case NoteFrame:
        rec.notes.append({ t, o.value(QStringLiteral("text")).toString() });
        break;
    case FioProgressFrame:
        rec.fioProgress.append({ t, o.value(QStringLiteral("status")).toObject() });
        break;
    case FioResultFrame: {
        RecordedFioResult result;
        for (const QJsonValue &a : o.value(QStringLiteral("argv")).toArray())
            result.argv.append(a.toString());
        result.result = o.value(QStringLiteral("result")).toObject();
        rec.fioResults.append(result);
        break;
    }
    case EndFrame:
        rec.complete = true;
        break;
    default:
        return QStringLiteral("unknown frame type 0x%1").arg(quint8(type), 2, 16, QLatin1Char('0'));
    }
    return {};
}

} // namespace

Result<Recording> parseRecording(QByteArrayView bytes)
{
    Recording rec;
    rec.fileBytes = bytes.size();
    if (bytes.size() < MagicSize || !bytes.startsWith(QByteArrayView(Magic, sizeof Magic)))
        return Result<Recording>::failure(QStringLiteral("not a dmtune recording (no DMTREC magic)"));
    rec.formatVersion = quint8(bytes[6]);
    if (rec.formatVersion != Version)
        return Result<Recording>::failure(QStringLiteral("recording format version %1; this dmtune reads version %2")
                                              .arg(rec.formatVersion)
                                              .arg(int(Version)));

    DecodeState state;
    qsizetype pos = MagicSize;
    for (int frame = 0; pos < bytes.size(); ++frame) {
        const qsizetype frameStart = pos;
        const char type = bytes[pos];
        VarintReader lengthReader(bytes.sliced(pos + 1, std::min<qsizetype>(10, bytes.size() - pos - 1)));
        const quint64 length = lengthReader.next();
        const qsizetype payloadStart = pos + 1 + lengthReader.position();
        if (!lengthReader.ok() || length > quint64(bytes.size() - payloadStart)) {
            if (frame == 0)
                return Result<Recording>::failure(QStringLiteral("the header frame is incomplete"));
            // Appending stopped inside this frame: everything before it is whole.
            rec.truncated = true;
            rec.truncation = QStringLiteral("file ends inside frame %1 at offset %2 (%3 bytes ignored)")
                                 .arg(frame)
                                 .arg(frameStart)
                                 .arg(bytes.size() - frameStart);
            break;
        }
        const QByteArrayView payload = bytes.sliced(payloadStart, qsizetype(length));
        pos = payloadStart + qsizetype(length);
        QString error;
        if (frame == 0) {
            if (type != HeaderFrame)
                return Result<Recording>::failure(
                    QStringLiteral("frame 0 at offset %1 is not the header").arg(frameStart));
            const Result<QJsonObject> header = jsonPayload(payload);
            if (!header)
                error = header.errorMessage();
            else {
                rec.header = header.value();
                rec.meta = metaFromHeader(rec.header);
            }
        } else if (type == HeaderFrame) {
            error = QStringLiteral("a second header");
        } else if (type == DeviceFrame) {
            error = parseDevice(payload, rec, state);
            rec.sampleFrameBytes += pos - frameStart;
        } else if (type == SampleFrame) {
            error = parseSamples(payload, rec, state);
            rec.sampleFrameBytes += pos - frameStart;
        } else if (type == LatencyFrame) {
            error = parseLatency(payload, rec, state);
            rec.latencyFrameBytes += pos - frameStart;
        } else {
            error = parseJsonFrame(type, payload, rec);
        }
        if (!error.isEmpty())
            return Result<Recording>::failure(QStringLiteral("frame %1 ('%2') at offset %3: %4")
                                                  .arg(frame)
                                                  .arg(QLatin1Char(type))
                                                  .arg(frameStart)
                                                  .arg(error));
    }
    return rec;
}

Result<Recording> readRecording(const QString &path)
{
    // O_NONBLOCK: a FIFO planted under a recording's name must not hang the open; fstat then refuses it.
    const Fd fd(::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0)
        return Result<Recording>::failure(
            QStringLiteral("cannot open %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        return Result<Recording>::failure(QStringLiteral("%1: not a regular file").arg(path));
    if (st.st_size > MaxRecordingFileBytes)
        return Result<Recording>::failure(QStringLiteral("%1: %2 MiB, over the %3 MiB a recording may have")
                                              .arg(path)
                                              .arg(QString::number(double(st.st_size) / double(1 << 20), 'f', 1))
                                              .arg(MaxRecordingFileBytes >> 20));
    // Read what fstat said and no more (a file still being recorded grows: its last frame reads as cut short).
    QByteArray bytes(qsizetype(st.st_size), Qt::Uninitialized);
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Result<Recording>::failure(
                QStringLiteral("cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        if (n == 0)
            break;
        done += n;
    }
    bytes.truncate(done);
    Result<Recording> rec = parseRecording(bytes);
    if (!rec)
        return Result<Recording>::failure(QStringLiteral("%1: %2").arg(path, rec.errorMessage()));
    rec.value().path = path;
    return rec;
}

} // namespace dmtune
