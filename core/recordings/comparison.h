#pragma once
// Recordings side by side: per device slot and metric, mean / p50 / p95 / max over the workload of each
// recording (from its "fio start" marker to its "fio end" marker, else the whole recording), and each
// statistic's change in % against the first recording.
#include "core/recordings/deviceslots.h"
#include "core/stats/seriesstore.h"

#include <optional>

namespace dmtune {

struct MetricStats {
    int count = 0; // intervals
    double mean = 0, p50 = 0, p95 = 0, max = 0;
};

// Nearest-rank percentiles over the values (any order); count 0 for none.
MetricStats metricStats(QList<double> values);
// (value - reference) / reference in %; 0 when both are 0, NaN when only the reference is 0.
double deltaPercent(double value, double reference);
// Table text: a statistic with 0-2 decimals by size ("81234", "28.4", "0.26"); a delta as "+12 %", "-3.5 %",
// "new" (only the reference is 0).
QString statText(double value);
QString deltaText(double value, double reference);

struct ComparisonRow {
    QString slot; // DeviceSlot::label
    Metric metric;
    QList<std::optional<MetricStats>> stats; // per recording; empty where it lacks the device
};

struct Comparison {
    QStringList recordings; // display names
    QList<DeviceSlot> slots;
    QList<double> windowSeconds; // per recording: length of the compared window
    QList<ComparisonRow> rows; // slot-major, metrics in iostat order
    const ComparisonRow *find(const QString &slot, Metric metric) const;
};

// Intervals whose end lies in (alignSeconds, workloadEndSeconds + half an interval] of their recording.
QList<TimedMetrics> workloadWindow(const Recording &recording, const QList<TimedMetrics> &history);

// Every metric that is not zero throughout in all recordings (or exactly `metrics` when given).
// histories: replayHistories() of each recording, in the same order (computed when empty).
Comparison compareRecordings(const QList<Recording> &recordings,
    QList<QHash<QString, QList<TimedMetrics>>> histories = {}, const QList<Metric> &metrics = {});

} // namespace dmtune
