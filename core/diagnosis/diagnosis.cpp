#include "core/diagnosis/diagnosis.h"

#include "core/latency/timeabovepaths.h"
#include "core/workloads/fiojob.h"

#include <QJsonArray>

#include <cmath>

namespace dmtune {

QString findingSeverityName(FindingSeverity severity)
{
    switch (severity) {
    case FindingSeverity::Info:
        return QStringLiteral("info");
    case FindingSeverity::Warning:
        return QStringLiteral("warning");
    case FindingSeverity::Problem:
        return QStringLiteral("problem");
    }
    return {};
}

QString describeSweep(const ProposedSweep &sweep)
{
    const QString where
        = sweep.withPaths ? QStringLiteral("%1's paths").arg(sweep.device) : QStringLiteral("%1").arg(sweep.device);
    return QStringLiteral("%1 of %2 at %3 under %4")
        .arg(sweep.attribute, where, sweep.values.join(QStringLiteral(", ")), sweep.workload);
}

QString sweepCommand(const ProposedSweep &sweep)
{
    QStringList values;
    for (const QString &text : sweep.values) {
        const QString v = text.section(QLatin1Char(' '), 0, 0); // "192 (now)"
        if (!values.contains(v))
            values.append(v);
    }
    QStringList words { QStringLiteral("dmtunectl"), QStringLiteral("sweep"), shellQuote(sweep.device),
        QStringLiteral("--param"), shellQuote(sweep.attribute + QLatin1Char('=') + values.join(QLatin1Char(','))) };
    if (sweep.withPaths)
        words << QStringLiteral("--with-paths");
    words << shellQuote(sweep.workload);
    return words.join(QLatin1Char(' '));
}

QJsonObject findingToJson(const Finding &finding)
{
    QJsonObject numbers;
    for (const FindingNumber &n : finding.numbers)
        numbers.insert(n.name, std::isfinite(n.value) ? QJsonValue(n.value) : QJsonValue());
    QJsonObject o { { QStringLiteral("code"), finding.code },
        { QStringLiteral("severity"), findingSeverityName(finding.severity) },
        { QStringLiteral("device"), finding.device },
        { QStringLiteral("devices"), QJsonArray::fromStringList(finding.devices) },
        { QStringLiteral("message"), finding.message }, { QStringLiteral("numbers"), numbers },
        { QStringLiteral("source"), finding.source } };
    if (finding.experiment) {
        const ProposedSweep &s = *finding.experiment;
        o.insert(QStringLiteral("experiment"),
            QJsonObject { { QStringLiteral("device"), s.device }, { QStringLiteral("with_paths"), s.withPaths },
                { QStringLiteral("param"), s.attribute },
                { QStringLiteral("values"), QJsonArray::fromStringList(s.values) },
                { QStringLiteral("workload"), s.workload }, { QStringLiteral("text"), describeSweep(s) },
                { QStringLiteral("command"), sweepCommand(s) } });
    }
    return o;
}

double iopsOf(const IostatMetrics &m)
{
    return m[Metric::ReadsPerSec] + m[Metric::WritesPerSec];
}

double mergePercentOf(const IostatMetrics &m)
{
    const double merges = m[Metric::ReadMergesPerSec] + m[Metric::WriteMergesPerSec];
    const double all = iopsOf(m) + merges;
    return all > 0 ? merges / all * 100 : 0.0;
}

double requestSizeKbOf(const IostatMetrics &m)
{
    const double ios = iopsOf(m);
    return ios > 0 ? (m[Metric::ReadKBPerSec] + m[Metric::WriteKBPerSec]) / ios : 0.0;
}

double awaitOf(const IostatMetrics &m)
{
    const double ios = iopsOf(m);
    return ios > 0
        ? (m[Metric::ReadAwait] * m[Metric::ReadsPerSec] + m[Metric::WriteAwait] * m[Metric::WritesPerSec]) / ios
        : 0.0;
}

double timeAbovePathsMs(const DiagnosedMap &map)
{
    if (!map.metrics || iopsOf(*map.metrics) <= 0)
        return std::nan("");
    QList<PathShare> shares;
    for (const DiagnosedPath &p : map.paths) {
        if (!p.metrics)
            return std::nan(""); // one path unmeasured: the shares would be wrong
        shares.append({ iopsOf(*p.metrics), awaitOf(*p.metrics) });
    }
    return timeAbove(awaitOf(*map.metrics), shares);
}

} // namespace dmtune
