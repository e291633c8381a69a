#include "widgets/reports/recordingcharts.h"

#include "core/recordings/comparison.h"
#include "core/recordings/recordingreplay.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/latencydistribution.h"
#include "widgets/charts/latencyheatmap.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace dmtune {

namespace {

MarkerKind markerKindOf(const QString &label)
{
    if (label == RecordingWriter::fioStartLabel())
        return MarkerKind::WorkloadStart;
    if (label == RecordingWriter::fioEndLabel())
        return MarkerKind::WorkloadStop;
    return MarkerKind::ParameterChange;
}

} // namespace

AlignedCharts alignRecordings(const QList<Recording> &recordings, QList<QHash<QString, QList<TimedMetrics>>> histories)
{
    AlignedCharts out;
    if (histories.size() != recordings.size()) {
        histories.clear();
        for (const Recording &r : recordings)
            histories.append(replayHistories(r));
    }
    const bool several = recordings.size() > 1;
    int colorIndex = 0;
    int markerId = 1;
    out.lower = std::numeric_limits<double>::infinity();
    out.upper = -std::numeric_limits<double>::infinity();
    for (qsizetype r = 0; r < recordings.size(); ++r) {
        const Recording &rec = recordings[r];
        const double align = rec.alignSeconds();
        out.lower = std::min(out.lower, rec.startSeconds() - align);
        out.upper = std::max(out.upper, rec.endSeconds() - align);
        // "#2 loop0": short enough for the legends; the views and the report say which recording #2 is.
        const QString prefix = several ? QStringLiteral("#%1 ").arg(r + 1) : QString();
        for (const QString &device : rec.deviceNames()) {
            if (!histories[r].contains(device))
                continue;
            const QString key = QStringLiteral("%1:%2").arg(r + 1).arg(device);
            out.devices.append({ key, prefix + device, chartstyle::deviceColor(colorIndex++) });
            QList<TimedMetrics> shifted = histories[r].value(device);
            for (TimedMetrics &t : shifted)
                t.time -= align;
            out.histories.insert(key, shifted);
        }
        for (const RecordedEvent &m : rec.markers) {
            const double t = m.time - align;
            // The shared start line once for all recordings; the rest say whose they are.
            if (m.text == RecordingWriter::fioStartLabel() && r > 0 && std::abs(t) < 1e-6)
                continue;
            const QString label = m.text == RecordingWriter::fioStartLabel() && several ? m.text : prefix + m.text;
            out.markers.append({ markerId++, t, label, markerKindOf(m.text) });
        }
        for (const RecordedEvent &n : rec.notes)
            out.markers.append({ markerId++, n.time - align, prefix + n.text, MarkerKind::Note });
    }
    if (!(out.lower < out.upper)) {
        out.lower = 0;
        out.upper = 1;
    }
    return out;
}

void showAligned(ChartPanel &panel, const AlignedCharts &charts)
{
    panel.setDevices(charts.devices);
    panel.setElapsedTimeAxis(QCoreApplication::translate("RecordingCharts", "time since workload start (mm:ss)"));
    panel.rebuild(charts.histories, 0, 0);
    panel.clearMarkers();
    for (const ChartMarker &m : charts.markers)
        panel.addMarker(m);
    const double room = std::max(0.5, (charts.upper - charts.lower) * 0.02);
    panel.showRange(charts.lower - room, charts.upper + room);
}

Result<QImage> renderAlignedChart(ChartPanelKind kind, const AlignedCharts &charts, QSize size)
{
    ChartPanel panel(kind);
    panel.setMarkerLabels(ChartPanel::MarkerLabels::Numbered);
    panel.resize(size);
    showAligned(panel, charts);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    if (const Status s = panel.savePng(path, size.width(), size.height()); !s)
        return Result<QImage>::failure(s.errorMessage());
    QImage image(path);
    if (image.isNull())
        return Result<QImage>::failure(
            QCoreApplication::translate("RecordingCharts", "%1: the chart image could not be read back").arg(path));
    return image;
}

QPicture renderAlignedPicture(ChartPanelKind kind, const AlignedCharts &charts, QSize size,
    QList<ChartPanel::Part> *parts, ChartPanel::Ranges *ranges)
{
    ChartPanel panel(kind);
    panel.setMarkerLabels(ChartPanel::MarkerLabels::Numbered);
    panel.resize(size);
    showAligned(panel, charts);
    return panel.renderPicture(size, parts, ranges);
}

QStringList latencyDevices(const Recording &recording)
{
    const QHash<QString, DeviceLatency> sums = workloadLatency(recording);
    QStringList out;
    for (const QString &device : recording.deviceNames()) {
        if (!sums.value(device).device.isEmpty())
            out.append(device);
    }
    return out;
}

void showRecordedLatency(LatencyHeatMap &map, const Recording &recording, const QString &device)
{
    map.clear();
    map.setIntervalLimit(0);
    map.setTimeOrigin(
        recording.alignSeconds(), QCoreApplication::translate("RecordingCharts", "seconds since the workload start"));
    map.setTitle(device);
    const qsizetype index = std::find_if(recording.devices.cbegin(), recording.devices.cend(),
                                [&](const RecordedDevice &d) { return d.name == device; })
        - recording.devices.cbegin();
    for (const RecordedBatch &batch : recording.batches) {
        if (batch.latency.isEmpty())
            continue;
        DeviceLatency interval;
        for (const RecordedLatency &entry : batch.latency) {
            if (entry.device == index)
                interval += entry.latency;
        }
        map.appendInterval(batch.wallMs, interval);
    }
    QList<ChartMarker> markers;
    int id = 1;
    for (const RecordedEvent &m : recording.markers)
        markers.append({ id++, m.time, m.text, markerKindOf(m.text) });
    for (const RecordedEvent &n : recording.notes)
        markers.append({ id++, n.time, n.text, MarkerKind::Note });
    map.setMarkers(markers);
    map.replot();
}

QImage renderRecordedLatency(
    const Recording &recording, const QString &device, QSize size, double scale, const QString &title)
{
    LatencyHeatMap map;
    map.resize(size);
    showRecordedLatency(map, recording, device);
    if (!title.isEmpty())
        map.setTitle(title);
    return map.toImage(size, scale);
}

QImage renderLatencyDistribution(const LatencyComparisonRow &row, QSize size, double scale)
{
    LatencyDistributionChart chart;
    chart.resize(size);
    chart.setTitle(row.slot);
    QList<LatencyDistributionChart::Series> series;
    for (qsizetype r = 0; r < row.latency.size(); ++r) {
        if (row.latency[r])
            series.append({ QStringLiteral("#%1").arg(r + 1), row.latency[r]->device });
    }
    chart.setSeries(series);
    return chart.toImage(size, scale);
}

QStringList latencyStatisticNames()
{
    QStringList names { QCoreApplication::translate("RecordingCharts", "I/Os"),
        QCoreApplication::translate("RecordingCharts", "mean (µs)") };
    for (double p : ReportedPercentiles)
        names.append(QStringLiteral("p%1 (µs)").arg(p * 100, 0, 'g', 4)); // notation, not words
    return names;
}

QList<LatencyStatistic> latencyStatistics(const LatencyHistogram &histogram)
{
    const QStringList names = latencyStatisticNames();
    QList<LatencyStatistic> out;
    const bool counted = !histogram.isEmpty();
    out.append({ names[0], double(histogram.total()) });
    out.append({ names[1], counted ? histogram.meanUs() : std::nan("") });
    for (size_t i = 0; i < ReportedPercentiles.size(); ++i)
        out.append(
            { names[qsizetype(i) + 2], counted ? histogram.percentileUs(ReportedPercentiles[i]) : std::nan("") });
    return out;
}

QString latencyValueText(double value)
{
    return std::isfinite(value) ? statText(value) : QStringLiteral("—");
}

QString latencyDeltaText(double value, double reference)
{
    if (!std::isfinite(value) || !std::isfinite(reference))
        return QStringLiteral("—");
    const double d = value - reference;
    if (d == 0)
        return QStringLiteral("0");
    return (d > 0 ? QStringLiteral("+") : QString()) + statText(d);
}

QString latencyDeltaPercentText(double value, double reference)
{
    if (!std::isfinite(value) || !std::isfinite(reference))
        return QStringLiteral("—");
    return deltaText(value, reference);
}

} // namespace dmtune
