#pragma once
// The iostat -x metrics by identity: column name, JSON key, unit and formula text.
// One table serves the CLI's three formats, chart axes and tooltips.
#include <QList>
#include <QString>

#include <cstddef>

namespace dmtune {

// In the column order of `iostat -x` text output, then dmtune's in-flight extras.
enum class Metric : unsigned char {
    ReadsPerSec,
    ReadKBPerSec,
    ReadMergesPerSec,
    ReadMergedPercent,
    ReadAwait,
    ReadRequestSize,
    WritesPerSec,
    WriteKBPerSec,
    WriteMergesPerSec,
    WriteMergedPercent,
    WriteAwait,
    WriteRequestSize,
    DiscardsPerSec,
    DiscardKBPerSec,
    DiscardMergesPerSec,
    DiscardMergedPercent,
    DiscardAwait,
    DiscardRequestSize,
    FlushesPerSec,
    FlushAwait,
    AverageQueueSize,
    Utilization,
    InflightReads,
    InflightWrites,
};
inline constexpr std::size_t MetricCount = std::size_t(Metric::InflightWrites) + 1;

struct MetricInfo {
    Metric metric;
    const char *column; // iostat -x text/CSV header ("%rrqm")
    const char *jsonKey; // iostat -o JSON key ("rrqm"); dmtune's own for in-flight
    const char *unit; // for axes: "1/s", "kB/s", "%", "ms", "kB", "requests"
    const char *label; // a short human description
    const char *formula; // in /proc/diskstats field terms, for tooltips
    bool iostatColumn; // printed by iostat -x (the in-flight pair is not)
};

class MetricCatalog {
public:
    static const MetricInfo &info(Metric metric);
    // Every metric, in iostat -x column order.
    static const QList<Metric> &all();
    // The order of the keys in iostat -o JSON disk objects, then inflight_r, inflight_w.
    static const QList<Metric> &jsonOrder();
    static QString column(Metric metric) { return QString::fromLatin1(info(metric).column); }
    static QString jsonKey(Metric metric) { return QString::fromLatin1(info(metric).jsonKey); }
    static QString unit(Metric metric) { return QString::fromLatin1(info(metric).unit); }
    // "r_await (ms): Δ field 4 / Δ field 1 ..." for a chart tooltip.
    static QString tooltip(Metric metric);
    // Lookup by column name or JSON key ("%util" or "util"); false when unknown.
    static bool fromName(const QString &name, Metric *metric);
};

} // namespace dmtune
