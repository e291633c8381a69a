#pragma once
// Where a request-based map's time goes: the map's mean device time against the share-weighted mean of its
// paths' (each path weighted by the I/Os it carried, which is the paths' summed time over their summed I/Os).
// The difference is time spent above the paths, in dm's own queue and completion (esxtop's KAVG beside
// DAVG). Pure.
#include "core/latency/latencyhistogram.h"

#include <QList>
#include <QString>

#include <optional>

namespace dmtune {

// One path's part in the weighting: the I/O it completed (a count or a rate) and its mean latency.
struct PathShare {
    double ios = 0;
    double mean = 0;
};
// The one formula: mapMean - sum of share(path) x mean(path), share = the path's I/O / all paths' I/O. NaN when
// the paths completed nothing. The diagnosis rule time-above-paths uses it on iostat's await, the latency
// probe's report on device time.
double timeAbove(double mapMean, const QList<PathShare> &paths);

struct TimeAbovePaths {
    quint64 mapIos = 0;
    quint64 pathIos = 0;
    double mapMeanUs = 0;
    double pathsMeanUs = 0; // sum of the paths' device time / sum of their I/Os
    double aboveUs = 0; // mapMeanUs - pathsMeanUs
};

// Nothing when the map or its paths completed no I/O over the interval.
std::optional<TimeAbovePaths> timeAbovePaths(const LatencyHistogram &map, const QList<LatencyHistogram> &paths);

// The formula, for tooltips and help: one line.
QString timeAbovePathsFormula();

} // namespace dmtune
