#pragma once
// A recording played back through the same code as live sampling: counter deltas (counterDeltas, with its
// clamping and 32-bit wrap rules), IostatMetrics::fromDeltas, SampleBatch, SeriesStore. Charts and tables of
// a recording are therefore the charts and tables the live view would have shown.
#include "core/recordings/recording.h"
#include "core/stats/seriesstore.h"

#include <QHash>

namespace dmtune {

// The sampler's batches, rebuilt: counters, deltas and metrics per device.
QList<SampleBatch> replayBatches(const Recording &recording);
// Appends every batch to the store after setting its retention to hold the whole recording.
void replayInto(const Recording &recording, SeriesStore &store);
// Per device (kernel name): every interval's metrics, time = end of the interval in epoch seconds.
QHash<QString, QList<TimedMetrics>> replayHistories(const Recording &recording);

} // namespace dmtune
