#pragma once
// The charted samples as CSV with iostat's column names, the format of `dmtunectl stat --csv`:
// "timestamp,Device,r/s,rkB/s,...,%util,inflight_r,inflight_w", one row per device and interval, ordered by
// time (ISO 8601 local time with milliseconds, the interval's end).
#include "core/util/result.h"

#include <QString>
#include <QStringList>

namespace dmtune {

class SeriesStore;

namespace samplecsv {

// devices empty: every device of the store. sinceSeconds: epoch seconds (0: everything retained).
QString toCsv(const SeriesStore &store, const QStringList &devices, double sinceSeconds = 0);
Status write(const QString &path, const SeriesStore &store, const QStringList &devices, double sinceSeconds = 0);

} // namespace samplecsv

} // namespace dmtune
