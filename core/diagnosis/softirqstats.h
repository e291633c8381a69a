#pragma once
// Per-CPU softirq time and BLOCK softirq counts, from /proc/stat and /proc/softirqs: pure parsers and the
// arithmetic over two readings (seed 001's ksoftirqd at 96 % is this share).
#include "core/diagnosis/diagnosis.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QStringView>

namespace dmtune {

struct CpuTimes {
    int cpu = -1;
    quint64 total = 0; // every column of the cpuN line, in USER_HZ ticks
    quint64 softirq = 0; // the seventh column
};

// The cpuN lines of /proc/stat (not the "cpu" sum).
Result<QList<CpuTimes>> parseProcStatCpus(QStringView text);
// One row of /proc/softirqs ("BLOCK") by CPU number, from the header's CPUn columns.
Result<QHash<int, quint64>> parseSoftirqsRow(QStringView text, QStringView row);

// Each CPU's share of time in softirq and its BLOCK softirqs per second between two readings. CPUs missing
// from either reading (hot-plugged) are left out.
QList<CpuSoftirqLoad> softirqLoad(const QList<CpuTimes> &before, const QList<CpuTimes> &after,
    const QHash<int, quint64> &blockBefore, const QHash<int, quint64> &blockAfter, double seconds);

} // namespace dmtune
