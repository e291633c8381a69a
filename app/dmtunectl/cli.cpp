#include "cli.h"

#include "discovery/sysfscapture.h"
#include "util/printable.h"

namespace dmtune::cli {

void addCommonOptions(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("sysfs-root"),
        QStringLiteral("Inspect a captured system (dmtunectl capture) or sysfs tree instead of /sys (read-only)."),
        QStringLiteral("DIR") });
    parser.addHelpOption();
}

bool parseOrUsage(QCommandLineParser &parser, const QStringList &args, Streams io, int *exitCode)
{
    if (!parser.parse(args)) {
        *exitCode = usageError(io, parser.errorText());
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        // Qt writes argv[0] ("/usr/bin/dmtunectl [options]"); name the command as it is typed.
        QString help = parser.helpText();
        const QString usage = QStringLiteral("Usage: ");
        const qsizetype options = help.indexOf(QLatin1String(" [options]"));
        const QString command = !io.command.isEmpty() ? io.command : args.value(0);
        if (help.startsWith(usage) && options > 0 && !command.isEmpty())
            help.replace(usage.size(), options - usage.size(), QStringLiteral("dmtunectl ") + command);
        io.out << help;
        io.out.flush();
        *exitCode = ExitOk;
        return false;
    }
    return true;
}

SysfsRoot sysfsRootFrom(const QCommandLineParser &parser)
{
    // A capture (dmtunectl capture) brings its own /proc; another tree has none: the live one would
    // describe another machine.
    if (parser.isSet(QStringLiteral("sysfs-root")))
        return sysfsRootForDirectory(parser.value(QStringLiteral("sysfs-root")));
    return SysfsRoot();
}

bool refuseCapturedTree(
    const QCommandLineParser &parser, const QString &command, bool dryRun, bool dryRunHint, Streams io, int *exitCode)
{
    if (dryRun || !parser.isSet(QStringLiteral("sysfs-root")))
        return false;
    // Only the path is looked at: nothing in the tree is read before refusing.
    const Status writable = SysfsRoot(parser.value(QStringLiteral("sysfs-root"))).checkWritable();
    if (writable)
        return false;
    *exitCode = fail(io,
        QStringLiteral("%1: --sysfs-root %2%3")
            .arg(command, writable.errorMessage,
                dryRunHint ? QStringLiteral("; --dry-run previews the change") : QString()));
    return true;
}

QString outputFileRefusal(const QString &path, bool replace)
{
    const QString problem = outputFileProblem(path, existingFileFor(replace));
    if (problem.isEmpty())
        return {};
    // --replace answers only an existing regular file: a link or a directory is refused with it too.
    return outputFileOnlyExists(path) ? problem + QStringLiteral(" (--replace replaces it)") : problem;
}

int fail(Streams io, const QString &message)
{
    // A message may quote what it refuses (a file's strings, a device name, a host, a path): never as terminal
    // control sequences, and one error is one line whatever the quoted text holds (a newline in it is shown
    // as \x0a, so it cannot forge a second line a script or a reader takes for dmtune's).
    io.err << "dmtunectl: " << printable(message) << '\n';
    io.err.flush();
    return ExitFailure;
}

int usageError(Streams io, const QString &message)
{
    io.err << "dmtunectl: " << printable(message) << "\n(see dmtunectl "
           << (io.command.isEmpty() ? QString() : io.command + u' ') << "--help)\n";
    io.err.flush();
    return ExitUsage;
}

int badArgument(Streams io, const QString &message)
{
    io.err << "dmtunectl: " << printable(message) << '\n';
    io.err.flush();
    return ExitUsage;
}

QString counted(qsizetype n, const QString &singular, const QString &plural)
{
    const QString word = n == 1 ? singular : plural.isEmpty() ? singular + u's' : plural;
    return QStringLiteral("%1 %2").arg(n).arg(word);
}

} // namespace dmtune::cli
