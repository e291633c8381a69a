#pragma once
// The block-layer probe read beside the sampler: opened for a list of devices, then per batch the histograms of
// each watched device over that batch's interval (the probe counts cumulatively, like /proc/diskstats).
#include "core/latency/blocklatencyprobe.h"

#include <QString>
#include <QStringList>

#include <utility>

namespace dmtune {

class SysfsRoot;
struct SampleBatch;
struct DiskCounters;

// The probe, watching the named devices (every disk of /sys/block when none is named); fails with one line
// (no root, no BTF, too many devices, a name without a device number).
Result<std::unique_ptr<BlockLatencyProbe>> openLatencyProbeFor(const SysfsRoot &root, const QStringList &devices);

BlockDeviceNumber blockDeviceNumber(const DiskCounters &counters);

class LatencyIntervals {
public:
    explicit LatencyIntervals(const BlockLatencyProbe *probe)
        : m_probe(probe)
    {
    }
    // Each watched device of the batch, in the batch's order, with what the probe counted over the same interval
    // as its counters: since the previous call (since it was watched, when the first call has it; since the call
    // before its first batch when it came later, as the sampler counts a device that appears).
    QList<std::pair<QString, DeviceLatency>> next(const SampleBatch &batch);

private:
    const BlockLatencyProbe *m_probe;
    QHash<BlockDeviceNumber, DeviceLatency> m_before;
};

} // namespace dmtune
