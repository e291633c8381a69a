#pragma once
// One metric of a sweep against the first parameter's values (sweepChartData()): a line per series with
// error bars of the spread over the repeats; the values as category ticks, in the order they were given.
#include "core/experiments/sweepseries.h"

#include <QImage>
#include <QWidget>

class QCustomPlot;

namespace dmtune {

class SweepChart : public QWidget {
    Q_OBJECT
public:
    explicit SweepChart(QWidget *parent = nullptr);

    void setData(const SweepChartData &data);
    const SweepChartData &data() const { return m_data; }
    QCustomPlot *plot() const { return m_plot; }
    // The line drawn instead of axes while there are no results; empty when there are.
    QString idleText() const;
    // The chart as the report embeds it.
    QImage toImage(QSize size) const;

private:
    QCustomPlot *m_plot = nullptr;
    SweepChartData m_data;
};

// The chart of `data` drawn off screen at `size` (logical pixels), `scale` times as many real ones, with a title
// above the plot when one is given.
QImage renderSweepChart(const SweepChartData &data, QSize size, double scale, const QString &title = {});

} // namespace dmtune
