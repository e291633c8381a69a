// bench_sampler: the numbers in docs/stats.md. A plain program, not a pass/fail test.
//
//  1. 4,096 generated devices sampled at 10 Hz by the real, timer-driven Sampler: CPU of the sampling thread
//     (read + parse + deltas + the batch signal, whose receiver computes iostat's metrics of every device),
//     with and without the in-flight split, with and without a SeriesStore behind it.
//  2. This machine's real devices: dmtunectl stat against iostat -x, same devices, same interval, run side
//     by side; CPU of each process from wait4()'s rusage, startup separated out by a 1-report run.
//  3. /proc/diskstats against per-device /sys/block/X/stat reads: where the Auto source switches.
//  4. SeriesStore bytes per device-sample in steady state.
//
// usage: bench_sampler [--quick] [--dmtunectl PATH] [--generated-only] [--first-case-only] [--profile-ticks N]
//                      [--store-only]
#include "core/stats/sampler.h"
#include "core/stats/seriesstore.h"
#include "tests/common/testpaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <random>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

using namespace dmtune;

namespace {

double threadCpuSeconds()
{
    timespec ts {};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

QString deviceName(int i)
{
    // Half SCSI-style paths, half dm maps: names of realistic lengths.
    if (i % 2 == 0) {
        QString n = QStringLiteral("sd");
        int k = i / 2;
        QString suffix;
        do {
            suffix.prepend(QChar(u'a' + k % 26));
            k = k / 26 - 1;
        } while (k >= 0);
        return n + suffix;
    }
    return QStringLiteral("dm-%1").arg(i / 2);
}

// procfs and sysfs live in memory: so does the generated tree when /dev/shm is there, or ext4's journal and
// atime updates on the rewritten diskstats would be measured as the sampler's cost.
QString tmpfsTemplate()
{
    const QString shm = QStringLiteral("/dev/shm");
    return QFileInfo(shm).isDir() && QFileInfo(shm).isWritable()
        ? shm + QStringLiteral("/bench_sampler-XXXXXX")
        : QDir::tempPath() + QStringLiteral("/bench_sampler-XXXXXX");
}

// A generated sys/proc tree of `count` devices whose counters a writer thread advances every period.
class GeneratedTree {
public:
    // busyEvery: 1 device in that many has requests in flight at each read; activeEvery: 1 in that many does
    // I/O at all (the others' lines never change, as an idle device's).
    GeneratedTree(int count, int busyEvery, int activeEvery = 1)
        : m_dir(tmpfsTemplate())
        , m_count(count)
        , m_busyEvery(busyEvery)
        , m_activeEvery(activeEvery)
    {
        QDir root(m_dir.path());
        root.mkpath(QStringLiteral("proc"));
        for (int i = 0; i < count; ++i) {
            const QString dir = QStringLiteral("sys/block/") + deviceName(i);
            root.mkpath(dir);
            write(dir + QStringLiteral("/inflight"), QStringLiteral("       3       5\n"));
            write(dir + QStringLiteral("/dev"), QStringLiteral("%1:%2\n").arg(i % 2 ? 253 : 8).arg(i / 2));
        }
        advance();
    }
    SysfsRoot root() const
    {
        return SysfsRoot(m_dir.path() + QStringLiteral("/sys"), m_dir.path() + QStringLiteral("/proc"));
    }

    // One step of plausible I/O on every device; written to a new file and renamed over, as a reader of
    // /proc/diskstats never sees half a file.
    // One step of plausible I/O on every device, written to a new file and renamed over (a reader of
    // /proc/diskstats never sees half a file). The texts are made once: formatting 4,096 lines ten times a
    // second in the writer thread would compete with the sampler for the CPU and caches being measured.
    // After the last of them the counters start again from the first: one tick in `versions` sees every
    // counter go back (clamped, cheaper math); the bias is under 2 %.
    void advance()
    {
        if (m_texts.isEmpty()) {
            for (int v = 0; v < versions; ++v)
                m_texts.append(format(quint64(v) + 1));
        }
        const QByteArray &text = m_texts[int(m_step++ % versions)];
        const QString tmp = m_dir.filePath(QStringLiteral("proc/diskstats.new"));
        QFile f(tmp);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text);
        f.close();
        ::rename(QFile::encodeName(tmp).constData(),
            QFile::encodeName(m_dir.filePath(QStringLiteral("proc/diskstats"))).constData());
    }

private:
    static constexpr int versions = 64;

    QByteArray format(quint64 step) const
    {
        QByteArray text;
        text.reserve(m_count * 150);
        char line[256];
        for (int i = 0; i < m_count; ++i) {
            const quint64 s = (i % m_activeEvery == 0 ? step : 1) * 1000 + quint64(i);
            const int n = std::snprintf(line, sizeof line,
                "%4d %7d %s %llu %llu %llu %llu %llu %llu %llu %llu %d %llu %llu %llu %llu %llu %llu %llu %llu\n",
                i % 2 ? 253 : 8, i / 2, qPrintable(deviceName(i)), s * 1500, s * 12, s * 12000, s * 900, s * 3000,
                s * 21000, s * 192000, s * 2400, i % m_busyEvery == 0 && i % m_activeEvery == 0 ? 8 : 0, s * 95,
                s * 3300, s * 3, 0ULL, s * 6000, s * 2, s * 40, s * 15);
            text.append(line, n);
        }
        return text;
    }

    void write(const QString &relative, const QString &text)
    {
        QFile f(m_dir.filePath(relative));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text.toUtf8());
    }
    QTemporaryDir m_dir;
    int m_count;
    int m_busyEvery;
    int m_activeEvery;
    quint64 m_step = 0;
    QList<QByteArray> m_texts;
};

// Writes the next diskstats right after each tick (woken by the batch), so that it is long written when the
// sampler reads it: /proc/diskstats has no writer racing its reader, and a rename on the other CPU in the
// middle of the read would be measured as the sampler's cost (ticks then cost 20 % more in some runs than
// in others, depending on how the two 100 ms timers happened to line up).
struct ThreadedWriter : QThread {
    GeneratedTree *tree;
    std::atomic<bool> stop { false };
    QSemaphore due;
    void run() override
    {
        for (;;) {
            due.acquire();
            if (stop)
                return;
            tree->advance();
        }
    }
};

struct SamplerRun {
    double cpuPercent = 0;
    double cpuPerTickMs = 0;
    double p50Ms = 0, p90Ms = 0; // of the CPU per tick
    double checksum = 0; // keeps the metric math from being optimised away
    double lastCpu = 0;
    QList<double> tickCpuMs; // thread CPU from one batch to the next
    int ticks = 0;
    int devicesPerBatch = 0;
};

SamplerRun runGenerated(
    int devices, int busyEvery, int activeEvery, int intervalMs, int seconds, bool withStore, bool readInflight)
{
    GeneratedTree tree(devices, busyEvery, activeEvery);
    ThreadedWriter writer;
    writer.tree = &tree;
    writer.start();

    Sampler sampler(tree.root());
    sampler.watchAll();
    sampler.setInterval(intervalMs);
    sampler.setReadInflight(readInflight);
    SeriesStore store;
    SamplerRun run;
    QObject::connect(&sampler, &Sampler::samplesAvailable, [&](const SampleBatch &batch) {
        ++run.ticks;
        const double now = threadCpuSeconds();
        if (run.lastCpu > 0)
            run.tickCpuMs.append((now - run.lastCpu) * 1000);
        run.lastCpu = now;
        run.devicesPerBatch = int(batch.devices.size());
        // The metric math is part of the cost measured: iostat's 22 values of every device, as a consumer
        // showing all of them (dmtunectl stat, the table) computes them.
        for (const DeviceSample &d : batch.devices)
            run.checksum += d.metrics(batch.elapsedSeconds)[Metric::Utilization];
        if (withStore)
            store.append(batch);
        writer.due.release(); // the next counters, for the next tick
    });
    QObject::connect(
        &sampler, &Sampler::samplingFailed, [](const QString &m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });

    QElapsedTimer wall;
    const double cpu0 = threadCpuSeconds();
    wall.start();
    sampler.start();
    QTimer::singleShot(seconds * 1000, QCoreApplication::instance(), &QCoreApplication::quit);
    QCoreApplication::exec();
    sampler.stop();
    const double cpu = threadCpuSeconds() - cpu0;
    const double elapsed = double(wall.nsecsElapsed()) / 1e9;
    writer.stop = true;
    writer.due.release();
    writer.wait();
    run.cpuPercent = 100.0 * cpu / elapsed;
    run.cpuPerTickMs = run.ticks ? 1000.0 * cpu / run.ticks : 0;
    std::sort(run.tickCpuMs.begin(), run.tickCpuMs.end());
    if (!run.tickCpuMs.isEmpty()) {
        const auto at = [&](double q) { return run.tickCpuMs[qsizetype(q * double(run.tickCpuMs.size() - 1))]; };
        run.p50Ms = at(0.5);
        run.p90Ms = at(0.9);
    }
    return run;
}

struct ChildRun {
    double cpuSeconds = -1;
    int exitCode = -1;
};

// Runs argv with stdout to /dev/null; CPU (user + system) of the child from wait4().
ChildRun spawnAndMeasure(const QList<QByteArray> &argv)
{
    std::vector<char *> args;
    for (const QByteArray &a : argv)
        args.push_back(const_cast<char *>(a.constData()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    ChildRun r;
    if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) != 0)
        return r;
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.cpuSeconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    return r;
}

// Both programs at once (same devices, same interval, same wall time), each as the only load on itself.
void compareWithIostat(const QString &dmtunectl, int samples)
{
    const QStringList devices = SysfsRoot().list(QStringLiteral("block"));
    QList<QByteArray> ours { QFile::encodeName(dmtunectl), "stat", "-i", "1", "-c", QByteArray::number(samples) };
    QList<QByteArray> theirs { "iostat", "-d", "-x" };
    for (const QString &d : devices) {
        ours.append(d.toUtf8());
        theirs.append(d.toUtf8());
    }
    theirs.append({ "1", QByteArray::number(samples) });
    QList<QByteArray> ourOnce = ours, theirOnce = theirs;
    ourOnce[5] = "1";
    theirOnce[theirOnce.size() - 1] = "1";

    // Each runs alone once for its startup cost, then both side by side for `samples` reports.
    const ChildRun ourStart = spawnAndMeasure(ourOnce);
    const ChildRun theirStart = spawnAndMeasure(theirOnce);
    ChildRun ourRun, theirRun;
    QThread *t = QThread::create([&] { theirRun = spawnAndMeasure(theirs); });
    t->start();
    ourRun = spawnAndMeasure(ours);
    t->wait();
    delete t;
    // iostat's first report is the one since boot, read at start; dmtunectl's first read is a baseline. Both
    // read the counters `samples` times in the long run and once in the short one.
    const double ourPer = (ourRun.cpuSeconds - ourStart.cpuSeconds) / (samples - 1) * 1000;
    const double theirPer = (theirRun.cpuSeconds - theirStart.cpuSeconds) / (samples - 1) * 1000;
    std::printf("\n## Real devices (%lld in /sys/block), interval 1 s, %d reports, text output to /dev/null\n",
        qlonglong(devices.size()), samples);
    std::printf("| program | CPU total (s) | CPU of a 1-report run (s) | CPU per report (ms) |\n|---|---|---|---|\n");
    std::printf("| dmtunectl stat | %.3f | %.3f | %.3f |\n", ourRun.cpuSeconds, ourStart.cpuSeconds, ourPer);
    std::printf("| iostat -d -x | %.3f | %.3f | %.3f |\n", theirRun.cpuSeconds, theirStart.cpuSeconds, theirPer);
    std::printf("ratio dmtunectl/iostat per report: %.2f (exit codes %d/%d)\n", theirPer > 0 ? ourPer / theirPer : 0.0,
        ourRun.exitCode, theirRun.exitCode);
}

// Reads per second of /proc/diskstats and of one /sys/block/X/stat, the way CounterReader reads them.
void compareSources(int iterations)
{
    const SysfsRoot root;
    const QStringList devices = root.list(QStringLiteral("block"));
    const auto lines = root.readProc(QStringLiteral("diskstats"));
    const int lineCount = lines ? int(lines->count(u'\n')) : 0;
    auto time = [&](auto &&fn) {
        const double c0 = threadCpuSeconds();
        for (int i = 0; i < iterations; ++i)
            fn();
        return (threadCpuSeconds() - c0) / iterations * 1e6;
    };
    CounterReader diskstats(root), perDevice(root);
    diskstats.setSource(CounterSource::Diskstats);
    perDevice.setSource(CounterSource::BlockStat);
    const QStringList one { devices.value(0) };
    const double usDiskstats = time([&] { (void)diskstats.read(one); });
    const double usOneStat = time([&] { (void)perDevice.read(one); });
    const double usAllStat = time([&] { (void)perDevice.read(devices); });
    std::printf("\n## Counter sources on this machine (%d diskstats lines, %lld devices), CPU per read incl. parse\n",
        lineCount, qlonglong(devices.size()));
    std::printf("| read | µs |\n|---|---|\n| /proc/diskstats, all lines, 1 device kept | %.1f |\n", usDiskstats);
    std::printf("| /sys/block/X/stat, 1 device | %.1f |\n| /sys/block/X/stat, all %lld devices | %.1f |\n", usOneStat,
        qlonglong(devices.size()), usAllStat);
    std::printf("one stat file costs %.1f diskstats lines\n", lineCount ? usOneStat / (usDiskstats / lineCount) : 0.0);
}

void storeFootprint()
{
    // 64 devices, 1 h at 1 s with ±3 ms timer jitter, then steady state, for loads of several shapes. Values
    // are per second; each interval draws them around the mean.
    struct Load {
        const char *label;
        double spread; // each counter in [mean × (1 - spread), mean × (1 + spread)]
        int flushEvery; // flushes in 1 interval of N (0: never)
        bool discards;
        bool idle;
    } loads[] = {
        { "idle", 0, 0, false, true },
        { "steady fio job (±2 %)", 0.02, 0, false, false },
        { "busy, ±20 %, flushes in 10 % of intervals", 0.2, 10, false, false },
        { "bursty, ±100 %, flushes and discards every interval", 1.0, 1, true, false },
    };
    std::printf("\n## SeriesStore bytes per device-sample: 64 devices, retention 1 h at 1 s (±3 ms)\n");
    std::printf("| load | samples kept | bytes | bytes per device-sample | append µs per device-sample | "
                "series() µs per sample |\n|---|---|---|---|---|---|\n");
    for (const Load &load : loads) {
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> factor(1 - load.spread, 1 + load.spread);
        auto around = [&](double mean, int ms) { return quint64(mean * factor(random) * ms / 1000.0); };
        SeriesStore store;
        double appendSeconds = 0;
        qint64 atMs = 0;
        for (quint64 t = 1; t <= 3700; ++t) {
            const int ms = 997 + int(t % 7);
            atMs += ms;
            SampleBatch b;
            b.sequence = t;
            b.wallMs = 1'800'000'000'000 + atMs;
            b.monotonicNs = atMs * 1'000'000;
            b.elapsedSeconds = ms / 1000.0;
            for (int d = 0; d < 64; ++d) {
                DeviceSample s;
                s.counters.name = deviceName(d);
                CounterDeltas &x = s.deltas;
                if (!load.idle) {
                    x[DiskField::ReadIos] = around(40'000, ms);
                    x[DiskField::ReadMerges] = around(3'000, ms);
                    x[DiskField::ReadSectors] = around(320'000, ms);
                    x[DiskField::ReadTicks] = around(30'000, ms);
                    x[DiskField::WriteIos] = around(60'000, ms);
                    x[DiskField::WriteMerges] = around(180'000, ms);
                    x[DiskField::WriteSectors] = around(1'900'000, ms);
                    x[DiskField::WriteTicks] = around(90'000, ms);
                    x[DiskField::IoTicks] = quint64(ms);
                    x[DiskField::TimeInQueue] = around(130'000, ms);
                    s.inflight = { quint32(around(16, 1000)), quint32(around(32, 1000)) };
                }
                if (load.flushEvery && t % quint64(load.flushEvery) == 0) {
                    x[DiskField::FlushIos] = around(200, ms);
                    x[DiskField::FlushTicks] = around(150, ms);
                }
                if (load.discards) {
                    x[DiskField::DiscardIos] = around(500, ms);
                    x[DiskField::DiscardMerges] = around(20, ms);
                    x[DiskField::DiscardSectors] = around(1'000'000, ms);
                    x[DiskField::DiscardTicks] = around(400, ms);
                }
                b.devices.append(s);
            }
            const double c0 = threadCpuSeconds();
            store.append(b);
            appendSeconds += threadCpuSeconds() - c0;
        }
        const double c0 = threadCpuSeconds();
        qsizetype points = 0;
        for (int d = 0; d < 64; ++d)
            points += store.series(deviceName(d), Metric::WriteMergesPerSec).values.size();
        const double seriesSeconds = threadCpuSeconds() - c0;
        std::printf("| %s | %lld | %lld | %.1f | %.3f | %.3f |\n", load.label, qlonglong(store.sampleCount()),
            qlonglong(store.sampleBytes()), double(store.sampleBytes()) / double(store.sampleCount()),
            appendSeconds * 1e6 / (3700.0 * 64), seriesSeconds * 1e6 / double(points));
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const bool quick = args.contains(QStringLiteral("--quick"));
    QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    if (const qsizetype i = args.indexOf(QStringLiteral("--dmtunectl")); i >= 0 && i + 1 < args.size())
        dmtunectl = args[i + 1];
    const int seconds = quick ? 3 : 20;
    if (args.contains(QStringLiteral("--store-only"))) {
        storeFootprint();
        return 0;
    }
    if (const qsizetype i = args.indexOf(QStringLiteral("--profile-ticks")); i >= 0 && i + 1 < args.size()) {
        // For perf: the tree is written once, then only ticks (the counters do not move).
        GeneratedTree tree(4096, 16);
        Sampler sampler(tree.root());
        sampler.watchAll();
        const double c0 = threadCpuSeconds();
        const int n = args[i + 1].toInt();
        for (int k = 0; k < n; ++k)
            sampler.sampleNow();
        std::printf("%.3f ms per tick\n", (threadCpuSeconds() - c0) * 1000 / n);
        double ticking = 0;
        const bool cold = args.contains(QStringLiteral("--cold"));
        for (int k = 0; k < n; ++k) {
            tree.advance(); // not measured
            if (cold)
                QThread::msleep(100); // as between two timer ticks: caches cool down
            const double t0 = threadCpuSeconds();
            sampler.sampleNow();
            ticking += threadCpuSeconds() - t0;
        }
        std::printf("%.3f ms per tick, counters moving\n", ticking * 1000 / n);
        CounterReader reader(tree.root());
        CounterRead read;
        double reading = 0, math = 0;
        QList<DiskCounters> previous;
        for (int k = 0; k < n; ++k) {
            tree.advance();
            double r0 = threadCpuSeconds();
            (void)reader.read({}, false, &read);
            reading += threadCpuSeconds() - r0;
            r0 = threadCpuSeconds();
            if (previous.size() == read.devices.size()) {
                for (qsizetype d = 0; d < previous.size(); ++d) {
                    const IostatMetrics m = IostatMetrics::compute(previous[d], read.devices[d], 0.1);
                    if (m[Metric::Utilization] < 0)
                        std::printf("?");
                }
            }
            math += threadCpuSeconds() - r0;
            previous.swap(read.devices);
        }
        std::printf("%.3f ms per diskstats read + parse, %.3f ms deltas + metrics (counters moving)\n",
            reading * 1000 / n, math * 1000 / n);
        const double r0 = threadCpuSeconds();
        for (int k = 0; k < n; ++k) {
            for (int d = 0; d < 4096; d += 16)
                (void)reader.inflight(deviceName(d));
        }
        std::printf("%.3f ms per 256 inflight reads (deviceName included)\n", (threadCpuSeconds() - r0) * 1000 / n);
        return 0;
    }

    std::printf("# bench_sampler on %d CPUs\n\n## 4,096 generated devices at 10 Hz, %d s each\n",
        QThread::idealThreadCount(), seconds);
    std::printf("| case | ticks | devices/batch | CPU of one core | CPU per tick (ms): mean | p50 | p90 |\n"
                "|---|---|---|---|---|---|---|\n");
    struct Case {
        const char *label;
        int busyEvery;
        int activeEvery;
        bool store;
        bool readInflight;
    } cases[] = {
        { "every device doing I/O, 1/16 with requests in flight; iostat's 22 metrics (split not read)", 16, 1, false,
            false },
        { "the same + the in-flight split of the 256 busy devices (256 inflight reads)", 16, 1, false, true },
        { "the same + SeriesStore", 16, 1, true, true },
        { "1/4 of devices doing I/O (1/16 of those in flight), the rest idle; split read", 16, 4, false, true },
        { "every device doing I/O and in flight; split not read", 1, 1, false, false },
        { "every device doing I/O and in flight; split read (4,096 inflight reads)", 1, 1, false, true },
    };
    for (const Case &c : cases) {
        if (args.contains(QStringLiteral("--first-case-only")) && &c != &cases[0])
            continue;
        const SamplerRun r = runGenerated(4096, c.busyEvery, c.activeEvery, 100, seconds, c.store, c.readInflight);
        std::printf("| %s | %d | %d | %.2f %% | %.3f | %.3f | %.3f |\n", c.label, r.ticks, r.devicesPerBatch,
            r.cpuPercent, r.cpuPerTickMs, r.p50Ms, r.p90Ms);
        std::fflush(stdout);
    }
    if (args.contains(QStringLiteral("--generated-only")))
        return 0;
    compareSources(quick ? 2000 : 20000);
    storeFootprint();
    if (QFile::exists(dmtunectl))
        compareWithIostat(dmtunectl, quick ? 5 : 60);
    else
        std::printf("\n(dmtunectl not found at %s: no comparison with iostat)\n", qPrintable(dmtunectl));
    return 0;
}
