#include "seriesstore.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dmtune {

namespace {

constexpr quint32 saturate32(quint64 v)
{
    return v > 0xffffffffULL ? 0xffffffffU : quint32(v);
}

constexpr quint16 saturate16(double v)
{
    return v >= 65535.0 ? quint16(65535) : v <= 0 ? quint16(0) : quint16(v);
}

// Which DiskField each slot of StoredSample::counters and the side rings' counters holds.
constexpr DiskField ringFields[10] = {
    DiskField::ReadIos,
    DiskField::ReadMerges,
    DiskField::ReadSectors,
    DiskField::ReadTicks,
    DiskField::WriteIos,
    DiskField::WriteMerges,
    DiskField::WriteSectors,
    DiskField::WriteTicks,
    DiskField::IoTicks,
    DiskField::TimeInQueue,
};
constexpr DiskField flushFields[2] = { DiskField::FlushIos, DiskField::FlushTicks };
constexpr DiskField discardFields[4]
    = { DiskField::DiscardIos, DiskField::DiscardMerges, DiskField::DiscardSectors, DiskField::DiscardTicks };

template<typename Side, std::size_t N>
bool fillSide(Side *side, quint32 index, const CounterDeltas &d, const DiskField (&fields)[N])
{
    side->sampleIndex = index;
    bool any = false;
    for (std::size_t i = 0; i < N; ++i) {
        side->counters[i] = saturate32(d[fields[i]]);
        any |= side->counters[i] != 0;
    }
    return any;
}

constexpr std::size_t minimumCapacity = 16;

} // namespace

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
    // A closed segment only shrinks from now on: give back the spare ring capacity.
    if (s.ring.size() > s.count) {
        std::vector<StoredSample> compact;
        compact.reserve(s.count);
        for (std::size_t i = 0; i < s.count; ++i)
            compact.push_back(s.ring[(s.head + i) % s.ring.size()]);
        s.ring = std::move(compact);
        s.head = 0;
    }
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
        if (dtUs <= 0 || dtUs > qint64(std::numeric_limits<quint32>::max())) {
            endSegment(history); // not representable (a suspend?): leave a gap
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

void SeriesStore::grow(Segment &segment, qint64 dtUs)
{
    // Aim at exactly what the retention needs at the current interval, approached by doubling so that a
    // short-lived device does not reserve an hour.
    const std::size_t target = std::size_t(m_retentionUs / std::max<qint64>(dtUs, 1)) + 2;
    const std::size_t size = segment.ring.size();
    std::size_t capacity = std::min(std::max(size * 2, minimumCapacity), target);
    // Past the target the intervals are shorter than the estimate (timer jitter, or a shorter interval set):
    // small steps, so that the ring ends close to what is kept.
    if (capacity <= size)
        capacity = size + std::max(minimumCapacity, size / 64);
    std::vector<StoredSample> bigger;
    bigger.reserve(capacity);
    for (std::size_t i = 0; i < segment.count; ++i)
        bigger.push_back(segment.ring[(segment.head + i) % size]);
    bigger.resize(capacity);
    segment.ring = std::move(bigger);
    segment.head = 0;
}

void SeriesStore::push(Segment &segment, const DeviceSample &sample, qint64 endUs, qint64 dtUs)
{
    if (segment.count == segment.ring.size())
        grow(segment, dtUs);
    StoredSample &s = segment.ring[(segment.head + segment.count) % segment.ring.size()];
    s.dtMicros = quint32(dtUs);
    s.inflightReads = saturate16(sample.metrics[Metric::InflightReads]);
    s.inflightWrites = saturate16(sample.metrics[Metric::InflightWrites]);
    for (int i = 0; i < 10; ++i)
        s.counters[i] = saturate32(sample.deltas[ringFields[i]]);
    const quint32 index = segment.firstIndex + quint32(segment.count);
    ++segment.count;
    StoredFlushDeltas flush;
    if (fillSide(&flush, index, sample.deltas, flushFields))
        segment.flushes.push(flush);
    StoredDiscardDeltas discard;
    if (fillSide(&discard, index, sample.deltas, discardFields))
        segment.discards.push(discard);
    segment.lastEndUs = endUs;
}

template<typename T>
void SeriesStore::SideRing<T>::dropBefore(quint32 sampleIndex)
{
    // Relative comparison: indices are taken modulo 2^32 like the ring's.
    while (head < items.size() && qint32(items[head].sampleIndex - sampleIndex) < 0)
        ++head;
    if (head == items.size()) {
        items.clear();
        head = 0;
    } else if (head > 64 && head * 2 > items.size()) {
        items.erase(items.begin(), items.begin() + qsizetype(head));
        head = 0;
    }
}

void SeriesStore::evict(DeviceHistory &history, qint64 cutoffUs)
{
    while (!history.segments.empty()) {
        Segment &s = history.segments.front();
        while (s.count > 0 && s.startUs + qint64(s.ring[s.head].dtMicros) < cutoffUs) {
            s.startUs += s.ring[s.head].dtMicros;
            s.head = (s.head + 1) % s.ring.size();
            --s.count;
            ++s.firstIndex;
        }
        s.flushes.dropBefore(s.firstIndex);
        s.discards.dropBefore(s.firstIndex);
        if (s.count == 0 && !s.open) {
            history.segments.pop_front();
            continue;
        }
        if (s.count == 0) { // open and empty: restart the ring from its start
            s.head = 0;
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
        const StoredFlushDeltas *flush = s.flushes.begin();
        const StoredDiscardDeltas *discard = s.discards.begin();
        bool first = true;
        for (std::size_t i = 0; i < s.count; ++i) {
            const StoredSample &stored = s.ring[(s.head + i) % s.ring.size()];
            endUs += stored.dtMicros;
            const quint32 index = s.firstIndex + quint32(i);
            const double time = toEpochSeconds(endUs);
            if (time < sinceSeconds)
                continue;
            CounterDeltas d;
            for (int k = 0; k < 10; ++k)
                d[ringFields[k]] = stored.counters[k];
            // Both side rings ascend with the sample index (relative to firstIndex, so wrapping is harmless).
            while (flush != s.flushes.end() && quint32(flush->sampleIndex - s.firstIndex) < quint32(i))
                ++flush;
            if (flush != s.flushes.end() && flush->sampleIndex == index) {
                for (int k = 0; k < 2; ++k)
                    d[flushFields[k]] = flush->counters[k];
            }
            while (discard != s.discards.end() && quint32(discard->sampleIndex - s.firstIndex) < quint32(i))
                ++discard;
            if (discard != s.discards.end() && discard->sampleIndex == index) {
                for (int k = 0; k < 4; ++k)
                    d[discardFields[k]] = discard->counters[k];
            }
            const double dt = double(stored.dtMicros) / 1e6;
            visit(time, dt, IostatMetrics::fromDeltas(d, dt, stored.inflightReads, stored.inflightWrites), first,
                i == 0 && s.firstIndex == 0);
            first = false;
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
        for (const Segment &s : entry.second.segments)
            bytes += qsizetype(s.ring.capacity() * sizeof(StoredSample) + s.flushes.bytes() + s.discards.bytes());
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
