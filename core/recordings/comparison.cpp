#include "core/recordings/comparison.h"

#include "core/recordings/recordingreplay.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dmtune {

MetricStats metricStats(QList<double> values)
{
    // A value that was not measured (an unread in-flight split, NaN) is not a sample.
    values.removeIf([](double v) { return std::isnan(v); });
    MetricStats s;
    s.count = int(values.size());
    if (values.isEmpty())
        return s;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    // Nearest rank: the smallest value with at least p % of the values at or below it.
    const auto rank = [&](double p) {
        const auto k = qsizetype(std::ceil(p / 100.0 * double(values.size())));
        return values[std::clamp<qsizetype>(k - 1, 0, values.size() - 1)];
    };
    s.p50 = rank(50);
    s.p95 = rank(95);
    s.max = values.last();
    return s;
}

double deltaPercent(double value, double reference)
{
    if (reference == 0)
        return value == 0 ? 0 : std::numeric_limits<double>::quiet_NaN();
    return (value - reference) / std::abs(reference) * 100.0;
}

QString statText(double value)
{
    if (std::isnan(value))
        return QStringLiteral("n/a");
    const double a = std::abs(value);
    return QString::number(value, 'f', a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

QString deltaText(double value, double reference)
{
    const double d = deltaPercent(value, reference);
    if (std::isnan(d))
        return QStringLiteral("new");
    return QStringLiteral("%1%2 %").arg(
        d > 0 ? QStringLiteral("+") : QString(), QString::number(d, 'f', std::abs(d) >= 10 ? 0 : 1));
}

const ComparisonRow *Comparison::find(const QString &slot, Metric metric) const
{
    for (const ComparisonRow &row : rows) {
        if (row.slot == slot && row.metric == metric)
            return &row;
    }
    return nullptr;
}

QList<TimedMetrics> workloadWindow(const Recording &recording, const QList<TimedMetrics> &history)
{
    const double from = recording.alignSeconds();
    const double to = recording.workloadEndSeconds();
    QList<TimedMetrics> out;
    for (const TimedMetrics &t : history) {
        if (t.time > from && t.time <= to + t.intervalSeconds / 2)
            out.append(t);
    }
    return out;
}

Comparison compareRecordings(const QList<Recording> &recordings, QList<QHash<QString, QList<TimedMetrics>>> histories,
    const QList<Metric> &metrics)
{
    Comparison c;
    c.slots = deviceSlots(recordings);
    if (histories.size() != recordings.size()) {
        histories.clear();
        for (const Recording &r : recordings)
            histories.append(replayHistories(r));
    }
    QList<QHash<QString, QList<TimedMetrics>>> windows;
    c.recordings = distinctRecordingNames(recordings);
    for (qsizetype r = 0; r < recordings.size(); ++r) {
        c.windowSeconds.append(recordings[r].workloadEndSeconds() - recordings[r].alignSeconds());
        QHash<QString, QList<TimedMetrics>> w;
        for (auto it = histories[r].constBegin(); it != histories[r].constEnd(); ++it)
            w.insert(it.key(), workloadWindow(recordings[r], it.value()));
        windows.append(w);
    }
    const QList<Metric> &chosen = metrics.isEmpty() ? MetricCatalog::all() : metrics;
    for (const DeviceSlot &slot : c.slots) {
        for (Metric metric : chosen) {
            ComparisonRow row { slot.label, metric, {} };
            bool anyNonZero = false;
            for (qsizetype r = 0; r < recordings.size(); ++r) {
                const QString name = slot.names.value(r);
                if (name.isEmpty() || !windows[r].contains(name)) {
                    row.stats.append(std::nullopt);
                    continue;
                }
                QList<double> values;
                for (const TimedMetrics &t : windows[r].value(name))
                    values.append(t.metrics[metric]);
                const MetricStats s = metricStats(values);
                anyNonZero = anyNonZero || s.max != 0;
                row.stats.append(s);
            }
            if (anyNonZero || !metrics.isEmpty())
                c.rows.append(row);
        }
    }
    return c;
}

} // namespace dmtune
