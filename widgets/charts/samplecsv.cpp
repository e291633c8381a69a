#include "widgets/charts/samplecsv.h"

#include "core/stats/iostatformat.h"
#include "core/stats/seriesstore.h"
#include "core/util/atomicfile.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace dmtune::samplecsv {

QString toCsv(const SeriesStore &store, const QStringList &devices, double sinceSeconds)
{
    const QStringList names = devices.isEmpty() ? store.devices() : devices;
    struct Row {
        double time;
        qsizetype device; // index in names: rows of one interval keep the chart's device order
        IostatMetrics metrics;
    };
    QList<Row> rows;
    for (qsizetype d = 0; d < names.size(); ++d) {
        for (const TimedMetrics &tm : store.history(names[d], sinceSeconds))
            rows.append({ tm.time, d, tm.metrics });
    }
    // Times of one batch agree across devices (one clock offset in the store): a stable sort keeps order.
    std::stable_sort(rows.begin(), rows.end(),
        [](const Row &a, const Row &b) { return a.time < b.time || (a.time == b.time && a.device < b.device); });
    QString out = iostatformat::csvHeader();
    out.reserve(out.size() + rows.size() * 160);
    for (const Row &r : std::as_const(rows)) {
        const QString stamp
            = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(r.time * 1000))).toString(Qt::ISODateWithMs);
        out += iostatformat::csvRow(stamp, { names[r.device], r.metrics });
    }
    return out;
}

Status write(const QString &path, const SeriesStore &store, const QStringList &devices, double sinceSeconds)
{
    // Not QSaveFile: it writes through a symbolic link at the name by default.
    return writeFileAtomically(path, toCsv(store, devices, sinceSeconds).toUtf8());
}

} // namespace dmtune::samplecsv
