#pragma once
// What one sampler tick hands out: for every watched device seen at this tick and the previous one, its raw
// counters, the interval's deltas and the iostat metrics over the same interval.
#include "diskcounters.h"
#include "iostatmetrics.h"

#include <QList>
#include <QMetaType>

namespace dmtune {

struct DeviceSample {
    DiskCounters counters; // at this tick
    CounterDeltas deltas; // since the previous tick, clamped (see counterDeltas)
    IostatMetrics metrics; // over elapsedSeconds; in-flight reads/writes at this tick
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
