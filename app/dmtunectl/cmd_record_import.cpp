// dmtunectl record import: a PCP archive (or a span of it) as a dmtune recording, for record show, report and
// the GUI's recording and comparison views.
#include "cli.h"

#include "core/metrics/pcpsource.h"
#include "core/metrics/sourcerecording.h"

#include <QFileInfo>

#include <cmath>

namespace dmtune::cli {

int runRecordImport(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Write a PCP archive's disk counters (or the span between --start and --finish) as a dmtune recording: "
        "each interval between two of the archive's samples (or every -i seconds, interpolated) is a batch of "
        "DEV... (default: every disk and map in it)."));
    parser.addPositionalArgument(
        QStringLiteral("DEV"), QStringLiteral("a disk or map as the archive names it"), QStringLiteral("[DEV...]"));
    parser.addOption({ QStringLiteral("pcp-archive"), QStringLiteral("The pmlogger archive (base name or directory)."),
        QStringLiteral("PATH") });
    parser.addOption(
        { QStringLiteral("start"), QStringLiteral("Where to start, in PCP's -S syntax."), QStringLiteral("TIME") });
    parser.addOption(
        { QStringLiteral("finish"), QStringLiteral("Where to stop, in PCP's -T syntax."), QStringLiteral("TIME") });
    parser.addOption({ { QStringLiteral("i"), QStringLiteral("interval") },
        QStringLiteral("Interpolate every SECONDS (0.1 to 3600) instead of the archive's own samples."),
        QStringLiteral("SECONDS") });
    parser.addOption({ { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("The recording to write (a new file)."), QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("replace"),
        QStringLiteral("Replace the -o FILE if it exists, once the new one is complete (a link is always refused).") });
    parser.addOption({ QStringLiteral("title"), QStringLiteral("The recording's title."), QStringLiteral("TEXT") });
    parser.addHelpOption();
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    if (!parser.isSet(QStringLiteral("pcp-archive")) || parser.value(QStringLiteral("pcp-archive")).isEmpty())
        return usageError(io, QStringLiteral("record import: --pcp-archive PATH is required"));
    if (!parser.isSet(QStringLiteral("output")) || parser.value(QStringLiteral("output")).isEmpty())
        return usageError(io, QStringLiteral("record import: -o FILE is required"));
    const bool replace = parser.isSet(QStringLiteral("replace"));
    if (const QString refused = outputFileRefusal(parser.value(QStringLiteral("output")), replace); !refused.isEmpty())
        return fail(io, QStringLiteral("record import: ") + refused);
    PcpArchiveWindow window { parser.value(QStringLiteral("start")), parser.value(QStringLiteral("finish")), 0 };
    if (parser.isSet(QStringLiteral("interval"))) {
        bool ok = false;
        const double ms = std::round(parser.value(QStringLiteral("interval")).toDouble(&ok) * 1000);
        if (!ok || !(ms >= 100 && ms <= 3'600'000))
            return usageError(io, QStringLiteral("record import: -i takes seconds from 0.1 to 3600"));
        window.interpolateMs = int(ms);
    }
    const QString archive = parser.value(QStringLiteral("pcp-archive"));
    auto source = PcpSource::openArchive(archive, window);
    if (!source)
        return fail(io, QStringLiteral("record import: ") + source.errorMessage());
    QString title = parser.value(QStringLiteral("title"));
    if (title.isEmpty())
        title = QStringLiteral("%1 (PCP archive %2)").arg(source.value()->hostName(), QFileInfo(archive).fileName());
    const auto written = recordFromSource(*source.value(), parser.positionalArguments(),
        parser.value(QStringLiteral("output")), title, existingFileFor(replace));
    if (!written)
        return fail(io, QStringLiteral("record import: ") + written.errorMessage());
    io.out << written->path << ": " << written->batches << " intervals of " << written->devices.join(u' ') << " from "
           << source.value()->description();
    if (written->gaps > 0)
        io.out << "; " << written->gaps << " gaps (pmlogger restarts)";
    io.out << '\n';
    return ExitOk;
}

} // namespace dmtune::cli
