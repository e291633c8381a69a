#pragma once
// One live chart: a metric family (ChartPanelSpec) for a set of devices, each device a colour, each metric of
// the family a line style. Points come from sampler batches (appendBatch, the newest interval only) or from a
// SeriesStore (rebuild). The owner moves the time window and asks for the one replot of the tick.
// QCustomPlot is only forward-declared here: qcustomplot.h is expensive to compile.
//
// Every layout (a replot, an export, a render at another size) fits the chart to the size it is drawn at: the
// legend wraps to the width, axis titles that would run past their axis are shortened, marker labels stay
// inside the plot. drawnParts() says where each drawn text ended up, for the tests that hold this.
#include "core/stats/seriesstore.h"
#include "core/util/result.h"
#include "widgets/charts/chartmarker.h"
#include "widgets/charts/chartspec.h"

#include <QColor>
#include <QHash>
#include <QList>
#include <QPicture>
#include <QPointF>
#include <QRect>
#include <QWidget>

#include <limits>

class QCustomPlot;
class QCPAbstractPlottable;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;
class QCPLayer;
class QCPTextElement;
class QMouseEvent;
class QPainter;

namespace dmtune {

struct SampleBatch;

struct ChartDevice {
    QString name; // kernel name, as in SampleBatch and SeriesStore: "dm-0", "sdb"
    QString label; // legend and readout: "mpatha (dm-0)"; empty: the name
    QColor color;
    QString displayName() const { return label.isEmpty() ? name : label; }
};

// For the other QCustomPlot charts (the path selector chart): after every layout each axis title that runs
// longer than its axis is shortened (its "(unit)" dropped, else the unit alone, else cut with an ellipsis), so
// that it is never cut off at the widget's edge. The titles are those the axes have now.
void keepAxisTitlesWhole(QCustomPlot *plot);

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int MinimumHeight = 198; // a plot area of 120 px under a one-row legend
    // Lines of several devices are drawn this many pixels apart at most (see lineOffset()).
    static constexpr double MaxLineSpread = 8.0;

    // How markers are labelled. InPlot (the default): the label beside its line at the top of the plot, moved
    // and shortened so that it stays inside the plot; a marker whose line is out of view has no label.
    // Numbered (the report's charts): a number above the plot, outside the data, for each marker in
    // markersInTimeOrder(); markers at the same place share one tag ("1,2"). The report prints the key.
    enum class MarkerLabels : unsigned char { InPlot, Numbered };

    // A drawn part of the chart, in plotWidget() coordinates (or a render's, see renderPicture()):
    // `content` is where its whole text or ink needs to be, `clip` what it is clipped to when drawn. A part is
    // whole when clip contains content (and the viewport contains both).
    struct Part {
        QString name; // "title", "legend: sdb", "left axis title", "bottom axis tick 00:05", "marker: fio start"
        QRectF content;
        QRectF clip;
    };
    // The ranges of the axes as drawn.
    struct Ranges {
        double xLower = 0, xUpper = 0;
        double leftLower = 0, leftUpper = 0;
        double rightLower = 0, rightUpper = 0;
        bool hasRight = false;
    };
    // The version of QCustomPlot the charts are built with (its header's QCUSTOMPLOT_VERSION_STR).
    static QString qcustomplotVersion();

    explicit ChartPanel(ChartPanelKind kind, QWidget *parent = nullptr);
    ~ChartPanel() override;

    ChartPanelKind kind() const { return m_kind; }
    const ChartPanelSpec &spec() const { return ChartPanelSpec::of(m_kind); }

    // One graph per device and series, all empty; the legend lists the devices (colour) and the series
    // (line style). Markers stay.
    void setDevices(const QList<ChartDevice> &devices);
    const QList<ChartDevice> &devices() const { return m_devices; }
    // Text before the title ("root@db1: IOPS"): the host of a remote window, on screen and in every export.
    void setTitlePrefix(const QString &prefix);
    QString titleText() const;

    // Replaces every graph's data by the devices' histories (SeriesStore::history; NaN between a device's
    // segments). A device without an entry is emptied. lastSequence and lastTime describe the newest batch
    // the caller has seen (0: none): a device whose history ends there continues with the next batch.
    void rebuild(const QHash<QString, QList<TimedMetrics>> &histories, quint64 lastSequence, double lastTime);
    // Adds one point per series for every charted device in the batch, at `time` (the interval's end, epoch
    // seconds). A device that was not in the previous batch gets a NaN first (a gap in the line). A batch
    // whose time is not newer than a device's last point by half an interval is skipped for that device.
    void appendBatch(const SampleBatch &batch, double time);
    // graph->data()->removeBefore(time) on every graph.
    void trimBefore(double time);

    // The x range, set by the program: no userRangeChanged. showLive is setRange(now, window, AlignRight).
    // Both fit the value axes to the data in view (percent axes stay 0..100).
    void showLive(double now, double windowSeconds);
    void showRange(double lower, double upper);
    // For recordings compared side by side: x is seconds relative to an alignment point (a workload's start),
    // shown as [-]mm:ss under this axis label, instead of wall-clock time.
    void setElapsedTimeAxis(const QString &label);
    double visibleLower() const;
    double visibleUpper() const;
    double valueAxisUpper(bool right = false) const;

    // replot(QCustomPlot::rpQueuedReplot): the one repaint per tick.
    void replotQueued();

    void addMarker(const ChartMarker &marker);
    void removeMarker(int id);
    void clearMarkers();
    int markerCount() const { return int(m_markers.size()); }
    void setMarkerLabels(MarkerLabels mode);
    MarkerLabels markerLabels() const { return m_markerLabels; }

    // The chart drawn at `size` into a picture (vector: lines and text stay so when the picture is played on a
    // PDF), laid out for that size; the widget on screen is not changed. parts: drawnParts() of that layout,
    // in the picture's coordinates; ranges: the axes' ranges it was drawn with.
    QPicture renderPicture(QSize size, QList<Part> *parts = nullptr, Ranges *ranges = nullptr);

    // Where each part of the chart was drawn by the last layout (replot, export or render) and the rect they
    // all must lie in (the viewport: the widget, or the size rendered).
    QList<Part> drawnParts() const;
    QRect viewportRect() const;
    Ranges ranges() const;

    // By the path's suffix: .png, .pdf or .svg. width/height 0: the widget's size when it is laid out, else
    // 960 x 360.
    Status exportTo(const QString &path, int width = 0, int height = 0);
    Status savePng(const QString &path, int width = 0, int height = 0);
    Status savePdf(const QString &path, int width = 0, int height = 0);
    Status saveSvg(const QString &path, int width = 0, int height = 0);

    // The hover readout at a time (what the mouse shows): a cursor line, a tracer on every graph and the
    // values as text, which is returned. Empty when no graph has data near that time.
    QString showReadoutAt(double time);
    void hideReadout();
    // The readout's box (empty when hidden), in plotWidget() coordinates.
    QRect readoutRect() const;

    // How far a device's lines are drawn above (+) or below (-) their values, in pixels: with several devices
    // each gets its own offset, up to MaxLineSpread apart, so that equal lines (the paths of a map under
    // round-robin) are told apart. The axes leave room for it at 0; the readout gives the exact values.
    double lineOffset(int deviceIndex) const;

    // For tests and benches.
    QCustomPlot *plot() const { return m_plot; }
    QWidget *plotWidget() const; // the same object, usable without qcustomplot.h
    QRect plotArea() const; // the axis rect, in plotWidget() coordinates (laid out by a replot)
    int graphCount() const { return int(m_graphs.size()); }
    QCPGraph *graph(const QString &device, int series) const;
    qsizetype pointCount(const QString &device, int series) const; // NaN gap points included
    double lastValue(const QString &device, int series) const; // NaN when empty
    // Replots done so far (QCustomPlot::afterReplot).
    int replotCount() const { return m_replotCount; }
    // Tooltip text at a position of the plot (legend entry: that series' or device's; axes: their series').
    QString toolTipAt(const QPoint &plotPos) const;

Q_SIGNALS:
    // The user dragged or zoomed the time axis.
    void userRangeChanged(double lower, double upper);
    void resumeRequested();
    void exportFailed(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct DeviceState {
        double lastTime = -std::numeric_limits<double>::infinity();
        quint64 lastSequence = 0;
        bool continuesAtNext = false; // the next batch may continue the line
        bool sequenceKnown = false; // lastSequence is the batch of the last point (else judge by time)
    };
    struct MarkerItems {
        ChartMarker marker;
        QCPItemStraightLine *line = nullptr;
        QCPItemText *text = nullptr;
    };

    void setupAxes();
    void addLegendEntry(const QString &name, const QPen &pen, const QString &toolTip);
    void fitValueAxes();
    void padValueAxes();
    void updateMarkerLabels();
    void placeNumberedTags(const QRect &plot);
    void updateLegendWrap(int width);
    void beforeLayout();
    void afterLayout();
    void fitAxisTitles();
    void applyMinimumMargins();
    QList<Part> partsIn(const QRect &viewport) const;
    QString showReadoutAtPixel(const QPointF &pixel, bool replotLayer);
    void onMouseMove(QMouseEvent *event);
    void showContextMenu(const QPoint &pos);
    void exportWithDialog(const QString &suffix);
    QSize exportSize(int width, int height) const;

    ChartPanelKind m_kind;
    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_title = nullptr;
    QString m_baseTitle; // the family's title (and its one series' name); m_titlePrefix goes before it
    QString m_titlePrefix;
    QCPLayer *m_hoverLayer = nullptr;
    QList<ChartDevice> m_devices;
    QList<DeviceState> m_state; // per device
    QList<QCPGraph *> m_graphs; // device-major: m_graphs[device * series count + series]
    QList<QCPAbstractPlottable *> m_legendPlottables; // data-less graphs that only draw the legend
    QList<QString> m_legendToolTips; // parallel to m_legendPlottables
    QList<MarkerItems> m_markers;
    QList<QCPItemTracer *> m_tracers; // parallel to m_graphs, made on first hover
    QCPItemStraightLine *m_cursor = nullptr;
    QCPItemText *m_readout = nullptr;
    MarkerLabels m_markerLabels = MarkerLabels::InPlot;
    bool m_elapsedAxis = false; // x is seconds from an alignment point, not epoch seconds
    QString m_xLabel; // the axes' titles before fitAxisTitles() shortened them
    QString m_leftLabel;
    QString m_rightLabel;
    QPointF m_hoverPixel;
    bool m_hovering = false;
    bool m_programmaticRange = false;
    int m_legendWrap = 0;
    int m_replotCount = 0;
};

} // namespace dmtune
