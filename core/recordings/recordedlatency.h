#pragma once
// The latency a recording holds (latency frames, written when the block-layer probe ran), summed over its
// workload window, and two or more recordings' distributions side by side per device slot.
#include "core/recordings/deviceslots.h"

#include <QHash>

#include <optional>

namespace dmtune {

// Per device name: the histograms summed over the batches whose end lies in the workload window (as
// workloadWindow() takes the counters' intervals). Empty without latency frames.
QHash<QString, DeviceLatency> workloadLatency(const Recording &recording);

struct LatencyComparisonRow {
    QString slot; // DeviceSlot::label
    QList<std::optional<DeviceLatency>> latency; // per recording; empty where it has no latency of the device
};

// The slots of deviceSlots(recordings) for which at least one recording holds latency that counted I/O.
QList<LatencyComparisonRow> compareLatency(const QList<Recording> &recordings);

} // namespace dmtune
