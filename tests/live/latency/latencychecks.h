#pragma once
// What the latency tests compare the probe with: /proc/diskstats' I/O counts and fio's own completion
// latency percentiles. Shared by the live (loop) and vm (multipath) tests.
#include "core/latency/latencyhistogram.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <cstdlib>

namespace dmtune::latencytest {

// fio's arguments for `seconds` of 4 KiB direct I/O on `device` ("randread", "randrw" ...), its JSON on stdout.
inline QStringList fioRandomArgs(const QString &device, const QString &rw, int seconds, int iodepth)
{
    return { QStringLiteral("--name=latency"), QStringLiteral("--filename=") + device, QStringLiteral("--rw=") + rw,
        QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"), QStringLiteral("--ioengine=libaio"),
        QStringLiteral("--iodepth=%1").arg(iodepth), QStringLiteral("--runtime=%1").arg(seconds),
        QStringLiteral("--time_based"), QStringLiteral("--output-format=json") };
}

// Reads + writes + discards + flushes completed, as /proc/diskstats counts them; -1 when the device is absent.
inline qint64 diskstatsIos(const QString &name)
{
    QFile f(QStringLiteral("/proc/diskstats"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 14 || QString::fromLatin1(fields[2]) != name)
            continue;
        qint64 ios = fields[3].toLongLong() + fields[7].toLongLong();
        if (fields.size() >= 18)
            ios += fields[14].toLongLong(); // discards (4.18)
        if (fields.size() >= 20)
            ios += fields[18].toLongLong(); // flushes (5.5)
        return ios;
    }
    return -1;
}

// fio's completion latency percentiles of one direction ("read", "write") in microseconds, keyed by fraction
// (0.5, 0.9, 0.99, 0.999); empty when the job has none.
inline QMap<double, double> fioClatPercentilesUs(const QByteArray &fioJson, const QString &direction)
{
    // fio may print notes before its JSON document.
    const QByteArray json = fioJson.mid(qMax(0, fioJson.indexOf('{')));
    const QJsonObject job = QJsonDocument::fromJson(json)[QStringLiteral("jobs")][0].toObject();
    const QJsonObject percentiles = job[direction][QStringLiteral("clat_ns")][QStringLiteral("percentile")].toObject();
    QMap<double, double> out;
    for (double fraction : ReportedPercentiles) {
        const QString key = QString::number(fraction * 100, 'f', 6);
        if (percentiles.contains(key))
            out.insert(fraction, percentiles[key].toDouble() / 1000);
    }
    return out;
}

inline qint64 fioIos(const QByteArray &fioJson, const QString &direction)
{
    const QByteArray json = fioJson.mid(qMax(0, fioJson.indexOf('{')));
    return QJsonDocument::fromJson(json)[QStringLiteral("jobs")][0][direction][QStringLiteral("total_ios")].toInteger();
}

// How many buckets of the probe's bounds lie between two latencies (0: the same bucket).
inline int bucketsApart(double aUs, double bUs)
{
    return std::abs(latencybuckets::bucketOf(quint64(aUs * 1000)) - latencybuckets::bucketOf(quint64(bUs * 1000)));
}

} // namespace dmtune::latencytest
