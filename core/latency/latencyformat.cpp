#include "core/latency/latencyformat.h"

#include <QStringList>

#include <cmath>

namespace dmtune::latencyformat {

namespace {

constexpr int DeviceWidth = 16;

QString number(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 1) : QStringLiteral("-");
}

QString bound(double us)
{
    return std::isfinite(us) ? QString::number(us, 'g', 12) : QStringLiteral("inf");
}

QString jsonNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("null");
}

// 0.999 -> "p99.9"
QString percentileLabel(double fraction)
{
    return QStringLiteral("p") + QString::number(fraction * 100, 'g', 6);
}

QString summaryRow(const QString &device, const QString &kind, const LatencyHistogram &h, const QString &lost)
{
    QString line = device.leftJustified(DeviceWidth) + u' ' + kind.leftJustified(7);
    line += QString::number(h.total()).rightJustified(10) + lost.rightJustified(7);
    line += number(h.meanUs()).rightJustified(10);
    for (double p : ReportedPercentiles)
        line += number(h.percentileUs(p)).rightJustified(10);
    return line + u'\n';
}

QString histogramJson(const LatencyHistogram &h)
{
    QStringList bounds;
    QStringList counts;
    for (int i = 0; i < latencybuckets::Count; ++i) {
        bounds.append(bound(latencybuckets::lowerUs(i)));
        counts.append(QString::number(h.counts[size_t(i)]));
    }
    QString s = QStringLiteral("\"histogram\": {\"bounds_us\": [") + bounds.join(QLatin1String(", "))
        + QStringLiteral("], \"counts\": [") + counts.join(QLatin1String(", ")) + QStringLiteral("]}");
    s += QStringLiteral(", \"ios\": ") + QString::number(h.total());
    s += QStringLiteral(", \"mean_us\": ") + jsonNumber(h.meanUs());
    for (double p : ReportedPercentiles)
        s += QStringLiteral(", \"%1\": %2").arg(percentileKey(p), jsonNumber(h.percentileUs(p)));
    return s;
}

QJsonValue jsonValue(double v)
{
    return std::isfinite(v) ? QJsonValue(std::round(v * 100) / 100) : QJsonValue(QJsonValue::Null);
}

} // namespace

// 0.999 -> "p99_9_us"
QString percentileKey(double fraction)
{
    return percentileLabel(fraction).replace(u'.', u'_') + QStringLiteral("_us");
}

QJsonObject percentilesJson(const LatencyHistogram &h)
{
    QJsonObject o { { QStringLiteral("ios"), double(h.total()) },
        { QStringLiteral("mean_us"), jsonValue(h.meanUs()) } };
    for (double p : ReportedPercentiles)
        o.insert(percentileKey(p), jsonValue(h.percentileUs(p)));
    return o;
}

QJsonObject summaryJson(const DeviceLatency &latency)
{
    QJsonObject o = percentilesJson(latency.device);
    o.insert(QStringLiteral("lost"), double(latency.lost));
    o.insert(QStringLiteral("queue"), percentilesJson(latency.queue));
    return o;
}

QString summaryHeader()
{
    QString line = QStringLiteral("Device").leftJustified(DeviceWidth) + u' ' + QStringLiteral("time").leftJustified(7);
    line += QStringLiteral("I/Os").rightJustified(10) + QStringLiteral("lost").rightJustified(7)
        + QStringLiteral("mean_us").rightJustified(10);
    for (double p : ReportedPercentiles)
        line += (percentileLabel(p) + QStringLiteral("_us")).rightJustified(10);
    return line + u'\n';
}

QString summaryRows(const QString &device, const DeviceLatency &latency)
{
    return summaryRow(device, QStringLiteral("device"), latency.device, QString::number(latency.lost))
        + summaryRow(device, QStringLiteral("queue"), latency.queue, QStringLiteral("-"));
}

QString bucketHeader()
{
    return QStringLiteral("Device").leftJustified(DeviceWidth) + u' ' + QStringLiteral("time").leftJustified(7)
        + QStringLiteral("from_us").rightJustified(12) + QStringLiteral("to_us").rightJustified(12)
        + QStringLiteral("count").rightJustified(10) + u'\n';
}

QString bucketRows(const QString &device, const DeviceLatency &latency)
{
    QString s;
    const auto rows = [&](const QString &kind, const LatencyHistogram &h) {
        for (int i = 0; i < latencybuckets::Count; ++i) {
            if (h.counts[size_t(i)] == 0)
                continue;
            s += device.leftJustified(DeviceWidth) + u' ' + kind.leftJustified(7);
            s += bound(latencybuckets::lowerUs(i)).rightJustified(12)
                + bound(latencybuckets::upperUs(i)).rightJustified(12);
            s += QString::number(h.counts[size_t(i)]).rightJustified(10) + u'\n';
        }
    };
    rows(QStringLiteral("device"), latency.device);
    rows(QStringLiteral("queue"), latency.queue);
    return s;
}

QString jsonFields(const DeviceLatency &latency)
{
    return QStringLiteral(", ") + histogramJson(latency.device) + QStringLiteral(", \"lost\": %1").arg(latency.lost)
        + QStringLiteral(", \"queue\": {") + histogramJson(latency.queue) + u'}';
}

QString aboveHeader()
{
    return QStringLiteral("Map").leftJustified(DeviceWidth) + QStringLiteral("I/Os").rightJustified(10)
        + QStringLiteral("map_us").rightJustified(10) + QStringLiteral("paths_us").rightJustified(10)
        + QStringLiteral("above_us").rightJustified(10) + QStringLiteral("path_ios").rightJustified(10) + u'\n';
}

QString aboveRow(const QString &map, const TimeAbovePaths &t)
{
    return map.leftJustified(DeviceWidth) + QString::number(t.mapIos).rightJustified(10)
        + number(t.mapMeanUs).rightJustified(10) + number(t.pathsMeanUs).rightJustified(10)
        + number(t.aboveUs).rightJustified(10) + QString::number(t.pathIos).rightJustified(10) + u'\n';
}

QString aboveJson(const TimeAbovePaths &t)
{
    return QStringLiteral(", \"above_paths\": {\"map_mean_us\": %1, \"paths_mean_us\": %2, \"above_us\": %3, "
                          "\"path_ios\": %4}")
        .arg(jsonNumber(t.mapMeanUs), jsonNumber(t.pathsMeanUs), jsonNumber(t.aboveUs))
        .arg(t.pathIos);
}

} // namespace dmtune::latencyformat
