#include "core/latency/timeabovepaths.h"

#include <cmath>

namespace dmtune {

double timeAbove(double mapMean, const QList<PathShare> &paths)
{
    double ios = 0;
    double weighted = 0;
    for (const PathShare &p : paths) {
        ios += p.ios;
        weighted += p.ios * p.mean;
    }
    return ios > 0 ? mapMean - weighted / ios : std::nan("");
}

std::optional<TimeAbovePaths> timeAbovePaths(const LatencyHistogram &map, const QList<LatencyHistogram> &paths)
{
    TimeAbovePaths t;
    t.mapIos = map.total();
    QList<PathShare> shares;
    for (const LatencyHistogram &p : paths) {
        t.pathIos += p.total();
        if (!p.isEmpty())
            shares.append({ double(p.total()), p.meanUs() });
    }
    if (t.mapIos == 0 || t.pathIos == 0)
        return std::nullopt;
    t.mapMeanUs = map.meanUs();
    t.aboveUs = timeAbove(t.mapMeanUs, shares);
    t.pathsMeanUs = t.mapMeanUs - t.aboveUs;
    return t;
}

QString timeAbovePathsFormula()
{
    return QStringLiteral("above = mean device time of the map - (sum of the paths' device time / sum of their I/Os)");
}

} // namespace dmtune
