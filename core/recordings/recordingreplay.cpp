#include "core/recordings/recordingreplay.h"

#include <algorithm>

namespace dmtune {

namespace {

DiskCounters countersOf(const RecordedDevice &device, const RecordedValues &values)
{
    DiskCounters c;
    c.name = device.name; // implicitly shared: one allocation per device for the whole replay
    c.devnum = device.devnum;
    c.fieldCount = device.fieldCount;
    std::copy_n(values.begin(), DiskFieldCount, c.fields.begin());
    return c;
}

} // namespace

QList<SampleBatch> replayBatches(const Recording &recording)
{
    QList<SampleBatch> out;
    out.reserve(recording.batches.size());
    QList<RecordedValues> previous(recording.devices.size());
    for (const RecordedBatch &rb : recording.batches) {
        SampleBatch batch;
        batch.wallMs = rb.wallMs;
        batch.monotonicNs = rb.monotonicNs;
        batch.elapsedSeconds = rb.elapsedSeconds;
        batch.sequence = rb.sequence;
        batch.devices.reserve(rb.samples.size());
        for (const RecordedSample &s : rb.samples) {
            const RecordedDevice &device = recording.devices[s.device];
            const DiskCounters prev = countersOf(device, s.hasBaseline ? s.baseline : previous[s.device]);
            DeviceSample sample;
            sample.counters = countersOf(device, s.values);
            counterDeltas(prev, sample.counters, &sample.deltas);
            sample.inflight = { quint32(s.values[DiskFieldCount]), quint32(s.values[DiskFieldCount + 1]) };
            previous[s.device] = s.values;
            batch.devices.append(std::move(sample));
        }
        out.append(std::move(batch));
    }
    return out;
}

void replayInto(const Recording &recording, SeriesStore &store)
{
    const double span = recording.endSeconds() - recording.startSeconds();
    store.setRetention(std::max(store.retention(), qint64((span + 3600) * 1000)));
    for (const SampleBatch &batch : replayBatches(recording))
        store.append(batch);
}

QHash<QString, QList<TimedMetrics>> replayHistories(const Recording &recording)
{
    SeriesStore store;
    replayInto(recording, store);
    QHash<QString, QList<TimedMetrics>> histories;
    for (const QString &device : store.devices())
        histories.insert(device, store.history(device));
    return histories;
}

} // namespace dmtune
