#pragma once
// sysstat's iostat -x arithmetic, and nothing else: no I/O, no clock. Feed it two counter snapshots (or their
// deltas) and the seconds between them.
#include "core/stats/diskcounters.h"
#include "core/stats/metriccatalog.h"

#include <array>

namespace dmtune {

// An in-flight split that was not read (the device had requests in flight, but nobody asked for the split:
// it costs a file read per busy device per tick). Its metrics are NaN, printed as null / empty / "–".
inline constexpr quint32 InflightUnknown = 0xffffffffU;

struct IostatMetrics {
    std::array<double, MetricCount> values {};

    double operator[](Metric m) const { return values[std::size_t(m)]; }
    double &operator[](Metric m) { return values[std::size_t(m)]; }

    // dtSeconds <= 0 gives all-zero rates (the ratios do not depend on time and are still computed).
    // The in-flight pair is not a delta: pass what /sys/block/X/inflight said at the second snapshot.
    static IostatMetrics compute(const DiskCounters &prev, const DiskCounters &cur, double dtSeconds,
        quint32 inflightReads = 0, quint32 inflightWrites = 0);
    static IostatMetrics fromDeltas(
        const CounterDeltas &delta, double dtSeconds, quint32 inflightReads = 0, quint32 inflightWrites = 0);
    // The same, written in place (the sampler fills thousands of batch entries per tick without temporaries).
    void setFromDeltas(
        const CounterDeltas &delta, double dtSeconds, quint32 inflightReads = 0, quint32 inflightWrites = 0);
};

} // namespace dmtune
