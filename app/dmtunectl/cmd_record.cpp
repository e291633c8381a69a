// dmtunectl record show REC [--json]: what a recording holds, and its per-device statistics over the workload.
#include "cli.h"
#include "core/util/printable.h"

#include "core/latency/latencyformat.h"
#include "core/recordings/comparison.h"
#include "core/recordings/fiosummary.h"
#include "core/recordings/recordedlatency.h"
#include "core/recordings/recordingreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace dmtune::cli {

namespace {

QJsonObject recordingJson(const Recording &rec, const Comparison &stats)
{
    QJsonArray markers;
    for (const RecordedEvent &m : rec.markers)
        markers.append(QJsonObject { { QStringLiteral("t"), m.time }, { QStringLiteral("label"), m.text } });
    QJsonArray notes;
    for (const RecordedEvent &n : rec.notes)
        notes.append(QJsonObject { { QStringLiteral("t"), n.time }, { QStringLiteral("text"), n.text } });
    QJsonArray fio;
    for (const RecordedFioResult &f : rec.fioResults) {
        QJsonArray rows;
        for (const FioDirectionSummary &s : summarizeFioResult(f.result))
            rows.append(QJsonObject { { QStringLiteral("job"), s.job }, { QStringLiteral("direction"), s.direction },
                { QStringLiteral("iops"), s.iops }, { QStringLiteral("bw_kib"), s.bandwidthKiB },
                { QStringLiteral("clat_mean_us"), s.clatMeanUs }, { QStringLiteral("clat_p99_us"), s.clatP99Us } });
        fio.append(QJsonObject {
            { QStringLiteral("argv"), QJsonArray::fromStringList(f.argv) }, { QStringLiteral("summary"), rows } });
    }
    QJsonObject devices;
    for (const ComparisonRow &row : stats.rows) {
        if (!row.stats.value(0))
            continue;
        const MetricStats &s = *row.stats[0];
        QJsonObject d = devices.value(row.slot).toObject();
        d.insert(MetricCatalog::jsonKey(row.metric),
            QJsonObject { { QStringLiteral("mean"), s.mean }, { QStringLiteral("p50"), s.p50 },
                { QStringLiteral("p95"), s.p95 }, { QStringLiteral("max"), s.max },
                { QStringLiteral("intervals"), s.count } });
        devices.insert(row.slot, d);
    }
    QJsonObject latency;
    const QHash<QString, DeviceLatency> latencies = workloadLatency(rec);
    for (const QString &name : rec.deviceNames()) {
        if (const auto l = latencies.constFind(name); l != latencies.constEnd())
            latency.insert(name, latencyformat::summaryJson(*l));
    }
    return {
        { QStringLiteral("file"), rec.path },
        { QStringLiteral("format_version"), rec.formatVersion },
        { QStringLiteral("title"), rec.meta.title },
        { QStringLiteral("host"), rec.meta.host },
        { QStringLiteral("kernel"), rec.meta.kernel },
        { QStringLiteral("start"), rec.startSeconds() },
        { QStringLiteral("end"), rec.endSeconds() },
        { QStringLiteral("workload_start"), rec.alignSeconds() },
        { QStringLiteral("workload_end"), rec.workloadEndSeconds() },
        { QStringLiteral("interval_s"), rec.meta.intervalSeconds },
        { QStringLiteral("devices"), QJsonArray::fromStringList(rec.deviceNames()) },
        { QStringLiteral("batches"), double(rec.batches.size()) },
        { QStringLiteral("device_samples"), double(rec.deviceSamples) },
        { QStringLiteral("bytes"), double(rec.fileBytes) },
        { QStringLiteral("bytes_per_device_sample"), rec.bytesPerDeviceSample() },
        { QStringLiteral("sample_bytes_per_device_sample"), rec.sampleBytesPerDeviceSample() },
        { QStringLiteral("complete"), rec.complete },
        { QStringLiteral("truncated"), rec.truncated ? QJsonValue(rec.truncation) : QJsonValue(false) },
        { QStringLiteral("markers"), markers },
        { QStringLiteral("notes"), notes },
        { QStringLiteral("fio"), fio },
        { QStringLiteral("workload_stats"), devices },
        { QStringLiteral("workload_latency"), latency },
        { QStringLiteral("configuration"), rec.meta.configuration },
    };
}

void printText(const Recording &rec, const Comparison &stats, QTextStream &out)
{
    // Every string of the file is the file's: printable() shows a newline or an escape sequence in it as text.
    out << printable(rec.displayName()) << " (" << printable(rec.path) << ", format v" << rec.formatVersion << ")\n";
    out << "  host " << printable(rec.meta.host) << ", kernel " << printable(rec.meta.kernel) << '\n';
    out << "  " << QDateTime::fromMSecsSinceEpoch(qint64(rec.startSeconds() * 1000), Qt::UTC).toString(Qt::ISODate)
        << ", " << QString::number(rec.endSeconds() - rec.startSeconds(), 'f', 1) << " s at "
        << rec.meta.intervalSeconds << " s\n";
    out << "  devices: " << printable(rec.deviceNames().join(QStringLiteral(", "))) << '\n';
    out << "  " << rec.batches.size() << " batches, " << rec.deviceSamples << " device-samples, " << rec.fileBytes
        << " bytes (" << QString::number(rec.sampleBytesPerDeviceSample(), 'f', 1)
        << " per device-sample in sample frames, " << QString::number(rec.bytesPerDeviceSample(), 'f', 1)
        << " with the header)"
        << (rec.complete           ? ""
                   : rec.truncated ? ", TRUNCATED"
                                   : ", not finished")
        << '\n';
    for (const RecordedEvent &m : rec.markers)
        out << "  marker +" << QString::number(m.time - rec.startSeconds(), 'f', 1) << " s: " << printable(m.text)
            << '\n';
    for (const RecordedEvent &n : rec.notes)
        out << "  note +" << QString::number(n.time - rec.startSeconds(), 'f', 1) << " s: " << printable(n.text)
            << '\n';
    for (const RecordedFioResult &f : rec.fioResults) {
        out << "  fio: " << printable(shellCommandLine(f.argv)) << '\n';
        for (const FioDirectionSummary &s : summarizeFioResult(f.result))
            out << "    " << printable(s.job) << ' ' << printable(s.direction) << ": "
                << QString::number(s.iops, 'f', 0) << " IOPS, " << QString::number(s.bandwidthKiB, 'f', 0)
                << " KiB/s, clat mean " << QString::number(s.clatMeanUs, 'f', 1) << " us, p99 "
                << QString::number(s.clatP99Us, 'f', 1) << " us\n";
    }
    out << "  workload statistics (mean / p50 / p95 / max):\n";
    for (const ComparisonRow &row : stats.rows) {
        if (const auto &s = row.stats.value(0)) {
            out << "    " << printable(row.slot).leftJustified(8) << ' '
                << MetricCatalog::column(row.metric).leftJustified(11) << QString::number(s->mean, 'f', 2) << " / "
                << QString::number(s->p50, 'f', 2) << " / " << QString::number(s->p95, 'f', 2) << " / "
                << QString::number(s->max, 'f', 2) << '\n';
        }
    }
    const QHash<QString, DeviceLatency> latencies = workloadLatency(rec);
    if (latencies.isEmpty())
        return;
    out << "  workload latency (block-layer probe, us):\n    " << latencyformat::summaryHeader();
    for (const QString &name : rec.deviceNames()) {
        if (const auto l = latencies.constFind(name); l != latencies.constEnd())
            out << "    "
                << latencyformat::summaryRows(printable(name), *l).replace(u'\n', QStringLiteral("\n    ")).chopped(4);
    }
}

} // namespace

int runRecord(const QStringList &args, Streams io)
{
    if (args.value(1) == QLatin1String("import")) {
        io.command = QStringLiteral("record import");
        return runRecordImport(args.mid(1), io);
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Inspect a recording: dmtunectl record show REC [--json]; a PCP archive as one: "
                       "dmtunectl record import --pcp-archive PATH -o FILE"));
    parser.addPositionalArgument(QStringLiteral("show"), QStringLiteral("the subcommand"));
    parser.addPositionalArgument(QStringLiteral("REC"), QStringLiteral("a recording file"));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("JSON output (with the configuration snapshot).") });
    parser.addHelpOption();
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 2 || pos[0] != QLatin1String("show")) // parse() took args[0], "record", as the program
        return usageError(io, QStringLiteral("usage: dmtunectl record show REC [--json]"));
    const Result<Recording> rec = readRecording(pos[1]);
    if (!rec)
        return fail(io, rec.errorMessage());
    // Every metric, zeros too: "no merges on the paths" is a result.
    const Comparison stats = compareRecordings({ rec.value() }, {}, MetricCatalog::all());
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(recordingJson(rec.value(), stats)).toJson(QJsonDocument::Indented);
    else
        printText(rec.value(), stats, io.out);
    return ExitOk;
}

} // namespace dmtune::cli
