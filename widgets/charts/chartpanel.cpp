#include "charts/chartpanel.h"

#include "charts/axisticks.h"
#include "charts/chartstyle.h"
#include "charts/qcp_p.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QMenu>
#include <QSvgGenerator>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace dmtune {

namespace {

const QString markersLayer = QStringLiteral("markers");
// Marker labels above every marker line: a line added later never crosses an earlier label.
const QString markerLabelsLayer = QStringLiteral("markerLabels");
const QString hoverLayer = QStringLiteral("hover");
constexpr double percentAxisUpper = 104; // 100 % stays clear of the frame
constexpr int fallbackExportWidth = 960;
constexpr int fallbackExportHeight = 360;

QFont sized(QFont font, qreal points, bool bold = false)
{
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

QString formatValue(double v)
{
    return QString::number(v, 'f', 2);
}

// "[-]m:ss.s" for the elapsed-time axis of aligned recordings.
QString elapsedText(double seconds)
{
    const double a = std::abs(seconds);
    const int minutes = int(a / 60);
    return QStringLiteral("%1%2:%3")
        .arg(seconds < 0 ? QStringLiteral("-") : QString())
        .arg(minutes)
        .arg(a - minutes * 60.0, 4, 'f', 1, QLatin1Char('0'));
}

// The size QCustomPlot gives a text: QFontMetrics::boundingRect with the flags its painters use.
QSizeF textSize(const QFont &font, const QString &text)
{
    return QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignLeft, text).size();
}

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

constexpr QMargins markerPadding(3, 1, 3, 1);

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
    m_title = new QCPTextElement(m_plot, m_baseTitle, sized(base, 9.5, true));
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
    m_plot->legend->setFont(sized(base, 8));
    m_plot->legend->setIconSize(22, 9);
    m_plot->legend->setColumnSpacing(10);
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setMargins(QMargins(4, 0, 4, 0));
    m_plot->legend->setLayer(QStringLiteral("legend"));

    setupAxes();
    applyMinimumMargins();
    axisticks::keepReadable(m_plot); // as many ticks as the axes have room for

    m_plot->addLayer(markersLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_plot->addLayer(markerLabelsLayer, m_plot->layer(markersLayer), QCustomPlot::limAbove);
    m_plot->addLayer(hoverLayer, m_plot->layer(QStringLiteral("overlay")), QCustomPlot::limAbove);
    m_hoverLayer = m_plot->layer(hoverLayer);
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
    const QFont tickFont = sized(font(), 8);
    const QFont labelFont = sized(font(), 8.5);

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

// ---- markers

void ChartPanel::addMarker(const ChartMarker &marker)
{
    removeMarker(marker.id);
    const QColor color = chartstyle::markerColor(marker.kind);
    MarkerItems items;
    items.marker = marker;
    items.line = new QCPItemStraightLine(m_plot);
    items.line->setLayer(markersLayer);
    items.line->setPen(QPen(color, 1, Qt::DashLine));
    items.line->point1->setCoords(marker.time, 0);
    items.line->point2->setCoords(marker.time, 1);
    items.line->setSelectable(false);

    items.text = new QCPItemText(m_plot);
    items.text->setLayer(markerLabelsLayer);
    items.text->setSelectable(false);
    // Placed in pixels by updateMarkerLabels() after every layout, when the plot's rect is known.
    items.text->position->setType(QCPItemPosition::ptAbsolute);
    items.text->setText(marker.shortLabel());
    items.text->setFont(sized(font(), 7.5));
    items.text->setColor(color.darker(115));
    items.text->setBrush(QColor(255, 255, 255, 220));
    items.text->setPadding(markerPadding);
    items.text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    items.text->setVisible(false);
    m_markers.append(items);
}

void ChartPanel::setMarkerLabels(MarkerLabels mode)
{
    if (mode == m_markerLabels)
        return;
    m_markerLabels = mode;
    applyMinimumMargins();
}

void ChartPanel::applyMinimumMargins()
{
    // Numbered: a row above the plot for the tags. Without a right axis, room on the right for half of the last
    // time label, which is centred on its tick at the plot's right edge.
    const int tagRow = m_markerLabels == MarkerLabels::Numbered ? QFontMetrics(sized(font(), 7.5)).height() + 4 : 0;
    const int halfTimeLabel
        = int(std::ceil(textSize(m_plot->xAxis->tickLabelFont(), QStringLiteral("00:00:00")).width() / 2)) + 2;
    m_plot->axisRect()->setMinimumMargins(QMargins(0, tagRow, halfTimeLabel, 0));
}

void ChartPanel::removeMarker(int id)
{
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        if (m_markers[i].marker.id == id) {
            m_plot->removeItem(m_markers[i].line);
            m_plot->removeItem(m_markers[i].text);
            m_markers.removeAt(i);
            return;
        }
    }
}

void ChartPanel::clearMarkers()
{
    for (const MarkerItems &m : std::as_const(m_markers)) {
        m_plot->removeItem(m.line);
        m_plot->removeItem(m.text);
    }
    m_markers.clear();
}

void ChartPanel::updateMarkerLabels()
{
    const QRect plot = m_plot->axisRect()->rect();
    if (m_markerLabels == MarkerLabels::Numbered) {
        placeNumberedTags(plot);
        return;
    }
    // Each label beside its line: right of it, else left of it, else moved along until it fits; wider than the
    // plot, it is cut with an ellipsis. A marker whose line is out of view has no label (the events list has
    // it). Labels that would overlap take the next of three rows; with all three taken the label is hidden (the
    // line stays, the readout and the events list name it).
    struct Extent {
        qsizetype index;
        double left;
        double width;
        QString text;
    };
    QList<Extent> extents;
    extents.reserve(m_markers.size());
    const double gap = 2;
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        const MarkerItems &m = m_markers[i];
        const double x = m_plot->xAxis->coordToPixel(m.marker.time);
        if (!(x >= plot.left() - 0.5 && x <= plot.right() + 0.5)) {
            m.text->setVisible(false);
            continue;
        }
        const QFont font = m.text->font();
        const double room = plot.width() - 2 * gap - markerPadding.left() - markerPadding.right();
        QString text = m.marker.shortLabel();
        if (textSize(font, text).width() > room)
            text = QFontMetricsF(font).elidedText(text, Qt::ElideRight, room - 2);
        const double width = textSize(font, text).width() + markerPadding.left() + markerPadding.right();
        double left = x + gap;
        if (left + width > plot.right() - gap)
            left = x - gap - width;
        if (left < plot.left() + gap)
            left = std::clamp(x - width / 2, plot.left() + gap, plot.right() - gap - width);
        extents.append({ i, left, width, text });
    }
    std::sort(extents.begin(), extents.end(), [](const Extent &a, const Extent &b) { return a.left < b.left; });
    constexpr int rows = 3;
    std::array<double, rows> rowEnd;
    rowEnd.fill(-std::numeric_limits<double>::infinity());
    for (const Extent &e : std::as_const(extents)) {
        int row = 0;
        while (row < rows && rowEnd[std::size_t(row)] + 3 > e.left)
            ++row;
        QCPItemText *text = m_markers[e.index].text;
        text->setVisible(row < rows);
        if (row == rows)
            continue;
        rowEnd[std::size_t(row)] = e.left + e.width;
        const double rowHeight
            = textSize(text->font(), QStringLiteral("Ag")).height() + markerPadding.top() + markerPadding.bottom() + 1;
        text->setText(e.text);
        text->setClipToAxisRect(true);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->position->setCoords(e.left, plot.top() + gap + row * rowHeight);
    }
}

void ChartPanel::placeNumberedTags(const QRect &plot)
{
    // One tag per place above the plot: markers within a few pixels of each other share it ("1,2").
    QHash<int, int> numbers; // marker id -> its number
    const QList<ChartMarker> ordered = markersInTimeOrder([this] {
        QList<ChartMarker> all;
        for (const MarkerItems &m : std::as_const(m_markers))
            all.append(m.marker);
        return all;
    }());
    for (qsizetype i = 0; i < ordered.size(); ++i)
        numbers.insert(ordered[i].id, int(i + 1));
    struct Group {
        double x = 0;
        QList<qsizetype> markers;
    };
    QList<QPair<double, qsizetype>> visible;
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        m_markers[i].text->setVisible(false);
        const double x = m_plot->xAxis->coordToPixel(m_markers[i].marker.time);
        if (x >= plot.left() - 0.5 && x <= plot.right() + 0.5)
            visible.append({ x, i });
    }
    std::sort(visible.begin(), visible.end(), [&](const auto &a, const auto &b) {
        return a.first < b.first
            || (a.first == b.first
                && numbers.value(m_markers[a.second].marker.id) < numbers.value(m_markers[b.second].marker.id));
    });
    QList<Group> groups;
    for (const auto &[x, index] : std::as_const(visible)) {
        if (!groups.isEmpty() && x - groups.last().x <= 4)
            groups.last().markers.append(index);
        else
            groups.append(Group { x, QList<qsizetype> { index } });
    }
    const QRect viewport = m_plot->viewport();
    double previousRight = viewport.left();
    for (const Group &g : std::as_const(groups)) {
        QStringList tag;
        bool sameKind = true;
        for (qsizetype index : g.markers) {
            tag.append(QString::number(numbers.value(m_markers[index].marker.id)));
            sameKind = sameKind && m_markers[index].marker.kind == m_markers[g.markers.first()].marker.kind;
        }
        QCPItemText *text = m_markers[g.markers.first()].text;
        const QString label = tag.join(u',');
        const double width = textSize(text->font(), label).width() + markerPadding.left() + markerPadding.right();
        double left = std::clamp(g.x - width / 2, double(viewport.left()) + 1, viewport.right() - 1 - width);
        left = std::max(left, previousRight + 2);
        if (left + width > viewport.right() - 1)
            continue; // no room left: the key under the chart still names it
        previousRight = left + width;
        const MarkerKind kind = m_markers[g.markers.first()].marker.kind;
        text->setText(label);
        text->setColor(sameKind ? chartstyle::markerColor(kind).darker(115) : QColor(0x30, 0x30, 0x30));
        text->setClipToAxisRect(false);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->position->setCoords(left, plot.top() - 1);
        text->setVisible(true);
    }
}

// ---- hover readout and tooltips

QString ChartPanel::showReadoutAt(double time)
{
    const QCPRange v = m_plot->yAxis->range();
    const QPointF pixel(m_plot->xAxis->coordToPixel(time), m_plot->yAxis->coordToPixel(v.center()));
    return showReadoutAtPixel(pixel, true);
}

QString ChartPanel::showReadoutAtPixel(const QPointF &pixel, bool replotLayer)
{
    m_hoverPixel = pixel;
    m_hovering = true;
    const double key = m_plot->xAxis->pixelToCoord(pixel.x());
    if (!m_cursor) {
        m_cursor = new QCPItemStraightLine(m_plot);
        m_cursor->setLayer(m_hoverLayer);
        m_cursor->setSelectable(false);
        m_cursor->setPen(QPen(QColor(0, 0, 0, 110), 1));
        m_readout = new QCPItemText(m_plot);
        m_readout->setLayer(m_hoverLayer);
        m_readout->setSelectable(false);
        m_readout->setClipToAxisRect(false);
        m_readout->position->setType(QCPItemPosition::ptAbsolute);
        QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        mono.setPointSizeF(7.5);
        m_readout->setFont(mono);
        m_readout->setTextAlignment(Qt::AlignLeft);
        m_readout->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        m_readout->setBrush(QColor(255, 255, 255, 235));
        m_readout->setPen(QPen(QColor(0, 0, 0, 90)));
        m_readout->setPadding(QMargins(5, 3, 5, 3));
    }
    if (m_tracers.size() != m_graphs.size())
        m_tracers.resize(m_graphs.size(), nullptr);

    // Every device and every series at that time, as a table: a row per device, a column per series, so that
    // lines drawn on top of each other are all read out ("—": no sample of that device there).
    const ChartPanelSpec &s = spec();
    const int n = int(s.series.size());
    QList<QStringList> cells(m_devices.size(), QStringList(n));
    bool any = false;
    double snapped = std::numeric_limits<double>::quiet_NaN();
    for (int k = 0; k < m_graphs.size(); ++k) {
        QCPGraph *g = m_graphs[k];
        const auto data = g->data();
        QCPItemTracer *&tracer = m_tracers[k];
        bool shown = false;
        QString value = QStringLiteral("—");
        if (!data->isEmpty()) {
            // The nearest point, if the cursor is within one interval of the graph's data.
            auto it = data->findBegin(key, false);
            auto best = data->constEnd();
            if (it != data->constEnd())
                best = it;
            if (it != data->constBegin()) {
                auto before = it - 1;
                if (best == data->constEnd() || std::abs(before->key - key) < std::abs(best->key - key))
                    best = before;
            }
            const double span = data->size() > 1
                ? ((data->constEnd() - 1)->key - data->constBegin()->key) / double(data->size() - 1)
                : 1.0;
            if (best != data->constEnd() && std::abs(best->key - key) <= std::max(span, 0.5) * 1.5
                && !std::isnan(best->value)) {
                if (!tracer) {
                    tracer = new QCPItemTracer(m_plot);
                    tracer->setLayer(m_hoverLayer);
                    tracer->setSelectable(false);
                    tracer->setStyle(QCPItemTracer::tsCircle);
                    tracer->setSize(5);
                    tracer->setBrush(Qt::white);
                    tracer->position->setType(QCPItemPosition::ptAbsolute);
                }
                // On the line as drawn, offset included.
                tracer->position->setCoords(g->keyAxis()->coordToPixel(best->key),
                    g->valueAxis()->coordToPixel(best->value) - lineOffset(k / n));
                tracer->setPen(QPen(m_devices[k / n].color, 1.2));
                tracer->setVisible(true);
                shown = true;
                any = true;
                if (std::isnan(snapped))
                    snapped = best->key;
                value = formatValue(best->value);
            }
        }
        cells[k / n][k % n] = value;
        if (!shown && tracer)
            tracer->setVisible(false);
    }

    // Markers within a few pixels of the cursor, whole: their labels may be short, cut or hidden.
    QStringList markerLines;
    for (const MarkerItems &m : std::as_const(m_markers)) {
        if (std::abs(m_plot->xAxis->coordToPixel(m.marker.time) - pixel.x()) <= 4)
            markerLines.append(QStringLiteral("| ") + m.marker.label);
    }

    const QRect rect = m_plot->axisRect()->rect();
    const bool inside = rect.contains(pixel.toPoint());
    QString text;
    if ((any || !markerLines.isEmpty()) && inside) {
        if (std::isnan(snapped))
            snapped = key;
        const QString at = m_elapsedAxis ? elapsedText(snapped)
                                         : QDateTime::fromMSecsSinceEpoch(qint64(std::llround(snapped * 1000)))
                                               .toString(QStringLiteral("hh:mm:ss.zzz"));
        QStringList lines = markerLines;
        if (any) {
            int nameWidth = int(at.size());
            for (const ChartDevice &d : std::as_const(m_devices))
                nameWidth = std::max(nameWidth, int(d.displayName().size()));
            QStringList headers;
            QList<int> widths;
            for (int i = 0; i < n; ++i) {
                const QString unit = s.series[i].unit();
                const bool implied = unit == QLatin1String("1/s") || unit == QLatin1String("%")
                    || unit == QLatin1String("requests") || s.series[i].name.contains(unit);
                headers.append(implied ? s.series[i].name : s.series[i].name + u' ' + unit);
                int w = int(headers.last().size());
                for (const QStringList &row : std::as_const(cells))
                    w = std::max(w, int(row[i].size()));
                widths.append(w);
            }
            QString header = at.leftJustified(nameWidth);
            for (int i = 0; i < n; ++i)
                header += QStringLiteral("  ") + headers[i].rightJustified(widths[i]);
            lines.append(header);
            for (int d = 0; d < m_devices.size(); ++d) {
                QString row = m_devices[d].displayName().leftJustified(nameWidth);
                for (int i = 0; i < n; ++i)
                    row += QStringLiteral("  ") + cells[d][i].rightJustified(widths[i]);
                lines.append(row);
            }
        } else {
            lines.prepend(at);
        }
        text = lines.join(u'\n');
        m_readout->setText(text);
        // Beside the cursor, on the side with more room, and always whole inside the chart.
        const QMargins pad = m_readout->padding();
        const QSizeF size
            = textSize(m_readout->font(), text) + QSizeF(pad.left() + pad.right(), pad.top() + pad.bottom());
        const QRect viewport = m_plot->viewport();
        const bool leftSide = pixel.x() > rect.center().x();
        const bool above = pixel.y() > rect.center().y();
        double x = leftSide ? pixel.x() - 12 - size.width() : pixel.x() + 12;
        double y = above ? pixel.y() - 8 - size.height() : pixel.y() + 8;
        x = std::clamp(x, viewport.left() + 1.0, std::max(viewport.left() + 1.0, viewport.right() - size.width()));
        y = std::clamp(y, viewport.top() + 1.0, std::max(viewport.top() + 1.0, viewport.bottom() - size.height()));
        m_readout->position->setCoords(x, y);
        m_readout->setVisible(true);
        m_cursor->point1->setCoords(snapped, 0);
        m_cursor->point2->setCoords(snapped, 1);
        m_cursor->setVisible(true);
    } else {
        m_readout->setVisible(false);
        m_cursor->setVisible(false);
        for (QCPItemTracer *t : std::as_const(m_tracers)) {
            if (t)
                t->setVisible(false);
        }
    }
    if (replotLayer)
        m_hoverLayer->replot();
    return text;
}

QRect ChartPanel::readoutRect() const
{
    if (!m_readout || !m_readout->visible())
        return {};
    return QRectF(m_readout->topLeft->pixelPosition(), m_readout->bottomRight->pixelPosition()).toAlignedRect();
}

void ChartPanel::hideReadout()
{
    m_hovering = false;
    if (!m_cursor)
        return;
    m_cursor->setVisible(false);
    m_readout->setVisible(false);
    for (QCPItemTracer *t : std::as_const(m_tracers)) {
        if (t)
            t->setVisible(false);
    }
    m_hoverLayer->replot();
}

void ChartPanel::onMouseMove(QMouseEvent *event)
{
    if (event->buttons() != Qt::NoButton) { // dragging: the range moves, the readout would lag behind
        hideReadout();
        return;
    }
    if (m_plot->axisRect()->rect().contains(event->pos()))
        showReadoutAtPixel(event->position(), true);
    else if (m_hovering)
        hideReadout();
}

QString ChartPanel::toolTipAt(const QPoint &pos) const
{
    const ChartPanelSpec &s = spec();
    if (auto *item = qobject_cast<QCPPlottableLegendItem *>(m_plot->layoutElementAt(pos))) {
        const qsizetype i = m_legendPlottables.indexOf(item->plottable());
        if (i >= 0)
            return m_legendToolTips[i];
    }
    const QRect rect = m_plot->axisRect()->rect();
    auto axisTip = [&s](bool right) {
        QStringList parts;
        for (const ChartSeriesSpec &series : s.series) {
            if (series.rightAxis == right)
                parts.append(series.tooltip());
        }
        return parts.join(QStringLiteral("\n\n"));
    };
    if (pos.y() >= rect.top() && pos.y() <= rect.bottom()) {
        if (pos.x() < rect.left())
            return axisTip(false);
        if (pos.x() > rect.right())
            return s.rightLabel.isEmpty() ? QString() : axisTip(true);
        return {}; // the readout speaks there
    }
    if (pos.y() > rect.bottom())
        return tr("Time at the end of each sampling interval.\nDrag to pan, Ctrl+wheel to zoom: "
                  "either pauses the live view (the samples keep coming).");
    return s.tooltip();
}

bool ChartPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot) {
        switch (event->type()) {
        case QEvent::ToolTip: {
            auto *help = static_cast<QHelpEvent *>(event);
            const QString tip = toolTipAt(help->pos());
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), tip, m_plot);
            return true;
        }
        case QEvent::Leave:
            hideReadout();
            break;
        case QEvent::Wheel:
            // In a scrolling page the wheel scrolls; Ctrl+wheel zooms the time axis. Ignored and filtered,
            // the event goes on to the parents.
            if (!(static_cast<QWheelEvent *>(event)->modifiers() & Qt::ControlModifier)) {
                event->ignore();
                return true;
            }
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ChartPanel::showContextMenu(const QPoint &pos)
{
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Resume live view"), this, &ChartPanel::resumeRequested);
    menu->addSeparator();
    for (const QString &suffix : { QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg") }) {
        menu->addAction(
            tr("Export chart as %1…").arg(suffix.toUpper()), this, [this, suffix] { exportWithDialog(suffix); });
    }
    menu->popup(m_plot->mapToGlobal(pos));
}

void ChartPanel::exportWithDialog(const QString &suffix)
{
    auto *dialog = new QFileDialog(this, tr("Export %1 chart").arg(spec().title));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->setNameFilter(QStringLiteral("%1 (*.%2)").arg(suffix.toUpper(), suffix));
    dialog->selectFile(spec().id + u'.' + suffix);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const Status status = exportTo(path);
        if (!status)
            Q_EMIT exportFailed(status.errorMessage());
    });
    dialog->open();
}

// ---- geometry

namespace {

// Where QCustomPlot's axis painter puts an axis's tick labels and title (QCPAxisPainterPrivate::draw): the
// labels beyond the ticks and their padding, the title beyond the widest label, centred along the plot.
void axisParts(QList<ChartPanel::Part> &parts, const QCPAxis *axis, const QString &side, const QRectF &plot,
    const QRectF &viewport)
{
    if (!axis->visible())
        return;
    const QCPAxis::AxisType type = axis->axisType();
    const bool vertical = type == QCPAxis::atLeft || type == QCPAxis::atRight;
    double distance = axis->offset();
    if (axis->ticks() && axis->tickLabelSide() == QCPAxis::lsOutside)
        distance += std::max(0, std::max(axis->tickLengthOut(), axis->subTickLengthOut()));
    distance += axis->tickLabelPadding();
    double labelsExtent = 0;
    if (axis->tickLabels()) {
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
            if (!axis->range().contains(ticks[i]))
                continue;
            const QSizeF size = textSize(axis->tickLabelFont(), labels[i]);
            const double at = axis->coordToPixel(ticks[i]);
            QRectF r;
            switch (type) {
            case QCPAxis::atBottom:
                r = QRectF(at - size.width() / 2, plot.bottom() + distance, size.width(), size.height());
                break;
            case QCPAxis::atTop:
                r = QRectF(at - size.width() / 2, plot.top() - distance - size.height(), size.width(), size.height());
                break;
            case QCPAxis::atLeft:
                r = QRectF(plot.left() - distance - size.width(), at - size.height() / 2, size.width(), size.height());
                break;
            case QCPAxis::atRight:
                r = QRectF(plot.right() + distance, at - size.height() / 2, size.width(), size.height());
                break;
            }
            labelsExtent = std::max(labelsExtent, vertical ? size.width() : size.height());
            parts.append({ QStringLiteral("%1 axis tick %2").arg(side, labels[i]), r, viewport });
        }
    }
    if (axis->label().isEmpty())
        return;
    distance += labelsExtent + axis->labelPadding();
    const QSizeF size = textSize(axis->labelFont(), axis->label()); // along the axis: width; across: height
    QRectF r;
    QRectF along; // the title runs along the plot's side, within it
    switch (type) {
    case QCPAxis::atBottom:
        r = QRectF(plot.center().x() - size.width() / 2, plot.bottom() + distance, size.width(), size.height());
        along = QRectF(plot.left(), viewport.top(), plot.width(), viewport.height());
        break;
    case QCPAxis::atTop:
        r = QRectF(
            plot.center().x() - size.width() / 2, plot.top() - distance - size.height(), size.width(), size.height());
        along = QRectF(plot.left(), viewport.top(), plot.width(), viewport.height());
        break;
    case QCPAxis::atLeft:
        r = QRectF(
            plot.left() - distance - size.height(), plot.center().y() - size.width() / 2, size.height(), size.width());
        along = QRectF(viewport.left(), plot.top(), viewport.width(), plot.height());
        break;
    case QCPAxis::atRight:
        r = QRectF(plot.right() + distance, plot.center().y() - size.width() / 2, size.height(), size.width());
        along = QRectF(viewport.left(), plot.top(), viewport.width(), plot.height());
        break;
    }
    parts.append({ side + QStringLiteral(" axis title"), r, along & viewport });
}

QList<ChartPanel::Part> partsOf(const QCustomPlot *plot, const QCPTextElement *title, const QRect &viewportRect)
{
    QList<ChartPanel::Part> parts;
    const QRectF viewport(viewportRect);
    if (title && title->visible()) {
        const QSizeF size = textSize(title->font(), title->text());
        const QRectF room(title->rect());
        parts.append({ QStringLiteral("title"),
            QRectF(room.center().x() - size.width() / 2, room.center().y() - size.height() / 2, size.width(),
                size.height()),
            viewport });
    }
    // A legend entry is clipped to the cell it got; it needs its minimum size there.
    const QCPLegend *legend = plot->legend;
    if (legend && legend->visible()) {
        for (int i = 0; i < legend->itemCount(); ++i) {
            const QCPAbstractLegendItem *item = legend->item(i);
            if (!item)
                continue;
            QString name = QStringLiteral("legend");
            if (const auto *p = qobject_cast<const QCPPlottableLegendItem *>(item))
                name += QStringLiteral(": ") + const_cast<QCPPlottableLegendItem *>(p)->plottable()->name();
            const QRectF cell(item->outerRect());
            parts.append({ name, QRectF(cell.topLeft(), QSizeF(item->minimumOuterSizeHint())), cell & viewport });
        }
    }
    const QRectF area(plot->axisRect()->rect());
    axisParts(parts, plot->xAxis, QStringLiteral("bottom"), area, viewport);
    axisParts(parts, plot->yAxis, QStringLiteral("left"), area, viewport);
    axisParts(parts, plot->yAxis2, QStringLiteral("right"), area, viewport);
    return parts;
}

} // namespace

QRect ChartPanel::viewportRect() const
{
    return m_plot->viewport();
}

QList<ChartPanel::Part> ChartPanel::drawnParts() const
{
    return partsIn(m_plot->viewport());
}

QList<ChartPanel::Part> ChartPanel::partsIn(const QRect &viewportRect) const
{
    QList<Part> parts = partsOf(m_plot, m_title, viewportRect);
    const QRectF viewport(viewportRect);
    const QRectF area(m_plot->axisRect()->rect());
    for (const MarkerItems &m : std::as_const(m_markers)) {
        if (!m.text->visible())
            continue;
        const QRectF box(m.text->topLeft->pixelPosition(), m.text->bottomRight->pixelPosition());
        parts.append({ QStringLiteral("marker: ") + m.text->text(), box,
            (m.text->clipToAxisRect() ? area : viewport) & viewport });
    }
    if (m_readout && m_readout->visible())
        parts.append({ QStringLiteral("readout"), QRectF(readoutRect()), viewport });
    return parts;
}

ChartPanel::Ranges ChartPanel::ranges() const
{
    Ranges r;
    r.xLower = m_plot->xAxis->range().lower;
    r.xUpper = m_plot->xAxis->range().upper;
    r.leftLower = m_plot->yAxis->range().lower;
    r.leftUpper = m_plot->yAxis->range().upper;
    r.hasRight = m_plot->yAxis2->visible();
    r.rightLower = m_plot->yAxis2->range().lower;
    r.rightUpper = m_plot->yAxis2->range().upper;
    return r;
}

QPicture ChartPanel::renderPicture(QSize size, QList<Part> *parts, Ranges *ranges)
{
    hideReadout();
    QPicture picture;
    QCPPainter painter(&picture);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    painter.setMode(QCPPainter::pmNonCosmetic); // hairlines would print one printer dot wide
    m_plot->toPainter(&painter, size.width(), size.height()); // lays out for `size`, draws, keeps the widget's
    painter.end();
    // The layout is still the one drawn at `size` (the widget's comes back with its next replot).
    if (parts)
        *parts = partsIn(QRect(QPoint(0, 0), size));
    if (ranges)
        *ranges = this->ranges();
    return picture;
}

// ---- export

QSize ChartPanel::exportSize(int width, int height) const
{
    if (width <= 0)
        width = m_plot->width() >= 400 && m_plot->isVisible() ? m_plot->width() : fallbackExportWidth;
    if (height <= 0)
        height = m_plot->height() >= MinimumHeight && m_plot->isVisible() ? m_plot->height() : fallbackExportHeight;
    return { width, height };
}

void ChartPanel::setElapsedTimeAxis(const QString &label)
{
    QSharedPointer<QCPAxisTickerTime> ticker(new QCPAxisTickerTime);
    ticker->setTimeFormat(QStringLiteral("%m:%s"));
    ticker->setTickCount(6);
    m_plot->xAxis->setTicker(ticker);
    m_xLabel = label;
    m_plot->xAxis->setLabel(label);
    m_elapsedAxis = true;
}

Status ChartPanel::exportTo(const QString &path, int width, int height)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png")
        return savePng(path, width, height);
    if (suffix == u"pdf")
        return savePdf(path, width, height);
    if (suffix == u"svg")
        return saveSvg(path, width, height);
    return Status::failure(tr("%1: unknown image format (use .png, .pdf or .svg)").arg(path));
}

Status ChartPanel::savePng(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    if (!m_plot->savePng(path, size.width(), size.height()))
        return Status::failure(tr("%1: could not write the PNG").arg(path));
    return Status::success();
}

Status ChartPanel::savePdf(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    // Cosmetic 1-px pens would print as hairlines: give them a real width on paper.
    if (!m_plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("dmtune"), spec().title))
        return Status::failure(tr("%1: could not write the PDF").arg(path));
    return Status::success();
}

Status ChartPanel::saveSvg(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(spec().title);
    generator.setDescription(QStringLiteral("dmtune live statistics: ") + spec().title);
    QCPPainter painter;
    if (!painter.begin(&generator))
        return Status::failure(tr("%1: could not write the SVG").arg(path));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    m_plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    if (QFileInfo(path).size() <= 0)
        return Status::failure(tr("%1: could not write the SVG").arg(path));
    return Status::success();
}

QString ChartPanel::qcustomplotVersion()
{
    return QStringLiteral(QCUSTOMPLOT_VERSION_STR);
}

} // namespace dmtune
