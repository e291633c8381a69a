#pragma once
// A sweep's results as chart series (docs/experiments.md): one metric (fio's or a device's iostat number)
// against the first parameter's values, one series per workload and value of the second parameter, each point
// its mean with the spread over the repeats. Pure: the GUI's chart and the report draw what this returns.
#include "core/experiments/sweep.h"

namespace dmtune {

struct SweepMetric {
    enum class Source { Fio, Device };
    Source source = Source::Device;
    QString key; // fio's JSON key, or iostat's (metricsToJson())
    QString label; // "%wrqm", "fio write IOPS"
    QString unit; // "%", "kB", "ms", "1/s", "MiB/s", "us"
    double scale = 1; // applied to the mean and the spread (bytes/s -> MiB/s)
};
// Every metric a sweep's results can be charted by, fio's first.
const QList<SweepMetric> &sweepMetrics();
const SweepMetric *sweepMetric(const QString &key);

// The devices measured, the sweep's own first, then the others by name.
QStringList sweepDevices(const QString &device, const QList<SweepPointResult> &results);
// A metric with no non-zero mean in any point (reads of a write sweep): not worth a chart.
bool sweepMetricIsZero(const QList<SweepPointResult> &results, const SweepMetric &metric, const QString &device);

// "queue_depth" for "device/queue_depth"
QString sweepParameterName(const QString &attribute);
// A workload as the results name it: a template's id, a job file's name.
QString sweepWorkloadName(const FioJob &job);

struct SweepValue {
    double mean = 0;
    double spread = 0;
    bool present = false; // the point measured this device (and fio) at all
};
SweepValue sweepValue(const SweepPointResult &result, const SweepMetric &metric, const QString &device);
// "72.8 ±1.1" (no "±" for a spread of 0), to the metric's precision: ms 2 decimals, rates and us none, the rest 1.
QString sweepValueText(const SweepValue &value, const SweepMetric &metric);

struct SweepSeries {
    QString name; // "seq-write-4k nr_requests=64"; the workload alone when there is nothing to tell apart
    QList<int> x; // index into SweepChartData::xLabels
    QList<double> mean, spread;
};
struct SweepChartData {
    QString xTitle; // the first parameter's name
    QStringList xLabels; // its values, as typed
    QString yTitle; // "%wrqm (%) of dm-0"
    QList<SweepSeries> series;
};
SweepChartData sweepChartData(const SweepRequest &request, const QList<SweepPointResult> &results,
    const SweepMetric &metric, const QString &device);

} // namespace dmtune
