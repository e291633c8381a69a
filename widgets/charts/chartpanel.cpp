#include "charts/chartpanel.h"

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

namespace dmtune {

namespace {

const QString markersLayer = QStringLiteral("markers");
const QString hoverLayer = QStringLiteral("hover");
constexpr double percentAxisUpper = 104; // 100 % stays clear of the frame
constexpr int fallbackExportWidth = 960;
constexpr int fallbackExportHeight = 360;

// Tick labels with SI suffixes: a kB/s axis reads "250k", not "2.5·10^5". One suffix per axis, from its
// range, so that "8k" does not sit under "10000".
class SiTicker : public QCPAxisTicker {
public:
    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
        QVector<double> *subTicks, QVector<QString> *tickLabels) override
    {
        m_magnitude = std::max(std::abs(range.lower), std::abs(range.upper));
        QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override
    {
        if (tick == 0)
            return QStringLiteral("0");
        if (m_magnitude >= 1e9)
            return QString::number(tick / 1e9, 'g', 4) + u'G';
        if (m_magnitude >= 1e6)
            return QString::number(tick / 1e6, 'g', 4) + u'M';
        if (m_magnitude >= 1e4)
            return QString::number(tick / 1e3, 'g', 4) + u'k';
        return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    }

private:
    double m_magnitude = 0;
};

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

} // namespace

ChartPanel::ChartPanel(ChartPanelKind kind, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
{
    setMinimumHeight(MinimumHeight);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
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

    m_plot->addLayer(markersLayer, m_plot->layer(QStringLiteral("main")), QCustomPlot::limAbove);
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
        updateMarkerLabels();
        Q_EMIT userRangeChanged(r.lower, r.upper);
    });
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
    x->setLabel(QStringLiteral("time (local)"));

    const QSharedPointer<QCPAxisTicker> siTicker(new SiTicker);
    m_plot->yAxis->setTicker(siTicker);
    m_plot->yAxis->setLabel(s.leftLabel);
    m_plot->yAxis->setRange(0, s.leftPercent ? percentAxisUpper : 1);
    if (!s.rightLabel.isEmpty()) {
        m_plot->yAxis2->setVisible(true);
        m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new SiTicker));
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
    for (const ChartDevice &d : devices) {
        for (int i = 0; i < s.series.size(); ++i) {
            const ChartSeriesSpec &series = s.series[i];
            QCPGraph *g = m_plot->addGraph(m_plot->xAxis, series.rightAxis ? m_plot->yAxis2 : m_plot->yAxis);
            g->setName(d.displayName() + u' ' + series.name);
            g->setPen(QPen(d.color, 1, chartstyle::seriesPenStyle(i)));
            g->setLineStyle(QCPGraph::lsLine);
            g->setAdaptiveSampling(true);
            g->setAntialiased(false); // crisp 1-px lines, and ~15 % faster replots (docs/charts.md)
            m_graphs.append(g);
        }
    }
    // Legend: devices by colour, then series by line style (one entry each, not devices x series).
    for (const ChartDevice &d : devices)
        addLegendEntry(d.displayName(), QPen(d.color, 2.5), d.name);
    if (s.series.size() > 1) {
        for (int i = 0; i < s.series.size(); ++i) {
            addLegendEntry(s.series[i].name, QPen(QColor(0x40, 0x40, 0x40), 1.2, chartstyle::seriesPenStyle(i)),
                s.series[i].tooltip());
        }
    } else if (!s.series.isEmpty()) {
        m_baseTitle = s.title + QStringLiteral(" — ") + s.series.constFirst().name;
        m_title->setText(titleText());
    }
    updateLegendWrap();
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

void ChartPanel::updateLegendWrap()
{
    // As many entries per row as fit the width, columns as wide as the widest entry.
    const int entries = int(m_legendPlottables.size());
    int widest = 1;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem *item = m_plot->legend->item(i)) // null: an empty cell of the grid
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    }
    const int spacing = m_plot->legend->columnSpacing();
    const int available = std::max(width(), 300) - 16;
    const int perRow = std::max(1, (available + spacing) / (widest + spacing));
    const int wrap = std::max(1, std::min(entries, perRow));
    if (wrap != m_legendWrap) {
        m_legendWrap = wrap;
        m_plot->legend->setWrap(wrap);
    }
}

void ChartPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateLegendWrap();
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
    updateMarkerLabels();
    if (m_hovering)
        showReadoutAtPixel(m_hoverPixel, false); // the data moved under the mouse
}

void ChartPanel::showRange(double lower, double upper)
{
    m_programmaticRange = true;
    m_plot->xAxis->setRange(lower, upper);
    m_programmaticRange = false;
    fitValueAxes();
    updateMarkerLabels();
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
    items.text->setLayer(markersLayer);
    items.text->setSelectable(false);
    items.text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    items.text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    items.text->position->setAxes(m_plot->xAxis, m_plot->yAxis);
    items.text->position->setAxisRect(m_plot->axisRect());
    items.text->position->setCoords(marker.time, 0.02); // the row is chosen by updateMarkerLabels()
    items.text->setText(marker.label);
    items.text->setFont(sized(font(), 7.5));
    items.text->setColor(color.darker(115));
    items.text->setBrush(QColor(255, 255, 255, 220));
    items.text->setPadding(QMargins(3, 1, 3, 1));
    items.text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_markers.append(items);
    updateMarkerLabels();
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
    // A label near the right edge goes to the left of its line, where it is not cut off. Labels that would
    // overlap take the next of three rows; with all three taken the label is hidden (the line stays, the hover
    // readout and the events list name it).
    const QCPRange r = m_plot->xAxis->range();
    struct Extent {
        qsizetype index;
        double left;
        double right;
    };
    QList<Extent> extents;
    extents.reserve(m_markers.size());
    for (qsizetype i = 0; i < m_markers.size(); ++i) {
        const MarkerItems &m = m_markers[i];
        const bool right = m.marker.time > r.lower + 0.6 * r.size();
        const Qt::Alignment align = (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop;
        if (m.text->positionAlignment() != align)
            m.text->setPositionAlignment(align);
        const double x = m_plot->xAxis->coordToPixel(m.marker.time);
        const double w = QFontMetricsF(m.text->font()).horizontalAdvance(m.marker.label) + 8;
        extents.append({ i, right ? x - w : x, right ? x : x + w });
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
        rowEnd[std::size_t(row)] = e.right;
        text->position->setCoords(m_markers[e.index].marker.time, 0.02 + 0.12 * row);
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
        m_readout->setBrush(QColor(255, 255, 255, 235));
        m_readout->setPen(QPen(QColor(0, 0, 0, 90)));
        m_readout->setPadding(QMargins(5, 3, 5, 3));
    }
    if (m_tracers.size() != m_graphs.size())
        m_tracers.resize(m_graphs.size(), nullptr);

    const ChartPanelSpec &s = spec();
    const int n = int(s.series.size());
    int nameWidth = 0;
    for (const ChartDevice &d : std::as_const(m_devices)) {
        for (const ChartSeriesSpec &series : s.series)
            nameWidth = std::max(nameWidth, int(d.displayName().size() + 1 + series.name.size()));
    }
    QStringList lines;
    double snapped = std::numeric_limits<double>::quiet_NaN();
    for (int k = 0; k < m_graphs.size(); ++k) {
        QCPGraph *g = m_graphs[k];
        const auto data = g->data();
        QCPItemTracer *&tracer = m_tracers[k];
        bool shown = false;
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
                    tracer->setInterpolating(false);
                }
                tracer->setGraph(g);
                tracer->setGraphKey(best->key);
                tracer->setPen(QPen(m_devices[k / n].color, 1.2));
                tracer->setVisible(true);
                shown = true;
                if (std::isnan(snapped))
                    snapped = best->key;
                const ChartSeriesSpec &series = s.series[k % n];
                const QString name = m_devices[k / n].displayName() + u' ' + series.name;
                lines.append(name.leftJustified(nameWidth) + u' ' + formatValue(best->value).rightJustified(10) + u' '
                    + series.unit());
            }
        }
        if (!shown && tracer)
            tracer->setVisible(false);
    }

    // Markers within a few pixels of the cursor: their labels may be hidden on a crowded chart.
    QStringList markerLines;
    for (const MarkerItems &m : std::as_const(m_markers)) {
        if (std::abs(m_plot->xAxis->coordToPixel(m.marker.time) - pixel.x()) <= 4)
            markerLines.append(QStringLiteral("| ") + m.marker.label);
    }

    const QRect rect = m_plot->axisRect()->rect();
    const bool inside = rect.contains(pixel.toPoint());
    QString text;
    if ((!lines.isEmpty() || !markerLines.isEmpty()) && inside) {
        if (std::isnan(snapped))
            snapped = key;
        const QDateTime at = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(snapped * 1000)));
        lines = markerLines + lines;
        text = at.toString(QStringLiteral("hh:mm:ss.zzz")) + u'\n' + lines.join(u'\n');
        m_readout->setText(text);
        const bool leftSide = pixel.x() > rect.center().x();
        const bool above = pixel.y() > rect.center().y();
        m_readout->setPositionAlignment(
            (leftSide ? Qt::AlignRight : Qt::AlignLeft) | (above ? Qt::AlignBottom : Qt::AlignTop));
        m_readout->position->setCoords(pixel.x() + (leftSide ? -12 : 12), pixel.y() + (above ? -8 : 8));
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
        return QStringLiteral("Time at the end of each sampling interval.\nDrag to pan, Ctrl+wheel to zoom: "
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
    menu->addAction(QStringLiteral("Resume live view"), this, &ChartPanel::resumeRequested);
    menu->addSeparator();
    for (const QString &suffix : { QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg") }) {
        menu->addAction(QStringLiteral("Export chart as %1…").arg(suffix.toUpper()), this,
            [this, suffix] { exportWithDialog(suffix); });
    }
    menu->popup(m_plot->mapToGlobal(pos));
}

void ChartPanel::exportWithDialog(const QString &suffix)
{
    auto *dialog = new QFileDialog(this, QStringLiteral("Export %1 chart").arg(spec().title));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffix);
    dialog->setNameFilter(QStringLiteral("%1 (*.%2)").arg(suffix.toUpper(), suffix));
    dialog->selectFile(spec().id + u'.' + suffix);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        const Status status = exportTo(path);
        if (!status)
            Q_EMIT exportFailed(status.errorMessage);
    });
    dialog->open();
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
    m_plot->xAxis->setLabel(label);
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
    return Status::failure(QStringLiteral("%1: unknown image format (use .png, .pdf or .svg)").arg(path));
}

Status ChartPanel::savePng(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    if (!m_plot->savePng(path, size.width(), size.height()))
        return Status::failure(QStringLiteral("%1: could not write the PNG").arg(path));
    return Status::success();
}

Status ChartPanel::savePdf(const QString &path, int width, int height)
{
    hideReadout();
    const QSize size = exportSize(width, height);
    // Cosmetic 1-px pens would print as hairlines: give them a real width on paper.
    if (!m_plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic, QStringLiteral("dmtune"), spec().title))
        return Status::failure(QStringLiteral("%1: could not write the PDF").arg(path));
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
        return Status::failure(QStringLiteral("%1: could not write the SVG").arg(path));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    m_plot->toPainter(&painter, size.width(), size.height());
    painter.end();
    if (QFileInfo(path).size() <= 0)
        return Status::failure(QStringLiteral("%1: could not write the SVG").arg(path));
    return Status::success();
}

QString ChartPanel::qcustomplotVersion()
{
    return QStringLiteral(QCUSTOMPLOT_VERSION_STR);
}

} // namespace dmtune
