#include "core/latency/latencyintervals.h"

#include "core/latency/latencystream.h"
#include "core/stats/samplebatch.h"
#include "core/sysfs/sysfsroot.h"

#include <QSet>

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
        return R::failure(watched.errorMessage());
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
    QSet<BlockDeviceNumber> inBatch;
    for (const DeviceSample &d : batch.devices) {
        const BlockDeviceNumber number = blockDeviceNumber(d.counters);
        if (!m_probe->isWatched(number))
            continue;
        const DeviceLatency now = m_probe->read(number);
        out.append({ d.name(), now.since(m_before.value(number)) });
        m_before.insert(number, now);
        inBatch.insert(number);
    }
    // A watched device the sampler does not have in this batch appears in a later one with its counters counted
    // from this tick (or from a later one: this is read again every tick): its histograms start here too.
    for (const BlockDeviceNumber number : m_probe->watched()) {
        if (!inBatch.contains(number))
            m_before.insert(number, m_probe->read(number));
    }
    return out;
}

} // namespace dmtune
