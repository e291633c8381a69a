#include "core/latency/dmstatslatency.h"

#include "core/dm/backend/dmlibrary.h"
#include "core/latency/latencystream.h"
#include "core/sysfs/sysfsroot.h"

#include <QJsonArray>
#include <QMutexLocker>
#include <QRegularExpression>

#include <libdevmapper.h>

#include <atomic>
#include <cmath>
#include <unistd.h>

namespace dmtune {

namespace {

struct StatsDeleter {
    void operator()(dm_stats *stats) const { dm_stats_destroy(stats); }
};
using StatsHandle = std::unique_ptr<dm_stats, StatsDeleter>;

// The map's device number, as the probe looks devices up.
Result<BlockDeviceNumber> deviceNumberOf(const SysfsRoot &root, const QString &device)
{
    const auto numbers = latencyDeviceNumbers(root, { device });
    if (!numbers)
        return Result<BlockDeviceNumber>::failure(numbers.errorMessage());
    return numbers->constFirst();
}

// A handle bound to the device; the caller holds dmLibraryMutex().
StatsHandle boundHandle(BlockDeviceNumber number)
{
    StatsHandle stats(dm_stats_create(DmStatsProgramId));
    if (stats && !dm_stats_bind_devno(stats.get(), int(number.major), int(number.minor)))
        stats.reset();
    return stats;
}

QString failure(const QString &device, const QString &what, const DmLogCapture &log)
{
    const QString details = log.text();
    return QStringLiteral("%1: dm-stats %2 failed%3")
        .arg(device, what, details.isEmpty() ? QString() : QStringLiteral(": ") + details);
}

Result<QList<DmStatsRegion>> listRegions(const QString &device, BlockDeviceNumber number)
{
    QMutexLocker lock(&dmLibraryMutex());
    DmLogCapture log;
    StatsHandle stats = boundHandle(number);
    if (!stats || !dm_stats_list(stats.get(), DM_STATS_ALL_PROGRAMS))
        return Result<QList<DmStatsRegion>>::failure(failure(device, QStringLiteral("list"), log));
    QList<DmStatsRegion> regions;
    // A walk over a handle without regions is not defined by every libdevmapper: count first.
    if (dm_stats_get_nr_regions(stats.get()) == 0)
        return regions;
    dm_stats_foreach_region(stats.get())
    {
        const uint64_t id = dm_stats_get_current_region(stats.get());
        const char *program = dm_stats_get_region_program_id(stats.get(), id);
        const char *aux = dm_stats_get_region_aux_data(stats.get(), id);
        regions.append({ device, id, QString::fromUtf8(program ? program : ""), QString::fromUtf8(aux ? aux : "") });
    }
    return regions;
}

QString deviceLabel(const SysfsRoot &root, const QString &device)
{
    const QString name = root.readOr(QStringLiteral("block/%1/dm/name").arg(device));
    return name.isEmpty() ? device : QStringLiteral("%1 (%2)").arg(device, name);
}

DmStatsInstance thisInstance(const SysfsRoot &root)
{
    static std::atomic<quint64> serial { 0 };
    DmStatsInstance instance;
    instance.pid = ::getpid();
    const auto stat = root.readProc(QStringLiteral("%1/stat").arg(instance.pid));
    instance.startTime = stat ? parseProcStatStartTime(stat.value()).value_or(0) : 0;
    instance.serial = ++serial;
    return instance;
}

// A dmtune region whose instance is no longer running: its process is gone, or another one has its pid now.
bool isStale(const SysfsRoot &root, const DmStatsRegion &region)
{
    if (region.programId != QLatin1String(DmStatsProgramId))
        return false;
    const auto instance = parseDmStatsInstance(region.userData);
    if (!instance)
        return false;
    const auto stat = root.readProc(QStringLiteral("%1/stat").arg(instance->pid));
    if (!stat)
        return true;
    const auto started = parseProcStatStartTime(stat.value());
    return started && *started != instance->startTime;
}

QJsonArray basisOf(const QList<DmStatsRegion> &regions)
{
    QJsonArray basis;
    for (const DmStatsRegion &r : regions)
        basis.append(QStringLiteral("%1 %2 %3").arg(r.id).arg(r.programId, r.userData));
    return basis;
}

// The bounds of the probe's buckets 1..63 in ns, zero-terminated: dm-stats' bins are then the probe's buckets.
std::array<uint64_t, latencybuckets::Count> histogramBoundsNs()
{
    std::array<uint64_t, latencybuckets::Count> bounds {};
    for (int bucket = 1; bucket < latencybuckets::Count; ++bucket)
        bounds[size_t(bucket - 1)] = uint64_t(std::llround(latencybuckets::lowerUs(bucket) * 1000));
    return bounds;
}

Status deleteRegion(const QString &device, BlockDeviceNumber number, quint64 id)
{
    QMutexLocker lock(&dmLibraryMutex());
    DmLogCapture log;
    StatsHandle stats = boundHandle(number);
    if (!stats || !dm_stats_delete_region(stats.get(), id))
        return Status::failure(failure(device, QStringLiteral("delete of region %1").arg(id), log));
    return Status::success();
}

Result<quint64> createRegion(const QString &device, BlockDeviceNumber number, const DmStatsInstance &instance)
{
    QMutexLocker lock(&dmLibraryMutex());
    DmLogCapture log;
    StatsHandle stats = boundHandle(number);
    const auto boundsNs = histogramBoundsNs();
    dm_histogram *bounds = stats ? dm_histogram_bounds_from_uint64(boundsNs.data()) : nullptr;
    uint64_t id = 0;
    const bool created = bounds
        && dm_stats_create_region(
            stats.get(), &id, 0, 0, -1, 1, bounds, DmStatsProgramId, instance.userData().toUtf8().constData());
    if (bounds)
        dm_histogram_bounds_destroy(bounds);
    if (!created)
        return Result<quint64>::failure(failure(device, QStringLiteral("region create"), log));
    return quint64(id);
}

struct Prepared {
    QList<DmStatsRegion> stale;
};

} // namespace

QString DmStatsInstance::userData() const
{
    return QStringLiteral("dmtune-instance=%1.%2.%3").arg(pid).arg(startTime).arg(serial);
}

std::optional<DmStatsInstance> parseDmStatsInstance(const QString &userData)
{
    static const QRegularExpression form(QStringLiteral("^dmtune-instance=(\\d{1,10})\\.(\\d{1,20})\\.(\\d{1,20})$"));
    const auto match = form.match(userData);
    if (!match.hasMatch())
        return std::nullopt;
    bool pidOk = false;
    bool startOk = false;
    bool serialOk = false;
    DmStatsInstance instance { match.captured(1).toLongLong(&pidOk), match.captured(2).toULongLong(&startOk),
        match.captured(3).toULongLong(&serialOk) };
    if (!pidOk || !startOk || !serialOk || instance.pid <= 0)
        return std::nullopt;
    return instance;
}

std::optional<quint64> parseProcStatStartTime(const QString &statLine)
{
    // "PID (COMM) STATE PPID ...": the command ends at the last ')'; starttime is field 22, the 20th after it.
    const qsizetype end = statLine.lastIndexOf(QLatin1Char(')'));
    if (end < 0)
        return std::nullopt;
    const QStringList fields = statLine.mid(end + 1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (fields.size() < 20)
        return std::nullopt;
    bool ok = false;
    const quint64 start = fields.at(19).toULongLong(&ok);
    return ok ? std::optional<quint64>(start) : std::nullopt;
}

bool isBioBasedDmDevice(const SysfsRoot &root, const QString &device)
{
    return root.isDir(QStringLiteral("block/%1/dm").arg(device))
        && !root.isDir(QStringLiteral("block/%1/mq").arg(device));
}

QString dmStatsRefusal(const SysfsRoot &root, const QString &device)
{
    if (!root.isDir(QStringLiteral("block/%1").arg(device)))
        return QStringLiteral("%1: no such block device").arg(device);
    if (!root.isDir(QStringLiteral("block/%1/dm").arg(device)))
        return QStringLiteral("%1 is not a device-mapper map: dm-stats counts dm maps only (the block-layer probe "
                              "counts its requests)")
            .arg(device);
    if (!isBioBasedDmDevice(root, device))
        return QStringLiteral("%1 is a request-based map: dm-stats times its I/O wrongly there (on 6.1 it put every "
                              "I/O in the top bucket); the block-layer probe counts its requests")
            .arg(deviceLabel(root, device));
    return {};
}

Result<QList<DmStatsRegion>> listDmStatsRegions(const SysfsRoot &root, const QString &device)
{
    const auto number = deviceNumberOf(root, device);
    if (!number)
        return Result<QList<DmStatsRegion>>::failure(number.errorMessage());
    return listRegions(device, number.value());
}

OperationPlan planDmStatsLatency(const SysfsRoot &root, const QStringList &devices)
{
    OperationPlan plan;
    plan.kind = QLatin1String(DmStatsOperationKind);
    plan.request.insert(QStringLiteral("devices"), QJsonArray::fromStringList(devices));
    plan.target = devices.join(QStringLiteral(", "));
    auto prepared = std::make_shared<Prepared>();
    QStringList labels;
    if (devices.isEmpty())
        plan.refusals.append(QStringLiteral("dm-stats: name the maps to count"));
    if (!root.isLive())
        plan.refusals.append(QStringLiteral("dm-stats counts the running kernel's maps, not a captured tree"));
    else if (::geteuid() != 0)
        plan.refusals.append(QStringLiteral("dm-stats needs root (its regions are device-mapper messages)"));
    for (const QString &device : devices) {
        if (!plan.refusals.isEmpty())
            break;
        if (const QString refusal = dmStatsRefusal(root, device); !refusal.isEmpty()) {
            plan.refusals.append(refusal);
            continue;
        }
        const auto regions = listDmStatsRegions(root, device);
        if (!regions) {
            plan.refusals.append(regions.errorMessage());
            continue;
        }
        const QString label = deviceLabel(root, device);
        labels.append(label);
        plan.basis.insert(device, basisOf(regions.value()));
        QStringList others;
        for (const DmStatsRegion &region : regions.value()) {
            if (isStale(root, region)) {
                prepared->stale.append(region);
                plan.steps.append(QStringLiteral("delete stale region %1 on %2 (%3: that dmtune is no longer running)")
                                      .arg(region.id)
                                      .arg(label, region.userData));
            } else {
                others.append(QStringLiteral("%1 (program %2)")
                                  .arg(region.id)
                                  .arg(region.programId.isEmpty() ? QStringLiteral("-") : region.programId));
            }
        }
        plan.steps.append(QStringLiteral("create a dm-stats region over all of %1: precise timestamps, a histogram "
                                         "with the probe's 64 buckets, program id %2")
                              .arg(label, QLatin1String(DmStatsProgramId)));
        if (!others.isEmpty())
            plan.notes.append(
                QStringLiteral("%1: regions left as they are: %2").arg(label, others.join(QStringLiteral(", "))));
    }
    plan.steps.append(QStringLiteral("read each region every interval; delete it when watching stops"));
    plan.notes.append(QStringLiteral("while a region exists every I/O of its map costs a little more (dm-stats takes "
                                     "two timestamps and files the bio in the histogram)"));
    plan.summary = QStringLiteral("count the latency of %1 with dm-stats while watching")
                       .arg(labels.isEmpty() ? plan.target : labels.join(QStringLiteral(", ")));
    plan.prepared = prepared;
    plan.id = planId(plan.kind, plan.request, plan.basis);
    return plan;
}

Result<std::unique_ptr<DmStatsLatency>> DmStatsLatency::start(const SysfsRoot &root, const OperationPlan &plan)
{
    using R = Result<std::unique_ptr<DmStatsLatency>>;
    if (plan.kind != QLatin1String(DmStatsOperationKind))
        return R::failure(QStringLiteral("dm-stats: not a %1 plan").arg(QLatin1String(DmStatsOperationKind)));
    if (!plan.refusals.isEmpty())
        return R::failure(plan.refusals.constFirst());
    // Run on the state of now: the regions may have changed since the plan was shown.
    QStringList devices;
    for (const auto &device : plan.request.value(QStringLiteral("devices")).toArray())
        devices.append(device.toString());
    const OperationPlan now = planDmStatsLatency(root, devices);
    if (!now.refusals.isEmpty())
        return R::failure(now.refusals.constFirst());
    const QStringList changed = basisDifferences(plan.basis, now.basis);
    if (!changed.isEmpty())
        return R::failure(QStringLiteral("dm-stats: the regions changed since the plan: %1").arg(changed.constFirst()));

    std::unique_ptr<DmStatsLatency> latency(new DmStatsLatency);
    latency->m_instance = thisInstance(root);
    const auto &stale = now.prepared.get<Prepared>()->stale;
    for (const DmStatsRegion &region : stale) {
        const auto number = deviceNumberOf(root, region.device);
        const Status deleted
            = number ? deleteRegion(region.device, number.value(), region.id) : Status::failure(number.errorMessage());
        if (!deleted)
            return R::failure(deleted.errorMessage());
        latency->m_removedStale.append(QStringLiteral("%1 region %2").arg(region.device).arg(region.id));
    }
    for (const QString &device : devices) {
        const auto number = deviceNumberOf(root, device);
        if (!number)
            return R::failure(number.errorMessage()); // the destructor deletes what was created
        const auto id = createRegion(device, number.value(), latency->m_instance);
        if (!id)
            return R::failure(id.errorMessage());
        latency->m_regions.insert(device, { number->major, number->minor, id.value() });
    }
    return R(std::move(latency));
}

DmStatsLatency::~DmStatsLatency()
{
    // Best effort: a region left behind is named as ours and removed as stale by the next instance.
    for (auto it = m_regions.cbegin(); it != m_regions.cend(); ++it)
        static_cast<void>(deleteRegion(it.key(), { it->major, it->minor }, it->id));
}

QStringList DmStatsLatency::created() const
{
    QStringList regions;
    for (auto it = m_regions.cbegin(); it != m_regions.cend(); ++it)
        regions.append(QStringLiteral("%1 region %2").arg(it.key()).arg(it->id));
    regions.sort();
    return regions;
}

Result<DeviceLatency> DmStatsLatency::read(const QString &device)
{
    const auto found = m_regions.find(device);
    if (found == m_regions.end())
        return Result<DeviceLatency>::failure(QStringLiteral("%1: no dm-stats region of this instance").arg(device));
    QMutexLocker lock(&dmLibraryMutex());
    DmLogCapture log;
    StatsHandle stats = boundHandle({ found->major, found->minor });
    // populate() of one region needs the handle listed first; it prints and clears the region's counters at once
    // (@stats_print_clear), so what it returns is what came since the previous read.
    if (!stats || !dm_stats_list(stats.get(), DmStatsProgramId) || !dm_stats_region_present(stats.get(), found->id)
        || !dm_stats_populate(stats.get(), DmStatsProgramId, found->id))
        return Result<DeviceLatency>::failure(failure(device, QStringLiteral("read of region %1").arg(found->id), log));
    const dm_histogram *histogram = dm_stats_get_histogram(stats.get(), found->id, 0);
    if (!histogram || dm_histogram_get_nr_bins(histogram) != latencybuckets::Count)
        return Result<DeviceLatency>::failure(
            QStringLiteral("%1: dm-stats region %2 has no histogram with the probe's buckets")
                .arg(device)
                .arg(found->id));
    LatencyHistogram interval;
    for (int bin = 0; bin < latencybuckets::Count; ++bin)
        interval.counts[size_t(bin)] = dm_histogram_get_bin_count(histogram, bin);
    // Precise timestamps: the sums are in ns.
    interval.sumNs
        = dm_stats_get_read_nsecs(stats.get(), found->id, 0) + dm_stats_get_write_nsecs(stats.get(), found->id, 0);
    found->total.device += interval;
    return found->total;
}

} // namespace dmtune
