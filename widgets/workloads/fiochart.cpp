#include "widgets/workloads/fiochart.h"

#include "widgets/charts/axisticks.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <QHBoxLayout>

namespace dmtune {

using chartstyle::deviceColor;
using chartstyle::markerColor;

namespace {

QCustomPlot *makePlot(QWidget *parent, const QString &title, const QString &left, const QString &right)
{
    auto *plot = new QCustomPlot(parent);
    // Room for a plot area of 120 px under the title row and over the time axis.
    plot->setMinimumSize(FioChart::MinimumPlotWidth, FioChart::MinimumPlotHeight);
    plot->plotLayout()->setMargins(QMargins(0, 0, 0, 0));
    const QFont small(plot->font().family(), 8);
    // The title and the legend share one row: every pixel of the dock's height goes to the curves.
    plot->plotLayout()->insertRow(0);
    auto *top = new QCPLayoutGrid;
    plot->plotLayout()->addElement(0, 0, top);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    top->addElement(0, 0, new QCPTextElement(plot, title, QFont(plot->font().family(), 9, QFont::Bold)));
    plot->legend->setVisible(true);
    plot->legend->setFont(small);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setIconSize(18, 8);
    plot->legend->setMargins(QMargins(4, 0, 4, 0));
    plot->axisRect()->insetLayout()->take(plot->legend);
    top->addElement(0, 1, plot->legend);
    top->setColumnStretchFactors({ 1, 0.001 });
    // The time axis' unit is in the tab's title ("s since fio started"): its own label row cost the curves 14 px.
    plot->yAxis->setLabel(left);
    plot->yAxis->setTicker(axisticks::siTicker()); // 150k, not 150000
    if (!right.isEmpty()) {
        plot->yAxis2->setVisible(true);
        plot->yAxis2->setLabel(right);
        plot->yAxis2->setTicker(axisticks::siTicker());
    }
    for (QCPAxis *axis : { plot->xAxis, plot->yAxis, plot->yAxis2 })
        axis->setTickLabelFont(small);
    plot->xAxis->setTickLabelPadding(1);
    axisticks::keepReadable(plot);
    return plot;
}

QCPGraph *addGraph(QCustomPlot *plot, QCPAxis *valueAxis, const QString &name, const QColor &color, Qt::PenStyle style)
{
    QCPGraph *g = plot->addGraph(plot->xAxis, valueAxis);
    g->setName(name);
    g->setPen(QPen(color, 1, style));
    return g;
}

} // namespace

FioChart::FioChart(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_throughput = makePlot(this, tr("fio: IOPS, MiB/s"), tr("IOPS (1/s)"), QStringLiteral("MiB/s"));
    addGraph(m_throughput, m_throughput->yAxis, tr("IOPS"), deviceColor(0), Qt::SolidLine);
    addGraph(m_throughput, m_throughput->yAxis2, QStringLiteral("MiB/s"), deviceColor(1), Qt::DashLine);
    m_latency = makePlot(this, tr("fio: clat"), QStringLiteral("clat (us)"), QString());
    addGraph(m_latency, m_latency->yAxis, QStringLiteral("p50"), deviceColor(0), Qt::SolidLine);
    addGraph(m_latency, m_latency->yAxis, QStringLiteral("p99"), deviceColor(2), Qt::DashLine);
    layout->addWidget(m_throughput);
    layout->addWidget(m_latency);
    clear();
}

void FioChart::clear()
{
    for (QCustomPlot *plot : { m_throughput, m_latency }) {
        for (int i = 0; i < plot->graphCount(); ++i)
            plot->graph(i)->data()->clear();
        plot->clearItems();
        plot->xAxis->setRange(0, 10);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_start = 0;
    m_points = 0;
}

void FioChart::addRates(double epochSeconds, const QList<FioRates> &rates)
{
    if (rates.isEmpty())
        return;
    if (m_start == 0)
        m_start = epochSeconds - rates.first().seconds; // the first object covers the time since the start
    const double x = epochSeconds - m_start;
    double iops = 0, bytes = 0;
    for (const FioRates &r : rates) {
        iops += r.iops();
        bytes += r.bytesPerSecond();
    }
    m_throughput->graph(0)->addData(x, iops);
    m_throughput->graph(1)->addData(x, bytes / (1024.0 * 1024.0));
    if (rates.first().clat.samples > 0 || !rates.first().clat.perInterval) {
        m_latency->graph(0)->addData(x, rates.first().clat.p50Ns / 1000.0);
        m_latency->graph(1)->addData(x, rates.first().clat.p99Ns / 1000.0);
    }
    ++m_points;
    rescale();
}

void FioChart::addMarker(double epochSeconds, const QString &label)
{
    if (m_start == 0)
        m_start = epochSeconds;
    const double x = epochSeconds - m_start;
    const bool end = label.contains(QLatin1String("stop")) || label.contains(QLatin1String("end"));
    for (QCustomPlot *plot : { m_throughput, m_latency }) {
        auto *line = new QCPItemStraightLine(plot);
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setPen(QPen(markerColor(end ? MarkerKind::WorkloadStop : MarkerKind::WorkloadStart), 1, Qt::DashLine));
        // Short labels on the side away from the other marker: start and end of a short run never overlap.
        auto *text = new QCPItemText(plot);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(x, 0.02);
        text->setPositionAlignment((end ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        text->setPadding(QMargins(3, 0, 3, 0));
        text->setText(label.section(u':', 0, 0).section(u' ', -1));
        text->setFont(QFont(plot->font().family(), 8));
    }
    rescale();
}

void FioChart::rescale()
{
    for (QCustomPlot *plot : { m_throughput, m_latency }) {
        bool found = false;
        const QCPRange keys = plot->graph(0)->data()->keyRange(found);
        plot->xAxis->setRange(0, std::max(10.0, found ? keys.upper + 1 : 10.0));
        for (int i = 0; i < plot->graphCount(); ++i) {
            bool ok = false;
            const QCPRange values = plot->graph(i)->data()->valueRange(ok);
            QCPAxis *axis = plot->graph(i)->valueAxis();
            if (ok)
                axis->setRange(0, std::max(values.upper * 1.15, 1.0));
        }
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace dmtune
