// dmtunectl diagnose: the diagnosis rules (core/diagnosis) over the maps' configuration and one measured interval.
#include "cli.h"
#include "core/util/printable.h"

#include "core/diagnosis/diagnosisreader.h"
#include "core/diagnosis/recordeddiagnosis.h"
#include "core/diagnosis/softirqstats.h"
#include "core/discovery/discovery.h"
#include "core/recordings/recordingreader.h"
#include "core/stats/sampler.h"
#include "signalguard.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace dmtune::cli {

namespace {

struct ProcReading {
    QList<CpuTimes> cpus;
    QHash<int, quint64> block;
    bool ok = false;
};

// /proc/stat and /proc/softirqs now; not ok on a capture without /proc (the softirq rule then stays quiet).
ProcReading readProc(const SysfsRoot &root)
{
    ProcReading r;
    const auto stat = root.readProc(QStringLiteral("stat"));
    const auto softirqs = root.readProc(QStringLiteral("softirqs"));
    if (!stat || !softirqs)
        return r;
    auto cpus = parseProcStatCpus(stat.value());
    auto block = parseSoftirqsRow(softirqs.value(), u"BLOCK");
    if (!cpus || !block)
        return r;
    r.cpus = cpus.value();
    r.block = block.value();
    r.ok = true;
    return r;
}

QJsonObject metricsJson(const IostatMetrics &m)
{
    QJsonObject o;
    for (const Metric metric : MetricCatalog::jsonOrder()) {
        const double v = m[metric];
        o.insert(MetricCatalog::jsonKey(metric), std::isfinite(v) ? QJsonValue(v) : QJsonValue());
    }
    return o;
}

QJsonObject mapJson(const DiagnosedMap &map)
{
    QJsonArray paths;
    for (const DiagnosedPath &p : map.paths) {
        QJsonObject o { { QStringLiteral("name"), p.name }, { QStringLiteral("group"), p.group },
            { QStringLiteral("dm_state"), p.dmState }, { QStringLiteral("queue_depth"), p.queueDepth },
            { QStringLiteral("scheduler"), p.scheduler }, { QStringLiteral("max_sectors_kb"), p.maxSectorsKb } };
        if (p.metrics)
            o.insert(QStringLiteral("metrics"), metricsJson(*p.metrics));
        paths.append(o);
    }
    QJsonObject o { { QStringLiteral("name"), map.name }, { QStringLiteral("device"), map.device },
        { QStringLiteral("request_based"), map.requestBased }, { QStringLiteral("nr_requests"), map.nrRequests },
        { QStringLiteral("max_sectors_kb"), map.maxSectorsKb }, { QStringLiteral("scheduler"), map.scheduler },
        { QStringLiteral("group_in_use"), map.groupInUse }, { QStringLiteral("selector"), map.selector },
        { QStringLiteral("queue_if_no_path"), map.queueIfNoPath }, { QStringLiteral("paths"), paths } };
    if (map.metrics)
        o.insert(QStringLiteral("metrics"), metricsJson(*map.metrics));
    return o;
}

QString numberText(const FindingNumber &n)
{
    const QString value = std::isfinite(n.value) ? QString::number(n.value, 'f', n.value == std::floor(n.value) ? 0 : 2)
                                                 : QStringLiteral("-");
    return n.unit.isEmpty() ? QStringLiteral("%1=%2").arg(n.name, value)
                            : QStringLiteral("%1=%2 %3").arg(n.name, value, n.unit);
}

void printText(const DiagnosisInput &input, const QList<Finding> &findings, QTextStream &out)
{
    const QString over
        = input.seconds > 0 ? QStringLiteral(", over %1 s: ").arg(QString::number(input.seconds, 'f', 1)) : QString();
    for (const DiagnosedMap &map : input.maps) {
        out << map.name << " (" << map.device << "): " << (map.requestBased ? "request-based" : "bio-based");
        if (map.metrics) {
            const IostatMetrics &m = *map.metrics;
            out << over
                << QStringLiteral("%1 requests/s, %2 % merged, areq-sz %3 kB, await %4 ms")
                       .arg(QString::number(iopsOf(m), 'f', 1), QString::number(mergePercentOf(m), 'f', 1),
                           QString::number(requestSizeKbOf(m), 'f', 1), QString::number(awaitOf(m), 'f', 2));
        }
        out << '\n';
    }
    for (const Finding &f : findings) {
        out << '\n'
            << findingSeverityName(f.severity) << ' ' << f.code << " (" << f.device << "): " << f.message << '\n';
        if (!f.numbers.isEmpty()) {
            QStringList numbers;
            for (const FindingNumber &n : f.numbers)
                numbers << numberText(n);
            out << "  numbers: " << numbers.join(QStringLiteral(", ")) << '\n';
        }
        out << "  source: " << f.source << '\n';
        if (f.experiment)
            out << "  experiment: " << describeSweep(*f.experiment) << "\n    " << sweepCommand(*f.experiment) << '\n';
    }
    if (findings.isEmpty())
        out << "\nno findings\n";
}

QJsonObject diagnosisJson(const DiagnosisInput &input, const QList<Finding> &findings, const QString &kernel)
{
    QJsonArray maps, list;
    for (const DiagnosedMap &map : input.maps)
        maps.append(mapJson(map));
    for (const Finding &f : findings)
        list.append(findingToJson(f));
    return { { QStringLiteral("interval_s"), input.seconds }, { QStringLiteral("kernel"), kernel },
        { QStringLiteral("maps"), maps }, { QStringLiteral("findings"), list } };
}

// The rules over what a recording remembers: no /sys, no sampler, nothing of this machine.
int diagnoseRecording(const QString &file, const QStringList &maps, bool json, Streams io)
{
    const Result<Recording> recording = readRecording(file);
    if (!recording)
        return fail(io, QStringLiteral("diagnose: %1").arg(recording.errorMessage()));
    const Result<RecordedDiagnosisInput> recorded = recordedDiagnosisInput(*recording, maps);
    if (!recorded)
        return fail(io, QStringLiteral("diagnose: %1").arg(recorded.errorMessage()));
    const DiagnosisInput &input = recorded->input;
    const QList<Finding> findings = diagnose(input);
    const auto time = [](double epoch) {
        return QDateTime::fromMSecsSinceEpoch(qint64(epoch * 1000), Qt::UTC).toString(Qt::ISODate);
    };
    if (json) {
        QJsonObject doc = diagnosisJson(input, findings, recording->meta.kernel);
        doc.insert(QStringLiteral("recording"),
            QJsonObject { { QStringLiteral("file"), file }, { QStringLiteral("title"), recording->displayName() },
                { QStringLiteral("host"), recording->meta.host }, { QStringLiteral("window"), recorded->window },
                { QStringLiteral("from"), time(recorded->from) }, { QStringLiteral("to"), time(recorded->to) } });
        io.out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
    } else {
        // The recording's strings (its title, host, map and path names) are the file's: shown as text, never as
        // terminal control sequences.
        QString text;
        QTextStream buffer(&text);
        buffer << "recording " << printable(recording->displayName()) << " (host " << printable(recording->meta.host)
               << ", kernel " << printable(recording->meta.kernel) << "): " << recorded->window << ", "
               << time(recorded->from) << " to " << time(recorded->to) << '\n';
        printText(input, findings, buffer);
        buffer.flush();
        io.out << printableLines(text);
    }
    io.out.flush();
    return ExitOk;
}

} // namespace

int runDiagnose(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Looks at multipath maps (and native NVMe heads): their configuration, and their and their paths' iostat "
        "numbers over one interval, and says what the rules find, with the numbers, where the knowledge comes from, "
        "and the experiment that tests it. Reads only; writes nothing. See docs/diagnosis.md."));
    parser.addPositionalArgument(QStringLiteral("DEV"),
        QStringLiteral("a map (mpatha, dm-0) or an NVMe head; default: all"), QStringLiteral("[DEV...]"));
    parser.addOption({ { QStringLiteral("i"), QStringLiteral("interval") },
        QStringLiteral("Seconds to measure, 0.1 to 60 (default 5); 0: configuration only."),
        QStringLiteral("SECONDS") });
    parser.addOption({ QStringLiteral("recording"),
        QStringLiteral("Diagnose a recording instead (dmtunectl run --record, sweep --record-dir): the configuration "
                       "it remembers and its numbers over fio's I/O window."),
        QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("json"), QStringLiteral("One JSON object: maps[], findings[].") });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    if (parser.isSet(QStringLiteral("recording"))) {
        if (parser.isSet(QStringLiteral("interval")) || parser.isSet(QStringLiteral("sysfs-root")))
            return usageError(io, QStringLiteral("diagnose: --recording takes neither -i nor --sysfs-root"));
        return diagnoseRecording(parser.value(QStringLiteral("recording")), parser.positionalArguments(),
            parser.isSet(QStringLiteral("json")), io);
    }

    int intervalMs = 5000;
    if (parser.isSet(QStringLiteral("interval"))) {
        bool ok = false;
        const double ms = std::round(parser.value(QStringLiteral("interval")).toDouble(&ok) * 1000);
        if (!ok || !(ms == 0 || (ms >= Sampler::MinIntervalMs && ms <= Sampler::MaxIntervalMs)))
            return usageError(io, QStringLiteral("diagnose: -i takes 0, or seconds from 0.1 to 60"));
        intervalMs = int(ms);
    }
    const SysfsRoot root = sysfsRootFrom(parser);
    if (!root.isDir(QStringLiteral("block")))
        return fail(io, QStringLiteral("diagnose: %1: no block directory").arg(root.path(QStringLiteral("block"))));
    const DeviceSnapshot snapshot = Discovery::scan(root);
    const QStringList wanted = parser.positionalArguments();
    for (const QString &name : wanted) {
        const MultipathMap *map = snapshot.map(name);
        if (!map && !snapshot.nvmeHead(name))
            return hostLacks(io,
                QStringLiteral(
                    "diagnose: '%1' is not a multipath map or a native NVMe head here (dmtunectl list shows them)")
                    .arg(name));
    }
    QStringList devices;
    for (const QString &name : wanted)
        devices << (snapshot.map(name) ? snapshot.map(name)->device : name);
    DiagnosisInput input = readDiagnosisInput(root, snapshot, devices);
    if (input.maps.isEmpty() && snapshot.nvmeMultipath.isEmpty())
        return fail(io, QStringLiteral("diagnose: no multipath map or native NVMe head here"));

    const auto report = [&] {
        const QList<Finding> findings = diagnose(input);
        if (parser.isSet(QStringLiteral("json"))) {
            io.out << QJsonDocument(diagnosisJson(input, findings, snapshot.kernelRelease))
                          .toJson(QJsonDocument::Indented);
        } else {
            printText(input, findings, io.out);
        }
        io.out.flush();
    };
    const QStringList watched = diagnosedDeviceNames(input);
    if (intervalMs == 0 || watched.isEmpty()) {
        report();
        return ExitOk;
    }

    Sampler sampler(root);
    sampler.setWatched(watched);
    sampler.setInterval(intervalMs);
    const ProcReading before = readProc(root);
    bool finished = false;
    const auto finish = [&](int code) {
        if (finished)
            return;
        finished = true;
        exitCode = code;
        QObject::disconnect(&sampler, nullptr, nullptr, nullptr);
        sampler.stop();
        QCoreApplication::exit(code);
    };
    QObject::connect(&sampler, &Sampler::samplesAvailable, [&](const SampleBatch &batch) {
        QHash<QString, IostatMetrics> metrics;
        for (const DeviceSample &d : batch.devices)
            metrics.insert(d.name(), d.metrics(batch.elapsedSeconds));
        attachMetrics(&input, metrics, batch.elapsedSeconds);
        if (const ProcReading after = readProc(root); before.ok && after.ok)
            input.cpus = softirqLoad(before.cpus, after.cpus, before.block, after.block, batch.elapsedSeconds);
        report();
        finish(ExitOk);
    });
    QObject::connect(&sampler, &Sampler::samplingFailed, [&](const QString &message) {
        io.err << "dmtunectl: diagnose: " << message << '\n';
        finish(ExitFailure);
    });
    SignalGuard signalGuard; // Ctrl+C before the interval ends: nothing measured, nothing said
    signalGuard.onSignal(&sampler, [&] { finish(ExitFailure); });
    if (!parser.isSet(QStringLiteral("json"))) {
        io.err << "dmtunectl: diagnose: measuring for " << QString::number(intervalMs / 1000.0, 'f', 1) << " s\n";
        io.err.flush();
    }
    sampler.start();
    if (!finished)
        QCoreApplication::exec();
    return exitCode;
}

} // namespace dmtune::cli
