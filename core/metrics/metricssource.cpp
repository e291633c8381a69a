#include "core/metrics/metricssource.h"

#include <limits>

namespace dmtune {

const DiskCounters *CounterFrame::find(const QString &name) const
{
    for (const DiskCounters &d : devices) {
        if (d.name == name)
            return &d;
    }
    return nullptr;
}

SampleBatch batchBetween(const CounterFrame &prev, const CounterFrame &cur, const QStringList &devices)
{
    SampleBatch batch;
    batch.monotonicNs = cur.timeNs;
    batch.wallMs = cur.timeNs / 1'000'000;
    batch.elapsedSeconds = double(cur.timeNs - prev.timeNs) / 1e9;
    const auto add = [&](const DiskCounters &now) {
        const DiskCounters *before = prev.find(now.name);
        if (!before)
            return;
        DeviceSample sample;
        sample.counters = now;
        counterDeltas(*before, now, &sample.deltas);
        // Without the split (sources fill {0, 0} where they know nothing is in flight) its columns are unknown.
        sample.inflight = cur.inflight.value(now.name, { InflightUnknown, InflightUnknown });
        batch.devices.append(sample);
    };
    if (devices.isEmpty()) {
        for (const DiskCounters &now : cur.devices)
            add(now);
    } else {
        for (const QString &name : devices) {
            if (const DiskCounters *now = cur.find(name))
                add(*now);
        }
    }
    return batch;
}

void withoutMissingFields(const std::array<bool, DiskFieldCount> &hasField, IostatMetrics *metrics)
{
    const auto has = [&](DiskField f) { return hasField[std::size_t(f)]; };
    const auto unknown = [&](std::initializer_list<Metric> list) {
        for (const Metric m : list)
            (*metrics)[m] = std::numeric_limits<double>::quiet_NaN();
    };
    if (!has(DiskField::ReadMerges))
        unknown({ Metric::ReadMergesPerSec, Metric::ReadMergedPercent });
    if (!has(DiskField::ReadSectors))
        unknown({ Metric::ReadKBPerSec, Metric::ReadRequestSize });
    if (!has(DiskField::ReadTicks))
        unknown({ Metric::ReadAwait });
    if (!has(DiskField::WriteMerges))
        unknown({ Metric::WriteMergesPerSec, Metric::WriteMergedPercent });
    if (!has(DiskField::WriteSectors))
        unknown({ Metric::WriteKBPerSec, Metric::WriteRequestSize });
    if (!has(DiskField::WriteTicks))
        unknown({ Metric::WriteAwait });
    if (!has(DiskField::DiscardIos))
        unknown({ Metric::DiscardsPerSec, Metric::DiscardKBPerSec, Metric::DiscardMergesPerSec,
            Metric::DiscardMergedPercent, Metric::DiscardAwait, Metric::DiscardRequestSize });
    if (!has(DiskField::FlushIos))
        unknown({ Metric::FlushesPerSec, Metric::FlushAwait });
    if (!has(DiskField::TimeInQueue))
        unknown({ Metric::AverageQueueSize });
    if (!has(DiskField::IoTicks))
        unknown({ Metric::Utilization });
}

QStringList resolveFrameDevices(const CounterFrame &frame, const QStringList &wanted, QStringList *missing)
{
    QStringList names;
    for (const QString &want : wanted) {
        QString name;
        if (frame.find(want))
            name = want;
        else
            name = frame.dmNames.key(want);
        if (name.isEmpty()) {
            if (missing)
                missing->append(want);
            continue;
        }
        if (!names.contains(name))
            names.append(name);
    }
    return names;
}

} // namespace dmtune
