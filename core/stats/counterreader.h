#pragma once
// Reads the counters of a set of block devices under one SysfsRoot, from one /proc/diskstats read or from
// per-device /sys/block/X/stat files, whichever is cheaper (see docs/stats.md for the measurements).
#include "diskcounters.h"
#include "sysfs/sysfsroot.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QStringList>

namespace dmtune {

enum class CounterSource {
    Auto, // per-device files for a few devices or without /proc, else /proc/diskstats
    Diskstats, // one read of /proc/diskstats
    BlockStat, // /sys/block/X/stat (or /sys/class/block/X/stat for a partition) per device
};

struct CounterRead {
    QList<DiskCounters> devices; // present devices only, in source order
    CounterSource source = CounterSource::Auto; // the source actually used
};

class CounterReader
{
public:
    explicit CounterReader(SysfsRoot root = SysfsRoot());

    const SysfsRoot &root() const { return m_root; }
    void setSource(CounterSource source) { m_source = source; }
    CounterSource source() const { return m_source; }

    // names empty: every whole device listed in /sys/block (and their partitions when includePartitions).
    Result<CounterRead> read(const QStringList &names, bool includePartitions = false);

    // The source Auto resolves to for a watch list of that many devices (0 = every device).
    CounterSource resolve(qsizetype watchedCount) const;

    // Reads and writes in flight now; {0, 0} when the file is missing (old kernels, captured trees).
    std::array<quint32, 2> inflight(const QString &name) const;

    // Per-device stat files cost about this many diskstats lines each (measured, docs/stats.md).
    static constexpr int diskstatsLinesPerStatFile = 4;

private:
    Result<CounterRead> readDiskstats(QStringView text, const QStringList &names, bool includePartitions);
    Result<CounterRead> readBlockStats(const QStringList &names, bool includePartitions);
    QString statPath(const QString &name) const;
    quint64 devnumOf(const QString &name);
    bool isWholeDisk(const QString &name);

    SysfsRoot m_root;
    CounterSource m_source = CounterSource::Auto;
    bool m_hasDiskstats = false;
    int m_diskstatsLines = 0; // from the last diskstats read; guides Auto
    QSet<QString> m_wholeDisks; // /sys/block entries, refreshed when diskstats' name set changes
    QStringList m_lastNames; // diskstats names of the last read, in order (cheap change detection)
    QHash<QString, quint64> m_devnums; // per-device mode: /sys/block/X/dev, read once
};

} // namespace dmtune
