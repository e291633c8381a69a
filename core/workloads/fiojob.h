#pragma once
// A fio workload as dmtune runs it: a template's parameters (or a custom job file) -> the exact argv, and the
// shell-quoted command line shown to the user for copying. Pure: no I/O except reading a job file.
#include "core/util/result.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace dmtune {

struct FioJob {
    QString id; // template id ("batched-write-4k"), or "custom"
    QString title;
    QString why; // which seed it comes from and what it shows
    QString rw = QStringLiteral("read"); // fio's rw=
    QString bs = QStringLiteral("4k");
    int iodepth = 1;
    int numjobs = 1;
    int runtimeSeconds = 30;
    QString ioengine = QStringLiteral("libaio");
    bool direct = true;
    // Submit and reap in batches (iodepth_batch_submit=16, iodepth_batch_complete_min=8): the scheduler sees
    // several requests at once and can merge them.
    bool batching = false;
    QStringList options; // further "--name=value" options, passed as they are
    QString jobFile; // a custom job file, its device given to it as ${DMTUNE_DEVICE}
    // A custom job file as prepareFioJob() checked it (fiojobfile.h): fio's job options from `fio --showcmd`,
    // for checkedDevice. fio runs these, never the file again: an edit after the check changes nothing.
    QStringList checkedArguments;
    QString checkedDevice;

    bool isCustom() const { return !jobFile.isEmpty(); }
};

// The rw= values that write (or trim) data: every write or trim mode fio 3.x knows, and what it does not know
// (see fioRwModeWrites() in fiojobfile.h, the classification job files get too).
bool rwWrites(const QString &rw);
// The rw= values fio knows (rw and readwrite are one mode: only rw is listed).
const QStringList &fioRwModes();
// Engines offered in the editors (any engine fio knows is accepted).
const QStringList &fioEngines();

// What fio is asked to print: one cumulative JSON object per second, with latency histograms (json+) so that
// per-second percentiles are exact at fio's bucket resolution.
const QStringList &fioStatusArguments();

// fio's arguments (without the program) for running `job` on /dev/<device>. A template names the device with
// --filename; a checked job file is its checked options (the device in them); an unchecked one is the file
// (never taken for an option: "./-x.fio"), the device given through DMTUNE_DEVICE (see fioEnvironment) - what
// a user would type, shown before Start, never run (see fioJobRunnable).
QStringList fioArguments(const FioJob &job, const QString &devicePath);
// The environment entries fio needs besides the inherited ones: DMTUNE_DEVICE=<devicePath>.
QStringList fioEnvironment(const QString &devicePath);
// The command line as a shell would take it, environment first when a job file needs it.
QString fioCommandLine(const QString &program, const FioJob &job, const QString &devicePath);
// POSIX shell quoting: the word unchanged when it is safe, else in single quotes; a word with control
// characters in bash's $'...' with \xHH escapes (never raw on a terminal).
QString shellQuote(const QString &word);

// A template from its JSON object (resources/workloads/*.json); the error names the field.
Result<FioJob> fioJobFromJson(const QJsonObject &object);
QJsonObject fioJobToJson(const FioJob &job);
// Checks a job's values (positive numbers, known rw, sane bs); the error names the parameter.
Status validateFioJob(const FioJob &job);
// validateFioJob(), and for a job file: checked (prepareFioJob) for this very device. What WorkloadSession
// requires before it starts fio.
Status fioJobRunnable(const FioJob &job, const QString &devicePath);

// The built-in templates (embedded from resources/workloads), sorted by id.
const QList<FioJob> &fioTemplates();
// A template by id, or nullptr.
const FioJob *fioTemplate(const QString &id);

} // namespace dmtune
