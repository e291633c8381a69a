#pragma once
// Latency of bio-based dm maps (linear, striped, ...) through dm-stats (libdevmapper's dm_stats): the block-layer
// probe sees requests, and a bio-based map has none. One region over the whole map, with precise timestamps and
// histogram bounds equal to the probe's buckets, so both give the same DeviceLatency. Regions carry the program
// id "dmtune" and a user data word naming the instance: an instance deletes its own regions when it stops, and
// those of a dmtune that is no longer running; never those of dmstats, PCP's pmda-dm or another live dmtune.
// Not on request-based maps: their dm-stats times are wrong (docs/latency.md, "dm-stats").
#include "core/latency/latencyhistogram.h"
#include "core/ops/operation.h"
#include "core/util/result.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace dmtune {

class SysfsRoot;

inline constexpr char DmStatsProgramId[] = "dmtune";
inline constexpr char DmStatsOperationKind[] = "latency.dm-stats";

// A dmtune instance as its regions' user data names it: "dmtune-instance=PID.STARTTIME.SERIAL" (the process,
// its start time in clock ticks after boot from /proc/PID/stat, and a serial within the process).
struct DmStatsInstance {
    qint64 pid = 0;
    quint64 startTime = 0;
    quint64 serial = 0;
    QString userData() const;
    friend bool operator==(const DmStatsInstance &, const DmStatsInstance &) = default;
};
// Pure: the instance a region's user data names, or nullopt (not dmtune's form: never touched).
std::optional<DmStatsInstance> parseDmStatsInstance(const QString &userData);
// Pure: field 22 of a /proc/PID/stat line (the command may hold spaces and parentheses).
std::optional<quint64> parseProcStatStartTime(const QString &statLine);

// Why dm-stats cannot count this device's latency (not a dm device, a request-based map), or empty.
QString dmStatsRefusal(const SysfsRoot &root, const QString &device);
// Whether the device is a bio-based dm map: the devices `stat --histogram` counts with dm-stats.
bool isBioBasedDmDevice(const SysfsRoot &root, const QString &device);

// One region as `dmstats list --allprograms` shows it.
struct DmStatsRegion {
    QString device; // dm-3
    quint64 id = 0;
    QString programId;
    QString userData;
};

// The plan of watching these maps' latency with dm-stats (kind "latency.dm-stats"): the region each gets, the
// stale dmtune regions it removes, the regions of other programs it leaves, the cost per I/O; refusals for a
// device dm-stats does not suit. Reads the regions there now (root; the basis).
OperationPlan planDmStatsLatency(const SysfsRoot &root, const QStringList &devices);

// The regions of a running plan, read each interval; deleted when this goes.
class DmStatsLatency {
public:
    // Runs the plan: removes the stale regions it named, creates one region per device. Fails with one line (and
    // deletes what it created) when the plan cannot run or device-mapper refuses.
    static Result<std::unique_ptr<DmStatsLatency>> start(const SysfsRoot &root, const OperationPlan &plan);
    ~DmStatsLatency();
    DmStatsLatency(const DmStatsLatency &) = delete;
    DmStatsLatency &operator=(const DmStatsLatency &) = delete;

    bool isWatched(const QString &device) const { return m_regions.contains(device); }
    QStringList watched() const { return m_regions.keys(); }
    // What the device's region counted since it was created (cumulative, like the probe: each read takes and
    // clears the region's counters and adds them up here); the queue histogram stays empty (dm-stats times a bio
    // from its arrival in dm to its end). An error when the region cannot be read (deleted by someone else).
    Result<DeviceLatency> read(const QString &device);
    // The regions this instance created ("dm-3 region 2"), and the stale ones it removed.
    QStringList created() const;
    QStringList removedStale() const { return m_removedStale; }
    const DmStatsInstance &instance() const { return m_instance; }

private:
    DmStatsLatency() = default;
    struct Region {
        quint32 major = 0;
        quint32 minor = 0;
        quint64 id = 0;
        DeviceLatency total;
    };
    QHash<QString, Region> m_regions;
    QStringList m_removedStale;
    DmStatsInstance m_instance;
};

// Every region on a dm device, of every program (dmstats list --allprograms); an error with libdevmapper's reason.
Result<QList<DmStatsRegion>> listDmStatsRegions(const SysfsRoot &root, const QString &device);

} // namespace dmtune
