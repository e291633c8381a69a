#pragma once
// Recordings as chart data: every recording's devices (a map and its paths) as chart devices, their replayed
// metric histories shifted so that each recording's workload starts at x = 0 (RecordingComparison's
// alignment), and the markers at the same shifted times. Used by the report and the compare view alike.
#include "core/recordings/recordedlatency.h"
#include "core/recordings/recording.h"
#include "widgets/charts/chartmarker.h"
#include "widgets/charts/chartpanel.h"

#include <QImage>

namespace dmtune {

struct AlignedCharts {
    QList<ChartDevice> devices; // name "1:loop0" (recording number, kernel name), label "#1 loop0"
    QHash<QString, QList<TimedMetrics>> histories; // by ChartDevice::name; times in seconds from the start
    QList<ChartMarker> markers; // times in seconds from the start
    double lower = 0, upper = 0; // the x range that shows every recording whole
};

// histories: replayHistories() of each recording in the same order (computed when empty).
AlignedCharts alignRecordings(
    const QList<Recording> &recordings, QList<QHash<QString, QList<TimedMetrics>>> histories = {});

// Puts the aligned data on a panel: devices, graphs, markers, the elapsed-time axis and the whole range with a
// little room on both sides (a marker at the very start or end is not drawn on the frame).
void showAligned(ChartPanel &panel, const AlignedCharts &charts);

// One panel rendered off screen to an image, its markers numbered (ChartPanel::MarkerLabels::Numbered).
Result<QImage> renderAlignedChart(ChartPanelKind kind, const AlignedCharts &charts, QSize size = QSize(960, 360));
// The same as a vector picture (the PDF's charts), with where its parts were drawn and its axes' ranges.
QPicture renderAlignedPicture(ChartPanelKind kind, const AlignedCharts &charts, QSize size,
    QList<ChartPanel::Part> *parts = nullptr, ChartPanel::Ranges *ranges = nullptr);

// ---- latency (recordings made with --histogram: Recording::hasLatency)

class LatencyHeatMap;

// The devices whose latency frames counted I/O over the workload window, in deviceNames() order.
QStringList latencyDevices(const Recording &recording);
// Puts `device`'s latency frames on a heat map: an interval per batch that has latency frames (an empty one where
// the device had none), x in seconds since the workload start, the recording's markers and notes. Replots.
void showRecordedLatency(LatencyHeatMap &map, const Recording &recording, const QString &device);
// The same drawn off screen at `size` (logical pixels), `scale` times as many real ones; titled `title` (else the
// device's name).
QImage renderRecordedLatency(
    const Recording &recording, const QString &device, QSize size, double scale = 1.0, const QString &title = {});
// compareLatency()'s row as overlaid distributions, a series per recording ("#1 loop0"), drawn off screen.
QImage renderLatencyDistribution(const LatencyComparisonRow &row, QSize size, double scale = 1.0);

// The rows of the latency tables: I/Os, mean, p50, p90, p99, p99.9 of a histogram (device time).
struct LatencyStatistic {
    QString name; // "I/Os", "mean (µs)", "p50 (µs)" ...
    double value = 0; // NaN where nothing was counted
};
QList<LatencyStatistic> latencyStatistics(const LatencyHistogram &histogram);
// The statistics' names alone, in the same order.
QStringList latencyStatisticNames();
// A value as the tables show it ("—" for NaN), and its change against `reference`: "+164" (µs or I/Os), "+100 %".
QString latencyValueText(double value);
QString latencyDeltaText(double value, double reference);
QString latencyDeltaPercentText(double value, double reference);

} // namespace dmtune
