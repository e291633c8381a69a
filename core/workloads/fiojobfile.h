#pragma once
// What a fio workload will do, decided before it runs, the same way for templates and custom job files.
//
// A job file is read by fio itself: `fio --showcmd FILE` (DMTUNE_DEVICE set) strips the comments, expands
// ${VAR} and inlines the includes, and prints the job as fio's command-line options. dmtune decides over
// those options with fio's command-line semantics (options before the first --name are global, each --name
// starts a job that inherits the global ones, the last value of an option wins, filename= adds files) and
// then runs fio with exactly those options, never the file again: what was checked is what runs.
// Only an allow-list of options passes; see docs/workloads.md for what the check cannot know.
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <functional>
#include <optional>

namespace dmtune {

struct FioJob;

// One job as fio will run it.
struct FioPlannedJob {
    QString name;
    QString rw; // the effective rw= ("read", fio's default, when none is given)
    QString ioengine; // the effective ioengine= ("psync", fio's default on Linux, when none is given)
    QStringList filenames; // every file it opens (fio's ':' lists split, "\:" unescaped)
    bool writes = false; // it writes or trims
    QString writeReason; // "rw=write", "trim_percentage=10"
};

struct FioJobPlan {
    QStringList arguments; // fio's job options as checked, one argv word each ("--name=a", "--rw=write")
    QList<FioPlannedJob> jobs;
    bool writes = false; // some job writes or trims
    QString writeReason; // the first writing job's: "job 'a': rw=write"
};

// Whether an rw= value writes: true for every write or trim mode fio 3.x knows (write, randwrite, rw,
// readwrite, randrw, trim, randtrim, trimwrite, randtrimwrite), with or without a ":N" or ",..." suffix;
// false for read and randread; nullopt for what fio does not know (fio's match is case-sensitive).
std::optional<bool> fioRwModeWrites(const QString &rw);

// fio's filename= value as fio splits it: at ':' unless escaped as "\:", empty names skipped.
QStringList splitFioFilenames(const QString &value);

// The argv words in `fio --showcmd` output: "fio --rw=read --name=a --bs=4k \n" -> {"--rw=read", "--name=a",
// "--bs=4k"}. A word is what starts with "--" after a blank (a value with blanks stays one word);
// description's quotes are removed. The error says what else was printed.
Result<QStringList> parseFioShowcmd(const QString &text);

// The decision over fio job options (command-line semantics, see above) for a run on devicePath: every option
// on the allow-list, every job's files exactly devicePath, its engine one that does plain I/O on it. The
// error names the job and the option in one line.
Result<FioJobPlan> planFioArguments(const QStringList &arguments, const QString &devicePath);

// The options planFioArguments() lets through (fio's canonical names), sorted.
QStringList fioAllowedOptions();

// The allowed options that may come without a value ("--time_based"): those fio's command line takes bare.
QStringList fioValuelessOptions();

// A job file path as fio's argument: never taken for an option ("-x.fio" -> "./-x.fio", "-" -> "./-").
QString fioJobFileArgument(const QString &path);

// Where a job file and its includes come from (tests give them from memory).
struct FioJobSource {
    std::function<bool(const QString &path)> exists; // fio's access(path, F_OK): relative to the working directory
    std::function<Result<QByteArray>(const QString &path)> read;
};
// The files themselves: read with readInputFile() (a regular file, at most TextInputCap).
FioJobSource fioJobFilesOnDisk();

// The job file at `path` as fio reads it (fio 3.33's init.c and parse.c), its includes inlined: one line per
// section header and option, without blanks around it, comments (from the first ';' or '#' on) or empty lines.
// An include is any line starting with "include", its name from the 9th character on, tried as it is (relative
// to the working directory), else relative to the including file's directory, as fio does. Refused in one line
// naming the file and line: an include fio would refuse or could not open, a section in an included file, '$'
// in an include's name, NUL bytes, a line fio would read in pieces, more than 16 levels or TextInputCap in all.
Result<QString> inlineFioJobFile(const QString &path, const FioJobSource &source);

// The decision from the inlined text alone, before fio ever sees it: an engine outside the allow-list in any
// spelling ("external:/x.so", "/x.so", " libaio", quoted), any option off the allow-list, a value naming a file,
// '$' other than ${DMTUNE_DEVICE} and control characters are refused, the option named.
Status screenFioJobText(const QString &text);

// Checks jobFile: inlineFioJobFile() and screenFioJobText(), then `fio --showcmd -` fed the inlined text on its
// standard input, with DMTUNE_DEVICE=devicePath its only environment, as nobody (when root) in a new empty 0700
// directory (and once more with no job section selected, to find [global] sections after a job, whose scope
// --showcmd cannot show); plans what it printed. A job file of another user may include only files that user
// can read (its own, or readable by all).
// Refuses whatever fio warned about (a broken include only warns). Blocks for fio's run (milliseconds, at most
// 10 s per run) in QProcess::waitForFinished, which blocks this thread without running an event loop (no nested
// loop, nothing else is dispatched meanwhile). Contract: the GUI calls it only inside a job (a JobTracker's work,
// off the UI thread); dmtunectl calls it directly.
Result<FioJobPlan> checkFioJobFile(const QString &fioProgram, const QString &jobFile, const QString &devicePath);

// The one check before every run, the dock's and dmtunectl's: a template's argv, or a custom job file through
// checkFioJobFile() frozen into job->checkedArguments, planned for devicePath. fioProgram: fio's absolute path
// (empty: FioRun::findFio()); only job files need it. Blocks as checkFioJobFile() does: in the GUI, run it in a job.
Result<FioJobPlan> prepareFioJob(FioJob *job, const QString &devicePath, const QString &fioProgram = {});

} // namespace dmtune
