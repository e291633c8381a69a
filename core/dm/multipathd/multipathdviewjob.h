#pragma once
// multipathd's view of one map, asked as a job (the Path groups tab asks it after each read): the socket check
// (/proc/net/unix) and the question (`show maps json`, up to 5 s while multipathd is busy) never run on the caller's
// thread. Keyed: a newer question supersedes an older one, so only the latest map's answer arrives.
#include "core/dm/multipathd/multipathdview.h"
#include "core/jobs/jobtracker.h"

#include <functional>
#include <optional>

namespace dmtune {

using MultipathdMapsQuery = std::function<Result<QList<MultipathdMapView>>()>;
// The live daemon (MultipathdClient::showMaps); a failure when it is not listening.
MultipathdMapsQuery liveMultipathdMaps();

// `done` runs on the tracker's thread: the view, or nullopt when multipathd is not running, fails, or does not
// manage `map`.
JobId askMultipathdMapView(JobTracker &jobs, const QString &map,
    std::function<void(const std::optional<MultipathdMapView> &)> done,
    MultipathdMapsQuery query = liveMultipathdMaps());

} // namespace dmtune
