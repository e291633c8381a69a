#pragma once
// Latency distributions overlaid: one line per histogram (a recording's device over its workload window), x the
// probe's latency buckets on the heat map's log axis, y the share of the I/O in each bucket. The compare view and
// the report of a comparison draw one per device slot. QCustomPlot is forward-declared.
#include "core/latency/latencyhistogram.h"

#include <QImage>
#include <QList>
#include <QWidget>

class QCustomPlot;

namespace dmtune {

class LatencyDistributionChart : public QWidget {
    Q_OBJECT
public:
    struct Series {
        QString name; // the legend's: "#1 loop0"
        LatencyHistogram histogram;
    };

    explicit LatencyDistributionChart(QWidget *parent = nullptr);
    ~LatencyDistributionChart() override;

    void setTitle(const QString &title);
    // Replots. A series without I/O is left out of the plot (its legend entry says so).
    void setSeries(const QList<Series> &series);

    // What is drawn, for tests: the share in percent of series `s`'s I/O in `bucket` (NaN: no such series or no
    // I/O); the x range drawn, in buckets.
    double sharePercent(int s, int bucket) const;
    std::pair<int, int> bucketRange() const;
    QCustomPlot *plotWidget() const { return m_plot; }
    // Drawn off screen at `size` (logical pixels), `scale` times as many real ones.
    QImage toImage(QSize size, double scale = 1.0);

private:
    QCustomPlot *m_plot = nullptr;
    QList<Series> m_series;
};

} // namespace dmtune
