#include "widgets/charts/latencydistribution.h"

#include "widgets/charts/chartstyle.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/qcp_p.h"

#include <cmath>

namespace dmtune {

LatencyDistributionChart::LatencyDistributionChart(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    latencyaxis::setUpPlot(this, m_plot);
    m_plot->xAxis->setLabel(tr("device time"));
    m_plot->yAxis->setLabel(tr("share of the I/O (%)"));
    // The legend on a row of its own under the plot, as the heat map's.
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), std::max(7, font().pointSize() - 1)));
    m_plot->legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(2, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_plot->legend->setBorderPen(Qt::NoPen);
    setSeries({});
}

LatencyDistributionChart::~LatencyDistributionChart() = default;

void LatencyDistributionChart::setTitle(const QString &title)
{
    if (auto *text = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        text->setText(title);
}

double LatencyDistributionChart::sharePercent(int s, int bucket) const
{
    if (s < 0 || s >= m_series.size() || bucket < 0 || bucket >= latencybuckets::Count)
        return std::nan("");
    const LatencyHistogram &h = m_series[s].histogram;
    const quint64 total = h.total();
    return total == 0 ? std::nan("") : 100.0 * double(h.counts[size_t(bucket)]) / double(total);
}

std::pair<int, int> LatencyDistributionChart::bucketRange() const
{
    int lo = latencybuckets::Count;
    int hi = -1;
    for (const Series &s : m_series) {
        for (int b = 0; b < latencybuckets::Count; ++b) {
            if (s.histogram.counts[size_t(b)] > 0) {
                lo = std::min(lo, b);
                hi = std::max(hi, b);
            }
        }
    }
    if (hi < 0)
        return { 1, 21 }; // nothing: 1 us to 1 ms, as the heat map
    return { std::max(0, lo - 1), std::min(latencybuckets::Count - 1, hi + 1) };
}

void LatencyDistributionChart::setSeries(const QList<Series> &series)
{
    m_series = series;
    m_plot->clearGraphs();
    m_plot->clearItems();
    const auto [lo, hi] = bucketRange();
    double top = 0;
    for (qsizetype s = 0; s < m_series.size(); ++s) {
        const Series &one = m_series[s];
        const QColor color = chartstyle::deviceColor(int(s));
        QCPGraph *graph = m_plot->addGraph();
        // A step per bucket, as wide as the bucket: the shape of the histogram, the lines comparable.
        graph->setLineStyle(QCPGraph::lsStepCenter);
        graph->setPen(QPen(color, 1.8, s == 0 ? Qt::SolidLine : Qt::DashLine));
        QVector<double> keys;
        QVector<double> values;
        for (int b = lo; b <= hi; ++b) {
            const double share = sharePercent(int(s), b);
            keys.append(b);
            values.append(std::isfinite(share) ? share : 0.0);
            top = std::max(top, values.last());
        }
        const quint64 ios = one.histogram.total();
        if (ios == 0) {
            graph->setName(tr("%1: no I/O").arg(one.name));
            continue;
        }
        graph->setData(keys, values, true);
        graph->setName(tr("%1: p50 %2 µs, p99 %3 µs, %4 I/Os")
                           .arg(one.name)
                           .arg(one.histogram.percentileUs(0.5), 0, 'f', 1)
                           .arg(one.histogram.percentileUs(0.99), 0, 'f', 1)
                           .arg(ios));
        // Where its p50 and p99 fall: short ticks at the top of the plot in the series' colour.
        for (double p : { 0.5, 0.99 }) {
            auto *line = new QCPItemLine(m_plot);
            const double x = latencyaxis::coordinate(one.histogram.percentileUs(p));
            line->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
            line->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
            line->start->setCoords(x, 0);
            line->end->setCoords(x, 1);
            line->setPen(QPen(color, 1, p == 0.5 ? Qt::DotLine : Qt::DashDotLine));
        }
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int step = hi - lo > 16 ? 4 : 2;
    for (int b = lo + (lo % 2 == 0 ? 1 : 0); b <= hi; b += step)
        ticker->addTick(b - 0.5, latencyaxis::boundLabel(latencybuckets::lowerUs(b)));
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(lo - 0.5, hi + 0.5);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QImage LatencyDistributionChart::toImage(QSize size, double scale)
{
    QImage image = m_plot->toPixmap(size.width(), size.height(), scale).toImage();
    image.setDevicePixelRatio(scale);
    return image;
}

} // namespace dmtune
