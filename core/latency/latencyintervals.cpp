#include "latency/latencyintervals.h"

#include "latency/latencystream.h"
#include "stats/samplebatch.h"
#include "sysfs/sysfsroot.h"

namespace dmtune {

Result<std::unique_ptr<BlockLatencyProbe>> openLatencyProbeFor(const SysfsRoot &root, const QStringList &devices)
{
    using R = Result<std::unique_ptr<BlockLatencyProbe>>;
    const auto numbers = latencyDeviceNumbers(root, devices);
    if (!numbers)
        return R::failure(numbers.errorMessage());
    auto probe = BlockLatencyProbe::open();
    if (!probe)
        return probe;
    if (const Status watched = probe.value()->setWatched(numbers.value()); !watched)
        return R::failure(watched.errorMessage);
    return probe;
}

BlockDeviceNumber blockDeviceNumber(const DiskCounters &counters)
{
    return { counters.majorNumber(), counters.minorNumber() };
}

QList<std::pair<QString, DeviceLatency>> LatencyIntervals::next(const SampleBatch &batch)
{
    QList<std::pair<QString, DeviceLatency>> out;
    if (!m_probe)
        return out;
    for (const DeviceSample &d : batch.devices) {
        const BlockDeviceNumber number = blockDeviceNumber(d.counters);
        if (!m_probe->isWatched(number))
            continue;
        const DeviceLatency now = m_probe->read(number);
        out.append({ d.name(), now.since(m_before.value(d.name())) });
        m_before.insert(d.name(), now);
    }
    return out;
}

} // namespace dmtune
