#pragma once
// fio's own view of a running workload, per second: IOPS and bandwidth on one chart, completion-latency p50
// and p99 on the other, on the same wall-clock axis as the device statistics, with start/stop markers.
#include "core/workloads/fiostream.h"

#include <QWidget>

class QCustomPlot;

namespace dmtune {

class FioChart : public QWidget {
    Q_OBJECT
public:
    // Each chart's least size: a plot area of 120 px high under its title and over its time axis.
    static constexpr int MinimumPlotWidth = 200;
    static constexpr int MinimumPlotHeight = 170;

    explicit FioChart(QWidget *parent = nullptr);

    void clear();
    // One point per series at `epochSeconds` (the rates of every group added up; latency of the first group).
    void addRates(double epochSeconds, const QList<FioRates> &rates);
    void addMarker(double epochSeconds, const QString &label);
    int pointCount() const { return m_points; }
    QCustomPlot *throughputPlot() const { return m_throughput; }
    QCustomPlot *latencyPlot() const { return m_latency; }

private:
    void rescale();

    QCustomPlot *m_throughput = nullptr;
    QCustomPlot *m_latency = nullptr;
    double m_start = 0;
    int m_points = 0;
};

} // namespace dmtune
