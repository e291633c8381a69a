#pragma once
// Shared plumbing of dmtunectl's subcommands: exit codes, common options, output streams.
#include "sysfs/sysfsroot.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>


namespace dmtune {
struct MultipathMessage;
}

namespace dmtune::cli {

enum ExitCode : int { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

struct Streams {
    QTextStream &out;
    QTextStream &err;
};

// Adds --sysfs-root and --help to a subcommand's parser.
void addCommonOptions(QCommandLineParser &parser);
// Parses args (args[0] is the subcommand name); on a usage error prints it and returns false.
bool parseOrUsage(QCommandLineParser &parser, const QStringList &args, Streams io, int *exitCode);
// The sysfs root chosen on the command line (default /sys; /proc only with the live root).
SysfsRoot sysfsRootFrom(const QCommandLineParser &parser);
// One-line error on stderr, prefixed with the program name; returns ExitFailure.
int fail(Streams io, const QString &message);
int usageError(Streams io, const QString &message);

// Subcommands: args[0] is the subcommand's own name.
int runList(const QStringList &args, Streams io);
int runStat(const QStringList &args, Streams io);
int runGet(const QStringList &args, Streams io);
int runSet(const QStringList &args, Streams io);
int runMap(const QStringList &args, Streams io);
int runPath(const QStringList &args, Streams io);
int runGroup(const QStringList &args, Streams io);
int runCapture(const QStringList &args, Streams io); // cmd_capture.cpp
int runRun(const QStringList &args, Streams io); // cmd_run.cpp
int runRecord(const QStringList &args, Streams io); // cmd_record.cpp
int runReport(const QStringList &args, Streams io); // cmd_report.cpp (cmd_report_nogui.cpp without the GUI)
int runVersion(const QStringList &args, Streams io);
int runPreset(const QStringList &args, Streams io);

// Multipath operations (cmd_path.cpp, also used by group and map): --force, --no-multipathd.
void addOperationOptions(QCommandLineParser &parser);
// Prepares the operation, refuses a risky one without --force, runs it, prints the outcome.
int runMultipathMessageCli(const QCommandLineParser &parser, const QString &map, const MultipathMessage &message, Streams io);

} // namespace dmtune::cli
