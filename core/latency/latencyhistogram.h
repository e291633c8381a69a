#pragma once
// Latency histograms as the block-layer probe counts them: 64 buckets, two per octave, with bounds that are
// whole or half microseconds (0, 1, 1.5, 2, 3, 4, 6, 8, 12 ...), so neighbouring bounds are at most 2x apart.
// Pure values: the percentiles, the difference of two readings.
#include <QList>

#include <array>

namespace dmtune {

namespace latencybuckets {
constexpr int Count = 64;
// Bucket i holds latencies >= lowerUs(i) and < lowerUs(i + 1); the last bucket has no upper bound.
double lowerUs(int bucket);
// lowerUs(i + 1); +infinity for the last bucket.
double upperUs(int bucket);
// The bucket a latency falls in, as the BPF program files it.
int bucketOf(quint64 ns);
// The Count lower bounds, for output.
QList<double> lowerBoundsUs();
} // namespace latencybuckets

struct LatencyHistogram {
    std::array<quint64, latencybuckets::Count> counts {};
    quint64 sumNs = 0; // the exact sum of the latencies counted, for the mean

    quint64 total() const;
    bool isEmpty() const { return total() == 0; }
    double meanUs() const; // NaN when empty
    // The latency below which `fraction` (0..1) of the I/O fell, interpolated linearly inside its bucket (as
    // fio does within its own bins); NaN when empty. In the last bucket: its lower bound.
    double percentileUs(double fraction) const;
    // What was counted after `earlier` (a reading of the same device); a counter that went back (the device
    // was watched anew) counts from zero.
    LatencyHistogram since(const LatencyHistogram &earlier) const;
    LatencyHistogram &operator+=(const LatencyHistogram &other);
};

// One device's two distributions: device time (issue -> complete) and queue time (insert -> issue, for the
// requests that went through a queue; a request issued directly has none).
struct DeviceLatency {
    LatencyHistogram device;
    LatencyHistogram queue;
    // I/Os the probe saw issued but never saw complete (the kernel did not run it for that completion): in
    // neither histogram. device.total() + lost is what /proc/diskstats counted once nothing is in flight.
    quint64 lost = 0;

    DeviceLatency since(const DeviceLatency &earlier) const
    {
        return { device.since(earlier.device), queue.since(earlier.queue),
            lost >= earlier.lost ? lost - earlier.lost : lost };
    }
    DeviceLatency &operator+=(const DeviceLatency &other)
    {
        device += other.device;
        queue += other.queue;
        lost += other.lost;
        return *this;
    }
};

// The percentiles dmtune reports, as fractions: p50, p90, p99, p99.9.
constexpr std::array<double, 4> ReportedPercentiles { 0.50, 0.90, 0.99, 0.999 };

} // namespace dmtune
