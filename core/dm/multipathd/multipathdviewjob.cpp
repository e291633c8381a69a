#include "core/dm/multipathd/multipathdviewjob.h"

#include "core/dm/multipathd/multipathdclient.h"

namespace dmtune {

MultipathdMapsQuery liveMultipathdMaps()
{
    return [] {
        if (!MultipathdClient::isRunning())
            return Result<QList<MultipathdMapView>>::failure(QStringLiteral("multipathd is not running"));
        return MultipathdClient().showMaps();
    };
}

JobId askMultipathdMapView(JobTracker &jobs, const QString &map,
    std::function<void(const std::optional<MultipathdMapView> &)> done, MultipathdMapsQuery query)
{
    return jobs.startLatest(
        QStringLiteral("multipathd map view"), QStringLiteral("ask multipathd about %1").arg(map),
        [map, query = std::move(query)](JobContext &) -> std::optional<MultipathdMapView> {
            const auto maps = query ? query() : Result<QList<MultipathdMapView>>::failure(QString());
            if (!maps)
                return std::nullopt;
            const auto found = findMultipathdMap(maps.value(), map);
            if (!found)
                return std::nullopt;
            return found.value();
        },
        std::move(done));
}

} // namespace dmtune
