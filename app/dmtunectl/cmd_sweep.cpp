// dmtunectl sweep: one or two tunables over lists of values, times fio workloads, each point measured (fio and
// iostat -x of the device and its paths), the original values restored however it ends. The sweep is one core
// operation (experiments/sweepoperation.h): planned, answered once by the consent model (ops/consent.h:
// --destroy-data-on for a data risk, --force for an availability risk), started through an OperationRunner
// (OperationService::start, as the Experiment tab starts it): progress events printed as they come.
#include "cli.h"
#include "signalguard.h"

#include "core/discovery/discovery.h"
#include "core/experiments/sweeprunner.h"
#include "core/ops/operationrunner.h"
#include "core/params/deviceresolver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>

namespace dmtune::cli {

namespace {

void addSweepOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QStringLiteral(
            "Runs fio on DEV at every combination of the values of one or two tunables (--param, twice at most), for "
            "each workload (TEMPLATE, see 'run --list', or --job FILE; both may repeat), --repeat times per point. "
            "Each point's values are written as one transaction, checked again on the state at its turn; after "
            "--settle seconds fio runs, and the device (with its paths) is measured over fio's own I/O window. "
            "The original values are restored when the sweep ends, fails or is stopped (SIGINT, SIGTERM, SIGHUP). "
            "A write workload on a device that holds data, and a value that puts data at risk (write_cache=write "
            "through on a volatile cache), need --destroy-data-on DEV; a selector reload that risks I/O errors needs "
            "--force. The device is held (O_EXCL) for the whole sweep. "
            "Exit status: 0 done, 1 refused, failed or stopped, 2 bad usage.\n")
        + consentHelp(ConsentWays()));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("a device or map (sdX, dm-N, mpatha, ...)"));
    parser.addPositionalArgument(
        QStringLiteral("TEMPLATE"), QStringLiteral("workload template id(s)"), QStringLiteral("[TEMPLATE...]"));
    const auto value = [&](const char *name, const char *help, const char *valueName) {
        parser.addOption({ QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(valueName) });
    };
    value("param",
        "A tunable and its values: queue_depth=2,8,32, or a map's path selector (table reload): "
        "selector=round-robin,service-time (at most twice).",
        "ATTR=V1,V2");
    parser.addOption({ QStringLiteral("with-paths"), QStringLiteral("Write the values on a map's paths too.") });
    value("job", "A fio job file (its filename= should be ${DMTUNE_DEVICE}); may repeat.", "FILE");
    value("repeat", "Runs per point (default 1); the results give the mean and the spread.", "N");
    value("runtime", "Seconds of I/O per run, for templates (default: the template's).", "S");
    value("warmup", "Seconds of I/O before measuring, for templates (fio's ramp_time; default 0).", "S");
    value("settle", "Seconds between writing a point's values and starting fio (default 1).", "S");
    value("record-dir", "Record every run to DIR/point-NN-repeat-R.dmrec (DIR is created).", "DIR");
    addDestroyDataOption(parser, QStringLiteral("DEV, whose contents the workloads or the values may destroy"));
    value("open", "Print the results of an earlier sweep from its --record-dir (its sweep.json); runs nothing.", "DIR");
    addForceOption(parser, QStringLiteral("a selector reload that may fail I/O"));
    parser.addOption({ QStringLiteral("dry-run"), QStringLiteral("Print the plan, run nothing.") });
    parser.addOption({ QStringLiteral("json"), QStringLiteral("The results as one JSON object.") });
    parser.addOption({ QStringLiteral("csv"), QStringLiteral("The results as CSV, one row per number.") });
    addCommonOptions(parser);
}

int wholeNumberOption(
    const QCommandLineParser &parser, const char *name, int fallback, int minimum, Streams io, int *out)
{
    *out = fallback;
    if (!parser.isSet(QLatin1String(name)))
        return -1;
    bool ok = false;
    *out = parser.value(QLatin1String(name)).toInt(&ok);
    if (!ok || *out < minimum)
        return usageError(io,
            QStringLiteral("sweep: --%1 takes a whole number of at least %2").arg(QLatin1String(name)).arg(minimum));
    return -1;
}

// The request from the command line; an exit code, or -1.
int readRequest(const QCommandLineParser &parser, Streams io, SweepRequest *request)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(io, QStringLiteral("sweep: give DEV"));
    request->device = positional.first();
    request->withPaths = parser.isSet(QStringLiteral("with-paths"));
    const QStringList params = parser.values(QStringLiteral("param"));
    if (params.isEmpty() || params.size() > MaxSweepParameters)
        return usageError(io, QStringLiteral("sweep: give one or two --param ATTR=V1,V2,..."));
    for (const QString &text : params) {
        const auto parameter = parseSweepParameter(text);
        if (!parameter)
            return usageError(io, QStringLiteral("sweep: ") + parameter.errorMessage());
        request->parameters.append(parameter.value());
    }
    int runtime = 0;
    for (const auto &[name, fallback, minimum, target] : { std::tuple { "repeat", 1, 1, &request->repeats },
             std::tuple { "runtime", 0, 1, &runtime }, std::tuple { "warmup", 0, 0, &request->warmupSeconds },
             std::tuple { "settle", 1, 0, &request->settleSeconds } }) {
        if (const int code = wholeNumberOption(parser, name, fallback, minimum, io, target); code >= 0)
            return code;
    }
    for (const QString &id : positional.mid(1)) {
        const FioJob *found = fioTemplate(id);
        if (!found)
            return usageError(io, QStringLiteral("sweep: no template '%1' (see run --list)").arg(id));
        FioJob job = *found;
        if (runtime > 0)
            job.runtimeSeconds = runtime;
        request->workloads.append(job);
    }
    for (const QString &file : parser.values(QStringLiteral("job"))) {
        FioJob job;
        job.id = QStringLiteral("custom");
        job.jobFile = QFileInfo(file).absoluteFilePath();
        job.title = file;
        request->workloads.append(job);
    }
    if (request->workloads.isEmpty())
        return usageError(io, QStringLiteral("sweep: give a workload: TEMPLATE (see run --list) or --job FILE"));
    if (parser.isSet(QStringLiteral("record-dir"))) {
        request->recordDir = QFileInfo(parser.value(QStringLiteral("record-dir"))).absoluteFilePath();
        // Refused before any device is looked at: a link (dangling or not) is never the directory written into.
        if (QFileInfo(request->recordDir).isSymLink())
            return fail(io,
                QStringLiteral("sweep: %1 is a symbolic link (not followed): --record-dir is a new or empty directory")
                    .arg(parser.value(QStringLiteral("record-dir"))));
    }
    if (const Status valid = validateSweepRequest(*request); !valid)
        return usageError(io, valid.errorMessage());
    return -1;
}

QString number(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

// "1126 ±12"
QString withSpread(const QJsonObject &mean, const QJsonObject &spread, const QString &key, int decimals)
{
    const double sd = spread.value(key).toDouble();
    return number(mean.value(key).toDouble(), decimals)
        + (sd > 0 ? QStringLiteral(" ±") + number(sd, decimals) : QString());
}

void printResults(QTextStream &out, const SweepRequest &request, const QList<SweepPointResult> &results)
{
    for (const SweepPointResult &r : results) {
        out << "point " << r.point.index + 1 << ": " << sweepPointLabel(request, r.point) << " (" << r.repeats
            << (r.repeats == 1 ? " run" : " runs, mean ±sd") << ")\n";
        const QJsonObject &f = r.fio;
        out << "  fio     IOPS " << withSpread(f, r.fioSpread, QStringLiteral("read_iops"), 0) << " r / "
            << withSpread(f, r.fioSpread, QStringLiteral("write_iops"), 0) << " w, MiB/s "
            << number((f.value(QLatin1String("read_bytes_per_second")).toDouble()
                          + f.value(QLatin1String("write_bytes_per_second")).toDouble())
                       / (1024.0 * 1024.0),
                   1)
            << ", clat p50 " << withSpread(f, r.fioSpread, QStringLiteral("clat_p50_us"), 0) << " us, p99 "
            << withSpread(f, r.fioSpread, QStringLiteral("clat_p99_us"), 0) << " us\n";
        int idle = 0;
        for (auto it = r.devices.begin(); it != r.devices.end(); ++it) {
            const QJsonObject m = it.value().toObject();
            const QJsonObject sd = r.devicesSpread.value(it.key()).toObject();
            const bool reads = m.value(QLatin1String("r/s")).toDouble() > 0;
            const bool writes = m.value(QLatin1String("w/s")).toDouble() > 0;
            if (!reads && !writes) {
                ++idle;
                continue;
            }
            out << "  " << it.key().leftJustified(7);
            for (const auto &[on, d] : { std::pair { reads, 'r' }, std::pair { writes, 'w' } }) {
                if (!on)
                    continue;
                const char direction = d; // a copy: clang (tidy) cannot capture a structured binding
                const auto key
                    = [direction](const char *suffix) { return QLatin1Char(direction) + QLatin1String(suffix); };
                out << ' ' << key("/s") << ' ' << withSpread(m, sd, key("/s"), 0) << ' ' << key("rqm/s") << ' '
                    << withSpread(m, sd, key("rqm/s"), 0) << " %" << key("rqm") << ' '
                    << withSpread(m, sd, key("rqm"), 1) << ' ' << key("areq-sz") << ' '
                    << withSpread(m, sd, key("areq-sz"), 1) << ' ' << key("_await") << ' '
                    << withSpread(m, sd, key("_await"), 2);
            }
            out << " aqu-sz " << withSpread(m, sd, QStringLiteral("aqu-sz"), 1) << " %util "
                << withSpread(m, sd, QStringLiteral("util"), 1) << '\n';
        }
        if (idle > 0)
            out << "  (" << counted(idle, QStringLiteral("device")) << " without I/O)\n";
    }
}

void printOutcome(
    Streams io, const QCommandLineParser &parser, const SweepRequest &request, const SweepOutcome &outcome)
{
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(sweepResultsToJson(request, outcome)).toJson(QJsonDocument::Indented);
    else if (parser.isSet(QStringLiteral("csv")))
        io.out << sweepResultsCsv(request, outcome.results);
    else
        printResults(io.out, request, outcome.results);
    io.out.flush();
}

// --open DIR: an earlier sweep's results, computed again from the runs its sweep.json lists.
int openSweep(const QCommandLineParser &parser, Streams io)
{
    if (!parser.positionalArguments().isEmpty() || parser.isSet(QStringLiteral("param")))
        return usageError(io, QStringLiteral("sweep: --open DIR takes no device, parameter or workload"));
    const auto manifest = readSweepManifestFile(parser.value(QStringLiteral("open")));
    if (!manifest)
        return fail(io, QStringLiteral("sweep: ") + manifest.errorMessage());
    printOutcome(io, parser, manifest->request, manifest->outcome);
    if (!parser.isSet(QStringLiteral("json"))) {
        for (const QString &line : manifest->outcome.restored)
            io.err << "restored: " << line << '\n';
        if (manifest->outcome.stopped)
            io.err << "the sweep was stopped\n";
        if (!manifest->outcome.status)
            io.err << "the sweep failed: " << manifest->outcome.status.errorMessage() << '\n';
        io.err.flush();
    }
    return ExitOk;
}

} // namespace

int runSweep(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    addSweepOptions(parser);
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("csv")))
        return usageError(io, QStringLiteral("sweep: --json or --csv, not both"));
    if (parser.isSet(QStringLiteral("open")))
        return openSweep(parser, io);
    SweepRequest request;
    if (const int code = readRequest(parser, io, &request); code >= 0)
        return code;
    // Even --dry-run: its write check would probe this machine's device of the captured name.
    if (refuseCapturedTree(parser, QStringLiteral("sweep"), false, false, io, &exitCode))
        return exitCode;

    OperationEnvironment env;
    env.sysfs = sysfsRootFrom(parser);
    const auto plan = planOperation(env, QString::fromLatin1(ExperimentSweepKind), sweepRequestToJson(request));
    if (!plan)
        return fail(io, plan.errorMessage());
    const PreparedSweep *prepared = preparedSweepOf(plan.value());
    request = prepared->request; // the device as a kernel name

    // The consent model decides (ops/consent.h): --destroy-data-on answers the data risks of the device it names,
    // --force only the availability risks. A name that is not the sweep's device is a mistake, said at once.
    if (parser.isSet(QStringLiteral("destroy-data-on"))) {
        const QString named = parser.value(QStringLiteral("destroy-data-on"));
        const auto resolved = resolveDeviceSpec(env.sysfs, Discovery::scan(env.sysfs), named);
        if (!resolved || resolved.value() != request.device)
            return usageError(io,
                QStringLiteral("sweep: --destroy-data-on %1 does not name the device (%2)").arg(named, request.device));
    }
    const ConsentWays ways;
    const auto given = consentFromCommandLine(parser, env.sysfs, ways);
    if (!given)
        return usageError(io, QStringLiteral("sweep: ") + given.errorMessage());
    const auto consent = consentFor(plan.value(), given.value(), ways);
    if (dryRun) {
        io.out << plan->summary << '\n';
        for (const QString &step : plan->steps)
            io.out << "  " << step << '\n';
        io.out << plan->preview << '\n';
        for (const QString &note : plan->notes)
            io.out << "note: " << note << '\n';
        for (const QString &refusal : plan->refusals)
            io.out << "refused: " << refusal << '\n';
        for (const OperationRisk &risk : plan->risks)
            io.out << "risk: " << risk.text << " (" << howToAnswer(risk, ways) << ")\n";
        io.out.flush();
        // As the run would decide: a refusal, or a risk left unanswered, is exit 1 with the line that says why.
        if (!plan->refusals.isEmpty())
            return ExitFailure;
        if (!consent)
            return fail(io, QStringLiteral("sweep: ") + consent.errorMessage());
        return ExitOk;
    }
    if (!plan->refusals.isEmpty())
        return fail(io, QStringLiteral("sweep: refused: ") + plan->refusals.join(QLatin1String("; ")));
    if (!consent)
        return fail(io, QStringLiteral("sweep: ") + consent.errorMessage());
    // Started as the GUI starts it (OperationService::start): the checks again on the state now (fio, the record
    // directory, the answers, a fresh plan, its basis), then the sweep on the service's own thread; its progress
    // events are printed as they come, its result ends the loop.
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool csv = parser.isSet(QStringLiteral("csv"));
    QTextStream &progress = json || csv ? io.err : io.out;
    OperationRunner operations;
    operations.setEnvironment(env);
    bool started = false;
    const auto onProgress = [&](const QJsonObject &event) {
        const QString name = event.value(QLatin1String("event")).toString();
        if (name == QLatin1String("started")) {
            started = true;
            progress << plan->summary << '\n';
        } else if (name == QLatin1String("point")) {
            progress << "point " << event.value(QLatin1String("point")).toInt() << '/'
                     << event.value(QLatin1String("points")).toInt() << ": "
                     << event.value(QLatin1String("label")).toString() << '\n';
            for (const QJsonValue &c : event.value(QLatin1String("changes")).toArray())
                progress << "  " << c.toString() << '\n';
        } else if (name == QLatin1String("run")) {
            const SweepMeasurement m = sweepMeasurementFromJson(event.value(QLatin1String("run")).toObject());
            progress << "  run " << m.repeat << ": "
                     << number(m.fio.value(QLatin1String("read_iops")).toDouble()
                                + m.fio.value(QLatin1String("write_iops")).toDouble(),
                            0)
                     << " IOPS";
            const QJsonObject device = m.devices.value(request.device).toObject();
            if (!device.isEmpty())
                progress << ", " << request.device << " %wrqm "
                         << number(device.value(QLatin1String("wrqm")).toDouble(), 1) << " %rrqm "
                         << number(device.value(QLatin1String("rrqm")).toDouble(), 1);
            if (!m.recording.isEmpty())
                progress << ", recorded to " << m.recording;
            progress << '\n';
        } else if (name == QLatin1String("output")) {
            io.err << event.value(QLatin1String("line")).toString() << '\n';
            io.err.flush();
        }
        progress.flush();
    };
    const auto onFinished = [&](const OperationResult &result) {
        const auto sweep = sweepOutcomeOf(result);
        if (!started || !sweep) { // refused before it began: nothing was written
            fail(io, QStringLiteral("sweep: ") + result.error);
            QCoreApplication::exit(ExitFailure);
            return;
        }
        const SweepOutcome &outcome = sweep->outcome;
        printOutcome(io, parser, request, outcome);
        if (!outcome.manifestError.isEmpty())
            fail(io, QStringLiteral("sweep: results not saved next to the recordings: ") + outcome.manifestError);
        for (const QString &line : outcome.restored)
            progress << "restored: " << line << '\n';
        progress.flush();
        for (const QString &e : outcome.restoreErrors)
            fail(io, QStringLiteral("sweep: not restored: ") + e);
        if (!outcome.status || outcome.stopped)
            fail(io, QStringLiteral("sweep: ") + result.error);
        QCoreApplication::exit(result.ok ? ExitOk : ExitFailure);
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
