#include "widgets/pathgroups/selectorchart.h"

#include "widgets/charts/chartpanel.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include "core/dm/grammar/pathselectors.h"

#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace dmtune {

namespace {

QFont atPoints(QFont font, qreal points)
{
    font.setPointSizeF(points);
    return font;
}

QColor markerColor(SelectorChartMarker::Kind kind)
{
    switch (kind) {
    case SelectorChartMarker::GroupSwitch:
        return QColor(0x1f, 0x5f, 0xbf);
    case SelectorChartMarker::PathFailed:
        return QColor(0xc0, 0x1c, 0x1c);
    case SelectorChartMarker::PathReinstated:
        return QColor(0x2a, 0x8a, 0x2a);
    case SelectorChartMarker::TableReloaded:
        return QColor(0x6b, 0x4f, 0x9f);
    }
    return Qt::gray;
}

const PathStatus *findPath(const MultipathStatus &status, const QString &device)
{
    for (const GroupStatus &group : status.groups) {
        for (const PathStatus &path : group.paths) {
            if (path.device == device)
                return &path;
        }
    }
    return nullptr;
}

void styleAxis(QCPAxis *axis, const QFont &font)
{
    axis->setTickLabelFont(font);
    axis->setLabelFont(font);
    axis->setBasePen(QPen(Qt::gray, 1));
    axis->setTickPen(QPen(Qt::gray, 1));
    axis->setSubTickPen(QPen(Qt::gray, 1));
    axis->grid()->setPen(QPen(QColor(0xe4, 0xe4, 0xe4), 1, Qt::DotLine));
}

// Axis ranges from the data in view: counters start at 0, an idle axis still shows 0..1.
void fitValueAxis(QCPAxis *axis, const QList<QCPGraph *> &graphs)
{
    double upper = 0;
    for (QCPGraph *graph : graphs) {
        bool found = false;
        const QCPRange range = graph->getValueRange(found);
        if (found)
            upper = std::max(upper, range.upper);
    }
    axis->setRange(0, upper <= 0 ? 1 : upper * 1.15);
}

constexpr int minimumPlotHeight = 110;

// QCustomPlot paints its layer buffers (ARGB, premultiplied) straight onto the window. In the lab VM (Debian 12's
// Qt 6.4 under QEMU, offscreen and Xvfb alike) the raster engine's blend of this chart's buffer into the window's
// backing store crashed (SIGSEGV in QRasterPaintEngine::drawImage, at 1400x900 and 1920x1080). The buffers are
// composed into an opaque frame of the widget's size first; the frame is then copied, not blended, to the window.
class OpaquePlot : public QCustomPlot {
public:
    using QCustomPlot::QCustomPlot;

protected:
    void paintEvent(QPaintEvent *) override
    {
        const qreal ratio = devicePixelRatioF();
        QImage frame(size() * ratio, QImage::Format_RGB32);
        frame.setDevicePixelRatio(ratio);
        frame.fill(Qt::white); // QCustomPlot's background brush
        {
            QCPPainter painter(&frame);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            drawBackground(&painter);
            for (const QSharedPointer<QCPAbstractPaintBuffer> &buffer : std::as_const(mPaintBuffers))
                buffer->draw(&painter);
        }
        QPainter(this).drawImage(0, 0, frame);
    }
};

} // namespace

SelectorChart::SelectorChart(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget;
    layout->addWidget(m_stack);
    m_message = new QLabel(tr("No status read yet."));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("selectorChartMessage"));
    m_stack->addWidget(m_message);

    m_plot = new OpaquePlot;
    m_plot->setObjectName(QStringLiteral("selectorChart"));
    m_plot->setMinimumHeight(minimumPlotHeight); // the group cards above come first in a 720-pixel window
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setNoAntialiasingOnDrag(true);
    m_stack->addWidget(m_plot);

    const QFont small = atPoints(font(), 8);
    // The default axis rect holds the legend: take it out before the layout is rebuilt.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->clear();
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(small);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setIconSize(22, 9);
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setColumnSpacing(10);
    m_plot->legend->setMargins(QMargins(4, 0, 4, 0));
    // Legend in its own row on top, then the load rect, then the (smaller) fail-count rect.
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, legendRow);
    legendRow->addElement(0, 0, new QCPLayoutElement(m_plot));
    legendRow->addElement(0, 1, m_plot->legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(m_plot));
    legendRow->setColumnStretchFactors({ 1, 0.001, 1 });

    m_loadRect = new QCPAxisRect(m_plot);
    m_failRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_loadRect);
    m_plot->plotLayout()->addElement(2, 0, m_failRect);
    m_plot->plotLayout()->setRowStretchFactors({ 0.001, 2, 1 });
    m_plot->plotLayout()->setRowSpacing(0);
    auto *margins = new QCPMarginGroup(m_plot);
    for (QCPAxisRect *rect : { m_loadRect, m_failRect }) {
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        for (QCPAxis *axis : rect->axes())
            styleAxis(axis, small);
        rect->axis(QCPAxis::atTop)->setVisible(false);
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
        rect->axis(QCPAxis::atBottom)->setTicker(ticker);
    }
    m_loadRect->setMargins(QMargins(0, 0, 0, 0));
    m_loadRect->axis(QCPAxis::atBottom)->setTickLabels(false);
    m_loadRect->axis(QCPAxis::atLeft)->setLabel(tr("in-flight I/Os"));
    QCPAxis *bytes = m_loadRect->axis(QCPAxis::atRight);
    bytes->setVisible(true);
    bytes->setTickLabels(true);
    bytes->setLabel(tr("in-flight bytes (dashed)"));
    m_failRect->axis(QCPAxis::atLeft)->setLabel(tr("fail count"));
    // Counts: whole-number ticks (1, 2, 5, 10, ... apart), never "0.25 failures".
    for (QCPAxis *counts : { m_loadRect->axis(QCPAxis::atLeft), m_failRect->axis(QCPAxis::atLeft) }) {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        ticker->setTickCount(4);
        counts->setTicker(ticker);
    }
    m_failRect->axis(QCPAxis::atRight)->setVisible(true);
    m_failRect->axis(QCPAxis::atRight)->setTickLabels(false);
    m_failRect->axis(QCPAxis::atRight)->setTicks(false);
    // The load rect can be 36 px high: "in-flight bytes (dashed)" would run off the chart.
    keepAxisTitlesWhole(m_plot);
    m_plot->addLayer(QStringLiteral("markers"), m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    // Small inner minimums (QCPAxisRect's default is 50x50 each), so that the chart fits under the cards.
    m_loadRect->setMinimumSize(0, 36);
    m_failRect->setMinimumSize(0, 16);
    // The margins (tick labels) are known once laid out: each replot says what the layout needs now.
    connect(m_plot, &QCustomPlot::afterReplot, this, &SelectorChart::fitMinimumHeight);
    fitMinimumHeight();
}

void SelectorChart::fitMinimumHeight()
{
    // QCustomPlot lays its elements out at their minimum sizes even in a smaller widget and then paints rects
    // of negative height (Qt's raster engine crashed on one, at 1400x900 over a real map): the widget never gets
    // less than its layout's minimum, which grows with the legend's rows.
    const int needed = std::max(minimumPlotHeight, m_plot->plotLayout()->minimumOuterSizeHint().height());
    if (m_plot->minimumHeight() != needed)
        m_plot->setMinimumHeight(needed);
}

SelectorChart::~SelectorChart() = default;

void SelectorChart::clear()
{
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_plot->legend->clearItems();
    m_series.clear();
    m_markers.clear();
    m_devices.clear();
    m_havePrevious = false;
    m_statusCount = 0;
    m_message->setText(tr("No status read yet."));
    m_stack->setCurrentWidget(m_message);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void SelectorChart::setDeviceNames(const QHash<QString, QString> &names)
{
    m_names = names;
    for (const Series &series : std::as_const(m_series))
        series.graph->setName(label(series.device));
}

void SelectorChart::setWindow(double seconds)
{
    m_window = std::max(10.0, seconds);
}

void SelectorChart::setUnavailable(const QString &reason)
{
    clear();
    m_message->setText(reason);
}

QString SelectorChart::label(const QString &device) const
{
    const QString name = m_names.value(device);
    return name.isEmpty() ? device : name;
}

QString SelectorChart::metricName(Metric metric)
{
    switch (metric) {
    case Metric::InFlightIos:
        return QStringLiteral("in-flight I/Os");
    case Metric::InFlightBytes:
        return QStringLiteral("in-flight bytes");
    case Metric::FailCount:
        return QStringLiteral("fail count");
    }
    return {};
}

QCPGraph *SelectorChart::graphFor(const QString &device, Metric metric)
{
    for (const Series &series : std::as_const(m_series)) {
        if (series.device == device && series.metric == metric)
            return series.graph;
    }
    if (!m_devices.contains(device))
        m_devices << device;
    const QColor color = chartstyle::deviceColor(int(m_devices.indexOf(device)));
    QCPAxisRect *rect = metric == Metric::FailCount ? m_failRect : m_loadRect;
    QCPAxis *valueAxis = rect->axis(metric == Metric::InFlightBytes ? QCPAxis::atRight : QCPAxis::atLeft);
    QCPGraph *graph = m_plot->addGraph(rect->axis(QCPAxis::atBottom), valueAxis);
    graph->setPen(QPen(color, 1, metric == Metric::InFlightBytes ? Qt::DashLine : Qt::SolidLine));
    graph->setName(label(device));
    graph->setLineStyle(metric == Metric::FailCount ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
    // One legend entry per device (its colour); the axis labels say which line is which metric.
    const bool deviceInLegend
        = std::any_of(m_series.cbegin(), m_series.cend(), [&device](const Series &s) { return s.device == device; });
    if (!deviceInLegend)
        graph->addToLegend();
    m_series.append({ device, metric, graph });
    return graph;
}

void SelectorChart::addMarker(double time, SelectorChartMarker::Kind kind, const QString &text)
{
    m_markers.append({ time, kind, text });
    const QColor color = markerColor(kind);
    for (QCPAxisRect *rect : { m_loadRect, m_failRect }) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->setLayer(QStringLiteral("markers"));
        line->setClipAxisRect(rect);
        line->setPen(QPen(color, 1, Qt::DashDotLine));
        for (QCPItemPosition *point : { line->point1, line->point2 }) {
            point->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            point->setAxisRect(rect);
        }
        line->point1->setCoords(time, 0);
        line->point2->setCoords(time, 1);
    }
    auto *label = new QCPItemText(m_plot);
    label->setLayer(QStringLiteral("markers"));
    label->setClipAxisRect(m_loadRect);
    label->position->setAxes(m_loadRect->axis(QCPAxis::atBottom), m_loadRect->axis(QCPAxis::atLeft));
    label->position->setAxisRect(m_loadRect);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    // Staggered so that markers close in time stay readable.
    label->position->setCoords(time, 0.03 + 0.13 * ((m_markers.size() - 1) % 4));
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setPadding(QMargins(3, 0, 3, 0));
    label->setText(text);
    label->setFont(atPoints(font(), 7.5));
    label->setColor(color);
    label->setBrush(QBrush(QColor(255, 255, 255, 210)));
}

void SelectorChart::trim(double now)
{
    const double oldest = now - m_window;
    for (const Series &series : std::as_const(m_series))
        series.graph->data()->removeBefore(oldest);
    m_markers.erase(std::remove_if(m_markers.begin(), m_markers.end(),
                        [oldest](const SelectorChartMarker &m) { return m.time < oldest; }),
        m_markers.end());
    for (int i = m_plot->itemCount() - 1; i >= 0; --i) {
        QCPAbstractItem *item = m_plot->item(i);
        double x = 0;
        if (auto *line = qobject_cast<QCPItemStraightLine *>(item))
            x = line->point1->coords().x();
        else if (auto *text = qobject_cast<QCPItemText *>(item))
            x = text->position->coords().x();
        if (x < oldest)
            m_plot->removeItem(item);
    }
}

void SelectorChart::addStatus(double epochSeconds, const MultipathTable &table, const MultipathStatus &status)
{
    const double t = epochSeconds;
    if (m_havePrevious) {
        if (!(table == m_previousTable))
            addMarker(t, SelectorChartMarker::TableReloaded, tr("table reloaded"));
        const int before = m_previousStatus.activeGroup();
        const int now = status.activeGroup();
        if (now != 0 && now != before) {
            addMarker(t, SelectorChartMarker::GroupSwitch,
                before == 0 ? tr("group %1 in use").arg(now) : tr("group %1 → %2").arg(before).arg(now));
        }
        const bool sameTable = table == m_previousTable;
        for (const GroupStatus &group : status.groups) {
            for (const PathStatus &path : group.paths) {
                const PathStatus *previous = findPath(m_previousStatus, path.device);
                if (!previous)
                    continue;
                if ((previous->active && !path.active)
                    || (sameTable && path.failCount > previous->failCount && !path.active))
                    addMarker(t, SelectorChartMarker::PathFailed, tr("%1 failed").arg(label(path.device)));
                else if (!previous->active && path.active)
                    addMarker(t, SelectorChartMarker::PathReinstated, tr("%1 back").arg(label(path.device)));
            }
        }
    }

    for (int g = 0; g < status.groups.size(); ++g) {
        const GroupStatus &group = status.groups.at(g);
        const QString selector = g < table.groups.size() ? table.groups.at(g).selector : QString();
        const PathSelectorInfo *info = findPathSelector(selector);
        for (const PathStatus &path : group.paths) {
            graphFor(path.device, Metric::FailCount)->addData(t, path.failCount);
            if (!info)
                continue;
            for (int i = 0; i < info->statusInfoNames.size() && i < path.selectorInfo.size(); ++i) {
                const QString &name = info->statusInfoNames.at(i);
                bool ok = false;
                const double value = path.selectorInfo.at(i).toDouble(&ok);
                if (!ok)
                    continue;
                if (name == QLatin1String("in-flight I/Os") || name == QLatin1String("outstanding I/Os"))
                    graphFor(path.device, Metric::InFlightIos)->addData(t, value);
                else if (name == QLatin1String("in-flight bytes"))
                    graphFor(path.device, Metric::InFlightBytes)->addData(t, value);
            }
        }
    }

    m_previousTable = table;
    m_previousStatus = status;
    m_havePrevious = true;
    ++m_statusCount;
    trim(t);

    QList<QCPGraph *> ios, bytes, fails;
    for (const Series &series : std::as_const(m_series)) {
        (series.metric == Metric::InFlightIos            ? ios
                : series.metric == Metric::InFlightBytes ? bytes
                                                         : fails)
            << series.graph;
    }
    fitValueAxis(m_loadRect->axis(QCPAxis::atLeft), ios);
    fitValueAxis(m_loadRect->axis(QCPAxis::atRight), bytes);
    fitValueAxis(m_failRect->axis(QCPAxis::atLeft), fails);
    m_loadRect->axis(QCPAxis::atRight)->setVisible(!bytes.isEmpty());
    m_loadRect->axis(QCPAxis::atLeft)->setLabel(ios.isEmpty() && !bytes.isEmpty() ? QString() : tr("in-flight I/Os"));
    // The whole window once it is full; until then what there is, at least a minute, so that the first
    // reads do not fill the width.
    if (m_statusCount == 1)
        m_firstTime = t;
    const double lower = std::min(std::max(m_firstTime, t - m_window), t - 60.0);
    for (QCPAxisRect *rect : { m_loadRect, m_failRect })
        rect->axis(QCPAxis::atBottom)->setRange(lower, t);
    m_stack->setCurrentWidget(m_plot);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QStringList SelectorChart::seriesNames() const
{
    QStringList names;
    for (const Series &series : m_series)
        names << QStringLiteral("%1 %2").arg(label(series.device), metricName(series.metric));
    return names;
}

int SelectorChart::pointCount(const QString &series) const
{
    for (const Series &s : m_series) {
        if (QStringLiteral("%1 %2").arg(label(s.device), metricName(s.metric)) == series)
            return s.graph->data()->size();
    }
    return 0;
}

double SelectorChart::lastValue(const QString &series) const
{
    for (const Series &s : m_series) {
        if (QStringLiteral("%1 %2").arg(label(s.device), metricName(s.metric)) == series && !s.graph->data()->isEmpty())
            return (s.graph->data()->constEnd() - 1)->value;
    }
    return 0;
}

} // namespace dmtune
