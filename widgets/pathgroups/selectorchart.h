#pragma once
// A small chart of a multipath map's path selectors over time, fed from periodic status reads:
// per path the in-flight I/Os (queue-length, historical-service-time's outstanding I/Os) and in-flight
// bytes (service-time) above, fail counts below, and markers (vertical lines with labels) where the
// active group switched, a path failed or came back, or the table was reloaded. No kernel needed:
// addStatus() takes parsed values. Only selectorchart.cpp includes qcustomplot.h.
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"

#include <QHash>
#include <QWidget>

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QLabel;
class QStackedWidget;

namespace dmtune {

struct SelectorChartMarker {
    enum Kind { GroupSwitch, PathFailed, PathReinstated, TableReloaded };
    double time = 0; // seconds since the epoch
    Kind kind = GroupSwitch;
    QString label; // "group 1 → 2", "sdb failed"
};

class SelectorChart : public QWidget {
    Q_OBJECT
public:
    explicit SelectorChart(QWidget *parent = nullptr);
    ~SelectorChart() override;

    // Forgets everything (another map is shown).
    void clear();
    // Names for the legend: "8:16" -> "sdb".
    void setDeviceNames(const QHash<QString, QString> &names);
    // Seconds of history shown and kept (default 300).
    void setWindow(double seconds);
    // Says why there is nothing to plot (no device-mapper, groups unknown) instead of the chart.
    void setUnavailable(const QString &reason);

    // One status read. Paths are matched by device across reads, so a reload that moves paths keeps
    // their lines. Events are found by comparing with the previous read.
    void addStatus(double epochSeconds, const MultipathTable &table, const MultipathStatus &status);

    // For tests and tooltips: series names like "sdb in-flight I/Os", "sdb fail count".
    QStringList seriesNames() const;
    int pointCount(const QString &series) const;
    double lastValue(const QString &series) const;
    const QList<SelectorChartMarker> &markers() const { return m_markers; }
    int statusCount() const { return m_statusCount; }
    QCustomPlot *plot() const { return m_plot; }

private:
    enum class Metric { InFlightIos, InFlightBytes, FailCount };
    struct Series {
        QString device;
        Metric metric;
        QCPGraph *graph = nullptr;
    };
    QCPGraph *graphFor(const QString &device, Metric metric);
    QString label(const QString &device) const;
    static QString metricName(Metric metric);
    void addMarker(double time, SelectorChartMarker::Kind kind, const QString &label);
    void trim(double now);
    void fitMinimumHeight();

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QCustomPlot *m_plot = nullptr;
    QCPAxisRect *m_loadRect = nullptr;
    QCPAxisRect *m_failRect = nullptr;
    QHash<QString, QString> m_names;
    QStringList m_devices; // first seen first: a device keeps its colour
    QList<Series> m_series;
    QList<SelectorChartMarker> m_markers;
    double m_window = 300;
    int m_statusCount = 0;
    double m_firstTime = 0;
    bool m_havePrevious = false;
    MultipathTable m_previousTable;
    MultipathStatus m_previousStatus;
};

} // namespace dmtune
