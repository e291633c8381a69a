#include "reports/recordingcharts.h"

#include "charts/chartstyle.h"
#include "recordings/recordingreplay.h"

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
        return Result<QImage>::failure(s.errorMessage);
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

} // namespace dmtune
