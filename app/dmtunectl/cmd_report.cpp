// dmtunectl report REC... --out FILE.html|FILE.pdf: the report of widgets/reports, rendered off screen.
// Built into dmtune-report (report_main.cpp), which dmtunectl runs: the CLI itself stays free of the GUI libraries.
#include "cli.h"

#include "core/recordings/recordingreader.h"
#include "widgets/reports/report.h"
#include "widgets/reports/sweepreport.h"

namespace dmtune::cli {

int runReport(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Report on one or more recordings (dmtunectl run --record): host, kernel, configuration and its diff, "
        "charts aligned at the workload start, summary statistics with deltas against the first recording, "
        "fio command lines and results, metric formulas. .html is self-contained (charts embedded); .pdf is laid "
        "out for A4 or US Letter (--paper), every chart at the printable width."));
    parser.addPositionalArgument(QStringLiteral("REC"), QStringLiteral("recording files"), QStringLiteral("REC..."));
    parser.addOption({ QStringLiteral("sweep"),
        QStringLiteral("Report on a sweep instead (its --record-dir): the results per point with their spread, charts "
                       "of the main metrics against the swept value, then the recordings of its points."),
        QStringLiteral("DIR") });
    parser.addOption({ { QStringLiteral("o"), QStringLiteral("out") },
        QStringLiteral("Write the report here (.html or .pdf; a new file)."), QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("replace"),
        QStringLiteral("Replace the --out FILE if it exists (else an existing FILE is refused; a link always is).") });
    parser.addOption({ QStringLiteral("paper"),
        QStringLiteral("Paper of a .pdf: a4 or letter (default: %1, from the locale).")
            .arg(reportPaperName(defaultReportPaper()).toLower()),
        QStringLiteral("SIZE") });
    parser.addHelpOption();
    int exitCode = ExitOk;
    if (!parseOrUsage(parser, args, io, &exitCode))
        return exitCode;
    const QStringList files = parser.positionalArguments(); // parse() took args[0], "report", as the program
    const bool sweep = parser.isSet(QStringLiteral("sweep"));
    if (sweep && !files.isEmpty())
        return usageError(io, QStringLiteral("report: --sweep DIR or recordings, not both"));
    if (!sweep && files.isEmpty())
        return usageError(io, QStringLiteral("report: name at least one recording (or --sweep DIR)"));
    const QString out = parser.value(QStringLiteral("out"));
    if (out.isEmpty())
        return usageError(io, QStringLiteral("report: --out FILE.html or FILE.pdf is required"));
    if (!out.endsWith(QLatin1String(".html"), Qt::CaseInsensitive)
        && !out.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive)
        && !out.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return usageError(io, QStringLiteral("report: --out must end in .html or .pdf"));
    const bool replace = parser.isSet(QStringLiteral("replace"));
    if (const QString refused = outputFileRefusal(out, replace); !refused.isEmpty())
        return fail(io, QStringLiteral("report: ") + refused);
    ReportPaper paper = defaultReportPaper();
    if (parser.isSet(QStringLiteral("paper"))) {
        const std::optional<ReportPaper> chosen = reportPaperFromName(parser.value(QStringLiteral("paper")));
        if (!chosen)
            return usageError(io, QStringLiteral("report: --paper is a4 or letter"));
        paper = *chosen;
    }
    if (sweep) {
        const Result<Report> report = buildSweepReport(parser.value(QStringLiteral("sweep")));
        if (!report)
            return fail(io, QStringLiteral("report: ") + report.errorMessage());
        if (const Status s = writeReport(report.value(), out, paper, existingFileFor(replace)); !s)
            return fail(io, s.errorMessage());
        io.out << out << '\n';
        return ExitOk;
    }
    QList<Recording> recordings;
    for (const QString &file : files) {
        Result<Recording> rec = readRecording(file);
        if (!rec)
            return fail(io, rec.errorMessage());
        if (rec->truncated)
            io.err << "dmtunectl: " << file << ": " << rec->truncation << "; reporting what was recorded\n";
        recordings.append(rec.value());
    }
    const Result<Report> report = buildReport(recordings);
    if (!report)
        return fail(io, report.errorMessage());
    if (const Status s = writeReport(report.value(), out, paper, existingFileFor(replace)); !s)
        return fail(io, s.errorMessage());
    io.out << out << '\n';
    return ExitOk;
}

} // namespace dmtune::cli
