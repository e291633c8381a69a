#include "core/stats/metriccatalog.h"

#include <array>

namespace dmtune {

namespace {

// Field numbers are those of Documentation/admin-guide/iostats.rst (1-based, after major, minor, name).
// The formulas are sysstat's (iostat.c write_ext_stat, rd_stats.c compute_ext_disk_stats); Δt in seconds;
// a zero denominator gives 0.
constexpr std::array<MetricInfo, MetricCount> table { {
    { Metric::ReadsPerSec, "r/s", "r/s", "1/s", "Reads completed per second", "Δ reads completed (f1) / Δt", true },
    { Metric::ReadKBPerSec, "rkB/s", "rkB/s", "kB/s", "Kilobytes read per second", "Δ sectors read (f3) / Δt / 2",
        true },
    { Metric::ReadMergesPerSec, "rrqm/s", "rrqm/s", "1/s", "Read requests merged per second",
        "Δ reads merged (f2) / Δt", true },
    { Metric::ReadMergedPercent, "%rrqm", "rrqm", "%", "Share of read requests merged before issue",
        "100 × Δ reads merged (f2) / (Δ reads merged (f2) + Δ reads completed (f1))", true },
    { Metric::ReadAwait, "r_await", "r_await", "ms", "Average read latency, queue + service",
        "Δ ms reading (f4) / Δ reads completed (f1)", true },
    { Metric::ReadRequestSize, "rareq-sz", "rareq-sz", "kB", "Average size of the reads issued",
        "Δ sectors read (f3) / Δ reads completed (f1) / 2", true },
    { Metric::WritesPerSec, "w/s", "w/s", "1/s", "Writes completed per second", "Δ writes completed (f5) / Δt", true },
    { Metric::WriteKBPerSec, "wkB/s", "wkB/s", "kB/s", "Kilobytes written per second",
        "Δ sectors written (f7) / Δt / 2", true },
    { Metric::WriteMergesPerSec, "wrqm/s", "wrqm/s", "1/s", "Write requests merged per second",
        "Δ writes merged (f6) / Δt", true },
    { Metric::WriteMergedPercent, "%wrqm", "wrqm", "%", "Share of write requests merged before issue",
        "100 × Δ writes merged (f6) / (Δ writes merged (f6) + Δ writes completed (f5))", true },
    { Metric::WriteAwait, "w_await", "w_await", "ms", "Average write latency, queue + service",
        "Δ ms writing (f8) / Δ writes completed (f5)", true },
    { Metric::WriteRequestSize, "wareq-sz", "wareq-sz", "kB", "Average size of the writes issued",
        "Δ sectors written (f7) / Δ writes completed (f5) / 2", true },
    { Metric::DiscardsPerSec, "d/s", "d/s", "1/s", "Discards completed per second", "Δ discards completed (f12) / Δt",
        true },
    { Metric::DiscardKBPerSec, "dkB/s", "dkB/s", "kB/s", "Kilobytes discarded per second",
        "Δ sectors discarded (f14) / Δt / 2", true },
    { Metric::DiscardMergesPerSec, "drqm/s", "drqm/s", "1/s", "Discard requests merged per second",
        "Δ discards merged (f13) / Δt", true },
    { Metric::DiscardMergedPercent, "%drqm", "drqm", "%", "Share of discard requests merged before issue",
        "100 × Δ discards merged (f13) / (Δ discards merged (f13) + Δ discards completed (f12))", true },
    { Metric::DiscardAwait, "d_await", "d_await", "ms", "Average discard latency, queue + service",
        "Δ ms discarding (f15) / Δ discards completed (f12)", true },
    { Metric::DiscardRequestSize, "dareq-sz", "dareq-sz", "kB", "Average size of the discards issued",
        "Δ sectors discarded (f14) / Δ discards completed (f12) / 2", true },
    { Metric::FlushesPerSec, "f/s", "f/s", "1/s", "Flush requests completed per second",
        "Δ flushes completed (f16) / Δt", true },
    { Metric::FlushAwait, "f_await", "f_await", "ms", "Average flush latency",
        "Δ ms flushing (f17) / Δ flushes completed (f16)", true },
    { Metric::AverageQueueSize, "aqu-sz", "aqu-sz", "requests", "Average number of requests in the queue or device",
        "Δ weighted ms doing I/O (f11) / Δt / 1000", true },
    { Metric::Utilization, "%util", "util", "%", "Share of time with at least one request in flight",
        "Δ ms doing I/O (f10) / Δt / 10", true },
    { Metric::InflightReads, "inflight_r", "inflight_r", "requests", "Reads in flight at the sample instant",
        "/sys/block/<dev>/inflight, first value (an instant, not a rate)", false },
    { Metric::InflightWrites, "inflight_w", "inflight_w", "requests", "Writes in flight at the sample instant",
        "/sys/block/<dev>/inflight, second value (an instant, not a rate)", false },
} };

constexpr bool tableIsInEnumOrder()
{
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (std::size_t(table[i].metric) != i)
            return false;
    }
    return true;
}
static_assert(tableIsInEnumOrder(), "MetricCatalog table must follow the Metric enum");

} // namespace

const MetricInfo &MetricCatalog::info(Metric metric)
{
    return table[std::size_t(metric)];
}

const QList<Metric> &MetricCatalog::all()
{
    static const QList<Metric> metrics = [] {
        QList<Metric> list;
        for (const auto &entry : table)
            list.append(entry.metric);
        return list;
    }();
    return metrics;
}

const QList<Metric> &MetricCatalog::jsonOrder()
{
    // iostat.c write_json_ext_stat prints rates first, then kB/s, merges, %merged, awaits, sizes, aqu-sz, util.
    static const QList<Metric> order {
        Metric::ReadsPerSec,
        Metric::WritesPerSec,
        Metric::DiscardsPerSec,
        Metric::FlushesPerSec,
        Metric::ReadKBPerSec,
        Metric::WriteKBPerSec,
        Metric::DiscardKBPerSec,
        Metric::ReadMergesPerSec,
        Metric::WriteMergesPerSec,
        Metric::DiscardMergesPerSec,
        Metric::ReadMergedPercent,
        Metric::WriteMergedPercent,
        Metric::DiscardMergedPercent,
        Metric::ReadAwait,
        Metric::WriteAwait,
        Metric::DiscardAwait,
        Metric::FlushAwait,
        Metric::ReadRequestSize,
        Metric::WriteRequestSize,
        Metric::DiscardRequestSize,
        Metric::AverageQueueSize,
        Metric::Utilization,
        Metric::InflightReads,
        Metric::InflightWrites,
    };
    return order;
}

QString MetricCatalog::tooltip(Metric metric)
{
    const MetricInfo &i = info(metric);
    return QStringLiteral("%1 (%2): %3\n%4")
        .arg(QString::fromLatin1(i.column), QString::fromLatin1(i.unit), QString::fromUtf8(i.label),
            QString::fromUtf8(i.formula));
}

bool MetricCatalog::fromName(const QString &name, Metric *metric)
{
    for (const auto &entry : table) {
        if (name == QLatin1String(entry.column) || name == QLatin1String(entry.jsonKey)) {
            *metric = entry.metric;
            return true;
        }
    }
    return false;
}

} // namespace dmtune
