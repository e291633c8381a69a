#include "core/experiments/sweepseries.h"

#include <QMap>

namespace dmtune {

const QList<SweepMetric> &sweepMetrics()
{
    using S = SweepMetric::Source;
    static const QList<SweepMetric> metrics {
        { S::Fio, QStringLiteral("write_iops"), QStringLiteral("fio write IOPS"), QStringLiteral("1/s"), 1 },
        { S::Fio, QStringLiteral("read_iops"), QStringLiteral("fio read IOPS"), QStringLiteral("1/s"), 1 },
        { S::Fio, QStringLiteral("write_bytes_per_second"), QStringLiteral("fio write bandwidth"),
            QStringLiteral("MiB/s"), 1.0 / (1024 * 1024) },
        { S::Fio, QStringLiteral("read_bytes_per_second"), QStringLiteral("fio read bandwidth"),
            QStringLiteral("MiB/s"), 1.0 / (1024 * 1024) },
        { S::Fio, QStringLiteral("clat_p50_us"), QStringLiteral("fio clat p50"), QStringLiteral("us"), 1 },
        { S::Fio, QStringLiteral("clat_p99_us"), QStringLiteral("fio clat p99"), QStringLiteral("us"), 1 },
        { S::Fio, QStringLiteral("clat_p99_9_us"), QStringLiteral("fio clat p99.9"), QStringLiteral("us"), 1 },
        { S::Device, QStringLiteral("wrqm"), QStringLiteral("%wrqm"), QStringLiteral("%"), 1 },
        { S::Device, QStringLiteral("rrqm"), QStringLiteral("%rrqm"), QStringLiteral("%"), 1 },
        { S::Device, QStringLiteral("wareq-sz"), QStringLiteral("wareq-sz"), QStringLiteral("kB"), 1 },
        { S::Device, QStringLiteral("rareq-sz"), QStringLiteral("rareq-sz"), QStringLiteral("kB"), 1 },
        { S::Device, QStringLiteral("w/s"), QStringLiteral("w/s"), QStringLiteral("1/s"), 1 },
        { S::Device, QStringLiteral("r/s"), QStringLiteral("r/s"), QStringLiteral("1/s"), 1 },
        { S::Device, QStringLiteral("wrqm/s"), QStringLiteral("wrqm/s"), QStringLiteral("1/s"), 1 },
        { S::Device, QStringLiteral("rrqm/s"), QStringLiteral("rrqm/s"), QStringLiteral("1/s"), 1 },
        { S::Device, QStringLiteral("w_await"), QStringLiteral("w_await"), QStringLiteral("ms"), 1 },
        { S::Device, QStringLiteral("r_await"), QStringLiteral("r_await"), QStringLiteral("ms"), 1 },
        { S::Device, QStringLiteral("aqu-sz"), QStringLiteral("aqu-sz"), QString(), 1 },
        { S::Device, QStringLiteral("util"), QStringLiteral("%util"), QStringLiteral("%"), 1 },
    };
    return metrics;
}

const SweepMetric *sweepMetric(const QString &key)
{
    for (const SweepMetric &m : sweepMetrics()) {
        if (m.key == key)
            return &m;
    }
    return nullptr;
}

QStringList sweepDevices(const QString &device, const QList<SweepPointResult> &results)
{
    QMap<QString, bool> others; // sorted
    bool own = false;
    for (const SweepPointResult &r : results) {
        for (auto it = r.devices.begin(); it != r.devices.end(); ++it) {
            if (it.key() == device)
                own = true;
            else
                others.insert(it.key(), true);
        }
    }
    QStringList names = others.keys();
    if (own)
        names.prepend(device);
    return names;
}

SweepValue sweepValue(const SweepPointResult &result, const SweepMetric &metric, const QString &device)
{
    const bool fio = metric.source == SweepMetric::Source::Fio;
    const QJsonObject mean = fio ? result.fio : result.devices.value(device).toObject();
    const QJsonObject spread = fio ? result.fioSpread : result.devicesSpread.value(device).toObject();
    if (!mean.contains(metric.key))
        return {};
    return { mean.value(metric.key).toDouble() * metric.scale, spread.value(metric.key).toDouble() * metric.scale,
        true };
}

QString sweepValueText(const SweepValue &value, const SweepMetric &metric)
{
    const int decimals = metric.unit == QLatin1String("ms")                         ? 2
        : metric.unit == QLatin1String("1/s") || metric.unit == QLatin1String("us") ? 0
                                                                                    : 1;
    QString text = QString::number(value.mean, 'f', decimals);
    if (value.spread > 0)
        text += QStringLiteral(" ±") + QString::number(value.spread, 'f', decimals);
    return text;
}

bool sweepMetricIsZero(const QList<SweepPointResult> &results, const SweepMetric &metric, const QString &device)
{
    for (const SweepPointResult &r : results) {
        if (sweepValue(r, metric, device).mean != 0)
            return false;
    }
    return true;
}

QString sweepParameterName(const QString &attribute)
{
    return attribute.section(QLatin1Char('/'), -1);
}

QString sweepWorkloadName(const FioJob &job)
{
    return job.isCustom() ? job.jobFile.section(QLatin1Char('/'), -1) : job.id;
}

SweepChartData sweepChartData(const SweepRequest &request, const QList<SweepPointResult> &results,
    const SweepMetric &metric, const QString &device)
{
    SweepChartData data;
    if (request.parameters.isEmpty())
        return data;
    const SweepParameter &first = request.parameters.first();
    data.xTitle = sweepParameterName(first.attribute);
    data.xLabels = first.values;
    const QString unit = metric.unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(metric.unit);
    data.yTitle = metric.source == SweepMetric::Source::Fio
        ? metric.label + unit
        : QStringLiteral("%1%2 of %3").arg(metric.label, unit, device);
    // Series in the order their first point ran: workloads within the second parameter's values.
    QMap<int, int> seriesOfKey; // second value index * workloads + workload -> series
    const int workloads = int(request.workloads.size());
    const bool manyWorkloads = workloads > 1;
    for (const SweepPointResult &r : results) {
        const SweepPoint &p = r.point;
        const SweepValue v = sweepValue(r, metric, device);
        const int x = int(first.values.indexOf(p.settings.value(0).value));
        if (!v.present || x < 0)
            continue;
        int second = 0;
        QString secondText;
        if (request.parameters.size() > 1 && p.settings.size() > 1) {
            second = int(request.parameters.at(1).values.indexOf(p.settings.at(1).value));
            secondText = sweepParameterName(p.settings.at(1).attribute) + QLatin1Char('=') + p.settings.at(1).value;
        }
        const int key = second * workloads + p.workload;
        auto found = seriesOfKey.find(key);
        if (found == seriesOfKey.end()) {
            QStringList name;
            if (manyWorkloads || secondText.isEmpty())
                name << sweepWorkloadName(request.workloads.value(p.workload));
            if (!secondText.isEmpty())
                name << secondText;
            data.series.append(SweepSeries { name.join(QLatin1Char(' ')), {}, {}, {} });
            found = seriesOfKey.insert(key, int(data.series.size()) - 1);
        }
        SweepSeries &s = data.series[found.value()];
        s.x << x;
        s.mean << v.mean;
        s.spread << v.spread;
    }
    return data;
}

} // namespace dmtune
