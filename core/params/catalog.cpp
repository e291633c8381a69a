#include "core/params/catalog.h"

#include "core/util/nearmiss.h"

namespace dmtune {

QString tunableTypeName(TunableType type)
{
    switch (type) {
    case TunableType::Int:
        return QStringLiteral("int");
    case TunableType::Bool:
        return QStringLiteral("bool");
    case TunableType::Enum:
        return QStringLiteral("enum");
    case TunableType::String:
        return QStringLiteral("string");
    }
    return {};
}

namespace catalog {

namespace {

constexpr qint64 intMax = 2147483647; // most attributes are C ints in the kernel

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

TunableDef intDef(
    TunableLocation loc, const char *attribute, const char *unit, qint64 min, qint64 max, const char *description)
{
    TunableDef d;
    d.attribute = s(attribute);
    d.location = loc;
    d.type = TunableType::Int;
    d.unit = s(unit);
    d.minimum = min;
    d.maximum = max;
    d.description = s(description);
    return d;
}

TunableDef boolDef(
    TunableLocation loc, const char *attribute, const char *description, BoolStyle style = BoolStyle::Digits)
{
    TunableDef d;
    d.attribute = s(attribute);
    d.location = loc;
    d.type = TunableType::Bool;
    d.boolStyle = style;
    d.description = s(description);
    return d;
}

TunableDef withRisk(TunableDef d, const QStringList &values, const char *note)
{
    d.riskyValues = values;
    d.riskNote = QString::fromUtf8(note);
    return d;
}

TunableDef enumDef(
    TunableLocation loc, const char *attribute, QStringList choices, QStringList notes, const char *description)
{
    TunableDef d;
    d.attribute = s(attribute);
    d.location = loc;
    d.type = TunableType::Enum;
    d.choices = std::move(choices);
    d.choiceNotes = std::move(notes);
    d.description = s(description);
    return d;
}

TunableDef iosched(TunableDef d, const char *scheduler)
{
    d.scheduler = s(scheduler);
    return d;
}

TunableDef moduleParam(TunableDef d, const char *module)
{
    d.module = s(module);
    return d;
}

TunableDef ignoredDef(TunableDef d, const char *note)
{
    d.ignored = true;
    d.ignoredNote = s(note);
    return d;
}

TunableDef withLimit(TunableDef d, DynamicLimit limit, const char *note = "")
{
    d.limit = limit;
    d.limitNote = s(note);
    return d;
}

QList<TunableDef> build()
{
    using L = TunableLocation;
    const auto Q = L::Queue;
    const auto IO = L::IoScheduler;
    QList<TunableDef> c;

    // queue/
    c << withLimit(enumDef(Q, "queue/scheduler", {}, {},
                       "I/O scheduler. none for fast SSD/NVMe and for paths under a request-based multipath map "
                       "(the map schedules); mq-deadline to merge and bound latency; bfq for interactive use on "
                       "slow disks. A change resets nr_requests and the iosched tunables to their defaults."),
        DynamicLimit::SchedulerList);
    c << withLimit(intDef(Q, "queue/nr_requests", "requests", 0, intMax,
                       "Requests the queue may hold per hardware queue. On a multipath map keep it above "
                       "paths x queue_depth, or the map's queue stays empty and nothing merges."),
        DynamicLimit::NrRequests, "the kernel raises 0-3 to 4");
    c << withLimit(intDef(Q, "queue/max_sectors_kb", "KiB", 4, intMax,
                       "Largest request the block layer builds. Lower it against long scatter-gather lists or "
                       "a device that chokes on big I/O; a map must not exceed its paths."),
        DynamicLimit::MaxHwSectors, "at most max_hw_sectors_kb");
    c << enumDef(Q, "queue/nomerges", { s("0"), s("1"), s("2") },
        { s("all merges"), s("simple one-hit merges only"), s("no merging") },
        "Request merging. 2 to measure a device without merging or to save CPU on random I/O; "
        "0 for sequential workloads.");
    c << enumDef(Q, "queue/rq_affinity", { s("0"), s("1"), s("2") },
        { s("complete anywhere"), s("complete in the submitter's CPU group"), s("complete on the submitting CPU") },
        "Where completions run. 2 keeps caches hot on many-core hosts at the cost of IPIs.");
    c << intDef(Q, "queue/read_ahead_kb", "KiB", 0, intMax,
        "Read-ahead for buffered sequential reads; raise for streaming, lower for random reads. "
        "The kernel rounds to whole pages.");
    c << boolDef(Q, "queue/add_random", "Feed I/O timings to the entropy pool; 0 saves a little CPU on fast devices.");
    c << boolDef(Q, "queue/iostats", "Per-device I/O accounting (/proc/diskstats); 0 saves CPU but blinds iostat.");
    c << boolDef(Q, "queue/iostats_passthrough", "Also account passthrough commands in the I/O statistics.");
    c << withLimit(intDef(Q, "queue/wbt_lat_usec", "us", -1, intMax,
                       "Writeback throttling target latency; 0 turns throttling off, -1 restores the default."),
        DynamicLimit::None, "-1 restores the default");
    c << boolDef(
        Q, "queue/rotational", "Whether the kernel treats the device as spinning (affects schedulers and read-ahead).");
    c << withRisk(enumDef(Q, "queue/write_cache", { s("write back"), s("write through") },
                      { s("volatile cache: the kernel sends flushes"), s("no volatile cache: no flushes") },
                      "Tells the kernel whether the device has a volatile cache. \"write through\" stops flushes: only "
                      "for caches that really survive power loss."),
        { s("write through") },
        "the kernel stops sending cache flushes and FUA to the device: if its write cache is volatile, writes "
        "already reported as done (fsync, journal commits) are lost on a power failure and file systems can be "
        "corrupted. dmtune cannot know whether the cache survives power loss");
    c << ignoredDef(boolDef(Q, "queue/io_poll", "Polled completions for this queue."),
        "current kernels ignore or reject writes: poll queues are a driver parameter "
        "(nvme.poll_queues)");
    c << ignoredDef(intDef(Q, "queue/io_poll_delay", "us", -1, intMax, "Hybrid polling delay."),
        "hybrid polling was removed: writes are accepted and ignored, it always reads -1");
    c << boolDef(Q, "queue/stable_writes", "Keep pages stable while under write-back (needed by checksumming).");
    c << withLimit(intDef(Q, "queue/discard_max_bytes", "bytes", 0, std::numeric_limits<qint64>::max(),
                       "Largest discard sent at once; lower it when big discards stall the device."),
        DynamicLimit::DiscardMax, "at most discard_max_hw_bytes, a multiple of discard_granularity");

    // queue/iosched/ of mq-deadline
    c << iosched(intDef(IO, "queue/iosched/read_expire", "ms", 0, intMax, "Deadline of a read."), "mq-deadline");
    c << iosched(intDef(IO, "queue/iosched/write_expire", "ms", 0, intMax, "Deadline of a write."), "mq-deadline");
    c << iosched(intDef(IO, "queue/iosched/writes_starved", "", 0, intMax,
                     "Read batches served before a write batch; lower it when writes starve."),
        "mq-deadline");
    c << iosched(boolDef(IO, "queue/iosched/front_merges", "Try front merges; 0 saves a lookup when they never hit."),
        "mq-deadline");
    c << iosched(intDef(IO, "queue/iosched/fifo_batch", "requests", 0, intMax,
                     "Requests dispatched in one sorted batch: larger for throughput, smaller for latency."),
        "mq-deadline");
    c << iosched(intDef(IO, "queue/iosched/async_depth", "requests", 1, intMax,
                     "Tags asynchronous requests may take, so synchronous ones are not starved."),
        "mq-deadline");
    c << iosched(intDef(IO, "queue/iosched/prio_aging_expire", "ms", 0, intMax,
                     "Longest a lower-priority request waits before it is served anyway."),
        "mq-deadline");
    // kyber
    c << iosched(intDef(IO, "queue/iosched/read_lat_nsec", "ns", 1, std::numeric_limits<qint64>::max(),
                     "Target read latency; kyber throttles to meet it."),
        "kyber");
    c << iosched(intDef(IO, "queue/iosched/write_lat_nsec", "ns", 1, std::numeric_limits<qint64>::max(),
                     "Target write latency."),
        "kyber");
    // bfq
    c << iosched(intDef(IO, "queue/iosched/slice_idle", "ms", 0, intMax,
                     "Idle wait for a process's next request; 0 for SSDs and arrays."),
        "bfq");
    c << iosched(intDef(IO, "queue/iosched/slice_idle_us", "us", 0, intMax, "slice_idle in microseconds."), "bfq");
    c << iosched(boolDef(IO, "queue/iosched/low_latency", "Favour interactive and soft real-time tasks."), "bfq");
    c << iosched(
        intDef(IO, "queue/iosched/back_seek_max", "KiB", 0, intMax, "Longest backward seek considered."), "bfq");
    c << iosched(intDef(IO, "queue/iosched/back_seek_penalty", "", 1, intMax, "Cost factor of backward seeks."), "bfq");
    c << iosched(intDef(IO, "queue/iosched/fifo_expire_async", "ms", 1, intMax, "Deadline of async requests."), "bfq");
    c << iosched(intDef(IO, "queue/iosched/fifo_expire_sync", "ms", 1, intMax, "Deadline of sync requests."), "bfq");
    c << iosched(
        intDef(IO, "queue/iosched/max_budget", "sectors", 0, intMax, "Budget of a queue; 0 automatic."), "bfq");
    c << iosched(
        boolDef(IO, "queue/iosched/strict_guarantees", "Strict service guarantees at a throughput cost."), "bfq");
    c << iosched(intDef(IO, "queue/iosched/timeout_sync", "ms", 1, intMax, "Longest slice of a sync queue."), "bfq");

    // SCSI device/
    c << withLimit(intDef(L::ScsiDevice, "device/queue_depth", "commands", 1, intMax,
                       "Commands the LUN may have outstanding. Lower it when the array's queue is shared or "
                       "to let a map's queue fill (and merge); raise for one fast LUN."),
        DynamicLimit::CanQueue, "1..the host's can_queue");
    c << intDef(L::ScsiDevice, "device/timeout", "s", 1, 86400,
        "Command timeout before error handling starts; arrays with long failovers want more.");
    c << intDef(L::ScsiDevice, "device/eh_timeout", "s", 1, 86400, "Timeout of error-handling commands (TUR, ...).");

    // dm/
    c << ignoredDef(intDef(L::DeviceMapper, "dm/rq_based_seq_io_merge_deadline", "us", 0, intMax,
                        "Delay dispatch of sequential I/O so it can merge (old request-based dm)."),
        "kept for compatibility but does nothing on current (blk-mq only) kernels");

    // dm_mod and dm_multipath module parameters: global, used when a map is (re)loaded.
    const auto M = L::Module;
    c << moduleParam(intDef(M, "module/dm_mod/reserved_bio_based_ios", "ios", 0, 1024,
                         "Reserved I/Os in bio-based mempools; 0 is the default. Maps created later use it."),
        "dm_mod");
    c << moduleParam(intDef(M, "module/dm_mod/reserved_rq_based_ios", "ios", 0, 1024,
                         "Reserved I/Os in request-based mempools; 0 is the default. Maps created later use it."),
        "dm_mod");
    c << moduleParam(intDef(M, "module/dm_mod/dm_mq_nr_hw_queues", "queues", 0, 32,
                         "Hardware queues of request-based maps created later; 0 is the default (1)."),
        "dm_mod");
    c << moduleParam(intDef(M, "module/dm_mod/dm_mq_queue_depth", "requests", 0, 10240,
                         "Tag depth of request-based maps created later (default 2048): bounds their nr_requests."),
        "dm_mod");
    c << moduleParam(
        intDef(M, "module/dm_mod/dm_numa_node", "", -1, 1023, "NUMA node of dm allocations; -1 any node."), "dm_mod");
    c << moduleParam(
        intDef(M, "module/dm_mod/swap_bios", "bios", 1, intMax, "Bios in flight while swapping to a dm device."),
        "dm_mod");
    c << moduleParam(
        ignoredDef(boolDef(M, "module/dm_mod/use_blk_mq", "Use blk-mq for request-based maps.", BoolStyle::YesNo),
            "unused, kept for compatibility: request-based dm is blk-mq only"),
        "dm_mod");
    c << moduleParam(intDef(M, "module/dm_multipath/queue_if_no_path_timeout_secs", "s", 0, intMax,
                         "How long a map with queue_if_no_path queues without any path; 0 forever."),
        "dm_multipath");

    // NVMe native multipath
    c << withLimit(enumDef(L::NvmeSubsystem, "nvme/iopolicy", { s("numa"), s("round-robin"), s("queue-depth") },
                       { s("nearest path"), s("rotate over optimized paths"), s("path with fewest outstanding I/Os") },
                       "Path selection of native NVMe multipath for every namespace of the subsystem "
                       "(queue-depth needs Linux 6.11+)."),
        DynamicLimit::NvmeIopolicies, "queue-depth from Linux 6.11");
    // Its short name "iopolicy" names the subsystem's attribute above (resolve() prefers a device's attribute).
    c << moduleParam(
        withLimit(enumDef(M, "module/nvme_core/iopolicy", { s("numa"), s("round-robin"), s("queue-depth") },
                      { s("nearest path"), s("rotate over optimized paths"), s("path with fewest outstanding I/Os") },
                      "Default iopolicy of NVMe subsystems the kernel finds from now on; subsystems "
                      "already there keep their own (nvme/iopolicy)."),
            DynamicLimit::NvmeIopolicies, "queue-depth from Linux 6.11"),
        "nvme_core");
    return c;
}

} // namespace

const QList<TunableDef> &all()
{
    static const QList<TunableDef> entries = build();
    return entries;
}

const TunableDef *find(const QString &attribute)
{
    for (const auto &d : all()) {
        if (d.attribute == attribute)
            return &d;
    }
    return nullptr;
}

QStringList matching(const QStringList &keys, const QString &name)
{
    if (name.isEmpty())
        return {};
    if (keys.contains(name))
        return { name };
    const QString tail = QLatin1Char('/') + name;
    QStringList out;
    for (const QString &key : keys) {
        if (key.endsWith(tail))
            out.append(key);
    }
    // A module's default shares its short name with the device attribute it seeds (nvme_core's iopolicy and a
    // subsystem's): the short name means the device's, the module's takes more of its key.
    QStringList onDevices;
    for (const QString &key : std::as_const(out)) {
        if (!key.startsWith(QLatin1String("module/")))
            onDevices << key;
    }
    return onDevices.size() == 1 ? onDevices : out;
}

const QStringList &readOnlyAttributes()
{
    // What Linux 6.x reports in queue/ and dm/ without a write bit (Documentation/ABI/stable/sysfs-block).
    static const QStringList keys = [] {
        QStringList out;
        for (const char *name : { "atomic_write_boundary_bytes", "atomic_write_max_bytes",
                 "atomic_write_unit_max_bytes", "atomic_write_unit_min_bytes", "chunk_sectors", "dax",
                 "discard_granularity", "discard_max_hw_bytes", "discard_zeroes_data", "dma_alignment", "fua",
                 "hw_sector_size", "logical_block_size", "max_active_zones", "max_discard_segments",
                 "max_hw_sectors_kb", "max_integrity_segments", "max_open_zones", "max_segment_size", "max_segments",
                 "max_write_streams", "minimum_io_size", "nr_zones", "optimal_io_size", "physical_block_size",
                 "virt_boundary_mask", "write_same_max_bytes", "write_stream_granularity", "write_zeroes_max_bytes",
                 "write_zeroes_unmap_max_hw_bytes", "zone_append_max_bytes", "zone_write_granularity", "zoned" })
            out.append(QStringLiteral("queue/") + QLatin1String(name));
        for (const char *name : { "name", "uuid", "suspended" })
            out.append(QStringLiteral("dm/") + QLatin1String(name));
        return out;
    }();
    return keys;
}

Result<QString> resolve(const QString &name)
{
    using R = Result<QString>;
    static const QStringList keys = [] {
        QStringList out;
        for (const auto &d : all())
            out.append(d.attribute);
        return out;
    }();
    const QString trimmed = name.trimmed();
    const QStringList found = matching(keys, trimmed);
    if (found.size() == 1)
        return found.first();
    if (found.size() > 1)
        return R::failure(QStringLiteral("'%1' names several attributes (%2): give more of the name")
                              .arg(trimmed, found.join(QStringLiteral(", "))),
            ErrorCode::Ambiguous);
    if (const QStringList reported = matching(readOnlyAttributes(), trimmed); reported.size() == 1)
        return R::failure(
            QStringLiteral("%1 is read-only: the kernel reports it, nothing can set it").arg(reported.first()),
            ErrorCode::Refused);
    // A near miss of a key ("queue/nomerge") or of a short name ("nomerge"): the one it is near.
    static const QStringList names = [] {
        QStringList out = keys;
        for (const QString &key : keys)
            out.append(key.section(QLatin1Char('/'), -1));
        out.removeDuplicates();
        return out;
    }();
    // NotFound: nothing like it is known; a near miss is the caller's typo of one (InvalidInput, the one named).
    const QString near = didYouMean(trimmed, names);
    return R::failure(QStringLiteral("unknown attribute '%1'%2").arg(trimmed, near),
        near.isEmpty() ? ErrorCode::NotFound : ErrorCode::InvalidInput);
}

QStringList schedulerAttributes(const QString &scheduler)
{
    QStringList out;
    for (const auto &d : all()) {
        if (d.location == TunableLocation::IoScheduler && d.scheduler == scheduler)
            out << d.attribute;
    }
    return out;
}

const QList<IgnoredKnob> &ignoredTableKnobs()
{
    static const QList<IgnoredKnob> knobs = {
        { QStringLiteral("round-robin repeat_count"),
            QStringLiteral("request-based multipath forces values above 1 to 1 (the table shows 1)") },
        { QStringLiteral("dm/rq_based_seq_io_merge_deadline"),
            QStringLiteral("kept for compatibility but does nothing on current kernels") },
    };
    return knobs;
}

} // namespace catalog
} // namespace dmtune
