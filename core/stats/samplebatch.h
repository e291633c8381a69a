#pragma once
// What one sampler tick hands out: for every watched device seen at this tick and the previous one, its raw
// counters, the interval's deltas and the requests in flight; the iostat metrics over the interval on demand.
#include "core/stats/diskcounters.h"
#include "core/stats/iostatmetrics.h"

#include <QList>
#include <QMetaType>

namespace dmtune {

struct DeviceSample {
    DiskCounters counters; // at this tick
    CounterDeltas deltas; // since the previous tick, clamped (see counterDeltas)
    // Reads, writes in flight at this tick (/sys/block/X/inflight); InflightUnknown when not read.
    std::array<quint32, 2> inflight {};

    // iostat -x over the batch's interval (pass SampleBatch::elapsedSeconds). Computed when asked rather than
    // stored: a tick of 4,096 devices would write 768 KB of doubles that most ticks nobody reads.
    IostatMetrics metrics(double elapsedSeconds) const
    {
        return IostatMetrics::fromDeltas(deltas, elapsedSeconds, inflight[0], inflight[1]);
    }
    const QString &name() const { return counters.name; }
};

struct SampleBatch {
    qint64 wallMs = 0; // ms since the epoch when the counters were read (for display and markers)
    qint64 monotonicNs = 0; // CLOCK_MONOTONIC at the read (for arithmetic on time)
    double elapsedSeconds = 0; // monotonic time since the previous read: the rates' denominator
    quint64 sequence = 0; // 1 for the first interval after start()
    QList<DeviceSample> devices;

    // nullptr when the device is not in this batch.
    const DeviceSample *find(const QString &name) const;
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::SampleBatch)
