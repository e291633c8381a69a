// dmtunectl run: a fio workload on one device (a template or a job file), guarded against destroying data,
// with the device's (and a map's paths') statistics sampled alongside, one progress line per second, a
// summary at the end, and optionally a recording.
#include "cli.h"
#include "signalguard.h"

#include "core/discovery/discovery.h"
#include "core/latency/latencyformat.h"
#include "core/latency/latencystream.h"
#include "core/ops/operationrunner.h"
#include "core/ops/workloadoperations.h"
#include "core/params/deviceresolver.h"
#include "core/util/printable.h"
#include "core/workloads/fiorun.h"
#include "core/workloads/workloadsession.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <QPointer>

namespace dmtune::cli {

namespace {

QString humanRate(double perSecond)
{
    if (perSecond >= 1e6)
        return QString::number(perSecond / 1e6, 'f', 2) + u'M';
    if (perSecond >= 1e3)
        return QString::number(perSecond / 1e3, 'f', 1) + u'k';
    return QString::number(perSecond, 'f', 0);
}

QString mib(double bytesPerSecond)
{
    return QString::number(bytesPerSecond / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB/s");
}

QString usText(double ns)
{
    return ns >= 1e6 ? QString::number(ns / 1e6, 'f', 2) + QStringLiteral(" ms")
                     : QString::number(ns / 1e3, 'f', 0) + QStringLiteral(" us");
}

// "read 12.3k IOPS 48.1 MiB/s, write ..., clat p50 520 us p99 2.10 ms"
QString ratesLine(const FioRates &r)
{
    QStringList parts;
    if (r.readIops > 0 || r.writeIops == 0)
        parts << QStringLiteral("read %1 IOPS %2").arg(humanRate(r.readIops), mib(r.readBytesPerSecond));
    if (r.writeIops > 0)
        parts << QStringLiteral("write %1 IOPS %2").arg(humanRate(r.writeIops), mib(r.writeBytesPerSecond));
    if (r.trimIops > 0)
        parts << QStringLiteral("trim %1 IOPS").arg(humanRate(r.trimIops));
    parts << QStringLiteral("clat p50 %1 p99 %2").arg(usText(r.clat.p50Ns), usText(r.clat.p99Ns));
    return parts.join(QLatin1String(", "));
}

// iostat's columns of each direction that did I/O, the merge numbers with them (a merge experiment is about
// %wrqm and wareq-sz): "dm-0 w/s 1126 wrqm/s 3378 %wrqm 75.0 wareq-sz 16.0 aqu-sz 3.1 %util 99.0".
QString deviceLine(const QString &device, const IostatMetrics &m)
{
    QStringList parts { device };
    const bool reads = m[Metric::ReadsPerSec] > 0;
    const bool writes = m[Metric::WritesPerSec] > 0;
    if (reads || !writes) {
        parts << QStringLiteral("r/s %1 rrqm/s %2 %rrqm %3 rareq-sz %4")
                     .arg(humanRate(m[Metric::ReadsPerSec]), humanRate(m[Metric::ReadMergesPerSec]),
                         QString::number(m[Metric::ReadMergedPercent], 'f', 1),
                         QString::number(m[Metric::ReadRequestSize], 'f', 1));
    }
    if (writes || !reads) {
        parts << QStringLiteral("w/s %1 wrqm/s %2 %wrqm %3 wareq-sz %4")
                     .arg(humanRate(m[Metric::WritesPerSec]), humanRate(m[Metric::WriteMergesPerSec]),
                         QString::number(m[Metric::WriteMergedPercent], 'f', 1),
                         QString::number(m[Metric::WriteRequestSize], 'f', 1));
    }
    parts << QStringLiteral("aqu-sz %1 %util %2")
                 .arg(QString::number(m[Metric::AverageQueueSize], 'f', 1),
                     QString::number(m[Metric::Utilization], 'f', 1));
    return parts.join(QLatin1Char(' '));
}

void addRunOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QStringLiteral(
            "Runs fio on DEV: a built-in TEMPLATE (see --list) or a job file (--job, whose filename= should be "
            "${DMTUNE_DEVICE}). A write workload on a device that holds data (partitions, any signature libblkid "
            "recognises) needs --destroy-data-on naming the same device; the device is then held (O_EXCL) until "
            "fio ends. "
            "A device in use (mounted in any namespace, swap, held by dm, md, LIO, ZFS or an exclusive opener, a "
            "partition of a held disk, open by another process in any mode) is refused for writes. SIGINT, SIGTERM or "
            "SIGHUP stops fio (it still prints its result, "
            "the recording is closed). Exit status: 0 done, 1 refused or failed, 2 bad usage.\n")
        + consentHelp({ QStringLiteral("--destroy-data-on"), QString(), QString() }));
    parser.addPositionalArgument(
        QStringLiteral("TEMPLATE"), QStringLiteral("a template id"), QStringLiteral("[TEMPLATE]"));
    const auto value = [&](const char *name, const char *help, const char *valueName) {
        parser.addOption({ QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(valueName) });
    };
    parser.addOption({ QStringLiteral("list"), QStringLiteral("List the templates and exit.") });
    value("job", "A fio job file instead of a template.", "FILE");
    value("device", "The target: sdX, dm-N, a map name, /dev/..., MAJ:MIN.", "DEV");
    value("record", "Record the run (configuration, counters, fio progress and result) to FILE (a new file).", "FILE");
    parser.addOption({ QStringLiteral("replace"),
        QStringLiteral(
            "Replace the --record FILE if it exists (else an existing FILE is refused; a link always is).") });
    addDestroyDataOption(parser, QStringLiteral("the --device, whose contents a write workload may destroy"));
    value("runtime", "Seconds (template default 30).", "S");
    value("rw", "read, write, randread, randwrite, rw, randrw, ...", "MODE");
    value("bs", "Block size (4k, 8k, 1m, ...).", "SIZE");
    value("iodepth", "Queue depth per job.", "N");
    value("numjobs", "Number of jobs.", "N");
    value("ioengine", "libaio, io_uring, psync, ...", "ENGINE");
    parser.addOption({ QStringLiteral("batching"),
        QStringLiteral("Submit in batches (iodepth_batch_submit=16, iodepth_batch_complete_min=8).") });
    parser.addOption({ QStringLiteral("no-batching"), QStringLiteral("fio's default submission (no batching).") });
    parser.addOption({ QStringLiteral("histogram"),
        QStringLiteral(
            "Also run the block-layer latency probe (root): each watched device's latency histograms go into "
            "the recording, and their percentiles over fio's run into the summary.") });
    parser.addOption(
        { QStringLiteral("dry-run"), QStringLiteral("Print the command line and the guard's decision, run nothing.") });
    parser.addOption(
        { QStringLiteral("json"), QStringLiteral("Progress as JSON lines and the summary as one JSON object.") });
    addCommonOptions(parser);
}

int listTemplates(Streams io, bool json)
{
    if (json) {
        QJsonArray list;
        for (const FioJob &job : fioTemplates()) {
            QJsonObject o = fioJobToJson(job);
            o.insert(QStringLiteral("command"), fioCommandLine(QStringLiteral("fio"), job, QStringLiteral("/dev/DEV")));
            list.append(o);
        }
        io.out << QJsonDocument(list).toJson(QJsonDocument::Indented);
    } else {
        for (const FioJob &job : fioTemplates())
            io.out << job.id.leftJustified(26) << job.title << "\n    "
                   << fioCommandLine(QStringLiteral("fio"), job, QStringLiteral("/dev/DEV")) << '\n';
    }
    io.out.flush();
    return ExitOk;
}

// Applies --runtime, --rw, ... to a template; returns an error text or empty.
QString applyOverrides(const QCommandLineParser &parser, FioJob *job)
{
    const auto number = [&](const char *name, int *out) -> QString {
        if (!parser.isSet(QLatin1String(name)))
            return {};
        bool ok = false;
        *out = parser.value(QLatin1String(name)).toInt(&ok);
        return ok ? QString() : QStringLiteral("--%1 takes a number").arg(QLatin1String(name));
    };
    for (const auto &[name, target] : { std::pair { "runtime", &job->runtimeSeconds },
             std::pair { "iodepth", &job->iodepth }, std::pair { "numjobs", &job->numjobs } }) {
        if (const QString e = number(name, target); !e.isEmpty())
            return e;
    }
    for (const auto &[name, target] :
        { std::pair { "rw", &job->rw }, std::pair { "bs", &job->bs }, std::pair { "ioengine", &job->ioengine } }) {
        if (parser.isSet(QLatin1String(name)))
            *target = parser.value(QLatin1String(name));
    }
    if (parser.isSet(QStringLiteral("batching")))
        job->batching = true;
    if (parser.isSet(QStringLiteral("no-batching")))
        job->batching = false;
    const Status valid = validateFioJob(*job);
    return valid ? QString() : valid.errorMessage();
}

// The job from the template or job file (checked by the workload.start plan); exit code or -1.
int chooseJob(const QCommandLineParser &parser, Streams io, FioJob *job)
{
    const QStringList positional = parser.positionalArguments();
    const bool jobFile = parser.isSet(QStringLiteral("job"));
    if (jobFile == !positional.isEmpty() || positional.size() > 1)
        return usageError(io, QStringLiteral("run: give one TEMPLATE or --job FILE (see run --list)"));
    if (!jobFile) {
        const FioJob *found = fioTemplate(positional.first());
        if (!found)
            return usageError(io, QStringLiteral("run: no template '%1' (see run --list)").arg(positional.first()));
        *job = *found;
        if (const QString e = applyOverrides(parser, job); !e.isEmpty())
            return usageError(io, QStringLiteral("run: ") + e);
    } else {
        for (const char *o : { "runtime", "rw", "bs", "iodepth", "numjobs", "ioengine", "batching", "no-batching" }) {
            if (parser.isSet(QLatin1String(o)))
                return usageError(
                    io, QStringLiteral("run: --%1 applies to templates; edit the job file").arg(QLatin1String(o)));
        }
        job->id = QStringLiteral("custom");
        job->jobFile = parser.value(QStringLiteral("job"));
        job->title = job->jobFile;
    }
    return -1;
}

} // namespace

int runRun(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    addRunOptions(parser);
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    const bool json = parser.isSet(QStringLiteral("json"));
    if (parser.isSet(QStringLiteral("list")))
        return listTemplates(io, json);
    if (!parser.isSet(QStringLiteral("device")))
        return usageError(io, QStringLiteral("run: --device DEV is required"));
    const bool replaceRecording = parser.isSet(QStringLiteral("replace"));
    if (const QString record = parser.value(QStringLiteral("record")); !record.isEmpty())
        if (const QString refused = outputFileRefusal(record, replaceRecording); !refused.isEmpty())
            return fail(io, QStringLiteral("run: ") + refused);

    // Even --dry-run: its write check would probe this machine's device of the captured name.
    if (refuseCapturedTree(parser, QStringLiteral("run"), false, false, io, &exitCode))
        return exitCode;
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    const auto device = resolveDeviceSpec(sysfs, snapshot, parser.value(QStringLiteral("device")));
    if (!device)
        return fail(io, QStringLiteral("run: ") + device.errorMessage());
    const QString devicePath = QStringLiteral("/dev/") + device.value();

    FioJob job;
    if (const int code = chooseJob(parser, io, &job); code >= 0)
        return code;

    // --destroy-data-on names a device as --device does; a name that is not the --device is a mistake, said at once.
    if (parser.isSet(QStringLiteral("destroy-data-on"))) {
        const auto confirmed = resolveDeviceSpec(sysfs, snapshot, parser.value(QStringLiteral("destroy-data-on")));
        if (!confirmed || confirmed.value() != device.value())
            return usageError(io,
                QStringLiteral("run: --destroy-data-on %1 does not name the --device (%2)")
                    .arg(parser.value(QStringLiteral("destroy-data-on")), device.value()));
    }
    // run takes no --force: its risks are data risks, answered only by naming the device (ops/consent.h).
    const ConsentWays ways { QStringLiteral("--destroy-data-on"), QString(), QString() };
    const auto given = consentFromCommandLine(parser, sysfs, ways);
    if (!given)
        return usageError(io, QStringLiteral("run: ") + given.errorMessage());
    // The core's one check (ops/workloadoperations.h): the job (a job file read by fio --showcmd and frozen),
    // and for a write the guard, which holds the device (O_EXCL) from here on.
    OperationEnvironment env;
    env.sysfs = sysfs;
    const QString recordPath = parser.value(QStringLiteral("record"));
    const QJsonObject request = withWorkloadExtras(workloadRequest(job, device.value()),
        { recordPath, replaceRecording,
            parser.isSet(QStringLiteral("histogram")) ? QString::fromLatin1(WorkloadLatencyRequired) : QString() });
    const auto plan = planOperation(env, QString::fromLatin1(WorkloadStartKind), request);
    if (!plan)
        return fail(io, QStringLiteral("run: ") + plan.errorMessage());
    const PreparedWorkload *prepared = preparedWorkloadOf(plan.value());
    if (prepared->command.isEmpty()) // the job itself was refused
        return fail(io, QStringLiteral("run: ") + plan->refusals.value(0));
    const auto consent = consentFor(plan.value(), given.value(), ways);
    const bool allowed = plan->refusals.isEmpty() && consent.ok();
    const bool writes = prepared->writes;

    const auto fio = FioRun::findFio();
    if (parser.isSet(QStringLiteral("dry-run"))) {
        io.out << plan->preview << '\n';
        io.out << (allowed ? "allowed" : "refused") << (writes ? " (writes)" : " (reads only)") << '\n';
        for (const QString &reason : plan->refusals)
            io.out << "  " << reason << '\n';
        for (const OperationRisk &risk : plan->risks)
            io.out << "  " << risk.text << " (" << howToAnswer(risk, ways) << ")\n";
        io.out.flush();
        return allowed ? ExitOk : ExitFailure;
    }
    if (!allowed) {
        // One line, as every other error: the reasons, then what confirms.
        QStringList parts = plan->refusals;
        if (!consent)
            parts << consent.errorMessage();
        io.err << "dmtunectl: run: refusing to " << (writes ? "write to " : "run on ") << devicePath << ": "
               << parts.join(QLatin1String("; ")) << '\n';
        io.err.flush();
        return ExitFailure;
    }
    if (!fio)
        return fail(io, QStringLiteral("run: ") + fio.errorMessage());
    if (!json) {
        io.out << plan->preview << '\n';
        io.out.flush();
    }

    // Started as the Workloads dock starts it (OperationService::start): checked again on the state now (the
    // answers, a fresh plan and its basis: what runs is the fresh plan's frozen job), then fio on the service's own
    // thread; its events are printed as they come, its result ends the loop.
    OperationRunner operations;
    operations.setEnvironment(env);
    QStringList watched; // the started event's order: the device, then what it is built on
    const auto inWatchedOrder = [&watched](const QJsonObject &devices) {
        QStringList names;
        for (const QString &name : std::as_const(watched))
            if (devices.contains(name))
                names << name;
        for (const QString &name : devices.keys())
            if (!names.contains(name))
                names << name;
        return names;
    };
    const auto onProgress = [&](const QJsonObject &event) {
        const QString name = event.value(QLatin1String("event")).toString();
        if (name == QLatin1String("started")) {
            for (const QJsonValue &d : event.value(QLatin1String("devices")).toArray())
                watched << d.toString();
            if (!json)
                io.err << "dmtunectl: run: fio started on " << devicePath << "; SIGINT, SIGTERM or SIGHUP stops it\n";
        } else if (name == QLatin1String("output")) {
            // fio's own "fio: ..." and "note: ..." lines (they quote the job's text)
            io.err << printable(event.value(QLatin1String("line")).toString()) << '\n';
        } else if (name == QLatin1String("recording-failed")) {
            io.err << "dmtunectl: run: recording stopped: " << event.value(QLatin1String("message")).toString() << '\n';
        } else if (name == QLatin1String("note")) {
            io.err << "dmtunectl: run: " << event.value(QLatin1String("text")).toString() << '\n';
        } else if (name == QLatin1String("progress")) {
            const QJsonObject devices = event.value(QLatin1String("devices")).toObject();
            for (const QJsonValue &value : event.value(QLatin1String("rates")).toArray()) {
                if (json) {
                    QJsonObject line = value.toObject();
                    line.insert(QStringLiteral("t"), event.value(QLatin1String("t")));
                    if (event.contains(QLatin1String("devices")))
                        line.insert(QStringLiteral("devices"), devices);
                    io.out << QJsonDocument(QJsonObject { { QStringLiteral("progress"), line } })
                                  .toJson(QJsonDocument::Compact)
                           << '\n';
                } else {
                    // fio's runtime to a tenth: its status every second and its final object a fraction later are
                    // two lines, not two "[5 s]".
                    io.out << QStringLiteral("[%1 s] ").arg(
                        event.value(QLatin1String("runtime_ms")).toDouble() / 1000.0, 5, 'f', 1)
                           << ratesLine(fioRatesFromJson(value.toObject())) << '\n';
                    for (const QString &device : inWatchedOrder(devices))
                        io.out << "        " << deviceLine(device, metricsFromJson(devices.value(device).toObject()))
                               << '\n';
                }
            }
        }
        io.out.flush();
        io.err.flush();
    };
    const auto onFinished = [&](const OperationResult &result) {
        if (!result.ok) {
            fail(io, QStringLiteral("run: ") + result.error);
            QCoreApplication::exit(ExitFailure);
            return;
        }
        QJsonObject summary = result.details;
        const double windowFrom = summary.take(QLatin1String("window_from")).toDouble();
        const double windowTo = summary.take(QLatin1String("window_to")).toDouble();
        const QJsonObject histograms = summary.take(QLatin1String("latency_histograms")).toObject();
        if (json) {
            io.out << QJsonDocument(summary).toJson(QJsonDocument::Indented);
        } else {
            const QJsonObject devices = summary.value(QLatin1String("devices")).toObject();
            io.out << (summary.value(QLatin1String("stopped")).toBool() ? "stopped" : "done") << " after "
                   << QString::number(summary.value(QLatin1String("seconds")).toDouble(), 'f', 1) << " s\n";
            for (const QJsonValue &group : summary.value(QLatin1String("fio")).toArray()) {
                const FioRates r = fioRatesFromJson(group.toObject());
                io.out << "fio " << printable(r.name) << ": " << ratesLine(r) << '\n';
            }
            const auto clock = [](double epoch) {
                return QDateTime::fromMSecsSinceEpoch(qint64(epoch * 1000)).toString(QStringLiteral("HH:mm:ss.z"));
            };
            if (windowTo > windowFrom) {
                io.out << "devices over fio's "
                       << QString::number(summary.value(QLatin1String("device_seconds")).toDouble(), 'f', 1)
                       << " s of I/O (" << clock(windowFrom) << " to " << clock(windowTo) << "; counters of the "
                       << QString::number(summary.value(QLatin1String("sampled_seconds")).toDouble(), 'f', 1)
                       << " s of intervals around it):\n";
            } else {
                io.out << "devices over "
                       << QString::number(summary.value(QLatin1String("device_seconds")).toDouble(), 'f', 1)
                       << " s of intervals (fio gave no I/O window):\n";
            }
            const QStringList names = inWatchedOrder(devices);
            for (const QString &name : names)
                io.out << "  " << deviceLine(name, metricsFromJson(devices.value(name).toObject())) << '\n';
            if (!histograms.isEmpty()) {
                io.out << "latency over fio's run (block-layer probe):\n" << latencyformat::summaryHeader();
                for (const QString &name : names) {
                    const auto latency = parseDeviceLatency(histograms.value(name).toObject(), name);
                    io.out << latencyformat::summaryRows(name, latency ? latency.value() : DeviceLatency());
                }
            }
            if (const QString recorded = summary.value(QLatin1String("recording")).toString(); !recorded.isEmpty())
                io.out << "recorded to " << recorded << '\n';
        }
        io.out.flush();
        QCoreApplication::exit(ExitOk);
    };
    const QPointer<OperationRun> run
        = operations.start(plan.value(), consent.value(), &operations, onProgress, onFinished);
    SignalGuard signalGuard;
    signalGuard.onSignal(&operations, [&] {
        if (run)
            run->cancel();
    });
    return QCoreApplication::exec();
}

} // namespace dmtune::cli
