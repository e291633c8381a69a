#include "widgets/charts/chartpanel.h"

#include "widgets/charts/axisticks.h"
#include "widgets/charts/chartpanel_p.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/qcp_p.h"

#include <QHelpEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace dmtune {

namespace {

constexpr double percentAxisUpper = 104; // 100 % stays clear of the frame

// A title that does not fit its room: without its "(unit)", else the unit alone, else cut with an ellipsis.
QString fittedTitle(const QString &full, const QFont &font, double room)
{
    const QFontMetricsF fm(font);
    if (fm.horizontalAdvance(full) <= room)
        return full;
    const qsizetype open = full.lastIndexOf(QLatin1String(" ("));
    if (open > 0 && full.endsWith(u')')) {
        const QString name = full.left(open);
        const QString unit = full.mid(open + 2, full.size() - open - 3); // "1/s", "%", "kB"; not "dashed"
        if (fm.horizontalAdvance(name) <= room)
            return name;
        if (unit.size() <= 4 && fm.horizontalAdvance(unit) <= room)
            return unit;
        return fm.elidedText(name, Qt::ElideRight, std::max(0.0, room));
    }
    return fm.elidedText(full, Qt::ElideRight, std::max(0.0, room));
}

// The layout hooks: before QCustomPlot lays its elements out (the legend's wrap and the title depend on the
// width drawn at), and after (marker labels and axis titles are placed in what the layout left).
class PanelPlot : public QCustomPlot {
public:
    using QCustomPlot::QCustomPlot;
    std::function<void()> beforeLayout;

protected:
    void updateLayout() override
    {
        if (beforeLayout)
            beforeLayout();
        QCustomPlot::updateLayout(); // emits afterLayout()
    }
};

// A graph drawn a few pixels above or below its values (ChartPanel::lineOffset): equal lines of several
// devices stay side by side instead of hiding each other.
class OffsetGraph : public QCPGraph {
public:
    OffsetGraph(QCPAxis *keyAxis, QCPAxis *valueAxis, double offsetUp)
        : QCPGraph(keyAxis, valueAxis)
        , m_offsetUp(offsetUp)
    {
    }

protected:
    void draw(QCPPainter *painter) override
    {
        if (m_offsetUp == 0) {
            QCPGraph::draw(painter);
            return;
        }
        painter->save();
        painter->translate(0, -m_offsetUp);
        QCPGraph::draw(painter);
        painter->restore();
    }

private:
    double m_offsetUp;
};

} // namespace

void keepAxisTitlesWhole(QCustomPlot *plot)
{
    QHash<QCPAxis *, QString> titles;
    for (QCPAxisRect *rect : plot->axisRects()) {
        for (QCPAxis *axis : rect->axes())
            titles.insert(axis, axis->label());
    }
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [titles] {
        for (auto it = titles.cbegin(); it != titles.cend(); ++it) {
            QCPAxis *axis = it.key();
            if (it.value().isEmpty() || !axis->visible())
                continue;
            const QRect r = axis->axisRect()->rect();
            const bool vertical = axis->orientation() == Qt::Vertical;
            const QString shown = fittedTitle(it.value(), axis->labelFont(), (vertical ? r.height() : r.width()) - 4);
            if (axis->label() != shown)
                axis->setLabel(shown);
        }
    });
}

ChartPanel::ChartPanel(ChartPanelKind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
{
    setMinimumHeight(MinimumHeight);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *plot = new PanelPlot(this);
    plot->beforeLayout = [this] { beforeLayout(); };
    m_plot = plot;
    m_plot->setObjectName(QStringLiteral("chart-") + spec().id);
    m_plot->setMinimumHeight(MinimumHeight);
    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setCursor(Qt::CrossCursor);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    layout->addWidget(m_plot);

    const QFont base = font();
    // Title, then the legend in a row of its own above the axis rect: inside it would hide the newest data.
    m_plot->plotLayout()->insertRow(0);
    m_baseTitle = spec().title;
    m_title = new QCPTextElement(m_plot, m_baseTitle, chartpanel::sized(base, 9.5, true));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->plotLayout()->insertRow(1);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    // Centred and compact: empty elements left and right take the spare width.
    auto *legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, legendRow);
    legendRow->addElement(0, 0, new QCPLayoutElement(m_plot));
    legendRow->addElement(0, 1, m_plot->legend);
    legendRow->addElement(0, 2, new QCPLayoutElement(m_plot));
    legendRow->setColumnStretchFactors({ 1, 0.001, 1 });
    legendRow->setColumnSpacing(0);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    m_plot->plotLayout()->setRowSpacing(0);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_plot->legend->setFont(chartpanel::sized(base, 8));
    m_plot->legend->setIconSize(22, 9);
    m_plot->legend->setColumnSpacing(10);
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setMargins(QMargins(4, 0, 4, 0));
    m_plot->legend->setLayer(QStringLiteral("legend"));

    setupAxes();
    applyMinimumMargins();
    axisticks::keepReadable(m_plot); // as many ticks as the axes have room for

    m_plot->addLayer(chartpanel::markersLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_plot->addLayer(chartpanel::markerLabelsLayer, m_plot->layer(chartpanel::markersLayer), QCustomPlot::limAbove);
    m_plot->addLayer(chartpanel::hoverLayer, m_plot->layer(QStringLiteral("overlay")), QCustomPlot::limAbove);
    m_hoverLayer = m_plot->layer(chartpanel::hoverLayer);
    // The readout moves with the mouse: only its own buffer is redrawn then, not the graphs.
    m_hoverLayer->setMode(QCPLayer::lmBuffered);
    m_plot->setCurrentLayer(QStringLiteral("main"));

    // Pan and zoom the time axis only; the value axes follow the data in view.
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &r) {
        if (m_programmaticRange)
            return;
        fitValueAxes();
        Q_EMIT userRangeChanged(r.lower, r.upper);
    });
    connect(m_plot, &QCustomPlot::afterLayout, this, &ChartPanel::afterLayout);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ChartPanel::onMouseMove);
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { ++m_replotCount; });
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ChartPanel::showContextMenu);
    m_plot->installEventFilter(this);
    m_plot->setToolTip(QString()); // ours come from eventFilter
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::setupAxes()
{
    const ChartPanelSpec &s = spec();
    const QFont tickFont = chartpanel::sized(font(), 8);
    const QFont labelFont = chartpanel::sized(font(), 8.5);

    QSharedPointer<QCPAxisTickerDateTime> timeTicker(new QCPAxisTickerDateTime);
    timeTicker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
    timeTicker->setTickCount(6);
    QCPAxis *x = m_plot->xAxis;
    x->setTicker(timeTicker);
    m_xLabel = tr("time (local)");
    x->setLabel(m_xLabel);

    const QSharedPointer<QCPAxisTicker> siTicker = axisticks::siTicker();
    m_plot->yAxis->setTicker(siTicker);
    m_leftLabel = s.leftLabel;
    m_plot->yAxis->setLabel(s.leftLabel);
    m_plot->yAxis->setRange(0, s.leftPercent ? percentAxisUpper : 1);
    if (!s.rightLabel.isEmpty()) {
        m_plot->yAxis2->setVisible(true);
        m_plot->yAxis2->setTicker(axisticks::siTicker());
        m_rightLabel = s.rightLabel;
        m_plot->yAxis2->setLabel(s.rightLabel);
        m_plot->yAxis2->setRange(0, s.rightPercent ? percentAxisUpper : 1);
    }
    for (QCPAxis *axis : { m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2 }) {
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(labelFont);
        axis->setLabelPadding(2);
        axis->setTickLabelPadding(3);
    }
    m_plot->xAxis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1, Qt::DotLine));
    m_plot->yAxis->grid()->setPen(QPen(QColor(0, 0, 0, 28), 1, Qt::DotLine));
}

void ChartPanel::setDevices(const QList<ChartDevice> &devices)
{
    hideReadout();
    for (QCPItemTracer *t : std::as_const(m_tracers)) {
        if (t)
            m_plot->removeItem(t);
    }
    m_tracers.clear();
    m_plot->clearGraphs(); // also the legend entries
    m_graphs.clear();
    m_legendPlottables.clear();
    m_legendToolTips.clear();

    m_devices = devices;
    m_state = QList<DeviceState>(devices.size());
    const ChartPanelSpec &s = spec();
    for (int d = 0; d < devices.size(); ++d) {
        for (int i = 0; i < s.series.size(); ++i) {
            const ChartSeriesSpec &series = s.series[i];
            // Registered with the plot by its constructor, as addGraph() would.
            QCPGraph *g
                = new OffsetGraph(m_plot->xAxis, series.rightAxis ? m_plot->yAxis2 : m_plot->yAxis, lineOffset(d));
            const ChartDevice &device = devices[d];
            g->setName(device.displayName() + u' ' + series.name);
            g->setPen(QPen(device.color, 1, chartstyle::seriesPenStyle(i)));
            g->setLineStyle(QCPGraph::lsLine);
            g->setAdaptiveSampling(true);
            g->setAntialiased(false); // crisp 1-px lines, and ~15 % faster replots (docs/charts.md)
            m_graphs.append(g);
        }
    }
    // Legend: devices by colour, then series by line style (one entry each, not devices x series).
    for (int d = 0; d < devices.size(); ++d) {
        QString tip = devices[d].name;
        if (const double offset = lineOffset(d); offset != 0)
            tip += u'\n'
                + (offset > 0 ? tr("Its lines are drawn %1 px above its values, so that equal lines of several "
                                   "devices stay side by side; the readout gives the exact values.")
                              : tr("Its lines are drawn %1 px below its values, so that equal lines of several "
                                   "devices stay side by side; the readout gives the exact values."))
                      .arg(std::abs(offset), 0, 'g', 2);
        addLegendEntry(devices[d].displayName(), QPen(devices[d].color, 2.5), tip);
    }
    if (s.series.size() > 1) {
        for (int i = 0; i < s.series.size(); ++i) {
            addLegendEntry(s.series[i].name, QPen(QColor(0x40, 0x40, 0x40), 1.2, chartstyle::seriesPenStyle(i)),
                s.series[i].tooltip());
        }
    } else if (!s.series.isEmpty()) {
        m_baseTitle = s.title + QStringLiteral(" — ") + s.series.constFirst().name;
        m_title->setText(titleText());
    }
    m_legendWrap = 0; // the new entries are arranged at the next layout
    fitValueAxes();
}

double ChartPanel::lineOffset(int deviceIndex) const
{
    const qsizetype n = m_devices.size();
    if (n < 2 || deviceIndex < 0 || deviceIndex >= n)
        return 0;
    // 2 px apart (1-px lines with a gap between), closer with many devices: never more than MaxLineSpread in all.
    const double step = std::clamp(MaxLineSpread / double(n - 1), 1.0, 2.0);
    // Centred on the value; the first device (a map) on top.
    return ((double(n) - 1) / 2.0 - deviceIndex) * step;
}

void ChartPanel::setTitlePrefix(const QString &prefix)
{
    m_titlePrefix = prefix;
    m_title->setText(titleText());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString ChartPanel::titleText() const
{
    return m_titlePrefix.isEmpty() ? m_baseTitle : m_titlePrefix + QStringLiteral(": ") + m_baseTitle;
}

void ChartPanel::addLegendEntry(const QString &name, const QPen &pen, const QString &toolTip)
{
    QCPGraph *g = m_plot->addGraph();
    g->setName(name);
    g->setPen(pen);
    g->addToLegend();
    // The default bottom margin clips the underscore of "r_await" (the item is cut at its text height).
    if (QCPPlottableLegendItem *item = m_plot->legend->itemWithPlottable(g))
        item->setMargins(QMargins(4, 1, 4, 4));
    m_legendPlottables.append(g);
    m_legendToolTips.append(toolTip);
}

void ChartPanel::updateLegendWrap(int width)
{
    // As many entries per row as fit the width, each column as wide as its widest entry: a row per wrap, not per
    // widest name ("mpatha (dm-0)" beside "sdm" took a second row that the curves needed at 1280x720).
    // setWrap() alone only applies to entries added later: the entries are arranged again in the new rows.
    QList<int> widths;
    for (int i = 0; i < m_plot->legend->elementCount(); ++i) {
        if (const QCPLayoutElement *item = m_plot->legend->elementAt(i)) // null: an empty cell of the grid
            widths.append(item->minimumOuterSizeHint().width());
    }
    const int entries = std::max(1, int(widths.size()));
    const QMargins margins = m_plot->legend->margins();
    const int spacing = m_plot->legend->columnSpacing();
    const int available = width - margins.left() - margins.right() - 4;
    int wrap = entries;
    for (; wrap > 1; --wrap) {
        // Entry i sits in column i % wrap (the legend fills its rows first).
        QList<int> columns(wrap, 0);
        for (int i = 0; i < int(widths.size()); ++i)
            columns[i % wrap] = std::max(columns[i % wrap], widths[i]);
        int total = spacing * (wrap - 1);
        for (int c : columns)
            total += c;
        if (total <= available)
            break;
    }
    if (wrap != m_legendWrap) {
        m_legendWrap = wrap;
        m_plot->legend->setWrap(wrap);
        m_plot->legend->setFillOrder(m_plot->legend->fillOrder(), true);
        // Every legend row past the first is taken from the curves: the chart grows by it, its plot area stays
        // 120 px or more.
        int rowHeight = 0;
        for (int i = 0; i < m_plot->legend->elementCount(); ++i) {
            if (const QCPLayoutElement *item = m_plot->legend->elementAt(i))
                rowHeight = std::max(rowHeight, item->minimumOuterSizeHint().height());
        }
        const int rows = (entries + wrap - 1) / wrap;
        const int height = MinimumHeight + std::max(0, rows - 1) * rowHeight;
        if (height != m_plot->minimumHeight()) {
            // Not from inside the plot's layout: the widget's own layout moves it.
            QMetaObject::invokeMethod(
                this,
                [this, height] {
                    m_plot->setMinimumHeight(height);
                    setMinimumHeight(height);
                },
                Qt::QueuedConnection);
        }
    }
}

void ChartPanel::beforeLayout()
{
    const int width = m_plot->viewport().width();
    updateLegendWrap(width);
    const QString title = titleText();
    const QString shown = QFontMetricsF(m_title->font()).elidedText(title, Qt::ElideRight, width - 8);
    if (m_title->text() != shown)
        m_title->setText(shown);
    padValueAxes();
}

void ChartPanel::afterLayout()
{
    fitAxisTitles();
    updateMarkerLabels();
}

void ChartPanel::fitAxisTitles()
{
    // A title runs along its axis, centred: no longer than the plot is high (left, right) or wide (bottom), so
    // that it neither leaves the chart nor runs into the legend or the tick labels.
    const QRect plot = m_plot->axisRect()->rect();
    const auto fit = [](QCPAxis *axis, const QString &full, int room) {
        if (full.isEmpty())
            return;
        const QString shown = fittedTitle(full, axis->labelFont(), room - 4);
        if (axis->label() != shown)
            axis->setLabel(shown); // the same font height: the margins the layout computed stay right
    };
    fit(m_plot->xAxis, m_xLabel, plot.width());
    fit(m_plot->yAxis, m_leftLabel, plot.height());
    if (m_plot->yAxis2->visible())
        fit(m_plot->yAxis2, m_rightLabel, plot.height());
}
QCPGraph *ChartPanel::graph(const QString &device, int series) const
{
    const int n = int(spec().series.size());
    for (int d = 0; d < m_devices.size(); ++d) {
        if (m_devices[d].name == device && series >= 0 && series < n)
            return m_graphs.value(d * n + series);
    }
    return nullptr;
}

QWidget *ChartPanel::plotWidget() const
{
    return m_plot;
}

QRect ChartPanel::plotArea() const
{
    return m_plot->axisRect()->rect();
}

qsizetype ChartPanel::pointCount(const QString &device, int series) const
{
    const QCPGraph *g = graph(device, series);
    return g ? g->data()->size() : 0;
}

double ChartPanel::lastValue(const QString &device, int series) const
{
    const QCPGraph *g = graph(device, series);
    if (!g || g->data()->isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    return (g->data()->constEnd() - 1)->value;
}

void ChartPanel::rebuild(const QHash<QString, QList<TimedMetrics>> &histories, quint64 lastSequence, double lastTime)
{
    const ChartPanelSpec &s = spec();
    const int n = int(s.series.size());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int d = 0; d < m_devices.size(); ++d) {
        const QList<TimedMetrics> history = histories.value(m_devices[d].name);
        QList<QVector<QCPGraphData>> data(n);
        for (auto &v : data)
            v.reserve(history.size() + 8);
        double previous = -std::numeric_limits<double>::infinity();
        for (const TimedMetrics &tm : history) {
            const double start = tm.time - tm.intervalSeconds;
            const bool gap = !data[0].isEmpty()
                && (tm.startsSegment || start > previous + 0.5 * std::max(tm.intervalSeconds, 1e-3));
            if (gap) {
                const double at = start > previous ? start : (previous + tm.time) / 2;
                for (auto &v : data)
                    v.append(QCPGraphData(at, nan));
            }
            for (int i = 0; i < n; ++i)
                data[i].append(QCPGraphData(tm.time, s.series[i].value(tm.metrics)));
            previous = tm.time;
        }
        for (int i = 0; i < n; ++i)
            m_graphs[d * n + i]->data()->set(data[i], true);
        DeviceState &state = m_state[d];
        state = DeviceState();
        if (!history.isEmpty()) {
            const TimedMetrics &last = history.constLast();
            state.lastTime = last.time;
            state.lastSequence = lastSequence;
            state.sequenceKnown = lastSequence > 0;
            // Without a batch seen yet the next batch's start time tells whether it continues the history.
            state.continuesAtNext = !state.sequenceKnown || std::abs(last.time - lastTime) < 0.5 * last.intervalSeconds;
        }
    }
}

void ChartPanel::appendBatch(const SampleBatch &batch, double time)
{
    const ChartPanelSpec &s = spec();
    const int n = int(s.series.size());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double halfInterval = 0.5 * std::max(batch.elapsedSeconds, 1e-3);
    for (int d = 0; d < m_devices.size(); ++d) {
        const DeviceSample *sample = batch.find(m_devices[d].name);
        if (!sample)
            continue;
        DeviceState &state = m_state[d];
        if (time - state.lastTime < halfInterval) {
            // Already there (a rebuild read this batch from the store first).
            state.lastSequence = batch.sequence;
            state.sequenceKnown = true;
            state.continuesAtNext = true;
            continue;
        }
        const IostatMetrics metrics = sample->metrics(batch.elapsedSeconds);
        const bool hasData = !m_graphs[d * n]->data()->isEmpty();
        const bool continues = state.continuesAtNext
            && (state.sequenceKnown ? state.lastSequence + 1 == batch.sequence
                                    : std::abs(time - batch.elapsedSeconds - state.lastTime) < halfInterval);
        if (hasData && !continues) {
            double at = time - batch.elapsedSeconds;
            if (at <= state.lastTime)
                at = (state.lastTime + time) / 2;
            for (int i = 0; i < n; ++i)
                m_graphs[d * n + i]->addData(at, nan);
        }
        for (int i = 0; i < n; ++i)
            m_graphs[d * n + i]->addData(time, s.series[i].value(metrics));
        state.lastTime = time;
        state.lastSequence = batch.sequence;
        state.sequenceKnown = true;
        state.continuesAtNext = true;
    }
}

void ChartPanel::trimBefore(double time)
{
    for (QCPGraph *g : std::as_const(m_graphs))
        g->data()->removeBefore(time);
}

void ChartPanel::showLive(double now, double windowSeconds)
{
    m_programmaticRange = true;
    m_plot->xAxis->setRange(now, windowSeconds, Qt::AlignRight);
    m_programmaticRange = false;
    fitValueAxes();
    if (m_hovering)
        showReadoutAtPixel(m_hoverPixel, false); // the data moved under the mouse
}

void ChartPanel::showRange(double lower, double upper)
{
    m_programmaticRange = true;
    m_plot->xAxis->setRange(lower, upper);
    m_programmaticRange = false;
    fitValueAxes();
    if (m_hovering)
        showReadoutAtPixel(m_hoverPixel, false);
}

double ChartPanel::visibleLower() const
{
    return m_plot->xAxis->range().lower;
}

double ChartPanel::visibleUpper() const
{
    return m_plot->xAxis->range().upper;
}

double ChartPanel::valueAxisUpper(bool right) const
{
    return (right ? m_plot->yAxis2 : m_plot->yAxis)->range().upper;
}

void ChartPanel::fitValueAxes()
{
    const ChartPanelSpec &s = spec();
    const int n = int(s.series.size());
    const QCPRange keys = m_plot->xAxis->range();
    double maxLeft = 0;
    double maxRight = 0;
    for (int k = 0; k < m_graphs.size(); ++k) {
        bool found = false;
        const QCPRange r = m_graphs[k]->data()->valueRange(found, QCP::sdBoth, keys);
        if (!found)
            continue;
        double &target = s.series[k % n].rightAxis ? maxRight : maxLeft;
        target = std::max(target, r.upper);
    }
    // Rates start at 0; a little headroom keeps the newest peak off the frame. An idle device shows 0..1.
    auto fit = [](QCPAxis *axis, bool percent, double max) {
        axis->setRange(0, percent ? percentAxisUpper : std::max(max * 1.12, 1.0));
    };
    fit(m_plot->yAxis, s.leftPercent, maxLeft);
    if (!s.rightLabel.isEmpty())
        fit(m_plot->yAxis2, s.rightPercent, maxRight);
    padValueAxes();
}

void ChartPanel::padValueAxes()
{
    // Room under 0 for the lines drawn below their value (lineOffset()): an idle device's line stays in view.
    const double spread = m_devices.size() > 1 ? lineOffset(0) - lineOffset(int(m_devices.size()) - 1) : 0;
    const double pad = spread > 0 ? spread / 2 + 1.5 : 0;
    int height = m_plot->axisRect()->height();
    if (height < 20) // not laid out yet
        height = std::max(40, m_plot->viewport().height() - 110);
    for (QCPAxis *axis : { m_plot->yAxis, m_plot->yAxis2 }) {
        const double upper = axis->range().upper;
        const double lower = pad > 0 ? -upper * pad / std::max(1.0, height - pad) : 0;
        if (axis->range().lower != lower)
            axis->setRange(lower, upper);
    }
}

void ChartPanel::replotQueued()
{
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace dmtune
