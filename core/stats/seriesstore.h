#pragma once
// Per-device history of the sampler's batches at full resolution, 48 bytes per device-sample, kept for a
// retention time (default 1 h). Charts pull (time, value) series of any metric out of it. Layout: docs/stats.md.
#include "samplebatch.h"

#include <QHash>
#include <QList>
#include <QString>

#include <deque>
#include <unordered_map>
#include <vector>

namespace dmtune {

// One device over one interval: the deltas the charts need, exactly, in 48 bytes.
struct StoredSample {
    quint32 dtMicros; // interval length from the monotonic clock
    quint16 inflightReads; // saturated at 65535
    quint16 inflightWrites;
    // Deltas of fields 1-8, 10 and 11 (reads, writes, busy time, weighted time), saturated at 2^32-1 (an
    // interval of at most 60 s does not come near: 2^32 sectors are 2 TiB).
    quint32 counters[10];
};
static_assert(sizeof(StoredSample) == 48, "the history budget is 48 bytes per device-sample");

// Flush (fields 16, 17) and discard (12-15) deltas of the intervals that had any, beside the ring, keyed by
// the sample's index in its segment: most intervals of most devices have none, and those that do pay
// 12 or 20 bytes more.
template<int N>
struct StoredSideDeltas {
    quint32 sampleIndex;
    quint32 counters[N];
};
using StoredFlushDeltas = StoredSideDeltas<2>;
using StoredDiscardDeltas = StoredSideDeltas<4>;
static_assert(sizeof(StoredFlushDeltas) == 12 && sizeof(StoredDiscardDeltas) == 20);

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
    // Bytes held for samples (ring capacity + flush/discard side rings), without the per-device bookkeeping.
    qsizetype sampleBytes() const;

    // The metric over time for one device, from sinceSeconds (seconds since the epoch) on.
    MetricSeries series(const QString &device, Metric metric, double sinceSeconds = 0) const;
    // All metrics per retained interval, for tables and CSV export.
    QList<TimedMetrics> history(const QString &device, double sinceSeconds = 0) const;

private:
    // A FIFO over a vector: no allocation while empty (std::deque allocates on construction), front
    // removal by index with an occasional compaction.
    template<typename T>
    struct SideRing {
        std::vector<T> items;
        std::size_t head = 0;
        void push(const T &item) { items.push_back(item); }
        void dropBefore(quint32 sampleIndex);
        const T *begin() const { return items.data() + head; }
        const T *end() const { return items.data() + items.size(); }
        std::size_t bytes() const { return items.capacity() * sizeof(T); }
    };
    struct Segment {
        std::vector<StoredSample> ring; // capacity grows towards retention / interval
        std::size_t head = 0; // index of the oldest sample
        std::size_t count = 0;
        SideRing<StoredFlushDeltas> flushes;
        SideRing<StoredDiscardDeltas> discards;
        quint32 firstIndex = 0; // sample index of ring[head] (wraps after 2^32 samples: 13 years at 10 Hz)
        qint64 startUs = 0; // monotonic µs at which the oldest sample's interval began
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
    void push(Segment &segment, const DeviceSample &sample, qint64 endUs, qint64 dtUs);
    void evict(DeviceHistory &history, qint64 cutoffUs);
    void grow(Segment &segment, qint64 dtUs);
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
