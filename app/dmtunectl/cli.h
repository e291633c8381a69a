#pragma once
// Shared plumbing of dmtunectl's subcommands: exit codes, common options, output streams.
#include "core/discovery/devicesnapshot.h"
#include "core/ops/consent.h"
#include "core/ops/operationregistry.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/atomicfile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

#include <memory>
#include <optional>

namespace dmtune::cli {

enum ExitCode : int { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

struct Streams {
    QTextStream &out;
    QTextStream &err;
    QString command = {}; // as typed: "get", "preset save"; names the help that usage errors point to
};

// Adds --sysfs-root and --help to a subcommand's parser.
void addCommonOptions(QCommandLineParser &parser);
// Parses args (args[0] is the subcommand name); on a usage error prints it and returns false. --help prints the
// help of io.command ("Usage: dmtunectl preset save [options] ...").
bool parseOrUsage(QCommandLineParser &parser, const QStringList &args, Streams io, int *exitCode);
// The sysfs root chosen on the command line (default /sys; /proc only with the live root).
SysfsRoot sysfsRootFrom(const QCommandLineParser &parser);
// Every command that changes the system calls this first, before anything is resolved in the tree: a
// captured tree (--sysfs-root other than /sys) is refused with one line unless dryRun (which writes
// nothing). True when refused (*exitCode set). The core refuses too; this keeps the refusal uniform.
// dryRunHint: the command has --dry-run to offer instead.
bool refuseCapturedTree(
    const QCommandLineParser &parser, const QString &command, bool dryRun, bool dryRunHint, Streams io, int *exitCode);
// The output-file policy (util/atomicfile.h), checked before a command does anything: why `path` cannot be written
// (a symbolic link, not a regular file, or an existing file without --replace, which this line then offers).
// Empty when it can. The write checks again: this is the early, friendly refusal.
QString outputFileRefusal(const QString &path, bool replace);
// ExistingFile::Replace only when the user gave --replace.
inline ExistingFile existingFileFor(bool replace)
{
    return replace ? ExistingFile::Replace : ExistingFile::Refuse;
}
// The one rule of exit statuses: 2 for a malformed command line (usageError: whatever the host, the line is
// wrong), 1 for a well-formed one that fails (fail, hostLacks: a device, map, path or group this host does not
// have is 1, like a file that cannot be read or a refused change).
// One-line error on stderr, prefixed with the program name; returns ExitFailure.
int fail(Streams io, const QString &message);
// A well-formed command line names something this host does not have (a device, a map, a path of a map, an
// attribute of that device): "dmtunectl: COMMAND: MESSAGE", one line, ExitFailure.
int hostLacks(Streams io, const QString &message);
// DEV as this host names it (sdX, dm-N, a map name, /dev/..., MAJ:MIN); a name it does not have is hostLacks'
// line (*exitCode ExitFailure) and an empty optional.
std::optional<QString> deviceOnThisHost(
    const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QString &spec, Streams io, int *exitCode);
// The command line is wrong (arguments, options, a name dmtune does not know whatever the host: an unknown
// command, attribute or template): one line, the error then where the command's own help is
// ("... (see dmtunectl set --help)"); ExitUsage.
int usageError(Streams io, const QString &message);
// What follows "unknown ... 'typed'": " (did you mean NAME?)" for a near miss of one of `names`
// (util/nearmiss.h), else " (a, b, c)".
QString nearOrList(const QString &typed, const QStringList &names);
// "1 rule", "2 rules" (plural: the irregular form, default singular + "s").
QString counted(qsizetype n, const QString &singular, const QString &plural = {});

// Subcommands: args[0] is the subcommand's own name.
int runList(const QStringList &args, Streams io);
int runStat(const QStringList &args, Streams io);
int runDiagnose(const QStringList &args, Streams io); // cmd_diagnose.cpp
int runGet(const QStringList &args, Streams io);
int runSet(const QStringList &args, Streams io);
int runMap(const QStringList &args, Streams io);
int runPath(const QStringList &args, Streams io);
int runGroup(const QStringList &args, Streams io);
int runCapture(const QStringList &args, Streams io); // cmd_capture.cpp
int runRun(const QStringList &args, Streams io); // cmd_run.cpp
int runSweep(const QStringList &args, Streams io); // cmd_sweep.cpp
int runRecord(const QStringList &args, Streams io); // cmd_record.cpp
int runRecordImport(const QStringList &args, Streams io); // cmd_record_import.cpp: args[0] is "import"
int runReport(const QStringList &args, Streams io); // cmd_report.cpp (cmd_report_nogui.cpp without the GUI)
int runVersion(const QStringList &args, Streams io);
int runPreset(const QStringList &args, Streams io);
int runAgent(const QStringList &args, Streams io); // cmd_agent.cpp
// --host [user@]host[:port] [ssh options] COMMAND ...: args from --host on (remote.cpp).
int runRemote(const QStringList &args, Streams io);

// Consent (core/ops/consent.h): what the command line answers. --destroy-data-on (each one, may repeat) is
// resolved to every name its device goes by (sdb, dm-3, mpatha); --force when `ways` has it. An error line when a
// name is no device here (bad usage).
Result<ConsentGiven> consentFromCommandLine(
    const QCommandLineParser &parser, const SysfsRoot &sysfs, const ConsentWays &ways);
// The option texts every command that can put data at risk shares, so that each --help says which answers it takes.
void addDestroyDataOption(QCommandLineParser &parser, const QString &what);
void addForceOption(QCommandLineParser &parser, const QString &what);
// One paragraph for a command's description: which risks its answers accept, and that --force answers no data risk.
QString consentHelp(const ConsentWays &ways);

// Multipath operations (cmd_path.cpp, also used by group and map): --force, --no-multipathd, --dry-run.
void addOperationOptions(QCommandLineParser &parser);
// A multipath.* plan made on the tree of --sysfs-root, with what it needs to run.
struct MultipathCliOperation {
    MultipathCliOperation() { } // not an aggregate: Result's `T m_value {}` must not list-initialise SysfsRoot
    std::shared_ptr<DeviceMapper> dm;
    OperationEnvironment env; // points into dm
    OperationPlan plan;
};
Result<MultipathCliOperation> planMultipathCli(
    const QCommandLineParser &parser, const QString &kind, const QJsonObject &request, bool useMultipathd);
// Runs it with every risk accepted (the caller checked --force); dryRun: re-validates only.
OperationResult runMultipathCli(const MultipathCliOperation &op, bool dryRun);
// The risks' texts joined with "; ", as the "refused without --force: ..." line shows them.
QString riskTexts(const OperationPlan &plan);
// Plans a multipath message kind, refuses a risky plan without --force, runs it, prints the outcome.
int runMultipathMessageCli(
    const QCommandLineParser &parser, const QString &kind, const QJsonObject &request, Streams io);

} // namespace dmtune::cli
