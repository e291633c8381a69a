#include "core/fleet/fleetsummary.h"

#include "core/stats/iostatmetrics.h"

#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace dmtune {

QString FleetDeviceFigures::displayName() const
{
    return mapName.isEmpty() ? name : u"%1 (%2)"_s.arg(mapName, name);
}

QString fleetPathStateUnknownReason()
{
    return u"path states are not in the counters PCP 6 and node_exporter 1.5 give (dmmultipath.* in PCP 7.1+, "
           "node_dmmultipath_* in node_exporter 1.12+ would)"_s;
}

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

bool hasAll(const CounterFrame &frame, std::initializer_list<DiskField> fields)
{
    for (DiskField field : fields) {
        if (!frame.hasField[std::size_t(field)])
            return false;
    }
    return true;
}

// NaN never wins; the first finite value does.
void keepLargest(double value, const QString &device, double *largest, QString *which)
{
    if (std::isfinite(value) && (!std::isfinite(*largest) || value > *largest)) {
        *largest = value;
        *which = device;
    }
}

} // namespace

Result<FleetHostSummary> summarizeFleetInterval(const CounterFrame &prev, const CounterFrame &cur)
{
    if (cur.afterGap)
        return Result<FleetHostSummary>::failure(u"the counters restarted since the previous sample"_s);
    if (cur.timeNs <= prev.timeNs)
        return Result<FleetHostSummary>::failure(u"no newer sample than the previous one"_s);
    const SampleBatch batch = batchBetween(prev, cur);
    const bool haveAwait
        = hasAll(cur, { DiskField::ReadIos, DiskField::WriteIos, DiskField::ReadTicks, DiskField::WriteTicks });
    const bool haveMerged
        = hasAll(cur, { DiskField::ReadIos, DiskField::WriteIos, DiskField::ReadMerges, DiskField::WriteMerges });

    FleetHostSummary summary;
    summary.timeNs = cur.timeNs;
    summary.intervalSeconds = batch.elapsedSeconds;
    summary.maxUtilPercent = NaN;
    summary.worstAwaitMs = NaN;
    bool anyPathsKnown = false;
    int mapsWithoutRedundancy = 0;
    for (const DeviceSample &sample : batch.devices) {
        IostatMetrics metrics = sample.metrics(batch.elapsedSeconds);
        withoutMissingFields(cur.hasField, &metrics);
        const CounterDeltas &d = sample.deltas;
        FleetDeviceFigures figures;
        figures.name = sample.name();
        figures.mapName = cur.dmNames.value(figures.name);
        figures.isMap = figures.name.startsWith("dm-"_L1) || !figures.mapName.isEmpty();
        figures.utilPercent = metrics[Metric::Utilization];
        figures.queueSize = metrics[Metric::AverageQueueSize];
        figures.readsPerSec = metrics[Metric::ReadsPerSec];
        figures.writesPerSec = metrics[Metric::WritesPerSec];
        const double completed = double(d[DiskField::ReadIos] + d[DiskField::WriteIos]);
        const double merged = double(d[DiskField::ReadMerges] + d[DiskField::WriteMerges]);
        figures.awaitMs = !haveAwait ? NaN
            : completed > 0          ? double(d[DiskField::ReadTicks] + d[DiskField::WriteTicks]) / completed
                                     : 0.0;
        figures.mergedPercent = !haveMerged ? NaN
            : merged + completed > 0        ? 100.0 * merged / (merged + completed)
                                            : 0.0;
        if (figures.isMap) {
            ++summary.mapCount;
            if (const auto it = cur.pathsOf.constFind(figures.name); it != cur.pathsOf.constEnd()) {
                figures.paths = it.value();
                anyPathsKnown = true;
                if (it.value().size() < 2)
                    ++mapsWithoutRedundancy;
            }
        }
        keepLargest(figures.utilPercent, figures.displayName(), &summary.maxUtilPercent, &summary.busiestDevice);
        keepLargest(figures.awaitMs, figures.displayName(), &summary.worstAwaitMs, &summary.worstAwaitDevice);
        summary.devices.append(figures);
    }
    summary.deviceCount = int(summary.devices.size());
    // Redundancy is counted only when the source gave the paths of every map; a partial count would read as a
    // clean bill of health for the maps it does not know.
    bool everyMapKnown = summary.mapCount == 0 || anyPathsKnown;
    for (const FleetDeviceFigures &figures : std::as_const(summary.devices))
        everyMapKnown = everyMapKnown && (!figures.isMap || figures.paths.has_value());
    if (everyMapKnown)
        summary.mapsWithoutRedundancy = mapsWithoutRedundancy;
    summary.pathsUnknownReason = fleetPathStateUnknownReason();
    if (!everyMapKnown && summary.mapCount > 0)
        summary.pathsUnknownReason.prepend(u"this source does not give every map's paths; "_s);
    return summary;
}

} // namespace dmtune
