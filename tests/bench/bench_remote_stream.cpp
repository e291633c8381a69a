// bench_remote_stream: the costs of a remote host's counter stream in docs/remote.md. A plain program, not a
// pass/fail test. Needs root (a real sshd on 127.0.0.1, tests/live/remote/sshdfixture.h).
//
// 1,000 generated devices, every one busy and every counter changing by a random amount every tick, streamed at
// 1 Hz by `dmtunectl agent` through the system's ssh and sshd (no compression: AgentClient passes
// Compression=no) into a RemoteSampler and a SeriesStore, as the GUI's charts have them:
//  - bytes per second: the agent's messages (payload) and what the ssh client read (/proc/PID/io rchar: the wire,
//    with ssh's framing and MACs);
//  - the agent's CPU per device-sample (/proc/PID/schedstat, ns on CPU), against local `dmtunectl stat` of the
//    same tree (wait4's rusage, its start-up taken out by a 1-report run): text without the in-flight split
//    against a stream without it, --json (which reads it) against a stream with it;
//  - the latency from the agent's read (its CLOCK_MONOTONIC; one clock on loopback) to the chart's series.
//
// usage: bench_remote_stream [--devices N] [--seconds S]
#include "core/remote/agentclient.h"
#include "core/remote/agentprotocol.h"
#include "core/remote/remotesampler.h"
#include "core/stats/metriccatalog.h"
#include "core/stats/seriesstore.h"
#include "tests/common/testpaths.h"
#include "tests/live/remote/sshdfixture.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTimer>

#include <QEventLoop>
#include <QJsonObject>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>

extern char **environ;

using namespace dmtune;

namespace {

qint64 monotonicNs()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

QString deviceName(int i)
{
    return i % 2 == 0 ? QStringLiteral("sd%1").arg(QChar(u'a' + (i / 2) % 26)) + QString::number(i / 52)
                      : QStringLiteral("dm-%1").arg(i / 2);
}

// A sys/proc tree whose /proc/diskstats advances every counter of every device on each call:
//  - Steady: each device has its own rates (a busy path, 100 to 4,000 I/Os a tick) and each tick's step is
//    within 10 % of them, as a device under a steady workload;
//  - Random: every step is uniformly random from 1 to 4,000 (sectors 400,000), unlike the tick before: the worst
//    case for a delta coding.
class BusyTree {
public:
    enum class Load { Steady, Random };
    BusyTree(int count, Load load)
        : m_dir(QStringLiteral("/dev/shm/bench_remote-XXXXXX"))
        , m_load(load)
        , m_counters(std::size_t(count))
        , m_rates(std::size_t(count))
    {
        for (auto &r : m_rates) {
            const double ios = 100 + m_rng.bounded(3900);
            for (std::size_t f = 0; f < r.size(); ++f)
                r[f] = f == 2 || f == 6 ? ios * 128 : f == 0 || f == 4 ? ios : ios / 4 + 1;
        }
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
    QString path() const { return m_dir.path(); }

    void advance()
    {
        QByteArray text;
        text.reserve(qsizetype(m_counters.size()) * 160);
        char line[320];
        for (std::size_t i = 0; i < m_counters.size(); ++i) {
            auto &c = m_counters[i];
            for (std::size_t f = 0; f < c.size(); ++f) {
                c[f] += m_load == Load::Random
                    ? 1 + m_rng.bounded(f == 2 || f == 6 ? 400000u : 4000u)
                    : (unsigned long long)(m_rates[i][f] * (0.9 + 0.2 * m_rng.generateDouble()));
            }
            const int n = std::snprintf(line, sizeof line,
                "%4d %7d %s %llu %llu %llu %llu %llu %llu %llu %llu 8 %llu %llu %llu %llu %llu %llu %llu %llu\n",
                i % 2 ? 253 : 8, int(i / 2), qPrintable(deviceName(int(i))), c[0], c[1], c[2], c[3], c[4], c[5], c[6],
                c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14], c[15]);
            text.append(line, n);
        }
        const QString tmp = m_dir.filePath(QStringLiteral("proc/diskstats.new"));
        QFile f(tmp);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text);
        f.close();
        ::rename(QFile::encodeName(tmp).constData(),
            QFile::encodeName(m_dir.filePath(QStringLiteral("proc/diskstats"))).constData());
    }

private:
    void write(const QString &relative, const QString &text)
    {
        QFile f(m_dir.filePath(relative));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(text.toUtf8());
    }
    QTemporaryDir m_dir;
    Load m_load;
    std::vector<std::array<unsigned long long, 16>> m_counters;
    std::vector<std::array<double, 16>> m_rates;
    QRandomGenerator m_rng { 42 };
};

qint64 readField(const QString &path, const QByteArray &prefix)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &l : lines) {
        if (prefix.isEmpty())
            return l.split(' ').value(0).toLongLong(); // schedstat: ns on CPU first
        if (l.startsWith(prefix))
            return l.mid(prefix.size()).trimmed().toLongLong();
    }
    return -1;
}

double percentile(QList<double> v, double p)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.at(std::min<qsizetype>(v.size() - 1, qsizetype(p * double(v.size()))));
}

struct StreamRun {
    double payloadBytesPerSecond = 0, wireBytesPerSecond = 0, agentNsPerDeviceSample = 0;
    double latencyP50Ms = 0, latencyP90Ms = 0, latencyMaxMs = 0;
    int batches = 0, devices = 0;
    QString error;
};

StreamRun runStream(const live::SshdFixture &sshd, const QString &wrapper, BusyTree &tree, int seconds, bool inflight)
{
    StreamRun run;
    const Result<HostAddress> address = parseHostAddress(sshd.host());
    AgentClient client(*address, SshSettings { sshd.configFile(), wrapper });
    RemoteSampler sampler(&client);
    sampler.setInterval(1000);
    sampler.setReadInflight(inflight);
    SeriesStore store;
    QEventLoop loop;
    qint64 agentPid = -1, sshPid = -1;
    qint64 payload = 0, cpuStart = 0, rcharStart = 0, startNs = 0;
    int warmup = 3;
    QList<double> latencies;
    QObject::connect(&client, &AgentClient::ready, &loop, [&] {
        agentPid = client.agentHello().value(QLatin1String("pid")).toInteger(-1);
        sshPid = qint64(sshtest::sshChildOfThisProcess());
        sampler.start();
    });
    QObject::connect(&client, &AgentClient::disconnected, &loop, [&](const QString &problem) {
        run.error = problem;
        loop.quit();
    });
    QObject::connect(&client, &AgentClient::message, &loop, [&](const QJsonObject &m) {
        if (m.value(QLatin1String("type")).toString() == QLatin1String("samples") && warmup == 0)
            payload += encodeAgentMessage(m).size();
    });
    QObject::connect(&sampler, &RemoteSampler::samplesAvailable, &loop, [&](const SampleBatch &batch) {
        store.append(batch);
        const MetricSeries s = store.series(batch.devices.value(0).name(), Metric::WriteMergesPerSec);
        const qint64 latency = monotonicNs() - batch.monotonicNs;
        tree.advance(); // the next interval's counters, long before the agent's next read
        if (warmup > 0) {
            if (--warmup == 0) {
                cpuStart = readField(QStringLiteral("/proc/%1/schedstat").arg(agentPid), {});
                rcharStart = readField(QStringLiteral("/proc/%1/io").arg(sshPid), "rchar:");
                startNs = monotonicNs();
            }
            return;
        }
        if (s.values.isEmpty())
            run.error = QStringLiteral("no series");
        latencies << double(latency) / 1e6;
        run.devices = int(batch.devices.size());
        if (++run.batches == seconds) {
            const double elapsed = double(monotonicNs() - startNs) / 1e9;
            const qint64 cpu = readField(QStringLiteral("/proc/%1/schedstat").arg(agentPid), {}) - cpuStart;
            const qint64 rchar = readField(QStringLiteral("/proc/%1/io").arg(sshPid), "rchar:") - rcharStart;
            run.payloadBytesPerSecond = double(payload) / elapsed;
            run.wireBytesPerSecond = double(rchar) / elapsed;
            run.agentNsPerDeviceSample = double(cpu) / double(run.batches) / double(std::max(1, run.devices));
            loop.quit();
        }
    });
    QTimer::singleShot((seconds + 30) * 1000, &loop, [&] {
        run.error = QStringLiteral("timed out");
        loop.quit();
    });
    client.connectToHost();
    loop.exec();
    run.latencyP50Ms = percentile(latencies, 0.5);
    run.latencyP90Ms = percentile(latencies, 0.9);
    run.latencyMaxMs = percentile(latencies, 1.0);
    client.disconnectFromHost();
    return run;
}

double spawnCpuSeconds(const QList<QByteArray> &argv)
{
    std::vector<char *> args;
    for (const QByteArray &a : argv)
        args.push_back(const_cast<char *>(a.constData()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return -1;
    int status = 0;
    rusage usage {};
    ::wait4(pid, &status, 0, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// dmtunectl stat of every device of the tree, `reports` reports at 1 s, while a timer advances the tree each second.
double statNsPerDeviceSample(const QString &dmtunectl, BusyTree &tree, int devices, int reports, bool json)
{
    QList<QByteArray> base { QFile::encodeName(dmtunectl), "stat", "--sysfs-root", QFile::encodeName(tree.path()), "-i",
        "1" };
    if (json)
        base << "--json";
    std::atomic<bool> stop { false };
    std::thread writer([&] {
        while (!stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
            tree.advance();
        }
    });
    const double once = spawnCpuSeconds(QList<QByteArray>(base) << "-c"
                                                                << "1");
    const double many = spawnCpuSeconds(QList<QByteArray>(base) << "-c" << QByteArray::number(reports + 1));
    stop = true;
    writer.join();
    return (many - once) * 1e9 / double(reports) / double(devices);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int devices = args.contains(QStringLiteral("--devices"))
        ? args.value(args.indexOf(QStringLiteral("--devices")) + 1).toInt()
        : 1000;
    const int seconds = args.contains(QStringLiteral("--seconds"))
        ? args.value(args.indexOf(QStringLiteral("--seconds")) + 1).toInt()
        : 30;
    const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
    live::SshdFixture sshd;
    if (!sshd.start()) {
        std::fprintf(stderr, "bench_remote_stream: %s\n", qPrintable(sshd.error()));
        return 1;
    }
    std::printf("%d busy devices, every counter changing every tick, 1 Hz, %d s after 3 s of warm-up, ssh without "
                "compression on 127.0.0.1\n\n",
        devices, seconds);
    for (const auto &[load, inflight] : { std::pair { BusyTree::Load::Steady, false },
             std::pair { BusyTree::Load::Steady, true }, std::pair { BusyTree::Load::Random, false } }) {
        BusyTree tree(devices, load);
        QTemporaryDir dir;
        const QString wrapper = dir.filePath(QStringLiteral("dmtunectl-on-tree"));
        {
            QFile f(wrapper);
            f.open(QIODevice::WriteOnly);
            f.write(QStringLiteral("#!/bin/sh\nexec %1 \"$@\" --sysfs-root %2\n").arg(dmtunectl, tree.path()).toUtf8());
            f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        }
        const StreamRun r = runStream(sshd, wrapper, tree, seconds, inflight);
        if (!r.error.isEmpty()) {
            std::fprintf(stderr, "bench_remote_stream: %s\n", qPrintable(r.error));
            return 1;
        }
        const double stat = statNsPerDeviceSample(dmtunectl, tree, devices, seconds, inflight);
        std::printf("%s load, stream %s the in-flight split (%d devices a batch, %d batches):\n",
            load == BusyTree::Load::Steady ? "steady" : "random", inflight ? "with" : "without", r.devices, r.batches);
        std::printf("  payload %.1f kB/s, ssh read %.1f kB/s (%.1f bytes per device-sample on the wire)\n",
            r.payloadBytesPerSecond / 1000, r.wireBytesPerSecond / 1000, r.wireBytesPerSecond / r.devices);
        std::printf("  agent CPU %.2f us per device-sample; local dmtunectl stat%s: %.2f us (ratio %.2f)\n",
            r.agentNsPerDeviceSample / 1000, inflight ? " --json" : "", stat / 1000, r.agentNsPerDeviceSample / stat);
        std::printf("  read -> chart latency: p50 %.1f ms, p90 %.1f ms, max %.1f ms\n\n", r.latencyP50Ms,
            r.latencyP90Ms, r.latencyMaxMs);
    }
    return 0;
}
