#pragma once
// Per-device history of the sampler's batches at full resolution, kept for a retention time (default 1 h).
// Charts pull (time, value) series of any metric out of it. Samples are kept exactly but encoded
// (samplecodec.h): a few bytes for an idle device, 20-45 for a busy one (docs/stats.md).
#include "core/stats/samplebatch.h"
#include "core/stats/samplecodec.h"

#include <QHash>
#include <QList>
#include <QString>

#include <deque>
#include <unordered_map>
#include <vector>

namespace dmtune {

struct MetricSeries {
    QList<double> times; // seconds since the epoch, at the end of each interval
    QList<double> values; // NaN between two segments of a device's history (QCustomPlot draws a gap there)
};

struct TimedMetrics {
    double time; // as MetricSeries::times
    double intervalSeconds;
    IostatMetrics metrics;
    bool startsSegment; // first interval after the device appeared (or after a restart of the sampler)
};

class SeriesStore {
public:
    static constexpr qint64 DefaultRetentionMs = 60 * 60 * 1000;

    explicit SeriesStore(qint64 retentionMs = DefaultRetentionMs);

    // Samples whose interval ended more than retentionMs before the newest batch are dropped.
    void setRetention(qint64 retentionMs);
    qint64 retention() const { return m_retentionUs / 1000; }

    // Every device in the batch continues its segment, or starts one. A device missing from the batch, or a
    // batch that does not follow the previous one (sampler restarted), ends the open segment: the next
    // sample of that device starts a new one.
    void append(const SampleBatch &batch);
    // Ends a device's open segment now (connect Sampler::deviceVanished here; append() would also notice).
    void endSeries(const QString &device);
    void clear();

    QStringList devices() const;
    qsizetype sampleCount(const QString &device) const;
    qsizetype sampleCount() const;
    // Bytes held for samples (encoded blocks, their capacity and headers), without the per-device bookkeeping.
    qsizetype sampleBytes() const;

    // The metric over time for one device, from sinceSeconds (seconds since the epoch) on.
    MetricSeries series(const QString &device, Metric metric, double sinceSeconds = 0) const;
    // All metrics per retained interval, for tables and CSV export.
    QList<TimedMetrics> history(const QString &device, double sinceSeconds = 0) const;

private:
    // A segment's samples are encoded into blocks of up to BlockSamples; the encoder restarts at each block, so
    // a block decodes on its own and evicted samples give their memory back one block at a time.
    static constexpr quint32 BlockSamples = 64;
    struct Block {
        std::vector<quint8> bytes; // shrunk to its size when the next block starts
        quint32 count = 0;
    };
    struct Segment {
        std::vector<Block> blocks; // oldest first; an open segment appends to the last
        SampleEncoder encoder; // state after the last block's newest sample
        // The oldest kept sample: where it starts in blocks.front(), its index there, and the decoder's
        // state just before it (samples before it in that block were evicted).
        std::size_t frontOffset = 0;
        quint32 frontIndex = 0;
        SampleDecoder frontDecoder;
        std::size_t count = 0;
        bool evictedAny = false; // the oldest kept sample is not the segment's first
        qint64 startUs = 0; // monotonic µs at which the oldest kept sample's interval began
        qint64 lastEndUs = 0; // monotonic µs at the end of the newest sample
        bool open = true;
    };
    struct DeviceHistory {
        std::deque<Segment> segments; // oldest first; only the last may be open
        quint64 lastBatch = 0; // sequence of the batch that last extended the open segment
    };

    struct NameHash {
        std::size_t operator()(const QString &s) const noexcept { return qHash(s); }
    };
    // Node-based: a DeviceHistory stays where it is while others come and go (m_lastOrder points at them).
    using DeviceMap = std::unordered_map<QString, DeviceHistory, NameHash>;

    DeviceHistory &historyFor(const QString &name, qsizetype position);
    static void endSegment(DeviceHistory &history);
    static void push(Segment &segment, const DeviceSample &sample, qint64 endUs, qint64 dtUs);
    static void evict(DeviceHistory &history, qint64 cutoffUs);
    double toEpochSeconds(qint64 monotonicUs) const;
    template<typename Visit>
    void visit(const DeviceHistory &history, double sinceSeconds, Visit &&visit) const;

    qint64 m_retentionUs;
    qint64 m_newestUs = 0;
    qint64 m_wallMinusMonotonicUs = 0; // set by the first batch: charts show wall time, arithmetic uses monotonic
    bool m_haveClockOffset = false;
    quint64 m_lastBatch = 0;
    qsizetype m_lastBatchSize = -1;
    int m_batchesSinceSweep = 0;
    DeviceMap m_devices;
    // The histories of the last batch's devices by position, with the name they were found under: batches
    // come in the same order tick after tick with the same shared strings, so the lookup is a pointer test.
    // Holding the QString keeps its data alive: an equal pointer cannot be another, newer string.
    std::vector<std::pair<QString, DeviceHistory *>> m_lastOrder;
};

} // namespace dmtune
