#pragma once
// The few numbers of fio's final JSON that a report table shows, per job and direction.
#include <QJsonObject>
#include <QList>
#include <QString>

namespace dmtune {

struct FioDirectionSummary {
    QString job;
    QString direction; // "read", "write", "trim"
    double iops = 0;
    double bandwidthKiB = 0; // KiB/s
    double ios = 0; // total_ios
    double clatMeanUs = 0; // completion latency
    double clatP99Us = 0;
};

// Directions with I/O only; jobs in fio's order. Empty for a result without "jobs".
QList<FioDirectionSummary> summarizeFioResult(const QJsonObject &fioFinal);
// The command line as a shell would take it back ('quoted' where needed).
QString shellCommandLine(const QStringList &argv);

} // namespace dmtune
