#include "core/diagnosis/softirqstats.h"

#include <algorithm>

namespace dmtune {

Result<QList<CpuTimes>> parseProcStatCpus(QStringView text)
{
    QList<CpuTimes> out;
    int lineNumber = 0;
    for (const QStringView line : text.split(u'\n')) {
        ++lineNumber;
        if (!line.startsWith(u"cpu") || line.size() < 4 || !line.at(3).isDigit())
            continue;
        const auto fields = line.split(u' ', Qt::SkipEmptyParts);
        bool ok = false;
        CpuTimes t;
        t.cpu = fields.first().mid(3).toInt(&ok);
        // user nice system idle iowait irq softirq: seven columns since Linux 2.6.0
        if (!ok || fields.size() < 8)
            return Result<QList<CpuTimes>>::failure(
                QStringLiteral("/proc/stat line %1: not a cpuN line").arg(lineNumber));
        for (qsizetype i = 1; i < fields.size(); ++i) {
            const quint64 v = fields.at(i).toULongLong(&ok);
            if (!ok)
                return Result<QList<CpuTimes>>::failure(
                    QStringLiteral("/proc/stat line %1: column %2 is not a number").arg(lineNumber).arg(i));
            t.total += v;
            if (i == 7)
                t.softirq = v;
        }
        out << t;
    }
    if (out.isEmpty())
        return Result<QList<CpuTimes>>::failure(QStringLiteral("/proc/stat: no cpuN line"));
    return out;
}

Result<QHash<int, quint64>> parseSoftirqsRow(QStringView text, QStringView row)
{
    const auto lines = text.split(u'\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return Result<QHash<int, quint64>>::failure(QStringLiteral("/proc/softirqs: empty"));
    QList<int> cpus;
    for (const QStringView column : lines.first().split(u' ', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int cpu = column.startsWith(u"CPU") ? column.mid(3).toInt(&ok) : -1;
        if (!ok)
            return Result<QHash<int, quint64>>::failure(
                QStringLiteral("/proc/softirqs: header column '%1' is not CPUn").arg(column.toString()));
        cpus << cpu;
    }
    for (const QStringView line : lines.mid(1)) {
        const auto fields = line.split(u' ', Qt::SkipEmptyParts);
        if (fields.isEmpty() || fields.first() != QString(row.toString() + u':'))
            continue;
        if (fields.size() - 1 != cpus.size())
            return Result<QHash<int, quint64>>::failure(QStringLiteral("/proc/softirqs: %1 has %2 columns for %3 CPUs")
                                                            .arg(row.toString())
                                                            .arg(fields.size() - 1)
                                                            .arg(cpus.size()));
        QHash<int, quint64> out;
        for (qsizetype i = 0; i < cpus.size(); ++i) {
            bool ok = false;
            out.insert(cpus.at(i), fields.at(i + 1).toULongLong(&ok));
            if (!ok)
                return Result<QHash<int, quint64>>::failure(
                    QStringLiteral("/proc/softirqs: %1 column %2 is not a number").arg(row.toString()).arg(i + 1));
        }
        return out;
    }
    return Result<QHash<int, quint64>>::failure(QStringLiteral("/proc/softirqs: no %1 row").arg(row.toString()));
}

QList<CpuSoftirqLoad> softirqLoad(const QList<CpuTimes> &before, const QList<CpuTimes> &after,
    const QHash<int, quint64> &blockBefore, const QHash<int, quint64> &blockAfter, double seconds)
{
    QList<CpuSoftirqLoad> out;
    for (const CpuTimes &a : after) {
        const auto b = std::find_if(before.cbegin(), before.cend(), [&](const CpuTimes &t) { return t.cpu == a.cpu; });
        if (b == before.cend() || a.total < b->total || a.softirq < b->softirq)
            continue;
        CpuSoftirqLoad load;
        load.cpu = a.cpu;
        const quint64 dt = a.total - b->total;
        load.softirqShare = dt ? double(a.softirq - b->softirq) / double(dt) : 0.0;
        const quint64 blockA = blockAfter.value(a.cpu);
        const quint64 blockB = blockBefore.value(a.cpu);
        load.blockSoftirqsPerSec = seconds > 0 && blockA >= blockB ? double(blockA - blockB) / seconds : 0.0;
        out << load;
    }
    return out;
}

} // namespace dmtune
