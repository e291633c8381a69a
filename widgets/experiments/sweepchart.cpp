#include "widgets/experiments/sweepchart.h"

#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <QVBoxLayout>

#include <algorithm>

namespace dmtune {

SweepChart::SweepChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumSize(320, 200); // a plot area of 120 px at 1280x720, in a window that fits the screen
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(m_plot->font().family(), 8));
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    // The legend under the plot, in one row: nothing covers the points.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(1, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    setData({});
}

void SweepChart::setData(const SweepChartData &data)
{
    m_data = data;
    m_plot->clearPlottables();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < data.xLabels.size(); ++i)
        ticker->addTick(i, data.xLabels.at(i));
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setLabel(data.xTitle);
    m_plot->yAxis->setLabel(data.yTitle);
    m_plot->xAxis->setRange(-0.5, std::max<qsizetype>(1, data.xLabels.size()) - 0.5);
    double top = 0;
    for (int s = 0; s < data.series.size(); ++s) {
        const SweepSeries &series = data.series.at(s);
        const QColor color = chartstyle::deviceColor(s);
        QCPGraph *graph = m_plot->addGraph();
        graph->setName(series.name);
        graph->setPen(QPen(color, 1.5, chartstyle::seriesPenStyle(s / 10)));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 6));
        QVector<double> x, y, e;
        for (int i = 0; i < series.x.size(); ++i) {
            x << series.x.at(i);
            y << series.mean.at(i);
            e << series.spread.at(i);
            top = std::max(top, series.mean.at(i) + series.spread.at(i));
        }
        graph->setData(x, y, true);
        auto *bars = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
        bars->removeFromLegend();
        bars->setDataPlottable(graph);
        bars->setData(e);
        bars->setPen(QPen(color, 1));
    }
    // From 0: a percentage or a rate read against zero, never against the smallest point.
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    // No results: a line saying where they come from, not an axis from 0 to 1 over nothing.
    const bool empty = data.series.isEmpty();
    for (QCPAxis *axis : { m_plot->xAxis, m_plot->yAxis }) {
        axis->setTicks(!empty);
        axis->setTickLabels(!empty);
    }
    // An empty legend's maximum width is its margins, which would cap the axis rect's column at ~50 px: out of
    // the layout while there is nothing in it, back under the plot with the first series.
    QCPLayoutGrid *grid = m_plot->plotLayout();
    const bool inGrid = grid->elements(false).contains(m_plot->legend);
    if (empty && inGrid) {
        grid->take(m_plot->legend);
        grid->simplify();
    } else if (!empty && !inGrid) {
        grid->addElement(grid->rowCount(), 0, m_plot->legend);
        grid->setRowStretchFactor(grid->rowCount() - 1, 0.001);
    }
    m_plot->legend->setVisible(!empty);
    for (int i = m_plot->itemCount() - 1; i >= 0; --i)
        m_plot->removeItem(i);
    if (empty) {
        auto *idle = new QCPItemText(m_plot);
        idle->position->setType(QCPItemPosition::ptAxisRectRatio);
        idle->position->setCoords(0.5, 0.5);
        idle->setPositionAlignment(Qt::AlignCenter);
        idle->setText(idleText());
        idle->setColor(palette().color(QPalette::PlaceholderText));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString SweepChart::idleText() const
{
    return m_data.series.isEmpty()
        ? tr("No results yet: Run sweep… charts each point as it is measured,\nOpen results… an earlier sweep's.")
        : QString();
}

QImage SweepChart::toImage(QSize size) const
{
    return m_plot->toPixmap(size.width(), size.height()).toImage();
}

QImage renderSweepChart(const SweepChartData &data, QSize size, double scale, const QString &title)
{
    SweepChart chart;
    chart.setData(data);
    if (!title.isEmpty()) {
        QCustomPlot *plot = chart.plot();
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(
            0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 9, QFont::Bold)));
    }
    chart.resize(size);
    QImage image = chart.plot()->toPixmap(size.width(), size.height(), scale).toImage();
    image.setDevicePixelRatio(scale);
    return image;
}

} // namespace dmtune
