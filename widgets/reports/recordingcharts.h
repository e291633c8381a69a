#pragma once
// Recordings as chart data: every recording's devices (a map and its paths) as chart devices, their replayed
// metric histories shifted so that each recording's workload starts at x = 0 (RecordingComparison's
// alignment), and the markers at the same shifted times. Used by the report and the compare view alike.
#include "charts/chartmarker.h"
#include "charts/chartpanel.h"
#include "recordings/recording.h"

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

} // namespace dmtune
