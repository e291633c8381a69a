#include "core/recordings/recordedlatency.h"

namespace dmtune {

QHash<QString, DeviceLatency> workloadLatency(const Recording &recording)
{
    QHash<QString, DeviceLatency> sums;
    if (!recording.hasLatency)
        return sums;
    const double from = recording.alignSeconds();
    const double to = recording.workloadEndSeconds();
    for (const RecordedBatch &batch : recording.batches) {
        const double end = double(batch.wallMs) / 1000.0;
        if (end <= from || end > to + batch.elapsedSeconds / 2)
            continue;
        for (const RecordedLatency &entry : batch.latency)
            sums[recording.devices[entry.device].name] += entry.latency;
    }
    return sums;
}

QList<LatencyComparisonRow> compareLatency(const QList<Recording> &recordings)
{
    QList<QHash<QString, DeviceLatency>> sums;
    for (const Recording &r : recordings)
        sums.append(workloadLatency(r));
    QList<LatencyComparisonRow> rows;
    for (const DeviceSlot &slot : deviceSlots(recordings)) {
        LatencyComparisonRow row { slot.label, {} };
        bool counted = false;
        for (qsizetype r = 0; r < recordings.size(); ++r) {
            const auto found = sums[r].constFind(slot.names.value(r));
            if (slot.names.value(r).isEmpty() || found == sums[r].constEnd()) {
                row.latency.append(std::nullopt);
                continue;
            }
            counted = counted || !found->device.isEmpty();
            row.latency.append(*found);
        }
        if (counted)
            rows.append(row);
    }
    return rows;
}

} // namespace dmtune
