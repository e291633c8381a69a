#include "latency/latencyintervals.h"

#include "stats/samplebatch.h"
#include "sysfs/sysfsroot.h"

namespace dmtune {

Result<std::unique_ptr<BlockLatencyProbe>> openLatencyProbeFor(const SysfsRoot &root, const QStringList &devices)
{
    using R = Result<std::unique_ptr<BlockLatencyProbe>>;
    const QStringList names = devices.isEmpty() ? root.list(QStringLiteral("block")) : devices;
    if (names.size() > BlockLatencyProbe::MaxDevices)
        return R::failure(
            QStringLiteral("the latency probe watches at most %1 devices; name the ones to watch (%2 here)")
                .arg(BlockLatencyProbe::MaxDevices)
                .arg(names.size()));
    QList<BlockDeviceNumber> numbers;
    for (const QString &name : names) {
        const QStringList dev = root.readOr(QStringLiteral("class/block/%1/dev").arg(name)).split(u':');
        bool majorOk = false;
        bool minorOk = false;
        const BlockDeviceNumber number { dev.value(0).toUInt(&majorOk), dev.value(1).toUInt(&minorOk) };
        if (dev.size() != 2 || !majorOk || !minorOk)
            return R::failure(QStringLiteral("%1: no device number in sysfs").arg(name));
        numbers.append(number);
    }
    auto probe = BlockLatencyProbe::open();
    if (!probe)
        return probe;
    if (const Status watched = probe.value()->setWatched(numbers); !watched)
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
