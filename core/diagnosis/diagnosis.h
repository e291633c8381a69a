#pragma once
// Diagnosis (docs/diagnosis.md): rules over a multipath map's configuration and its measured
// iostat numbers. Each rule is a pure function of a DiagnosisInput: no I/O, no clock, so recorded numbers and
// numbers captured in the lab give the same findings as live ones. A finding says what it saw, with the numbers,
// where the knowledge comes from, and proposes the experiment (a sweep) that tests it instead of a blind change.
#include "core/stats/iostatmetrics.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace dmtune {

struct DiagnosedPath {
    QString name; // sdb
    int group = 0; // 1-based path group; 0: unknown
    QString dmState; // "A" active, "F" failed, empty: unknown
    qint64 queueDepth = -1; // SCSI device/queue_depth; -1: none or unknown
    QString scheduler; // current; empty: unknown
    qint64 maxSectorsKb = -1;
    std::optional<IostatMetrics> metrics; // over the measured interval
};

struct DiagnosedMap {
    QString name; // mpatha
    QString device; // dm-0
    bool requestBased = true;
    qint64 nrRequests = -1;
    qint64 maxSectorsKb = -1;
    QString scheduler;
    int groupInUse = 0; // the group dm sends I/O to ("A" in the status); 0: unknown
    QString selector; // of the group in use: "round-robin", "queue-length", "service-time"
    bool queueIfNoPath = false; // the table's features (or multipathd's no_path_retry queue)
    std::optional<IostatMetrics> metrics;
    QList<DiagnosedPath> paths;
};

// One CPU over the measured interval, from /proc/stat and /proc/softirqs.
struct CpuSoftirqLoad {
    int cpu = -1;
    double softirqShare = 0; // of the CPU's time in softirq (ksoftirqd's work counts here too), 0..1
    double blockSoftirqsPerSec = 0; // BLOCK softirqs raised per second
};

// A native NVMe head whose statistics say nothing (nvmeHeadStatisticsNote's text).
struct HeadWithoutStatistics {
    QString head;
    QString note;
};

// A line of the system's configuration (a udev rule, a tuned profile) that sets a knob the kernel ignores.
struct IgnoredKnobSetting {
    QString knob; // rq_based_seq_io_merge_deadline
    QString file;
    int line = 0;
    QString text;
};

struct DiagnosisInput {
    QList<DiagnosedMap> maps;
    QList<IgnoredKnobSetting> ignoredKnobs;
    QList<HeadWithoutStatistics> nvmeHeads;
    std::optional<QList<CpuSoftirqLoad>> cpus; // none: not measured (a recording without them, a capture)
    double seconds = 0; // the measured interval; 0: configuration only, no rule that needs numbers fires
};

// The experiment a finding proposes: one parameter swept over values under a workload template.
struct ProposedSweep {
    QString device; // the map's name
    bool withPaths = false; // the attribute is the paths' (device/queue_depth), set on each
    QString attribute; // a catalog key: device/queue_depth, queue/nr_requests, queue/max_sectors_kb, ...
    QStringList values; // the current value among them
    QString workload; // a workload template id
};

enum class FindingSeverity { Info, Warning, Problem };

struct FindingNumber {
    QString name; // "map.wrqm_percent", "paths.queue_depth_sum"
    double value = 0;
    QString unit; // "%", "kB", "ms", "1/s", "requests", ""
};

struct Finding {
    QString code; // map-not-merging, merges-on-map-only, softirq-long-sg-lists, time-above-paths, ...
    FindingSeverity severity = FindingSeverity::Info;
    QString device; // the map (or head) it is about
    QStringList devices; // every device it names
    QString message; // one paragraph, with the numbers and the arithmetic
    QList<FindingNumber> numbers; // those that triggered it
    QString source; // where the knowledge comes from
    std::optional<ProposedSweep> experiment;
};

// Every rule, in a fixed order; no rule fires on a healthy map.
QList<Finding> diagnose(const DiagnosisInput &input);

// The thresholds, named so that docs/diagnosis.md and the tests quote the same numbers.
namespace diagnosisThresholds {
inline constexpr double minIops = 50; // below it the numbers are noise
inline constexpr double smallRequestKb = 16; // areq-sz at or below: small I/O that could merge
inline constexpr double lowMergePercent = 5; // %rqm below: "does not merge"
inline constexpr double mapMergePercent = 10; // %rqm on the map for merges-on-map-only
inline constexpr double largeRequestKb = 256; // rareq-sz at or above: large reads
inline constexpr qint64 largeMaxSectorsKb = 512; // max_sectors_kb at or above: long SG lists (seed 001's)
inline constexpr double softirqBusyShare = 0.5; // a CPU at least this busy in softirq
inline constexpr double aboveMs = 1; // time above the paths: at least this much ...
inline constexpr double aboveShare = 0.25; // ... and this share of the map's await
inline constexpr double unequalRatio = 3; // busiest / idlest path of the group in use
} // namespace diagnosisThresholds

QString findingSeverityName(FindingSeverity severity); // "info", "warning", "problem"
// The experiment in words: "device/queue_depth of mpatha's paths at 2, 8, 32, 192 (now) under seq-write-4k-64jobs".
QString describeSweep(const ProposedSweep &sweep);
// The dmtunectl sweep command line that runs it ("dmtunectl sweep mpatha --param device/queue_depth=2,8,32,192
// --with-paths seq-write-4k-64jobs"; a value listed twice once).
QString sweepCommand(const ProposedSweep &sweep);
QJsonObject findingToJson(const Finding &finding);

// The metrics' combined numbers the rules use (pure helpers, exposed for the tests and the Explain pane).
double iopsOf(const IostatMetrics &m); // r/s + w/s
double mergePercentOf(const IostatMetrics &m); // (rrqm/s + wrqm/s) / (r/s + w/s + rrqm/s + wrqm/s) x 100
double requestSizeKbOf(const IostatMetrics &m); // (rkB/s + wkB/s) / (r/s + w/s)
double awaitOf(const IostatMetrics &m); // (r_await x r/s + w_await x w/s) / (r/s + w/s)
// The time a request-based map's I/O spends above its paths: the map's await minus the share-weighted await of its
// paths (each path's share of their completed I/O). NaN without numbers or without path I/O.
double timeAbovePathsMs(const DiagnosedMap &map);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::ProposedSweep)
