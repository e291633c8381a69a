// dmtunectl: the command-line twin of dmtune. Same core, JSON or text out.
#include "cli.h"
#include "core/util/nearmiss.h"

#include <QCoreApplication>

#include <cstdio>

using namespace dmtune::cli;

namespace {

struct Command {
    const char *name;
    int (*run)(const QStringList &, Streams);
    const char *summary;
};

constexpr Command commands[] = {
    { "list", runList, "list block devices and multipath maps (--json)" },
    { "stat", runStat, "iostat -x style statistics per interval (--json, --csv)" },
    { "diagnose", runDiagnose,
        "what the rules find in a map's configuration and numbers, and how to test it (--json)" },
    { "get", runGet, "a device's tunables: value, type, range, writable (--json)" },
    { "set", runSet, "set tunables as one transaction (--with-paths, --dry-run, --json)" },
    { "map", runMap, "a multipath map: show (--json), reload (--dry-run), queueing on|off" },
    { "path", runPath, "fail or reinstate a path of a multipath map" },
    { "group", runGroup, "switch to, enable or disable a path group of a multipath map" },
    { "capture", runCapture, "copy this system's block devices, queues and dm tables for --sysfs-root elsewhere" },
    { "run", runRun, "run a fio workload on a device, guarded, with its statistics (--list, --record, --json)" },
    { "sweep", runSweep,
        "fio at every value of one or two tunables, measured, the old values restored (--json, --csv)" },
    { "record", runRecord, "inspect a recording: record show REC (--json); record import --pcp-archive PATH -o FILE" },
    { "report", runReport, "HTML or PDF report of recordings: report REC... --out FILE.html|FILE.pdf" },
    { "version", runVersion, "versions of Qt, libudev, libdevmapper, fio and the kernel (--json)" },
    { "preset", runPreset, "tuning presets: save, apply (--dry-run), verify, diff, export, list" },
    { "agent", runAgent, "speak the agent protocol on stdin/stdout (what --host starts over ssh)" },
};

void printUsage(QTextStream &s)
{
    s << "usage: dmtunectl [--version] [--help] [--host [USER@]HOST[:PORT]] COMMAND [ARGS...]\n\ncommands:\n";
    for (const auto &c : commands)
        s << "  " << QString::fromLatin1(c.name).leftJustified(10) << c.summary << '\n';
    s << "\n--host runs COMMAND on that host over ssh (its agent; docs/remote.md), with the same output and exit\n"
         "status; the files on the command line are this side's. There also: job list | job attach JOB | job stop "
         "JOB.\n"
         "More options before COMMAND: --ssh-config FILE (ssh -F), --remote-dmtunectl PATH, --sudo-password-stdin.\n"
         "\n'dmtunectl COMMAND --help' describes a command's options.\n"
         "exit status: 0 success; 1 a well-formed command that fails (reason on stderr; a device, map or path this\n"
         "host does not have is one); 2 a malformed command line (the line names the command's --help).\n";
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("dmtunectl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DMTUNE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    Streams io { out, err };

    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty()) {
        printUsage(err);
        return ExitUsage;
    }
    const QString first = args.first();
    if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
        out << "dmtunectl " << DMTUNE_VERSION << " (Qt " << qVersion() << ")\n";
        return ExitOk;
    }
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        printUsage(out);
        return ExitOk;
    }
    if (first == QLatin1String("--host") || first.startsWith(QLatin1String("--host=")))
        return runRemote(args, io);
    if (first == QLatin1String("job"))
        return usageError(
            io, QStringLiteral("job: the detached workloads of a remote host: dmtunectl --host HOST job list"));
    for (const auto &c : commands) {
        if (first == QLatin1String(c.name))
            return c.run(args, Streams { out, err, first });
    }
    QStringList names { QStringLiteral("job") };
    for (const auto &c : commands)
        names.append(QLatin1String(c.name));
    return usageError(io, QStringLiteral("unknown command '%1'%2").arg(first, dmtune::didYouMean(first, names)));
}
