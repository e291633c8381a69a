#include "core/stats/seriesstore.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dmtune {

SeriesStore::SeriesStore(qint64 retentionMs)
    : m_retentionUs(std::max<qint64>(retentionMs, 1) * 1000)
{
}

void SeriesStore::setRetention(qint64 retentionMs)
{
    m_retentionUs = std::max<qint64>(retentionMs, 1) * 1000;
    for (auto it = m_devices.begin(); it != m_devices.end();) {
        evict(it->second, m_newestUs - m_retentionUs);
        it = it->second.segments.empty() ? m_devices.erase(it) : std::next(it);
    }
    m_lastOrder.clear();
}

void SeriesStore::clear()
{
    m_devices.clear();
    m_lastOrder.clear();
    m_lastBatch = 0;
    m_lastBatchSize = -1;
    m_batchesSinceSweep = 0;
    m_newestUs = 0;
    m_haveClockOffset = false;
}

void SeriesStore::endSeries(const QString &device)
{
    const auto it = m_devices.find(device);
    if (it != m_devices.end())
        endSegment(it->second);
}

void SeriesStore::endSegment(DeviceHistory &history)
{
    if (history.segments.empty() || !history.segments.back().open)
        return;
    Segment &s = history.segments.back();
    s.open = false;
    // A closed segment only shrinks from now on: give back the spare capacity of its last block.
    if (!s.blocks.empty())
        s.blocks.back().bytes.shrink_to_fit();
}

SeriesStore::DeviceHistory &SeriesStore::historyFor(const QString &name, qsizetype position)
{
    const std::size_t i = std::size_t(position);
    if (i < m_lastOrder.size() && m_lastOrder[i].first.constData() == name.constData())
        return *m_lastOrder[i].second;
    DeviceHistory &history = m_devices[name];
    if (i >= m_lastOrder.size())
        m_lastOrder.resize(i + 1);
    m_lastOrder[i] = { name, &history };
    return history;
}

void SeriesStore::append(const SampleBatch &batch)
{
    const qint64 endUs = batch.monotonicNs / 1000;
    if (!m_haveClockOffset) {
        m_wallMinusMonotonicUs = batch.wallMs * 1000 - endUs;
        m_haveClockOffset = true;
    }
    // A batch that does not follow the previous one (a restarted sampler) ends every open segment.
    if (m_lastBatch == 0 || batch.sequence != m_lastBatch + 1) {
        for (auto &entry : m_devices)
            endSegment(entry.second);
    }
    m_newestUs = std::max(m_newestUs, endUs);
    const qint64 cutoffUs = m_newestUs - m_retentionUs;
    for (qsizetype i = 0; i < batch.devices.size(); ++i) {
        const DeviceSample &sample = batch.devices[i];
        DeviceHistory &history = historyFor(sample.name(), i);
        const bool continues = !history.segments.empty() && history.segments.back().open
            && history.lastBatch == m_lastBatch && m_lastBatch != 0;
        if (!continues) {
            endSegment(history);
            const qint64 dtUs = std::llround(batch.elapsedSeconds * 1e6);
            Segment fresh;
            fresh.startUs = endUs - dtUs;
            fresh.lastEndUs = fresh.startUs;
            history.segments.push_back(std::move(fresh));
        }
        Segment &segment = history.segments.back();
        // From the previous end, not from elapsedSeconds: µs timestamps that never drift over an hour.
        const qint64 dtUs = endUs - segment.lastEndUs;
        if (dtUs <= 0) {
            endSegment(history); // the clock did not advance: leave a gap
            continue;
        }
        push(segment, sample, endUs, dtUs);
        history.lastBatch = batch.sequence;
        evict(history, cutoffUs); // while its memory is at hand
    }
    m_lastBatch = batch.sequence;

    // Devices not in this batch (vanished, no longer watched) end their segment and age out here: at once
    // when the batch's device count changed, else every 64 batches (a pass over every history costs a cache
    // miss per device; the steady state needs none).
    if (batch.devices.size() == m_lastBatchSize && ++m_batchesSinceSweep < 64)
        return;
    m_lastBatchSize = batch.devices.size();
    m_batchesSinceSweep = 0;
    bool erased = false;
    for (auto it = m_devices.begin(); it != m_devices.end();) {
        DeviceHistory &history = it->second;
        if (!history.segments.empty() && history.segments.back().open && history.lastBatch != batch.sequence)
            endSegment(history);
        evict(history, cutoffUs);
        if (history.segments.empty()) {
            it = m_devices.erase(it);
            erased = true;
        } else {
            ++it;
        }
    }
    if (erased)
        m_lastOrder.clear(); // it may point at an erased history
}

void SeriesStore::push(Segment &segment, const DeviceSample &sample, qint64 endUs, qint64 dtUs)
{
    if (segment.blocks.empty() || segment.blocks.back().count == BlockSamples) {
        if (!segment.blocks.empty())
            segment.blocks.back().bytes.shrink_to_fit();
        segment.blocks.emplace_back();
        segment.encoder.reset();
    }
    const HistoryValues values = toHistoryValues(sample.deltas, sample.inflight, quint64(dtUs));
    Block &block = segment.blocks.back();
    segment.encoder.encode(values, &block.bytes);
    ++block.count;
    ++segment.count;
    segment.lastEndUs = endUs;
}

void SeriesStore::evict(DeviceHistory &history, qint64 cutoffUs)
{
    while (!history.segments.empty()) {
        Segment &s = history.segments.front();
        while (s.count > 0) {
            const Block &front = s.blocks.front();
            SampleDecoder decoder = s.frontDecoder;
            HistoryValues values;
            const quint8 *begin = front.bytes.data();
            const quint8 *next = decoder.decode(begin + s.frontOffset, begin + front.bytes.size(), &values);
            Q_ASSERT(next); // the bytes were written by this store's encoder
            const qint64 dtUs = qint64(values.v[HistoryValues::DtMicros]);
            if (!next || s.startUs + dtUs >= cutoffUs)
                break;
            s.startUs += dtUs;
            --s.count;
            s.evictedAny = true;
            if (++s.frontIndex == front.count && s.blocks.size() > 1) {
                s.blocks.erase(s.blocks.begin());
                s.frontOffset = 0;
                s.frontIndex = 0;
                s.frontDecoder.reset();
            } else {
                s.frontOffset = std::size_t(next - begin);
                s.frontDecoder = decoder;
            }
        }
        if (s.count == 0 && !s.open) {
            history.segments.pop_front();
            continue;
        }
        if (s.count == 0) { // open and empty: start again with a fresh block
            s.blocks.clear();
            s.frontOffset = 0;
            s.frontIndex = 0;
            s.frontDecoder.reset();
        }
        break;
    }
}

double SeriesStore::toEpochSeconds(qint64 monotonicUs) const
{
    return double(monotonicUs + m_wallMinusMonotonicUs) / 1e6;
}

template<typename Visit>
void SeriesStore::visit(const DeviceHistory &history, double sinceSeconds, Visit &&visit) const
{
    for (const Segment &s : history.segments) {
        qint64 endUs = s.startUs;
        bool first = true;
        for (std::size_t b = 0; b < s.blocks.size(); ++b) {
            const Block &block = s.blocks[b];
            SampleDecoder decoder;
            if (b == 0)
                decoder = s.frontDecoder;
            const quint8 *p = block.bytes.data() + (b == 0 ? s.frontOffset : 0);
            const quint8 *const end = block.bytes.data() + block.bytes.size();
            for (quint32 i = b == 0 ? s.frontIndex : 0; i < block.count && p; ++i) {
                HistoryValues values;
                p = decoder.decode(p, end, &values);
                if (!p)
                    break;
                const quint64 dtUs = values.v[HistoryValues::DtMicros];
                endUs += qint64(dtUs);
                const double time = toEpochSeconds(endUs);
                if (time < sinceSeconds)
                    continue;
                const CounterDeltas d = deltasOf(values);
                const double dt = double(dtUs) / 1e6;
                const bool segmentStart = first && !s.evictedAny && b == 0 && i == 0;
                visit(time, dt,
                    IostatMetrics::fromDeltas(d, dt,
                        quint32(std::min<quint64>(values.v[HistoryValues::InflightReads], 0xffffffffU)),
                        quint32(std::min<quint64>(values.v[HistoryValues::InflightWrites], 0xffffffffU))),
                    first, segmentStart);
                first = false;
            }
        }
    }
}

QStringList SeriesStore::devices() const
{
    QStringList names;
    names.reserve(qsizetype(m_devices.size()));
    for (const auto &entry : m_devices)
        names.append(entry.first);
    names.sort();
    return names;
}

qsizetype SeriesStore::sampleCount(const QString &device) const
{
    const auto it = m_devices.find(device);
    if (it == m_devices.end())
        return 0;
    qsizetype n = 0;
    for (const Segment &s : it->second.segments)
        n += qsizetype(s.count);
    return n;
}

qsizetype SeriesStore::sampleCount() const
{
    qsizetype n = 0;
    for (const auto &entry : m_devices) {
        for (const Segment &s : entry.second.segments)
            n += qsizetype(s.count);
    }
    return n;
}

qsizetype SeriesStore::sampleBytes() const
{
    qsizetype bytes = 0;
    for (const auto &entry : m_devices) {
        for (const Segment &s : entry.second.segments) {
            bytes += qsizetype(s.blocks.capacity() * sizeof(Block));
            for (const Block &block : s.blocks)
                bytes += qsizetype(block.bytes.capacity());
        }
    }
    return bytes;
}

MetricSeries SeriesStore::series(const QString &device, Metric metric, double sinceSeconds) const
{
    MetricSeries out;
    const auto it = m_devices.find(device);
    if (it == m_devices.end())
        return out;
    const qsizetype n = sampleCount(device) + qsizetype(it->second.segments.size());
    out.times.reserve(n);
    out.values.reserve(n);
    visit(it->second, sinceSeconds, [&](double time, double dt, const IostatMetrics &m, bool firstOfSegment, bool) {
        // Segments are separated by time the device was not sampled: break the line there.
        if (firstOfSegment && !out.times.isEmpty()) {
            out.times.append(time - dt);
            out.values.append(std::numeric_limits<double>::quiet_NaN());
        }
        out.times.append(time);
        out.values.append(m[metric]);
    });
    return out;
}

QList<TimedMetrics> SeriesStore::history(const QString &device, double sinceSeconds) const
{
    QList<TimedMetrics> out;
    const auto it = m_devices.find(device);
    if (it == m_devices.end())
        return out;
    out.reserve(sampleCount(device));
    visit(it->second, sinceSeconds, [&](double time, double dt, const IostatMetrics &m, bool, bool startsSegment) {
        out.append(TimedMetrics { time, dt, m, startsSegment });
    });
    return out;
}

} // namespace dmtune
