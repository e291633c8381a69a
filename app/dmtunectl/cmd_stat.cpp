// dmtunectl stat: iostat -x, from dmtune's Sampler, as text, sysstat-compatible JSON or CSV.
#include "cli.h"

#include "core/discovery/nvmemultipath.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/latency/blocklatencyprobe.h"
#include "core/latency/dmstatslatency.h"
#include "core/latency/latencyformat.h"
#include "core/latency/latencyintervals.h"
#include "core/latency/latencystream.h"
#include "core/stats/iostatformat.h"
#include "core/stats/sampler.h"
#include "signalguard.h"
#include "statsource.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QRegularExpression>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

namespace dmtune::cli {

namespace {

using Format = StatFormat;

bool validKernelName(const QString &name)
{
    return !name.isEmpty() && !name.contains(u'/') && name != QLatin1String(".") && name != QLatin1String("..");
}

// "sda", "dm-0", "/dev/sda", "/dev/mapper/mpatha" (a link to ../dm-N), "8:0", "mpatha" -> the kernel name.
Result<QString> resolveDevice(const SysfsRoot &root, const QString &arg)
{
    QString name = arg;
    if (arg.startsWith(u'/')) {
        struct stat st { };
        if (::stat(QFile::encodeName(arg).constData(), &st) != 0)
            return Result<QString>::failure(QStringLiteral("%1: no such device").arg(arg));
        if (!S_ISBLK(st.st_mode))
            return Result<QString>::failure(QStringLiteral("%1: not a block device").arg(arg));
        // The device number names the device whatever the path's spelling; the link name is the fallback
        // for a captured tree without dev/block.
        name = root.linkName(QStringLiteral("dev/block/%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)));
        if (name.isEmpty())
            name = QFileInfo(QFileInfo(arg).canonicalFilePath()).fileName();
    } else if (static const QRegularExpression devnum(QStringLiteral("^[0-9]+:[0-9]+$"));
               devnum.match(arg).hasMatch()) {
        name = root.linkName(QStringLiteral("dev/block/") + arg); // MAJ:MIN, as the other commands take it
        if (name.isEmpty())
            return Result<QString>::failure(QStringLiteral("no such block device '%1'").arg(arg));
    } else if (validKernelName(arg) && !root.exists(QStringLiteral("block/") + arg)
        && !root.exists(QStringLiteral("class/block/") + arg)) {
        // A device-mapper name (mpatha): the dm-N whose dm/name it is.
        for (const QString &dev : root.list(QStringLiteral("block"))) {
            if (dev.startsWith(QLatin1String("dm-"))
                && root.readOr(QStringLiteral("block/%1/dm/name").arg(dev)) == arg) {
                name = dev;
                break;
            }
        }
    }
    if (!validKernelName(name))
        return Result<QString>::failure(QStringLiteral("'%1': not a block device name").arg(arg));
    if (!root.exists(QStringLiteral("block/") + name) && !root.exists(QStringLiteral("class/block/") + name))
        return Result<QString>::failure(QStringLiteral("no such block device '%1'").arg(arg));
    return name;
}

iostatformat::HostInfo hostInfo(const SysfsRoot &root, qint64 wallMs, bool iso)
{
    iostatformat::HostInfo host;
    struct utsname u { };
    if (::uname(&u) == 0) {
        host.sysname = QString::fromLocal8Bit(u.sysname);
        host.nodename = QString::fromLocal8Bit(u.nodename);
        host.release = QString::fromLocal8Bit(u.release);
        host.machine = QString::fromLocal8Bit(u.machine);
    }
    // As sysstat counts them: the cpuN directories of devices/system/cpu.
    static const QRegularExpression cpuDir(QStringLiteral("^cpu[0-9]+$"));
    for (const QString &entry : root.list(QStringLiteral("devices/system/cpu"))) {
        if (cpuDir.match(entry).hasMatch())
            ++host.cpus;
    }
    if (host.cpus == 0)
        host.cpus = int(::sysconf(_SC_NPROCESSORS_CONF));
    host.date = iostatformat::date(wallMs, iso);
    return host;
}

struct StatOptions {
    QStringList devices; // kernel names; empty: all
    int intervalMs = Sampler::DefaultIntervalMs;
    qint64 count = -1; // -1: until interrupted
    Format format = Format::Text;
    bool histogram = false; // --histogram: the block-layer latency probe beside the counters
    bool dmStats = false; // --dm-stats: every named device through dm-stats (implies histogram)
    SourceStatRequest source; // --pcp-host, --pcp-archive, --prometheus: a metrics engine's counters instead
};

// --pcp-host, --pcp-archive, --prometheus and what goes with them; an exit code, or -1.
int parseSourceOptions(const QCommandLineParser &parser, Streams io, StatOptions *options)
{
    SourceStatRequest &source = options->source;
    source.pcpHost = parser.value(QStringLiteral("pcp-host"));
    source.pcpArchive = parser.value(QStringLiteral("pcp-archive"));
    source.prometheusUrl = parser.value(QStringLiteral("prometheus"));
    source.instance = parser.value(QStringLiteral("instance"));
    source.start = parser.value(QStringLiteral("start"));
    source.finish = parser.value(QStringLiteral("finish"));
    const int engines = int(parser.isSet(QStringLiteral("pcp-host"))) + int(parser.isSet(QStringLiteral("pcp-archive")))
        + int(parser.isSet(QStringLiteral("prometheus")));
    if (engines > 1)
        return usageError(io, QStringLiteral("stat: --pcp-host, --pcp-archive and --prometheus exclude each other"));
    if ((parser.isSet(QStringLiteral("start")) || parser.isSet(QStringLiteral("finish")))
        && !parser.isSet(QStringLiteral("pcp-archive")))
        return usageError(io, QStringLiteral("stat: --start and --finish go with --pcp-archive"));
    if (parser.isSet(QStringLiteral("instance")) != parser.isSet(QStringLiteral("prometheus")))
        return usageError(io, QStringLiteral("stat: --prometheus and --instance go together"));
    if (engines == 0)
        return -1;
    for (const QString &option : { QStringLiteral("pcp-host"), QStringLiteral("pcp-archive"),
             QStringLiteral("prometheus"), QStringLiteral("instance") }) {
        if (parser.isSet(option) && parser.value(option).trimmed().isEmpty())
            return usageError(io, QStringLiteral("stat: --%1 needs a value").arg(option));
    }
    if (options->histogram)
        return usageError(io,
            QStringLiteral("stat: --histogram and --dm-stats probe this machine's kernel: not "
                           "with a metrics engine's counters"));
    if (parser.isSet(QStringLiteral("sysfs-root")))
        return usageError(io, QStringLiteral("stat: --sysfs-root is this machine's: not with a metrics engine"));
    source.devices = parser.positionalArguments();
    source.intervalMs = options->intervalMs;
    source.intervalSet = parser.isSet(QStringLiteral("interval"));
    source.count = options->count;
    source.format = options->format;
    return -1;
}

// Returns an exit code, or -1 when the options are good.
int parseStatOptions(
    QCommandLineParser &parser, const QStringList &args, Streams io, StatOptions *options, SysfsRoot *root)
{
    parser.setApplicationDescription(QStringLiteral(
        "One iostat -x report per interval for DEV... (default: every device in /sys/block). The first report "
        "covers the first interval, not the time since boot. Without -c, runs until SIGINT or SIGTERM and then "
        "closes the JSON document."));
    parser.addPositionalArgument(QStringLiteral("DEV"),
        QStringLiteral("sda, dm-0, a map name, /dev/sda, /dev/mapper/NAME, MAJ:MIN"), QStringLiteral("[DEV...]"));
    parser.addOption({ { QStringLiteral("i"), QStringLiteral("interval") },
        QStringLiteral("Seconds between reports, 0.1 to 60 (default 1)."), QStringLiteral("SECONDS") });
    parser.addOption({ { QStringLiteral("c"), QStringLiteral("count") },
        QStringLiteral("Number of reports (default: until interrupted)."), QStringLiteral("COUNT") });
    parser.addOption({ QStringLiteral("json"), QStringLiteral("sysstat 12.6 iostat -x -o JSON document.") });
    parser.addOption({ QStringLiteral("csv"), QStringLiteral("CSV with iostat's column names, one row per device.") });
    parser.addOption({ QStringLiteral("histogram"),
        QStringLiteral(
            "Also each device's latency distribution over the interval (device time issue->complete, "
            "queue time insert->issue): percentiles and buckets; with --json, histogram, p50_us, p90_us, "
            "p99_us, p99_9_us per disk. A BPF probe on the block layer: without root it runs in dmtune-helper through "
            "pkexec. A bio-based dm "
            "map named in DEV (linear, striped) is counted with dm-stats instead, as --dm-stats does.") });
    parser.addOption({ QStringLiteral("dm-stats"),
        QStringLiteral("Count the named dm maps' latency with dm-stats (bio-based maps only: a request-based map is "
                       "refused): one region per map, with program id dmtune, created now and deleted when stat ends; "
                       "stale regions of a dmtune that is no longer running are deleted, other programs' are left. "
                       "Implies --histogram. Needs root.") });
    parser.addOption({ QStringLiteral("pcp-host"),
        QStringLiteral("The counters of HOST's pmcd (Performance Co-Pilot; default port 44321) instead of this "
                       "machine's, directly or through a pmproxy (HOST:PORT@PROXY:PORT). DEV names a disk (sda) or a "
                       "map (dm-0 or its name)."),
        QStringLiteral("HOST[:PORT]") });
    parser.addOption({ QStringLiteral("pcp-archive"),
        QStringLiteral("The counters of a pmlogger archive (its base name, or a directory of archives). Reports "
                       "follow the archive's own samples; with -i, values interpolated every -i seconds from "
                       "--start, as pcp iostat -t does."),
        QStringLiteral("PATH") });
    parser.addOption({ QStringLiteral("start"),
        QStringLiteral("With --pcp-archive: where to start, in PCP's -S syntax (\"@ Sat Dec  5 18:00:00 2026\", "
                       "\"+30s\", \"-5min\")."),
        QStringLiteral("TIME") });
    parser.addOption({ QStringLiteral("finish"),
        QStringLiteral("With --pcp-archive: where to stop, in PCP's -T syntax."), QStringLiteral("TIME") });
    parser.addOption({ QStringLiteral("prometheus"),
        QStringLiteral("The counters node_exporter exports, read from a Prometheus server's HTTP API (needs "
                       "--instance). Reports follow its scrapes; -i is how often it is asked."),
        QStringLiteral("URL") });
    parser.addOption({ QStringLiteral("instance"),
        QStringLiteral("With --prometheus: the node_exporter target, as its instance label says "
                       "(host:9100)."),
        QStringLiteral("INSTANCE") });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;

    if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("csv")))
        return usageError(io, QStringLiteral("stat: --json and --csv exclude each other"));
    options->dmStats = parser.isSet(QStringLiteral("dm-stats"));
    options->histogram = parser.isSet(QStringLiteral("histogram")) || options->dmStats;
    if (options->histogram && parser.isSet(QStringLiteral("csv")))
        return usageError(io, QStringLiteral("stat: --histogram and --csv exclude each other"));
    options->format = parser.isSet(QStringLiteral("json")) ? Format::Json
        : parser.isSet(QStringLiteral("csv"))              ? Format::Csv
                                                           : Format::Text;
    if (parser.isSet(QStringLiteral("interval"))) {
        bool ok = false;
        const double seconds = parser.value(QStringLiteral("interval")).toDouble(&ok);
        const double ms = std::round(seconds * 1000);
        if (!ok || !(ms >= Sampler::MinIntervalMs && ms <= Sampler::MaxIntervalMs))
            return usageError(io, QStringLiteral("stat: -i takes seconds from 0.1 to 60"));
        options->intervalMs = int(ms);
    }
    if (parser.isSet(QStringLiteral("count"))) {
        bool ok = false;
        options->count = parser.value(QStringLiteral("count")).toLongLong(&ok);
        if (!ok || options->count < 1)
            return usageError(io, QStringLiteral("stat: -c takes a positive count"));
    }
    if (const int code = parseSourceOptions(parser, io, options); code >= 0)
        return code;
    if (options->source.any())
        return -1;
    *root = sysfsRootFrom(parser);
    if (!root->isDir(QStringLiteral("block")))
        return fail(io, QStringLiteral("stat: %1: no block directory").arg(root->path(QStringLiteral("block"))));
    if (options->histogram && !root->isLive())
        return fail(io, QStringLiteral("stat: --histogram probes the running kernel, not a tree under --sysfs-root"));
    for (const QString &arg : parser.positionalArguments()) {
        const auto name = resolveDevice(*root, arg);
        if (!name)
            return fail(io, QStringLiteral("stat: ") + name.errorMessage());
        if (!options->devices.contains(name.value()))
            options->devices.append(name.value());
    }
    if (options->dmStats && options->devices.isEmpty())
        return usageError(io, QStringLiteral("stat: --dm-stats counts the maps named in DEV: name them"));
    return -1;
}

} // namespace

int runStat(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    StatOptions options;
    SysfsRoot root;
    if (const int code = parseStatOptions(parser, args, io, &options, &root); code >= 0)
        return code;
    if (options.source.any())
        return runSourceStat(options.source, io);

    // A native NVMe head that counts nothing reads 0.00 under load: say why once, before the reports.
    if (!options.devices.isEmpty()) {
        const DeviceSnapshot snapshot = buildSnapshot(root, enumerateBlockDirectory(root), nullptr, {});
        for (const NvmeMultipathHead &head : snapshot.nvmeMultipath) {
            const QString note = nvmeHeadStatisticsNote(head, snapshot.kernelRelease);
            if (note.isEmpty() || !options.devices.contains(head.name))
                continue;
            io.err << "dmtunectl: stat: note: " << note;
            if (nvmeHeadStatisticsCanBeTurnedOn(snapshot.kernelRelease))
                io.err << " (dmtunectl set " << head.name << " iostats=1)";
            io.err << '\n';
        }
        io.err.flush();
    }
    // Named bio-based maps (all named devices with --dm-stats) through dm-stats, the rest through the probe.
    QStringList dmStatsDevices;
    QStringList probeDevices = options.devices;
    if (options.histogram) {
        for (const QString &device : options.devices) {
            if (options.dmStats || isBioBasedDmDevice(root, device))
                dmStatsDevices.append(device);
        }
        for (const QString &device : std::as_const(dmStatsDevices))
            probeDevices.removeAll(device);
    }
    std::unique_ptr<DmStatsLatency> dmStats;
    if (!dmStatsDevices.isEmpty()) {
        const OperationPlan plan = planDmStatsLatency(root, dmStatsDevices);
        if (!plan.runnable())
            return fail(io, QStringLiteral("stat: ") + plan.refusals.value(0));
        auto started = DmStatsLatency::start(root, plan);
        if (!started)
            return fail(io, QStringLiteral("stat: ") + started.errorMessage());
        dmStats = std::move(started.value());
        io.err << "dmtunectl: stat: " << plan.summary << '\n';
        for (const QString &step : plan.steps)
            io.err << "  - " << step << '\n';
        for (const QString &note : plan.notes)
            io.err << "  note: " << note << '\n';
        io.err << "dmtunectl: stat: dm-stats: created " << dmStats->created().join(QStringLiteral(", "));
        if (!dmStats->removedStale().isEmpty())
            io.err << "; deleted stale " << dmStats->removedStale().join(QStringLiteral(", "));
        io.err << '\n';
        io.err.flush();
    }
    std::unique_ptr<BlockLatencyProbe> probe;
    std::unique_ptr<HelperLatencyProbe> helperProbe; // a normal user's: the probe in dmtune-helper (pkexec)
    LatencyReading helperReading; // its reading at this tick
    if (options.histogram && (options.devices.isEmpty() || !probeDevices.isEmpty())) {
        if (::geteuid() == 0) {
            auto opened = openLatencyProbeFor(root, probeDevices);
            if (!opened)
                return fail(io, QStringLiteral("stat: ") + opened.errorMessage());
            probe = std::move(opened.value());
        } else {
            const auto numbers = latencyDeviceNumbers(root, probeDevices);
            if (!numbers)
                return fail(io, QStringLiteral("stat: ") + numbers.errorMessage());
            auto started = HelperLatencyProbe::start(HelperLatencyProbe::defaultCommand(), numbers.value());
            if (!started)
                return fail(io,
                    QStringLiteral("stat: latency histograms need root: the BPF probe runs in dmtune-helper through "
                                   "pkexec, which failed: ")
                        + started.errorMessage());
            helperProbe = std::move(started.value());
        }
    }
    QHash<QString, DeviceLatency> latencyBefore; // the probe's reading at the previous report, per device
    QHash<QString, QStringList> slavesOf; // a dm device's paths, for the time above them
    QString dmStatsError; // the first region that could not be read ends the run
    const auto latencyOver = [&](const DeviceSample &d) -> std::optional<DeviceLatency> {
        DeviceLatency now;
        if (dmStats && dmStats->isWatched(d.name())) {
            const auto read = dmStats->read(d.name());
            if (!read) {
                dmStatsError = read.errorMessage();
                return std::nullopt;
            }
            now = read.value();
        } else if (probe && probe->isWatched(blockDeviceNumber(d.counters))) {
            now = probe->read(blockDeviceNumber(d.counters));
        } else if (helperProbe && helperReading.devices.contains(blockDeviceNumber(d.counters))) {
            now = helperReading.devices.value(blockDeviceNumber(d.counters));
        } else {
            return std::nullopt;
        }
        const DeviceLatency interval = now.since(latencyBefore.value(d.name()));
        latencyBefore.insert(d.name(), now);
        return interval;
    };

    const bool iso = qEnvironmentVariable("S_TIME_FORMAT") == QLatin1String("ISO");
    Sampler sampler(root);
    if (options.devices.isEmpty())
        sampler.watchAll();
    else
        sampler.setWatched(options.devices);
    sampler.setInterval(options.intervalMs);
    // iostat's text columns have no in-flight split: its file read per busy device would be wasted.
    sampler.setReadInflight(options.format != Format::Text);

    switch (options.format) {
    case Format::Text:
        io.out << iostatformat::textBanner(hostInfo(root, QDateTime::currentMSecsSinceEpoch(), iso)) << '\n';
        break;
    case Format::Json:
        io.out << iostatformat::jsonBegin(hostInfo(root, QDateTime::currentMSecsSinceEpoch(), iso));
        break;
    case Format::Csv:
        io.out << iostatformat::csvHeader();
        break;
    }
    io.out.flush();

    qint64 reports = 0;
    int exitCode = ExitOk;
    bool finished = false;
    auto finish = [&](int code) {
        if (finished)
            return;
        finished = true;
        exitCode = code;
        QObject::disconnect(&sampler, nullptr, nullptr, nullptr);
        sampler.stop();
        if (const quint64 missed = probe ? probe->missedEvents() : helperReading.missedEvents; missed > 0)
            io.err << "dmtunectl: stat: note: the latency probe missed " << missed
                   << " block events (a completion interrupted another on the same CPU): the histograms may count "
                      "that many I/Os fewer than the counters\n";
        if (options.format == Format::Json)
            io.out << iostatformat::jsonEnd();
        io.out.flush();
        QCoreApplication::exit(code);
    };

    QObject::connect(&sampler, &Sampler::samplesAvailable, [&](const SampleBatch &batch) {
        if (helperProbe) {
            auto reading = helperProbe->read();
            if (!reading) {
                io.err << "dmtunectl: stat: " << reading.errorMessage() << '\n';
                finish(ExitFailure);
                return;
            }
            helperReading = std::move(reading.value());
        }
        QList<std::pair<QString, DeviceLatency>> latencies;
        QHash<QString, DeviceLatency> latencyOf;
        for (const DeviceSample &d : batch.devices) {
            if (const auto latency = latencyOver(d)) {
                latencies.append({ d.name(), *latency });
                latencyOf.insert(d.name(), *latency);
            }
        }
        if (!dmStatsError.isEmpty()) {
            io.err << "dmtunectl: stat: " << dmStatsError << '\n';
            finish(ExitFailure);
            return;
        }
        // A request-based map beside its paths: the time spent above them.
        QList<std::pair<QString, TimeAbovePaths>> above;
        for (const auto &[name, latency] : std::as_const(latencies)) {
            if (!name.startsWith(QLatin1String("dm-")))
                continue;
            QList<LatencyHistogram> paths;
            auto slaves = slavesOf.constFind(name);
            if (slaves == slavesOf.constEnd()) // read once per map, not on every tick
                slaves = slavesOf.insert(name, root.list(QStringLiteral("block/%1/slaves").arg(name)));
            for (const QString &slave : *slaves) {
                if (latencyOf.contains(slave))
                    paths.append(latencyOf.value(slave).device);
            }
            if (const auto t = paths.isEmpty() ? std::nullopt : timeAbovePaths(latency.device, paths))
                above.append({ name, *t });
        }
        QList<iostatformat::DeviceRow> rows;
        rows.reserve(batch.devices.size());
        for (const DeviceSample &d : batch.devices) {
            iostatformat::DeviceRow row { d.name(), d.metrics(batch.elapsedSeconds) };
            if (latencyOf.contains(d.name()))
                row.extraJson = latencyformat::jsonFields(latencyOf.value(d.name()));
            for (const auto &[map, t] : std::as_const(above)) {
                if (map == d.name())
                    row.extraJson += latencyformat::aboveJson(t);
            }
            rows.append(row);
        }
        QString latencyText; // text format: the histograms' tables after the rows
        if (options.format == Format::Text && (probe || helperProbe || dmStats)) {
            QTextStream text(&latencyText);
            text << '\n' << latencyformat::summaryHeader();
            for (const auto &[name, latency] : std::as_const(latencies))
                text << latencyformat::summaryRows(name, latency);
            if (!above.isEmpty()) {
                text << '\n' << latencyformat::aboveHeader();
                for (const auto &[map, t] : std::as_const(above))
                    text << latencyformat::aboveRow(map, t);
            }
            text << '\n' << latencyformat::bucketHeader();
            for (const auto &[name, latency] : std::as_const(latencies))
                text << latencyformat::bucketRows(name, latency);
        }
        writeStatReport(io.out, options.format, batch.wallMs, iso, rows, reports, latencyText);
        io.out.flush();
        if (++reports == options.count)
            finish(ExitOk);
    });
    QObject::connect(&sampler, &Sampler::deviceVanished, [&](const QString &name) {
        io.err << "dmtunectl: stat: " << name << " vanished\n";
        io.err.flush();
    });
    QObject::connect(&sampler, &Sampler::samplingFailed, [&](const QString &message) {
        io.err << "dmtunectl: stat: " << message << '\n';
        finish(ExitFailure);
    });

    // SIGINT/SIGTERM end the run between two reports, so that the JSON document is still closed (as iostat does).
    SignalGuard signalGuard;
    signalGuard.onSignal(&sampler, [&] { finish(ExitOk); });

    sampler.start();
    if (!finished)
        QCoreApplication::exec();
    return exitCode;
}

} // namespace dmtune::cli
