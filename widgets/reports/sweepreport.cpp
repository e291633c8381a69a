#include "widgets/reports/sweepreport.h"

#include "core/recordings/recordingreader.h"
#include "widgets/experiments/sweepchart.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace dmtune {

QList<const SweepMetric *> sweepReportMetrics(const QList<SweepPointResult> &results)
{
    double reads = 0, writes = 0;
    for (const SweepPointResult &r : results) {
        reads += r.fio.value(QLatin1String("read_iops")).toDouble();
        writes += r.fio.value(QLatin1String("write_iops")).toDouble();
    }
    const QStringList keys = writes >= reads
        ? QStringList { QStringLiteral("wrqm"), QStringLiteral("wareq-sz"), QStringLiteral("write_iops") }
        : QStringList { QStringLiteral("rrqm"), QStringLiteral("rareq-sz"), QStringLiteral("read_iops") };
    QList<const SweepMetric *> metrics;
    for (const QString &key : keys + QStringList { QStringLiteral("clat_p99_us") })
        metrics << sweepMetric(key);
    return metrics;
}

Result<Report> buildSweepReport(const QString &dir, QSize chartSize)
{
    const auto manifest = readSweepManifestFile(dir);
    if (!manifest)
        return Result<Report>::failure(manifest.errorMessage());
    ReportSweep sweep { dir, manifest->request, manifest->outcome, {}, {} };
    if (sweep.outcome.results.isEmpty())
        return Result<Report>::failure(
            QCoreApplication::translate("Report", "%1: the sweep measured no point").arg(dir));
    // The configuration of every point: its first recording's header.
    QList<Recording> recordings;
    for (const SweepPointResult &r : sweep.outcome.results) {
        if (r.recordings.isEmpty())
            continue;
        // By its name in DIR, never the path sweep.json names: a folder copied or sent keeps working, and a
        // crafted sweep.json cannot make the report read files outside it.
        Result<Recording> rec = readRecording(QDir(dir).filePath(QFileInfo(r.recordings.first()).fileName()));
        if (!rec)
            return Result<Report>::failure(rec.errorMessage());
        recordings.append(rec.value());
    }
    Report report;
    if (!recordings.isEmpty()) {
        Result<Report> built = buildReport(recordings, chartSize);
        if (!built)
            return built;
        report = built.value();
    }
    report.generated = QDateTime::currentDateTimeUtc();
    const QString device = sweep.request.device;
    int index = 0;
    for (const SweepMetric *metric : sweepReportMetrics(sweep.outcome.results)) {
        const SweepChartData data = sweepChartData(sweep.request, sweep.outcome.results, *metric, device);
        sweep.chartData.append(data);
        sweep.charts.append(
            { QStringLiteral("sweep-%1").arg(++index), data.yTitle, renderSweepChart(data, chartSize, 1.0) });
    }
    report.sweep = sweep;
    return report;
}

} // namespace dmtune
