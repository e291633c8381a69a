// The diagnosis rules (docs/diagnosis.md): each a pure function of one map (or the whole input) and its numbers.
#include "core/diagnosis/diagnosis.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace dmtune {

namespace T = diagnosisThresholds;

namespace {

QString label(const DiagnosedMap &map)
{
    return map.name.isEmpty() ? map.device : QStringLiteral("%1 (%2)").arg(map.name, map.device);
}

QString mapName(const DiagnosedMap &map)
{
    return map.name.isEmpty() ? map.device : map.name;
}

QString num(double v, int decimals = 1)
{
    return QString::number(v, 'f', decimals);
}

// The group dm sends I/O to. A map that had done no I/O when its status was read has no active group yet (every
// group "E"; a recording reads it before fio starts): then the group whose paths completed the most I/O.
int groupInUse(const DiagnosedMap &map)
{
    if (map.groupInUse > 0)
        return map.groupInUse;
    QHash<int, double> iops;
    for (const DiagnosedPath &p : map.paths) {
        if (p.group > 0 && p.metrics)
            iops[p.group] += iopsOf(*p.metrics);
    }
    int best = 0;
    for (auto it = iops.cbegin(); it != iops.cend(); ++it) {
        if (it.value() > 0 && (best == 0 || it.value() > iops.value(best)))
            best = it.key();
    }
    return best;
}

// The paths dm sends I/O to: the group in use (all groups when unknown), without failed paths.
QList<const DiagnosedPath *> pathsInUse(const DiagnosedMap &map)
{
    QList<const DiagnosedPath *> out;
    const int group = groupInUse(map);
    for (const DiagnosedPath &p : map.paths) {
        if (group > 0 && p.group > 0 && p.group != group)
            continue;
        if (p.dmState == QLatin1String("F"))
            continue;
        out << &p;
    }
    return out;
}

bool measured(const DiagnosisInput &input, const DiagnosedMap &map)
{
    return input.seconds > 0 && map.metrics && iopsOf(*map.metrics) >= T::minIops;
}

bool writesDominate(const IostatMetrics &m)
{
    return m[Metric::WritesPerSec] >= m[Metric::ReadsPerSec];
}

// Values to sweep: the proposed ones and the current one, numerically sorted, without repeats.
QStringList sweepValues(QList<qint64> values, qint64 current)
{
    if (current > 0)
        values << current;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    QStringList out;
    for (const qint64 v : values)
        out << (v == current ? QStringLiteral("%1 (now)").arg(v) : QString::number(v));
    return out;
}

QStringList names(const QList<const DiagnosedPath *> &paths)
{
    QStringList out;
    for (const DiagnosedPath *p : paths)
        out << p->name;
    return out;
}

// A finding about a map; devices: what it names besides the map.
Finding newFinding(const char *code, FindingSeverity severity, const DiagnosedMap &map, const QStringList &devices = {})
{
    Finding f;
    f.code = QLatin1String(code);
    f.severity = severity;
    f.device = mapName(map);
    f.devices = QStringList { mapName(map) } + devices;
    return f;
}

// Seed 002: small I/O that does not merge on a request-based map whose queue never fills.
void mapNotMerging(const DiagnosisInput &input, const DiagnosedMap &map, QList<Finding> *out)
{
    if (!map.requestBased || !measured(input, map) || map.nrRequests <= 0)
        return;
    const IostatMetrics &m = *map.metrics;
    const double size = requestSizeKbOf(m);
    const double merged = mergePercentOf(m);
    if (size > T::smallRequestKb || merged >= T::lowMergePercent)
        return;
    const auto paths = pathsInUse(map);
    if (paths.isEmpty())
        return;
    qint64 depthSum = 0;
    for (const DiagnosedPath *p : paths) {
        if (p->queueDepth <= 0)
            return; // without every depth the arithmetic would be a guess
        depthSum += p->queueDepth;
    }
    if (map.nrRequests > depthSum)
        return;
    const bool uniform = std::all_of(paths.cbegin(), paths.cend(),
        [&](const DiagnosedPath *p) { return p->queueDepth == paths.first()->queueDepth; });
    QStringList depths;
    for (const DiagnosedPath *p : paths)
        depths << QString::number(p->queueDepth);
    const QString sum = uniform
        ? QStringLiteral("%1 path(s) in use x queue_depth %2 = %3")
              .arg(QString::number(paths.size()), depths.first(), QString::number(depthSum))
        : QStringLiteral("queue_depth %1 = %2").arg(depths.join(u'+'), QString::number(depthSum));
    Finding f = newFinding("map-not-merging", FindingSeverity::Warning, map, names(paths));
    f.message = QStringLiteral(
        "%1 merges %2 % of its I/O (%3 requests/s of %4 kB): its nr_requests %5 <= %6, so the paths take every "
        "request as soon as the map makes it, the map's queue stays empty and nothing waits there to merge with the "
        "next. If this I/O is sequential, fewer requests in flight on the paths (a lower queue_depth) or more room in "
        "the map's queue (nr_requests above %7) let it merge.")
                    .arg(label(map), num(merged), num(iopsOf(m), 0), num(size), QString::number(map.nrRequests), sum,
                        QString::number(depthSum));
    f.numbers = { { QStringLiteral("map.merged_percent"), merged, QStringLiteral("%") },
        { QStringLiteral("map.iops"), iopsOf(m), QStringLiteral("1/s") },
        { QStringLiteral("map.areq_sz"), size, QStringLiteral("kB") },
        { QStringLiteral("map.nr_requests"), double(map.nrRequests), QStringLiteral("requests") },
        { QStringLiteral("paths.queue_depth_sum"), double(depthSum), QStringLiteral("requests") } };
    f.source = QStringLiteral(
        "seed 002: dm-devel, March 2015, \"dm: don't start current request if it would've merged with the previous\" "
        "(4 paths x queue_depth 32 = 128 = nr_requests: 4K sequential writes never merged; queue_depth 16 let them); "
        "reproduced in dmtune's lab VM: 0.4 merges/s at queue_depth 192, 1,251/s at 2");
    const qint64 current = paths.first()->queueDepth;
    f.experiment = ProposedSweep { mapName(map), true, QStringLiteral("device/queue_depth"),
        sweepValues({ 2, 8, 32 }, uniform ? current : -1),
        writesDominate(m) ? QStringLiteral("seq-write-4k-64jobs") : QStringLiteral("seq-read-8k-4jobs") };
    *out << f;
}

// Merges on the map and none on its paths: what a request-based map does, said so nobody chases it.
void mergesOnMapOnly(const DiagnosisInput &input, const DiagnosedMap &map, QList<Finding> *out)
{
    if (!map.requestBased || !measured(input, map) || map.paths.isEmpty())
        return;
    const IostatMetrics &m = *map.metrics;
    const double mapMerges = m[Metric::ReadMergesPerSec] + m[Metric::WriteMergesPerSec];
    if (mergePercentOf(m) < T::mapMergePercent)
        return;
    double pathMerges = 0;
    for (const DiagnosedPath &p : map.paths) {
        if (!p.metrics)
            return;
        pathMerges += (*p.metrics)[Metric::ReadMergesPerSec] + (*p.metrics)[Metric::WriteMergesPerSec];
    }
    if (pathMerges > mapMerges * 0.01)
        return;
    Finding f = newFinding("merges-on-map-only", FindingSeverity::Info, map);
    f.message = QStringLiteral(
        "%1 merges %2 % of its I/O (%3 merges/s, requests of %4 kB) and its paths merge %5/s: as expected. A "
        "request-based map merges in its own queue; each request it sends down is a finished clone that goes "
        "straight to the path's driver (blk_insert_cloned_request), where nothing merges it again. The paths' "
        "areq-sz shows the map's merged requests arriving whole.")
                    .arg(label(map), num(mergePercentOf(m)), num(mapMerges), num(requestSizeKbOf(m)), num(pathMerges));
    f.numbers = { { QStringLiteral("map.merged_percent"), mergePercentOf(m), QStringLiteral("%") },
        { QStringLiteral("map.merges_per_s"), mapMerges, QStringLiteral("1/s") },
        { QStringLiteral("paths.merges_per_s"), pathMerges, QStringLiteral("1/s") } };
    f.source = QStringLiteral("drivers/md/dm-rq.c (dm_dispatch_clone_request) and block/blk-mq.c "
                              "(blk_insert_cloned_request issues the clone directly, bypassing the path's scheduler)");
    *out << f;
}

// Seed 001: many large parallel reads through long scatter-gather lists, and a CPU lost in softirq.
void softirqLongSgLists(const DiagnosisInput &input, const DiagnosedMap &map, QList<Finding> *out)
{
    if (!input.cpus || !measured(input, map))
        return;
    qint64 maxSectors = map.maxSectorsKb;
    if (maxSectors <= 0) {
        for (const DiagnosedPath &p : map.paths)
            maxSectors = std::max(maxSectors, p.maxSectorsKb);
    }
    const IostatMetrics &m = *map.metrics;
    // From the rates, as requestSizeKbOf does: the same numbers whether they came from counters or a table.
    const double reads = m[Metric::ReadsPerSec];
    const double readSize = reads > 0 ? m[Metric::ReadKBPerSec] / reads : 0.0;
    const double readMerged
        = reads > 0 ? m[Metric::ReadMergesPerSec] / (reads + m[Metric::ReadMergesPerSec]) * 100 : 0.0;
    const double queue = m[Metric::AverageQueueSize];
    if (maxSectors < T::largeMaxSectorsKb || m[Metric::ReadsPerSec] < T::minIops || readSize < T::largeRequestKb)
        return;
    const auto busiest = std::max_element(input.cpus->cbegin(), input.cpus->cend(),
        [](const CpuSoftirqLoad &a, const CpuSoftirqLoad &b) { return a.softirqShare < b.softirqShare; });
    if (busiest == input.cpus->cend() || busiest->softirqShare < T::softirqBusyShare)
        return;
    Finding f = newFinding("softirq-long-sg-lists", FindingSeverity::Problem, map);
    f.message
        = QStringLiteral("%1 reads %2 requests/s of %3 kB (aqu-sz %4, %5 % merged), with "
                         "max_sectors_kb %6, while CPU %7 spends %8 % of its time in softirq (%9 BLOCK softirqs/s): "
                         "completing requests built from many bios walks long scatter-gather lists in softirq "
                         "context, and one CPU can become the limit. A smaller max_sectors_kb makes shorter lists.")
              .arg(label(map), num(m[Metric::ReadsPerSec], 0), num(readSize, 0), num(queue), num(readMerged),
                  QString::number(maxSectors), QString::number(busiest->cpu), num(busiest->softirqShare * 100, 0),
                  num(busiest->blockSoftirqsPerSec, 0));
    f.numbers = { { QStringLiteral("map.r_s"), m[Metric::ReadsPerSec], QStringLiteral("1/s") },
        { QStringLiteral("map.rareq_sz"), readSize, QStringLiteral("kB") },
        { QStringLiteral("map.aqu_sz"), queue, QString() },
        { QStringLiteral("max_sectors_kb"), double(maxSectors), QStringLiteral("kB") },
        { QStringLiteral("cpu"), double(busiest->cpu), QString() },
        { QStringLiteral("cpu.softirq_percent"), busiest->softirqShare * 100, QStringLiteral("%") },
        { QStringLiteral("cpu.block_softirqs_per_s"), busiest->blockSoftirqsPerSec, QStringLiteral("1/s") } };
    f.source = QStringLiteral(
        "seed 001: linux-kernel, 2011, \"Request based device mapper in Linux\" (80 maps, parallel 1 MB dd reads, "
        "ksoftirqd at 96 %, 180 r/s with 25,000 rrqm/s, 600 MB/s; max_sectors_kb 128 gave 2.8 GB/s)");
    f.experiment = ProposedSweep { mapName(map), false, QStringLiteral("queue/max_sectors_kb"),
        sweepValues({ 128, 512 }, maxSectors), QStringLiteral("parallel-read-1m-16jobs") };
    *out << f;
}

// Where the time goes: the map's await against the share-weighted await of its paths.
void timeAbovePaths(const DiagnosisInput &input, const DiagnosedMap &map, QList<Finding> *out)
{
    if (!map.requestBased || !measured(input, map))
        return;
    const double above = timeAbovePathsMs(map);
    const double mapAwait = awaitOf(*map.metrics);
    if (!std::isfinite(above) || above < T::aboveMs || above < mapAwait * T::aboveShare)
        return;
    double pathIos = 0;
    for (const DiagnosedPath &p : map.paths)
        pathIos += iopsOf(*p.metrics);
    QStringList terms;
    for (const DiagnosedPath &p : map.paths) {
        const double ios = iopsOf(*p.metrics);
        if (ios > 0)
            terms << QStringLiteral("%1 %2 % x %3 ms")
                         .arg(p.name, num(ios / pathIos * 100, 0), num(awaitOf(*p.metrics), 2));
    }
    Finding f = newFinding("time-above-paths", FindingSeverity::Warning, map);
    f.message = QStringLiteral(
        "%1's I/O waits %2 ms (%3 % of its await %4 ms) before a path takes it: its paths' share-weighted await is "
        "%5 ms (%6). Time above the paths = await(map) - sum of share(path) x await(path), share = the path's "
        "completed I/O / all paths' completed I/O. Requests wait in the map's queue while every path in use is at "
        "its queue_depth, or while dm holds them back.")
                    .arg(label(map), num(above, 2), num(above / mapAwait * 100, 0), num(mapAwait, 2),
                        num(mapAwait - above, 2), terms.join(QStringLiteral(" + ")));
    f.numbers = { { QStringLiteral("map.await"), mapAwait, QStringLiteral("ms") },
        { QStringLiteral("paths.weighted_await"), mapAwait - above, QStringLiteral("ms") },
        { QStringLiteral("above_paths"), above, QStringLiteral("ms") } };
    f.source = QStringLiteral("the latency issue's formula (like esxtop's KAVG = GAVG - DAVG); iostat's await: "
                              "Documentation/admin-guide/iostats.rst fields 4 and 8 over 1 and 5");
    const auto paths = pathsInUse(map);
    qint64 depth = paths.isEmpty() ? -1 : paths.first()->queueDepth;
    if (depth > 0) {
        f.experiment = ProposedSweep { mapName(map), true, QStringLiteral("device/queue_depth"),
            sweepValues({ std::max<qint64>(1, depth / 2), depth * 2, depth * 4 }, depth),
            writesDominate(*map.metrics) ? QStringLiteral("seq-write-4k-64jobs")
                                         : QStringLiteral("rand-read-4k-24jobs") };
    }
    *out << f;
}

// Paths of the group in use carrying very unequal load under a load-balancing selector.
void unequalPathLoad(const DiagnosisInput &input, const DiagnosedMap &map, QList<Finding> *out)
{
    if (!measured(input, map))
        return;
    const auto paths = pathsInUse(map);
    if (paths.size() < 2)
        return;
    double total = 0;
    for (const DiagnosedPath *p : paths) {
        if (!p->metrics)
            return;
        total += iopsOf(*p->metrics);
    }
    if (total < T::minIops)
        return;
    const auto byIops
        = [](const DiagnosedPath *a, const DiagnosedPath *b) { return iopsOf(*a->metrics) < iopsOf(*b->metrics); };
    const DiagnosedPath *idlest = *std::min_element(paths.cbegin(), paths.cend(), byIops);
    const DiagnosedPath *busiest = *std::max_element(paths.cbegin(), paths.cend(), byIops);
    const double low = iopsOf(*idlest->metrics);
    const double high = iopsOf(*busiest->metrics);
    if (high < low * T::unequalRatio)
        return;
    QStringList shares;
    for (const DiagnosedPath *p : paths)
        shares << QStringLiteral("%1 %2/s (%3 %)")
                      .arg(p->name, num(iopsOf(*p->metrics), 0), num(iopsOf(*p->metrics) / total * 100, 0));
    const QString selector = map.selector.isEmpty() ? QStringLiteral("its selector") : map.selector;
    Finding f = newFinding("unequal-path-load", FindingSeverity::Warning, map, names(paths));
    f.message = QStringLiteral(
        "The %1 paths %2 uses carry unequal load under %3: %4. round-robin gives each path the same number of "
        "I/Os; queue-length and service-time send less to a path that is slower or busier (another map, another "
        "host's I/O on the same port, a path about to fail), so a path far behind the others is worth a look.")
                    .arg(QString::number(paths.size()), label(map), selector, shares.join(QStringLiteral(", ")));
    f.numbers = { { QStringLiteral("busiest.iops"), high, QStringLiteral("1/s") },
        { QStringLiteral("idlest.iops"), low, QStringLiteral("1/s") },
        { QStringLiteral("ratio"), low > 0 ? high / low : std::nan(""), QString() } };
    f.source = QStringLiteral("drivers/md/dm-ps-round-robin.c, dm-ps-queue-length.c, dm-ps-service-time.c; "
                              "multipath.conf(5), path_selector");
    f.experiment = ProposedSweep { mapName(map), false, QStringLiteral("selector"),
        { QStringLiteral("round-robin"), QStringLiteral("queue-length"), QStringLiteral("service-time") },
        QStringLiteral("rand-read-4k-24jobs") };
    *out << f;
}

// A scheduler on the paths of a request-based map: the map's clones bypass it.
void schedulerOnPaths(const DiagnosedMap &map, QList<Finding> *out)
{
    if (!map.requestBased)
        return;
    QStringList withScheduler;
    QString scheduler;
    for (const DiagnosedPath &p : map.paths) {
        if (!p.scheduler.isEmpty() && p.scheduler != QLatin1String("none")) {
            withScheduler << p.name;
            scheduler = p.scheduler;
        }
    }
    if (withScheduler.isEmpty())
        return;
    Finding f = newFinding("scheduler-on-paths", FindingSeverity::Info, map, withScheduler);
    f.message = QStringLiteral(
        "%1 (path(s) of request-based %2) run the %3 scheduler: the map has sorted and merged in its own queue "
        "already, and its clones are issued to the path directly, past the path's scheduler. It orders only I/O "
        "that bypasses the map; none is the usual choice for multipath paths.")
                    .arg(withScheduler.join(QStringLiteral(", ")), label(map), scheduler);
    f.numbers = { { QStringLiteral("paths_with_scheduler"), double(withScheduler.size()), QString() } };
    f.source = QStringLiteral("block/blk-mq.c, blk_insert_cloned_request (\"bypass a potential scheduler on the "
                              "bottom device for insert\"); dmtune's stacking rule scheduler-under-rq-map");
    f.experiment = ProposedSweep { mapName(map), true, QStringLiteral("queue/scheduler"),
        { QStringLiteral("none"), scheduler + QStringLiteral(" (now)") }, QStringLiteral("rand-read-4k-24jobs") };
    *out << f;
}

// A knob that current kernels keep but ignore, set by the system's configuration: the kernel reads it back as 0
// whatever was written, so only the configuration shows that someone relies on it.
void ignoredKnobs(const DiagnosisInput &input, QList<Finding> *out)
{
    if (input.ignoredKnobs.isEmpty())
        return;
    QStringList where;
    for (const IgnoredKnobSetting &s : input.ignoredKnobs)
        where << QStringLiteral("%1:%2").arg(s.file).arg(s.line);
    const IgnoredKnobSetting &first = input.ignoredKnobs.first();
    Finding f;
    f.code = QStringLiteral("ignored-knob");
    f.severity = FindingSeverity::Warning;
    f.device = first.knob;
    f.devices = { first.knob };
    f.message = QStringLiteral(
        "%1 sets %2 (\"%3\"): current kernels accept the value and ignore it (it delayed dispatch in the old, "
        "non-blk-mq request path that is gone; reading it gives 0 whatever was written). To give sequential I/O "
        "time to merge, lower the paths' queue_depth or raise the map's nr_requests instead.")
                    .arg(where.join(QStringLiteral(", ")), first.knob, first.text);
    f.numbers = { { QStringLiteral("settings"), double(input.ignoredKnobs.size()), QString() } };
    f.source = QStringLiteral("drivers/md/dm-rq.c (dm_attr_rq_based_seq_io_merge_deadline_show prints 0, its store "
                              "discards the value); seed 002 (the 20 us dispatch delay of 2015)");
    for (const DiagnosedMap &map : input.maps) {
        if (!map.requestBased)
            continue;
        const auto paths = pathsInUse(map);
        f.experiment = ProposedSweep { mapName(map), true, QStringLiteral("device/queue_depth"),
            sweepValues({ 2, 8, 32 }, paths.isEmpty() ? -1 : paths.first()->queueDepth),
            QStringLiteral("seq-write-4k-64jobs") };
        break;
    }
    *out << f;
}

// queue_if_no_path with every path failed: I/O hangs until a path returns.
void queueingWithoutPaths(const DiagnosedMap &map, QList<Finding> *out)
{
    if (!map.queueIfNoPath || map.paths.isEmpty())
        return;
    for (const DiagnosedPath &p : map.paths) {
        if (p.dmState != QLatin1String("F"))
            return;
    }
    Finding f = newFinding("queueing-without-paths", FindingSeverity::Problem, map);
    f.message = QStringLiteral(
        "Every path of %1 (%2) has failed and the map queues I/O when it has no path (queue_if_no_path): every "
        "I/O on it, and every process doing it, waits until a path is reinstated, with no time limit. `dmtunectl "
        "path reinstate` brings a path back; `dmtunectl map queueing %3 off` fails the queued I/O instead.")
                    .arg(label(map), QString::number(map.paths.size()), mapName(map));
    f.numbers = { { QStringLiteral("failed_paths"), double(map.paths.size()), QString() } };
    f.source = QStringLiteral("drivers/md/dm-mpath.c (queue_if_no_path); multipath.conf(5), no_path_retry");
    *out << f;
}

} // namespace

QList<Finding> diagnose(const DiagnosisInput &input)
{
    QList<Finding> out;
    for (const DiagnosedMap &map : input.maps) {
        queueingWithoutPaths(map, &out);
        softirqLongSgLists(input, map, &out);
        mapNotMerging(input, map, &out);
        timeAbovePaths(input, map, &out);
        unequalPathLoad(input, map, &out);
        schedulerOnPaths(map, &out);
        mergesOnMapOnly(input, map, &out);
    }
    ignoredKnobs(input, &out);
    for (const HeadWithoutStatistics &head : input.nvmeHeads) {
        Finding f;
        f.code = QStringLiteral("nvme-head-without-statistics");
        f.severity = FindingSeverity::Info;
        f.device = head.head;
        f.devices = { head.head };
        f.message = head.note;
        f.source = QStringLiteral("drivers/nvme/host/multipath.c (nvme_mpath_start_request, Linux 6.2); docs/nvme.md");
        out << f;
    }
    return out;
}

} // namespace dmtune
