#pragma once
// Reads the counters of a set of block devices under one SysfsRoot, from one /proc/diskstats read or from
// per-device /sys/block/X/stat files, whichever is cheaper (see docs/stats.md for the measurements).
#include "core/stats/diskcounters.h"
#include "core/stats/smallfile.h"
#include "core/sysfs/sysfsroot.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QStringList>

namespace dmtune {

enum class CounterSource {
    Auto, // per-device files for a few devices or without /proc, else /proc/diskstats
    Diskstats, // one read of /proc/diskstats
    BlockStat, // /sys/block/X/stat (or /sys/class/block/X/stat for a partition) per device
};

struct CounterRead {
    QList<DiskCounters> devices; // present devices only: every whole device in diskstats order, or the
                                 // requested names in their order
    CounterSource source = CounterSource::Auto; // the source actually used
};

class CounterReader {
public:
    explicit CounterReader(SysfsRoot root = SysfsRoot());

    const SysfsRoot &root() const { return m_root; }
    void setSource(CounterSource source) { m_source = source; }
    CounterSource source() const { return m_source; }

    // names empty: every whole device listed in /sys/block (and their partitions when includePartitions).
    // *out is refilled; its storage is reused from call to call.
    Status read(const QStringList &names, bool includePartitions, CounterRead *out);
    Result<CounterRead> read(const QStringList &names, bool includePartitions = false);

    // The source Auto resolves to for a watch list of that many devices (0 = every device).
    CounterSource resolve(qsizetype watchedCount) const;

    // Reads and writes in flight now; {0, 0} when the file is missing (old kernels, captured trees).
    // The file stays open (OpenAttributeFiles) and is re-read with one pread into a stack buffer: with
    // hundreds of busy devices per tick this is the sampler's hottest syscall.
    std::array<quint32, 2> inflight(const QString &name);
    // Drops what is cached for a device (its open attribute files, its paths and number): it vanished.
    void forget(const QString &name);

    // A per-device stat file (kept open, re-read with pread) costs about as much as this many lines of
    // /proc/diskstats (bench_sampler measured 1.7 on kernel 6.18, docs/stats.md): Auto reads per-device files
    // while watchedCount * this <= the number of diskstats lines.
    static constexpr int diskstatsLinesPerStatFile = 2;

private:
    struct DevicePaths {
        QByteArray stat; // encoded absolute paths, built once per device
        QByteArray inflight;
        quint64 devnum = 0;
    };

    Status readDiskstats(const QStringList &names, bool includePartitions, CounterRead *out);
    // false with *error empty when the lines are not those of the last read (learnLines(), then again).
    bool parseDiskstatsBuffer(const QStringList &names, bool includePartitions, CounterRead *out, QString *error);
    void learnLines();
    void mapExplicitNames(const QStringList &names);
    Status readBlockStats(const QStringList &names, bool includePartitions, CounterRead *out);
    const DevicePaths &pathsOf(const QString &name);

    SysfsRoot m_root;
    CounterSource m_source = CounterSource::Auto;
    bool m_hasDiskstats = false;
    QByteArray m_diskstatsPath;
    QByteArray m_buffer; // file contents, reused

    // What the last diskstats read looked like, line by line; relearnt when the lines change.
    QStringList m_lineNames;
    QList<QByteArray> m_lineNameBytes; // the same, as the file has them
    QList<bool> m_lineIsWholeDisk; // from /sys/block
    DiskCounters m_scratch; // lines nobody watches are parsed here
    // An explicit watch list: its slot for each line (-1: not watched), and the counters found per slot.
    QStringList m_explicitFor;
    QList<qsizetype> m_explicitSlot;
    QList<DiskCounters> m_explicitHits;
    QList<bool> m_explicitFound;
    QHash<QString, DevicePaths> m_paths;
    OpenAttributeFiles m_files; // per-device attributes, kept open and re-read with pread
};

} // namespace dmtune
