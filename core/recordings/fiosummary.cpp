#include "core/recordings/fiosummary.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace dmtune {

QList<FioDirectionSummary> summarizeFioResult(const QJsonObject &fioFinal)
{
    QList<FioDirectionSummary> out;
    for (const QJsonValue &j : fioFinal.value(QStringLiteral("jobs")).toArray()) {
        const QJsonObject job = j.toObject();
        for (const QString &dir : { QStringLiteral("read"), QStringLiteral("write"), QStringLiteral("trim") }) {
            const QJsonObject d = job.value(dir).toObject();
            const double ios = d.value(QStringLiteral("total_ios")).toDouble();
            if (ios <= 0)
                continue;
            const QJsonObject clat = d.value(QStringLiteral("clat_ns")).toObject();
            FioDirectionSummary s;
            s.job = job.value(QStringLiteral("jobname")).toString();
            s.direction = dir;
            s.iops = d.value(QStringLiteral("iops")).toDouble();
            s.bandwidthKiB = d.value(QStringLiteral("bw")).toDouble();
            s.ios = ios;
            s.clatMeanUs = clat.value(QStringLiteral("mean")).toDouble() / 1000.0;
            s.clatP99Us
                = clat.value(QStringLiteral("percentile")).toObject().value(QStringLiteral("99.000000")).toDouble()
                / 1000.0;
            out.append(s);
        }
    }
    return out;
}

QString shellCommandLine(const QStringList &argv)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=,+@%-]+$"));
    QStringList parts;
    for (const QString &a : argv) {
        if (plain.match(a).hasMatch())
            parts.append(a);
        else
            parts.append(
                QLatin1Char('\'') + QString(a).replace(QLatin1String("'"), QLatin1String("'\\''")) + QLatin1Char('\''));
    }
    return parts.join(QLatin1Char(' '));
}

} // namespace dmtune
