#include "widgets/charts/latencyheatmap.h"

#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <QVBoxLayout>

#include <QFontMetricsF>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace dmtune {

namespace latencyaxis {

double coordinate(double us)
{
    if (!std::isfinite(us))
        return std::nan("");
    const int b = latencybuckets::bucketOf(quint64(us * 1000));
    const double lo = latencybuckets::lowerUs(b);
    const double hi = latencybuckets::upperUs(b);
    const double inside = std::isfinite(hi) && hi > lo ? std::clamp((us - lo) / (hi - lo), 0.0, 1.0) : 0.0;
    return b - 0.5 + inside;
}

void setUpPlot(QWidget *chart, QCustomPlot *plot)
{
    auto *layout = new QVBoxLayout(chart);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot);
    chart->setMinimumHeight(220);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot, QString(), QFont(chart->font().family(), -1, QFont::Bold)));
}

namespace {
// Two significant digits in plain notation: 524.3 reads "520", 8.192 "8.2", 1.024 "1" (never "5.2e+02").
QString twoDigits(double value)
{
    if (value >= 100) {
        const double step = std::pow(10.0, std::floor(std::log10(value)) - 1);
        return QString::number(std::round(value / step) * step, 'f', 0);
    }
    return QString::number(value, 'g', 2); // below 100, 'g' never takes an exponent at two digits
}
} // namespace

// The bounds are powers of two in microseconds: 1024 us reads "1 ms", 8192 us "8.2 ms", 524288 us "520 ms".
QString boundLabel(double us)
{
    if (us >= 1000000)
        return QStringLiteral("%1 s").arg(twoDigits(us / 1000000));
    if (us >= 1000)
        return QStringLiteral("%1 ms").arg(twoDigits(us / 1000));
    return QStringLiteral("%1 µs").arg(us, 0, 'g', 3); // below 1000, three digits never take an exponent
}

} // namespace latencyaxis

namespace {

using latencyaxis::boundLabel;

const QList<QColor> &percentileColors()
{
    // Apart from the map's yellows and browns: blue, teal, black, purple.
    static const QList<QColor> colors { QColor(0x1f, 0x77, 0xb4), QColor(0x17, 0xa2, 0x9a), QColor(0x20, 0x20, 0x20),
        QColor(0x94, 0x67, 0xbd) };
    return colors;
}

} // namespace

LatencyHeatMap::LatencyHeatMap(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
{
    latencyaxis::setUpPlot(this, m_plot);
    m_xLabel = tr("seconds before the last interval");
    m_plot->xAxis->setLabel(m_xLabel);
    m_plot->yAxis->setLabel(tr("device time"));

    m_colorMap = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    // Pale for a few I/Os, dark where most of the interval's I/O is: the eye goes to where the time is.
    QCPColorGradient gradient;
    gradient.setColorStops({ { 0.0, QColor(0xff, 0xf7, 0xbc) }, { 0.15, QColor(0xfe, 0xc4, 0x4f) },
        { 0.5, QColor(0xec, 0x70, 0x14) }, { 1.0, QColor(0x66, 0x25, 0x06) } });
    gradient.setNanHandling(QCPColorGradient::nhTransparent); // a bucket with no I/O shows the background
    m_colorMap->setGradient(gradient);
    m_colorMap->setDataRange(QCPRange(0, 1));
    m_colorMap->setInterpolate(false);
    auto *scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(1, 1, scale);
    scale->setGradient(gradient);
    scale->setDataRange(QCPRange(0, 1));
    scale->axis()->setLabel(tr("share of the interval's I/O"));
    m_colorMap->setColorScale(scale);
    auto *group = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);

    // The legend on a row of its own under the plot, never over the data.
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(QFont(font().family(), std::max(7, font().pointSize() - 1)));
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->addElement(2, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(2, 0.001);
    m_plot->legend->setBorderPen(Qt::NoPen);
    for (qsizetype i = 0; i < qsizetype(ReportedPercentiles.size()); ++i) {
        QCPGraph *graph = m_plot->addGraph();
        graph->setPen(QPen(percentileColors().value(i), 1.6, i == 0 ? Qt::SolidLine : Qt::DashLine));
        graph->setName(QStringLiteral("p%1").arg(ReportedPercentiles[size_t(i)] * 100, 0, 'g', 4));
        m_percentiles.append(graph);
    }
    m_colorMap->removeFromLegend();
    rebuild();
}

LatencyHeatMap::~LatencyHeatMap() = default;

void LatencyHeatMap::setTitle(const QString &title)
{
    m_title = title;
    if (auto *text = qobject_cast<QCPTextElement *>(m_plot->plotLayout()->element(0, 0)))
        text->setText(title);
}

void LatencyHeatMap::appendInterval(qint64 wallMs, const DeviceLatency &interval)
{
    m_intervals.append({ wallMs, interval.device });
    while (m_limit > 0 && m_intervals.size() > m_limit)
        m_intervals.removeFirst();
}

void LatencyHeatMap::setIntervalLimit(int limit)
{
    m_limit = std::max(0, limit);
}

void LatencyHeatMap::setTimeOrigin(double epochSeconds, const QString &axisLabel)
{
    m_origin = epochSeconds;
    m_xLabel = axisLabel;
    m_plot->xAxis->setLabel(axisLabel);
}

double LatencyHeatMap::keyOf(double epochSeconds) const
{
    if (m_origin)
        return epochSeconds - *m_origin;
    return m_intervals.isEmpty() ? 0.0 : epochSeconds - double(m_intervals.last().wallMs) / 1000;
}

QImage LatencyHeatMap::toImage(QSize size, double scale)
{
    rebuild();
    QImage image = m_plot->toPixmap(size.width(), size.height(), scale).toImage();
    image.setDevicePixelRatio(scale);
    return image;
}

void LatencyHeatMap::clear()
{
    m_intervals.clear();
}

void LatencyHeatMap::setMarkers(const QList<ChartMarker> &markers)
{
    m_markers = markers;
}

QList<double> LatencyHeatMap::drawnMarkerKeys() const
{
    return m_drawnMarkerKeys;
}

void LatencyHeatMap::replot()
{
    rebuild();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double LatencyHeatMap::cellShare(int interval, int bucket) const
{
    if (interval < 0 || interval >= m_intervals.size() || bucket < 0 || bucket >= latencybuckets::Count)
        return std::nan("");
    const LatencyHistogram &h = m_intervals[interval].histogram;
    const quint64 total = h.total();
    return total == 0 ? 0.0 : double(h.counts[size_t(bucket)]) / double(total);
}

quint64 LatencyHeatMap::intervalIos(int interval) const
{
    return interval >= 0 && interval < m_intervals.size() ? m_intervals[interval].histogram.total() : 0;
}

double LatencyHeatMap::percentileLineUs(int interval, double fraction) const
{
    if (interval < 0 || interval >= m_intervals.size())
        return std::nan("");
    return m_intervals[interval].histogram.percentileUs(fraction);
}

std::pair<int, int> LatencyHeatMap::bucketRange() const
{
    int lo = latencybuckets::Count;
    int hi = -1;
    for (const Interval &i : m_intervals) {
        for (int b = 0; b < latencybuckets::Count; ++b) {
            if (i.histogram.counts[size_t(b)] > 0) {
                lo = std::min(lo, b);
                hi = std::max(hi, b);
            }
        }
    }
    if (hi < 0)
        return { 1, 21 }; // nothing yet: 1 us to 1 ms
    return { std::max(0, lo - 1), std::min(latencybuckets::Count - 1, hi + 1) };
}

void LatencyHeatMap::rebuild()
{
    const auto [lo, hi] = bucketRange();
    const int columns = std::max(1, int(m_intervals.size()));
    const double right = m_intervals.isEmpty() ? 0.0 : keyOf(double(m_intervals.last().wallMs) / 1000);
    const double left = m_intervals.isEmpty() ? -0.001 : keyOf(double(m_intervals.first().wallMs) / 1000);
    m_colorMap->data()->setSize(columns, latencybuckets::Count);
    m_colorMap->data()->setRange(QCPRange(left, right), QCPRange(0, latencybuckets::Count - 1));
    for (int x = 0; x < columns; ++x) {
        for (int b = 0; b < latencybuckets::Count; ++b) {
            const double share = x < m_intervals.size() ? cellShare(x, b) : 0.0;
            m_colorMap->data()->setCell(x, b, share > 0 ? share : std::nan(""));
        }
    }
    for (qsizetype p = 0; p < m_percentiles.size(); ++p) {
        QList<double> keys;
        QList<double> values;
        for (const Interval &i : m_intervals) {
            keys.append(keyOf(double(i.wallMs) / 1000));
            values.append(latencyaxis::coordinate(i.histogram.percentileUs(ReportedPercentiles[size_t(p)])));
        }
        m_percentiles[p]->setData(keys, values, true);
    }
    // The y axis in latency: a tick at each octave's lower bound.
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int step = hi - lo > 16 ? 4 : 2;
    for (int b = lo + (lo % 2 == 0 ? 1 : 0); b <= hi; b += step)
        ticker->addTick(b - 0.5, boundLabel(latencybuckets::lowerUs(b)));
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(lo - 0.5, hi + 0.5);
    // A column is drawn centred on its key: half an interval of room on each side.
    const double half = columns > 1 ? (right - left) / (columns - 1) / 2 : 0.5;
    m_plot->xAxis->setRange(left - half, right + half);

    // Markers: drawn again at each rebuild, since the live axis counts back from the newest interval.
    for (int i = m_plot->itemCount() - 1; i >= 0; --i)
        m_plot->removeItem(i);
    m_drawnMarkerKeys.clear();

    // Nothing measured yet: no axis range that means nothing (an x of -1.5..0.5 s, a latency scale over no I/O),
    // one line in the plot instead.
    bool anyIo = false;
    for (const Interval &i : std::as_const(m_intervals))
        anyIo = anyIo || i.histogram.total() > 0;
    const bool timed = !m_intervals.isEmpty();
    m_plot->xAxis->setTicks(timed);
    m_plot->xAxis->setTickLabels(timed);
    m_plot->xAxis->setLabel(timed ? m_xLabel : QString());
    m_plot->yAxis->setTicks(anyIo);
    m_plot->yAxis->setTickLabels(anyIo);
    m_plot->yAxis->setLabel(anyIo ? tr("device time") : QString());
    m_idleText = !timed ? tr("No interval measured yet")
        : !anyIo        ? tr("No I/O completed on this device in the %n interval(s) shown", nullptr, columns)
                        : QString();
    if (!m_idleText.isEmpty()) {
        auto *idle = new QCPItemText(m_plot);
        idle->position->setType(QCPItemPosition::ptAxisRectRatio);
        idle->position->setCoords(0.5, 0.5);
        idle->setPositionAlignment(Qt::AlignCenter);
        idle->setText(m_idleText);
        idle->setColor(palette().color(QPalette::PlaceholderText));
    }
    if (m_intervals.isEmpty())
        return;
    placeMarkers(left - half, right + half);
}

void LatencyHeatMap::placeMarkers(double lower, double upper)
{
    // Every line first, then the labels: items draw in the order they were made, so no line crosses a label. Each
    // label beside its line on the side with room (right of it in the plot's left half, left of it in the right
    // half: "fio end" at the newest interval is not cut to "fio er"), in the first of three rows where it overlaps
    // no other label; with all three taken it is left out (the line stays; the events list names it).
    struct Placed {
        double key;
        QString text;
        QColor color;
    };
    QList<Placed> shown;
    for (const ChartMarker &marker : std::as_const(m_markers)) {
        const double key = keyOf(marker.time);
        if (key < lower || key > upper)
            continue;
        const QColor color = chartstyle::markerColor(marker.kind);
        auto *line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(key, 0);
        line->point2->setCoords(key, 1);
        line->setPen(QPen(color, 1.2, Qt::DashLine));
        shown.append({ key, marker.shortLabel(), color });
        m_drawnMarkerKeys.append(key);
    }
    std::sort(shown.begin(), shown.end(), [](const Placed &a, const Placed &b) { return a.key < b.key; });
    const QRect rect = m_plot->axisRect()->rect();
    const double pixelsPerKey = upper > lower ? rect.width() / (upper - lower) : 0;
    const QMargins padding(3, 0, 3, 0);
    const QFontMetricsF metrics(m_plot->font()); // what a QCPItemText draws with
    const double rowHeight = metrics.height() + 2;
    constexpr int rows = 3;
    std::array<std::vector<std::pair<double, double>>, rows> taken; // per row, the pixel spans of its labels
    const double middle = (lower + upper) / 2;
    for (const Placed &p : std::as_const(shown)) {
        const double x = (p.key - lower) * pixelsPerKey;
        const double width = metrics.horizontalAdvance(p.text) + padding.left() + padding.right();
        const bool rightOfLine = p.key <= middle;
        const double from = rightOfLine ? x : x - width;
        const double to = rightOfLine ? x + width : x;
        int row = 0;
        const auto overlaps = [&](int r) {
            return std::any_of(taken[size_t(r)].begin(), taken[size_t(r)].end(),
                [&](const std::pair<double, double> &span) { return from < span.second + 3 && span.first < to + 3; });
        };
        while (row < rows && overlaps(row))
            ++row;
        if (row == rows)
            continue;
        taken[size_t(row)].emplace_back(from, to);
        auto *label = new QCPItemText(m_plot);
        label->setObjectName(QStringLiteral("markerLabel"));
        label->setClipToAxisRect(true);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const double rowRatio = rect.height() > 0 ? row * rowHeight / rect.height() : row * 0.08;
        label->position->setCoords(p.key, 0.02 + rowRatio);
        label->setPositionAlignment(Qt::AlignTop | (rightOfLine ? Qt::AlignLeft : Qt::AlignRight));
        label->setPadding(padding);
        label->setText(p.text);
        label->setColor(p.color);
        label->setBrush(QBrush(QColor(255, 255, 255, 200)));
    }
}

} // namespace dmtune
