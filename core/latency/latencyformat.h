#pragma once
// dmtunectl stat --histogram: the text report's latency lines and the fields added to each disk of iostat's
// JSON document. Pure.
#include "core/latency/latencyhistogram.h"
#include "core/latency/timeabovepaths.h"

#include <QJsonObject>
#include <QString>

namespace dmtune::latencyformat {

// "Device  time  I/Os  lost  mean_us  p50_us  p90_us  p99_us  p99.9_us\n"
QString summaryHeader();
// One device's two lines (device time, queue time); '-' where nothing was counted. lost: DeviceLatency::lost.
QString summaryRows(const QString &device, const DeviceLatency &latency);
// "Device  time  from_us  to_us  count\n"
QString bucketHeader();
// One line per non-empty bucket of each of the device's histograms; the last bucket's to_us is "inf".
QString bucketRows(const QString &device, const DeviceLatency &latency);

// `, "histogram": {"bounds_us": [...], "counts": [...]}, "mean_us": m, "p50_us": ..., "p99_9_us": ...,
// "queue": {same fields}` to append to an iostat JSON disk object. bounds_us are the buckets' lower bounds;
// null where nothing was counted.
QString jsonFields(const DeviceLatency &latency);

// {"ios", "lost", "mean_us", "p50_us" ... "p99_9_us", "queue": {"ios", "mean_us", "p50_us" ...}}: a
// distribution's summary without its buckets (run summaries, recordings); null where nothing was counted.
QJsonObject summaryJson(const DeviceLatency &latency);
// The same keys for one histogram.
QJsonObject percentilesJson(const LatencyHistogram &h);
// "p50_us" ... for ReportedPercentiles[i].
QString percentileKey(double fraction);

// "Map  I/Os  map_us  paths_us  above_us  path_ios\n" and one map's line.
QString aboveHeader();
QString aboveRow(const QString &map, const TimeAbovePaths &t);
// `, "above_paths": {"map_mean_us": m, "paths_mean_us": p, "above_us": a, "path_ios": n}` for a map's disk object.
QString aboveJson(const TimeAbovePaths &t);

} // namespace dmtune::latencyformat
