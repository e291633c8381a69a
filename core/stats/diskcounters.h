#pragma once
// The cumulative I/O counters of one block device, as /proc/diskstats and /sys/block/X/stat give them,
// and their pure parsers.
#include "core/util/result.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringView>

#include <array>
#include <cstddef>

namespace dmtune {

// Field order and meaning of Documentation/admin-guide/iostats.rst (field N is index N-1).
enum class DiskField : unsigned char {
    ReadIos, // 1: reads completed
    ReadMerges, // 2: reads merged
    ReadSectors, // 3: 512-byte sectors read
    ReadTicks, // 4: ms spent reading (u32 in the kernel: wraps)
    WriteIos, // 5
    WriteMerges, // 6
    WriteSectors, // 7
    WriteTicks, // 8: u32
    InFlight, // 9: requests in flight now (an instant value, not a counter)
    IoTicks, // 10: ms with at least one request in flight (u32)
    TimeInQueue, // 11: weighted ms, sum of in-flight time of all requests (u32)
    DiscardIos, // 12 (kernel 4.18+)
    DiscardMerges, // 13
    DiscardSectors, // 14
    DiscardTicks, // 15: u32
    FlushIos, // 16 (kernel 5.5+)
    FlushTicks, // 17: u32
};
inline constexpr std::size_t DiskFieldCount = 17;

struct DiskCounters {
    QString name; // kernel name: "sda", "dm-0", "loop3"
    quint64 devnum = 0; // Linux dev_t encoding (makedev), 0 when unknown
    std::array<quint64, DiskFieldCount> fields {};
    // How many of the fields the source line carried: 11 (before 4.18), 15 (4.18+) or 17 (5.5+).
    // Missing ones read as 0, which is what iostat assumes too.
    int fieldCount = 0;

    quint64 operator[](DiskField f) const { return fields[std::size_t(f)]; }
    quint64 &operator[](DiskField f) { return fields[std::size_t(f)]; }
    unsigned majorNumber() const;
    unsigned minorNumber() const;
    static quint64 makeDevnum(unsigned major, unsigned minor);
};

// One /proc/diskstats line: "major minor name" + 11, 15 or 17 counters (14, 18 or 20 fields in all).
Result<DiskCounters> parseDiskstatsLine(QStringView line);
// The sampler's hot path: one line of raw bytes into *out, whose name is left alone (the caller reuses the
// previous tick's QString instead of allocating thousands); *name gets the name's bytes. Returns the error
// message, empty on success.
QString parseDiskstatsLineInto(QByteArrayView line, DiskCounters *out, QByteArrayView *name);
// The whole file; blank lines are skipped, any malformed line fails the parse with its line number.
Result<QList<DiskCounters>> parseDiskstats(QStringView text);
// /sys/block/X/stat (or a partition's stat): 11, 15 or 17 counters, no name (it comes from the path).
Result<DiskCounters> parseBlockStat(QStringView text, const QString &name, quint64 devnum = 0);
// /sys/block/X/inflight: "reads writes".
Result<std::array<quint32, 2>> parseInflight(QStringView text);
Result<std::array<quint32, 2>> parseInflight(QByteArrayView text); // the file's bytes, no QString per read
// /sys/block/X/dev: "major:minor".
Result<quint64> parseDevnum(QStringView text);

// The 16 counter deltas of one interval (every field but InFlight, which is not a counter).
// Index by DiskField; the InFlight slot stays 0.
struct CounterDeltas {
    std::array<quint64, DiskFieldCount> fields {};
    quint64 operator[](DiskField f) const { return fields[std::size_t(f)]; }
    quint64 &operator[](DiskField f) { return fields[std::size_t(f)]; }
};

// cur - prev per counter. A counter that went backwards is clamped to 0 (device recreated, counters reset),
// except the kernel's 32-bit millisecond fields, which wrap after ~49.7 days: when the device's request
// counts did not go backwards and the field dropped by more than 2^31, it is taken modulo 2^32, as
// sysstat's unsigned int arithmetic does.
CounterDeltas counterDeltas(const DiskCounters &prev, const DiskCounters &cur);
void counterDeltas(const DiskCounters &prev, const DiskCounters &cur, CounterDeltas *out); // in place

} // namespace dmtune
