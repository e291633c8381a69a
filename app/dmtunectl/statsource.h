#pragma once
// dmtunectl stat over a metrics engine instead of this machine's counters: a PCP pmcd or archive, or a
// Prometheus server (cmd_stat_source.cpp). The same iostat -x columns, from the same IostatMetrics math.
#include "cli.h"
#include "core/stats/iostatformat.h"

namespace dmtune::cli {

enum class StatFormat { Text, Json, Csv };

struct SourceStatRequest {
    QString pcpHost; // --pcp-host HOST[:PORT]
    QString pcpArchive; // --pcp-archive PATH
    QString start; // --start T, --finish T: PCP's own time syntax (archives only)
    QString finish;
    QString prometheusUrl; // --prometheus URL
    QString instance; // --instance X
    QStringList devices; // DEV... as typed: kernel names or map names, resolved in the source's first sample
    int intervalMs = 1000;
    bool intervalSet = false; // -i given: an archive is interpolated
    qint64 count = -1;
    StatFormat format = StatFormat::Text;

    bool any() const { return !pcpHost.isEmpty() || !pcpArchive.isEmpty() || !prometheusUrl.isEmpty(); }
};

int runSourceStat(const SourceStatRequest &request, Streams io);

// One report in the chosen format (the JSON separator before all but the first); textAfterRows goes between
// a text report's rows and its two closing empty lines.
void writeStatReport(QTextStream &out, StatFormat format, qint64 wallMs, bool iso,
    const QList<iostatformat::DeviceRow> &rows, qint64 reportsBefore, const QString &textAfterRows = {});

} // namespace dmtune::cli
