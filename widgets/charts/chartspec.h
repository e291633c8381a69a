#pragma once
// What each live chart shows: the metric families of iostat -x, one panel each, with the series (one metric,
// or a sum such as in-flight reads + writes), their axis and their legend names. Pure data, no QCustomPlot.
#include "core/stats/iostatmetrics.h"

#include <QList>
#include <QString>

namespace dmtune {

enum class ChartPanelKind : unsigned char {
    Iops, // r/s, w/s
    Throughput, // rkB/s, wkB/s
    Merges, // rrqm/s, wrqm/s (left), %rrqm, %wrqm (right)
    RequestSize, // rareq-sz, wareq-sz
    QueueDepth, // in-flight reads + writes, aqu-sz
    Latency, // r_await, w_await
    Utilization, // %util
};
inline constexpr int ChartPanelCount = int(ChartPanelKind::Utilization) + 1;

struct ChartSeriesSpec {
    QString name; // legend and hover text: "r/s", "in-flight r+w"
    QList<Metric> sum; // the metrics added up; one for an iostat column
    bool rightAxis = false;

    double value(const IostatMetrics &metrics) const;
    QString unit() const; // of the first metric
    // MetricCatalog's tooltip of each metric in the sum, one paragraph each.
    QString tooltip() const;
};

struct ChartPanelSpec {
    ChartPanelKind kind;
    QString id; // file names of exports: "iops", "throughput", ...
    QString title; // "IOPS"
    QString leftLabel; // axis label with unit: "operations (1/s)"
    QString rightLabel; // empty: no right axis
    bool leftPercent = false; // fixed 0..100 % axis
    bool rightPercent = false;
    QList<ChartSeriesSpec> series;

    // All series' formulas, for the panel's own tooltip.
    QString tooltip() const;

    static const ChartPanelSpec &of(ChartPanelKind kind);
    // Every panel, in display order.
    static const QList<ChartPanelKind> &kinds();
};

} // namespace dmtune
