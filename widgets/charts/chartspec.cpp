#include "widgets/charts/chartspec.h"

#include <QCoreApplication>

#include <array>

namespace dmtune {

double ChartSeriesSpec::value(const IostatMetrics &metrics) const
{
    double v = 0;
    for (Metric m : sum)
        v += metrics[m];
    return v;
}

QString ChartSeriesSpec::unit() const
{
    return sum.isEmpty() ? QString() : MetricCatalog::unit(sum.constFirst());
}

QString ChartSeriesSpec::tooltip() const
{
    QStringList parts;
    for (Metric m : sum)
        parts.append(MetricCatalog::tooltip(m));
    if (sum.size() > 1)
        parts.prepend(QCoreApplication::translate("ChartSpec", "%1: the sum of").arg(name));
    return parts.join(QStringLiteral("\n\n"));
}

QString ChartPanelSpec::tooltip() const
{
    QStringList parts;
    for (const ChartSeriesSpec &s : series)
        parts.append(s.tooltip());
    return parts.join(QStringLiteral("\n\n"));
}

namespace {

ChartSeriesSpec one(Metric m, bool right = false)
{
    return { MetricCatalog::column(m), { m }, right };
}

// Titles, axis titles and legend words are translated here: the table is built on first use, once the
// application has installed its translators. Ids and iostat column names stay as they are.
std::array<ChartPanelSpec, ChartPanelCount> buildSpecs()
{
    return { {
        { ChartPanelKind::Iops, QStringLiteral("iops"), QCoreApplication::translate("ChartSpec", "IOPS"),
            QCoreApplication::translate("ChartSpec", "requests/s (1/s)"), {}, false, false,
            { one(Metric::ReadsPerSec), one(Metric::WritesPerSec) } },
        { ChartPanelKind::Throughput, QStringLiteral("throughput"),
            QCoreApplication::translate("ChartSpec", "Throughput"), QStringLiteral("kB/s"), {}, false, false,
            { one(Metric::ReadKBPerSec), one(Metric::WriteKBPerSec) } },
        { ChartPanelKind::Merges, QStringLiteral("merges"), QCoreApplication::translate("ChartSpec", "Merges"),
            QCoreApplication::translate("ChartSpec", "merged/s (1/s)"),
            QCoreApplication::translate("ChartSpec", "merged (%)"), false, true,
            { one(Metric::ReadMergesPerSec), one(Metric::WriteMergesPerSec), one(Metric::ReadMergedPercent, true),
                one(Metric::WriteMergedPercent, true) } },
        { ChartPanelKind::RequestSize, QStringLiteral("request-size"),
            QCoreApplication::translate("ChartSpec", "Request size"),
            QCoreApplication::translate("ChartSpec", "average size (kB)"), {}, false, false,
            { one(Metric::ReadRequestSize), one(Metric::WriteRequestSize) } },
        { ChartPanelKind::QueueDepth, QStringLiteral("queue-depth"),
            QCoreApplication::translate("ChartSpec", "Queue depth"),
            QCoreApplication::translate("ChartSpec", "requests"), {}, false, false,
            { { QCoreApplication::translate("ChartSpec", "in-flight r+w"),
                  { Metric::InflightReads, Metric::InflightWrites }, false },
                one(Metric::AverageQueueSize) } },
        { ChartPanelKind::Latency, QStringLiteral("latency"), QCoreApplication::translate("ChartSpec", "Latency"),
            QCoreApplication::translate("ChartSpec", "await (ms)"), {}, false, false,
            { one(Metric::ReadAwait), one(Metric::WriteAwait) } },
        { ChartPanelKind::Utilization, QStringLiteral("utilization"),
            QCoreApplication::translate("ChartSpec", "Utilization"),
            QCoreApplication::translate("ChartSpec", "busy (%)"), {}, true, false, { one(Metric::Utilization) } },
    } };
}

} // namespace

const ChartPanelSpec &ChartPanelSpec::of(ChartPanelKind kind)
{
    static const std::array<ChartPanelSpec, ChartPanelCount> specs = buildSpecs();
    return specs[std::size_t(kind)];
}

const QList<ChartPanelKind> &ChartPanelSpec::kinds()
{
    static const QList<ChartPanelKind> all = [] {
        QList<ChartPanelKind> list;
        for (int i = 0; i < ChartPanelCount; ++i)
            list.append(ChartPanelKind(i));
        return list;
    }();
    return all;
}

} // namespace dmtune
