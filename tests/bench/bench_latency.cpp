// bench_latency: the numbers in docs/latency.md. A plain program (root), not a pass/fail test.
//
//  1. Per-tick cost of reading the histograms of 64 watched devices (the probe's memory-mapped counters,
//     then the difference to the previous tick and the four percentiles of each), median of 2,000 ticks.
//  2. With --device DEV --seconds S: the probe's cost per I/O. Run fio on DEV yourself twice, with and
//     without this program watching it; this prints what the probe counted meanwhile.
//
// usage: bench_latency [--device /dev/nullb0 --seconds 20]
#include "core/latency/blocklatencyprobe.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace dmtune;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    auto probe = BlockLatencyProbe::open();
    if (!probe) {
        std::fprintf(stderr, "bench_latency: %s\n", qPrintable(probe.errorMessage()));
        return 1;
    }
    // 64 device numbers (no such devices need exist: the cost of reading does not depend on it).
    QList<BlockDeviceNumber> devices;
    for (quint32 i = 0; i < 64; ++i)
        devices.append({ 250, 1000 + i });
    if (const Status s = probe.value()->setWatched(devices); !s) {
        std::fprintf(stderr, "bench_latency: %s\n", qPrintable(s.errorMessage()));
        return 1;
    }
    QList<DeviceLatency> before(devices.size());
    QList<qint64> ticks;
    volatile double sink = 0; // keeps the percentiles from being optimised away
    for (int tick = 0; tick < 2000; ++tick) {
        QElapsedTimer t;
        t.start();
        for (qsizetype i = 0; i < devices.size(); ++i) {
            const DeviceLatency now = probe.value()->read(devices[i]);
            const DeviceLatency interval = now.since(before[i]);
            for (double p : ReportedPercentiles)
                sink = sink + interval.device.percentileUs(p);
            before[i] = now;
        }
        ticks.append(t.nsecsElapsed());
    }
    std::sort(ticks.begin(), ticks.end());
    std::printf("read 64 devices + 4 percentiles each: median %.1f us, p99 %.1f us per tick\n",
        double(ticks[ticks.size() / 2]) / 1000, double(ticks[ticks.size() * 99 / 100]) / 1000);

    const QStringList args = app.arguments();
    const qsizetype at = args.indexOf(QStringLiteral("--device"));
    if (at < 0 || at + 1 >= args.size())
        return 0;
    struct stat st { };
    if (::stat(QFile::encodeName(args[at + 1]).constData(), &st) != 0 || !S_ISBLK(st.st_mode)) {
        std::fprintf(stderr, "bench_latency: %s: not a block device\n", qPrintable(args[at + 1]));
        return 1;
    }
    const BlockDeviceNumber device { major(st.st_rdev), minor(st.st_rdev) };
    if (const Status watched = probe.value()->setWatched({ device }); !watched)
        qFatal("%s", qPrintable(watched.errorMessage()));
    const qsizetype secondsAt = args.indexOf(QStringLiteral("--seconds"));
    const int seconds = secondsAt >= 0 ? args.value(secondsAt + 1).toInt() : 20;
    QThread::sleep(std::max(1, seconds));
    const DeviceLatency latency = probe.value()->read(device);
    std::printf("%s: %llu I/Os watched, p50 %.1f us, p99 %.1f us, lost %llu, missed events %llu\n",
        qPrintable(args[at + 1]), latency.device.total(), latency.device.percentileUs(0.5),
        latency.device.percentileUs(0.99), latency.lost, probe.value()->missedEvents());
    return 0;
}
