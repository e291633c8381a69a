#include "cli.h"

#include "core/discovery/discovery.h"
#include "core/discovery/sysfscapture.h"
#include "core/params/deviceresolver.h"
#include "core/util/nearmiss.h"
#include "core/util/printable.h"

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
            .arg(command, writable.errorMessage(),
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
    // One line, as every error: what is wrong, then where the command's own help is.
    io.err << "dmtunectl: " << printable(message) << " (see dmtunectl "
           << (io.command.isEmpty() ? QString() : io.command + u' ') << "--help)\n";
    io.err.flush();
    return ExitUsage;
}

int hostLacks(Streams io, const QString &message)
{
    const QString prefix = io.command.isEmpty() ? QString() : io.command + QStringLiteral(": ");
    return fail(io, message.startsWith(prefix) ? message : prefix + message);
}

std::optional<QString> deviceOnThisHost(
    const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QString &spec, Streams io, int *exitCode)
{
    const auto device = resolveDeviceSpec(sysfs, snapshot, spec);
    if (device)
        return device.value();
    *exitCode = hostLacks(io, device.errorMessage());
    return std::nullopt;
}

QString nearOrList(const QString &typed, const QStringList &names)
{
    const QString nearest = didYouMean(typed, names);
    return nearest.isEmpty() ? QStringLiteral(" (%1)").arg(names.join(QStringLiteral(", "))) : nearest;
}

QString counted(qsizetype n, const QString &singular, const QString &plural)
{
    const QString word = n == 1 ? singular : plural.isEmpty() ? singular + u's' : plural;
    return QStringLiteral("%1 %2").arg(n).arg(word);
}

Result<ConsentGiven> consentFromCommandLine(
    const QCommandLineParser &parser, const SysfsRoot &sysfs, const ConsentWays &ways)
{
    using R = Result<ConsentGiven>;
    ConsentGiven given;
    given.force = !ways.forceOption.isEmpty() && parser.isSet(ways.forceOption.mid(2));
    if (ways.dataOption.isEmpty() || !parser.isSet(ways.dataOption.mid(2)))
        return given;
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    for (const QString &text : parser.values(ways.dataOption.mid(2))) {
        auto target = parseNamedTarget(text);
        if (!target)
            return R::failure(QStringLiteral("%1 %2").arg(ways.dataOption, target.errorMessage()));
        if (target->host.isEmpty()) { // a name for this machine: every name of the device it resolves to
            const auto device = resolveDeviceSpec(sysfs, snapshot, target->names.first());
            if (!device)
                return R::failure(QStringLiteral("%1 %2 does not name a device: %3")
                                      .arg(ways.dataOption, text, device.errorMessage()));
            QStringList &names = target.value().names;
            names = QStringList { device.value() };
            const QString dmName = sysfs.readOr(QStringLiteral("class/block/%1/dm/name").arg(device.value())).trimmed();
            if (!dmName.isEmpty())
                names.append(dmName);
        }
        given.destroyDataOn.append(target.value());
    }
    return given;
}

void addDestroyDataOption(QCommandLineParser &parser, const QString &what)
{
    parser.addOption({ QStringLiteral("destroy-data-on"),
        QStringLiteral("Answer a data risk by naming its device or map (may repeat): %1. The only answer to a data "
                       "risk; --force is not one.")
            .arg(what),
        QStringLiteral("DEV") });
}

void addForceOption(QCommandLineParser &parser, const QString &what)
{
    parser.addOption({ QStringLiteral("force"),
        QStringLiteral("Answer the availability risks (I/O errors or hangs, nothing lost on a device): %1. Never "
                       "answers a data risk.")
            .arg(what) });
}

QString consentHelp(const ConsentWays &ways)
{
    QStringList takes;
    if (!ways.dataOption.isEmpty())
        takes << QStringLiteral("a data risk (what a device holds destroyed or corrupted) only by %1 naming that "
                                "device or map")
                     .arg(ways.dataOption);
    else
        takes << QStringLiteral("no data risk (one is refused)");
    if (!ways.forceOption.isEmpty())
        takes << QStringLiteral("an availability risk (I/O errors or hangs) by %1").arg(ways.forceOption);
    else
        takes << QStringLiteral("no availability risk (one is refused)");
    return QStringLiteral("Answers: %1; --force never answers a data risk, and a device in use is refused whatever "
                          "is given. --dry-run exits as the run would: 1 when a risk is left unanswered.")
        .arg(takes.join(QStringLiteral("; ")));
}

} // namespace dmtune::cli
