#pragma once
// One device's latency over time: a heat map (x: the sampler's intervals, y: the probe's latency buckets,
// colour: the share of the interval's I/O in that bucket) with the p50, p90, p99 and p99.9 lines over it.
// Fed one interval at a time (LatencyView reads the probe at each sampler tick). QCustomPlot is forward-declared.
#include "core/latency/latencyhistogram.h"
#include "widgets/charts/chartmarker.h"

#include <QImage>
#include <QList>
#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPColorMap;
class QCPGraph;

namespace dmtune {

// The latency axis of the heat map and of LatencyDistributionChart: bucket b drawn from b - 0.5 to b + 0.5.
namespace latencyaxis {
// Where a latency sits on the axis: inside its bucket in proportion; NaN for NaN.
double coordinate(double us);
// "512 µs", "1 ms", "8.2 ms", "520 ms", "1.2 s": a bucket bound with two or three significant digits, in plain
// notation.
QString boundLabel(double us);
// Both latency charts' frame: `plot` filling `chart` edge to edge, a bold title row above it.
void setUpPlot(QWidget *chart, QCustomPlot *plot);
} // namespace latencyaxis

class LatencyHeatMap : public QWidget {
    Q_OBJECT
public:
    static constexpr int MaxIntervals = 300; // 5 minutes at the default 1 s

    explicit LatencyHeatMap(QWidget *parent = nullptr);
    ~LatencyHeatMap() override;

    void setTitle(const QString &title);
    QString title() const { return m_title; }
    // A recording's view: keep up to `limit` intervals (0: all of them), and count x in seconds from
    // `epochSeconds` (the workload start) instead of back from the newest interval. Call before appending.
    void setIntervalLimit(int limit);
    void setTimeOrigin(double epochSeconds, const QString &axisLabel);
    // Adds the interval that ended at wallMs (device time); the oldest goes beyond MaxIntervals. No replot.
    void appendInterval(qint64 wallMs, const DeviceLatency &interval);
    void clear();
    // The markers of every chart (a parameter change, a workload start or stop): a line at their time while it
    // is inside the intervals shown, labelled at the top.
    void setMarkers(const QList<ChartMarker> &markers);
    // The markers drawn now, as x coordinates (seconds before the last interval), for tests.
    QList<double> drawnMarkerKeys() const;
    // Redraws once (the owner calls it once per tick).
    void replot();

    // What is drawn, for tests: the share (0..1) of column `interval` (0 = oldest kept) in `bucket`; the
    // percentile line's value in microseconds at that interval (NaN where the interval had no I/O).
    int intervalCount() const { return int(m_intervals.size()); }
    double cellShare(int interval, int bucket) const;
    quint64 intervalIos(int interval) const;
    double percentileLineUs(int interval, double fraction) const;
    // The y range drawn, in buckets (the populated ones and one more each side).
    std::pair<int, int> bucketRange() const;
    QCustomPlot *plotWidget() const { return m_plot; }
    // The line drawn in the plot instead of axes while nothing is measured ("No interval measured yet", no I/O in
    // the intervals shown); empty when the data is drawn.
    QString idleText() const { return m_idleText; }
    // Drawn off screen at `size` (logical pixels), `scale` times as many real ones: the reports' image.
    QImage toImage(QSize size, double scale = 1.0);

private:
    struct Interval {
        qint64 wallMs = 0;
        LatencyHistogram histogram;
    };
    void rebuild();
    // The markers between the keys `lower` and `upper` (the x range): their lines, then their labels.
    void placeMarkers(double lower, double upper);
    double keyOf(double epochSeconds) const; // x of a time

    QCustomPlot *m_plot = nullptr;
    QCPColorMap *m_colorMap = nullptr;
    QList<QCPGraph *> m_percentiles; // one per ReportedPercentiles
    QList<Interval> m_intervals;
    QList<ChartMarker> m_markers;
    QList<double> m_drawnMarkerKeys;
    QString m_title;
    QString m_xLabel;
    QString m_idleText;
    int m_limit = MaxIntervals;
    std::optional<double> m_origin; // epoch seconds at x = 0; none: x counts back from the newest interval
};

} // namespace dmtune
