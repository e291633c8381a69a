#include "core/workloads/fiojobfile.h"

#include "core/workloads/fiojob.h"
#include "core/workloads/fiorun.h"

#include "core/util/inputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

// How an allowed option is checked beyond its name.
enum class OptionKind {
    Plain, // no effect on what is touched or whether it writes
    Filename, // the files: exactly the device
    Rw, // decides whether the job writes
    Engine, // an engine that does plain I/O on the named file
    Trim, // a non-zero value trims (destroys) data
    Memory, // "mmap:/file" names a file
    Pattern, // "'file'" reads a file
};

// fio 3.33's canonical names (what --showcmd prints) of the options a benchmark on one block device needs. The
// engine options are those of the allowed engines (libaio, io_uring).
const QHash<QString, OptionKind> &allowedOptions()
{
    static const QHash<QString, OptionKind> options = [] {
        QHash<QString, OptionKind> o;
        for (const char *name : { // jobs, groups, reporting
                 "name", "description", "wait_for", "stonewall", "new_group", "group_reporting", "numjobs", "exitall",
                 "exit_what", "exitall_on_error", "thread", "stats", "clat_percentiles", "lat_percentiles",
                 "slat_percentiles", "percentile_list", "significant_figures", "disk_util", "disable_lat",
                 "disable_clat", "disable_slat", "disable_bw_measurement", "unified_rw_reporting", "continue_on_error",
                 "ignore_error", "error_dump", "kb_base", "unit_base", "block_error_percentiles", "bwavgtime",
                 "iopsavgtime", "steadystate", "steadystate_duration", "steadystate_ramp_time",
                 // the I/O pattern
                 "lockfile", "file_service_type", "openfiles", "rw_sequencer", "bs", "ba", "bsrange", "bssplit",
                 "bs_unaligned", "bs_is_seq_rand", "randrepeat", "randseed", "allrandrepeat", "norandommap",
                 "softrandommap", "random_generator", "random_distribution", "percentage_random", "rwmixread",
                 "rwmixwrite", "size", "io_size", "offset", "offset_increment", "offset_align", "number_ios", "loops",
                 // submission
                 "iodepth", "iodepth_batch", "iodepth_batch_complete_min", "iodepth_batch_complete_max", "iodepth_low",
                 "serialize_overlap", "io_submit_mode", "direct", "buffered", "atomic", "sync", "fsync", "fdatasync",
                 "end_fsync", "fsync_on_close", "write_barrier", "sync_file_range", "invalidate", "fadvise_hint",
                 "pre_read", "hugepage-size", "lockmem", "hipri", "cmdprio_percentage", "cmdprio_class", "cmdprio",
                 "cmdprio_bssplit", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu", "nonvectored",
                 "uncached", "nowait", "force_async", "userspace_reap",
                 // time and rate
                 "runtime", "time_based", "ramp_time", "startdelay", "thinktime", "thinktime_spin", "thinktime_blocks",
                 "thinktime_blocks_type", "thinktime_iotime", "rate", "rate_min", "rate_process", "rate_cycle",
                 "rate_ignore_thinktime", "rate_iops", "rate_iops_min", "max_latency", "latency_target",
                 "latency_window", "latency_percentile", "latency_run", "flow", "flow_id", "flow_sleep",
                 // CPUs and priorities
                 "nice", "prio", "prioclass", "cpumask", "cpus_allowed", "cpus_allowed_policy", "numa_cpu_nodes",
                 "numa_mem_policy", "gtod_reduce", "gtod_cpu", "clocksource",
                 // buffer contents
                 "zero_buffers", "refill_buffers", "scramble_buffers", "buffer_compress_percentage",
                 "buffer_compress_chunk", "dedupe_percentage", "dedupe_mode", "dedupe_working_set_percentage",
                 "dedupe_global",
                 // verification: it reads back what the job wrote; whether it writes is rw's business
                 "verify", "do_verify", "verify_only", "verify_interval", "verify_offset", "verify_fatal",
                 "verify_async", "verify_async_cpus", "verify_backlog", "verify_backlog_batch", "experimental_verify",
                 "verify_state_save", "trim_verify_zero", "trim_backlog_batch" })
            o.insert(QString::fromLatin1(name), OptionKind::Plain);
        o.insert(QStringLiteral("filename"), OptionKind::Filename);
        o.insert(QStringLiteral("rw"), OptionKind::Rw);
        o.insert(QStringLiteral("ioengine"), OptionKind::Engine);
        o.insert(QStringLiteral("trim_percentage"), OptionKind::Trim);
        o.insert(QStringLiteral("trim_backlog"), OptionKind::Trim);
        o.insert(QStringLiteral("mem"), OptionKind::Memory);
        o.insert(QStringLiteral("buffer_pattern"), OptionKind::Pattern);
        o.insert(QStringLiteral("verify_pattern"), OptionKind::Pattern);
        return o;
    }();
    return options;
}

// The allowed options fio's command line takes without a value. Any other option printed bare ("cpus_allowed"
// alone is valid in a job file) would make fio's getopt take the next word for its value: "--cpus_allowed
// --rw=read" leaves rw as it was.
const QStringList &valuelessOptions()
{
    static const QStringList names = { QStringLiteral("stonewall"), QStringLiteral("new_group"),
        QStringLiteral("group_reporting"), QStringLiteral("exitall"), QStringLiteral("exitall_on_error"),
        QStringLiteral("thread"), QStringLiteral("bs_unaligned"), QStringLiteral("norandommap"),
        QStringLiteral("time_based"), QStringLiteral("zero_buffers"), QStringLiteral("refill_buffers"),
        QStringLiteral("verify_only"), QStringLiteral("hipri"), QStringLiteral("fixedbufs"),
        QStringLiteral("registerfiles"), QStringLiteral("sqthread_poll"), QStringLiteral("userspace_reap") };
    return names;
}

// fio's aliases of allowed options (fio --cmdhelp): --showcmd prints the canonical name, a template may not.
QString canonicalOption(const QString &name)
{
    static const QHash<QString, QString> aliases = {
        { QStringLiteral("readwrite"), QStringLiteral("rw") },
        { QStringLiteral("blocksize"), QStringLiteral("bs") },
        { QStringLiteral("blockalign"), QStringLiteral("ba") },
        { QStringLiteral("blocksize_range"), QStringLiteral("bsrange") },
        { QStringLiteral("blocksize_unaligned"), QStringLiteral("bs_unaligned") },
        { QStringLiteral("wait_for_previous"), QStringLiteral("stonewall") },
        { QStringLiteral("io_limit"), QStringLiteral("io_size") },
        { QStringLiteral("fileoffset"), QStringLiteral("offset") },
        { QStringLiteral("iodepth_batch_submit"), QStringLiteral("iodepth_batch") },
        { QStringLiteral("iodepth_batch_complete"), QStringLiteral("iodepth_batch_complete_min") },
        { QStringLiteral("iomem"), QStringLiteral("mem") },
        { QStringLiteral("timeout"), QStringLiteral("runtime") },
        { QStringLiteral("ratemin"), QStringLiteral("rate_min") },
        { QStringLiteral("ratecycle"), QStringLiteral("rate_cycle") },
        { QStringLiteral("disable_bw"), QStringLiteral("disable_bw_measurement") },
        { QStringLiteral("ss"), QStringLiteral("steadystate") },
        { QStringLiteral("ss_dur"), QStringLiteral("steadystate_duration") },
        { QStringLiteral("ss_ramp"), QStringLiteral("steadystate_ramp_time") },
    };
    return aliases.value(name, name);
}

// Why a known dangerous option is refused; the others off the list get the general sentence.
QString refusalReason(const QString &name)
{
    static const QHash<QString, const char *> reasons = {
        { QStringLiteral("exec_prerun"), "it runs a program" },
        { QStringLiteral("exec_postrun"), "it runs a program" },
        { QStringLiteral("ioscheduler"), "it writes the device's scheduler in sysfs" },
        { QStringLiteral("read_iolog"), "it replays I/O from another file" },
        { QStringLiteral("read_iolog_chunked"), "it replays I/O from another file" },
        { QStringLiteral("replay_redirect"), "it sends the replayed I/O to another device" },
        { QStringLiteral("merge_blktrace_file"), "it writes another file" },
        { QStringLiteral("write_iolog"), "it writes another file" },
        { QStringLiteral("write_bw_log"), "it writes log files" },
        { QStringLiteral("write_lat_log"), "it writes log files" },
        { QStringLiteral("write_iops_log"), "it writes log files" },
        { QStringLiteral("write_hist_log"), "it writes log files" },
        { QStringLiteral("verify_dump"), "it writes dump files" },
        { QStringLiteral("verify_state_load"), "it reads another file" },
        { QStringLiteral("opendir"), "it adds every file under a directory" },
        { QStringLiteral("directory"), "it puts the files in a directory, not on the device" },
        { QStringLiteral("filename_format"), "it names other files" },
        { QStringLiteral("unique_filename"), "it names other files" },
        { QStringLiteral("nrfiles"), "it makes fio create files" },
        { QStringLiteral("unlink"), "it deletes the files" },
        { QStringLiteral("unlink_each_loop"), "it deletes the files" },
        { QStringLiteral("allow_mounted_write"), "it switches off fio's own refusal to write to a mounted device" },
        { QStringLiteral("zonemode"), "zone resets destroy data" },
        { QStringLiteral("zone_reset_threshold"), "zone resets destroy data" },
        { QStringLiteral("zone_reset_frequency"), "zone resets destroy data" },
        { QStringLiteral("cgroup"), "it changes the system's cgroups" },
        { QStringLiteral("uid"), "it changes the user fio runs as" },
        { QStringLiteral("gid"), "it changes the group fio runs as" },
        { QStringLiteral("profile"), "it runs one of fio's built-in profiles" },
        { QStringLiteral("include"), "it reads another file" },
    };
    const char *reason = reasons.value(name);
    return reason ? QString::fromLatin1(reason)
                  : QStringLiteral("it is not on dmtune's allow-list (options that name other files, run programs "
                                   "or change the system are refused)");
}

// The engines that do plain reads and writes on the file they are given.
const QStringList &allowedEngines()
{
    static const QStringList engines = { QStringLiteral("libaio"), QStringLiteral("io_uring"), QStringLiteral("psync"),
        QStringLiteral("sync"), QStringLiteral("pvsync"), QStringLiteral("pvsync2"), QStringLiteral("vsync"),
        QStringLiteral("posixaio"), QStringLiteral("mmap"), QStringLiteral("null") };
    return engines;
}

QString engineRefusal(const QString &engine)
{
    if (engine == QLatin1String("exec"))
        return QStringLiteral("it runs a program");
    if (engine.startsWith(QLatin1String("external")) || engine.contains(u'/'))
        return QStringLiteral("it loads a library");
    return QStringLiteral("dmtune runs the engines that do plain I/O on the device (%1)")
        .arg(allowedEngines().join(QLatin1String(", ")));
}

struct Option {
    QString name; // canonical
    QString value;
    bool hasValue = false;
    QString word; // as given, for messages
};

struct Section {
    QString name; // empty: the global options
    QList<Option> options;
};

// Why an allowed option's value is refused, or empty: the values that name a file.
QString valueRefusal(OptionKind kind, const QString &name, const QString &value)
{
    if (kind == OptionKind::Memory && (value.contains(u':') || value.contains(u'/')))
        return QStringLiteral("%1=%2 is refused: it names a file").arg(name, value);
    if (kind == OptionKind::Pattern && value.contains(u'\''))
        return QStringLiteral("%1=%2 is refused: it reads a file").arg(name, value);
    return {};
}

Result<FioJobPlan> refuse(const QString &job, const QString &what)
{
    return Result<FioJobPlan>::failure(job.isEmpty() ? what : QStringLiteral("job '%1': %2").arg(job, what));
}

// A non-zero number (fio's "10", "10%"), or anything that is not plainly zero.
bool nonZero(const QString &value)
{
    static const QRegularExpression zero(QStringLiteral("^0*%?$"));
    return !zero.match(value.trimmed()).hasMatch();
}

Result<FioPlannedJob> planJob(const QString &name, const QList<Option> &options, const QString &devicePath)
{
    FioPlannedJob job;
    job.name = name;
    job.rw = QStringLiteral("read");
    job.ioengine = QStringLiteral("psync");
    QString trim;
    for (const Option &o : options) { // in fio's order: the last value wins, filename= adds files
        const OptionKind kind = allowedOptions().value(o.name);
        if (kind == OptionKind::Filename)
            job.filenames += splitFioFilenames(o.value);
        else if (kind == OptionKind::Rw)
            job.rw = o.value;
        else if (kind == OptionKind::Engine)
            job.ioengine = o.value;
        else if (kind == OptionKind::Trim)
            trim = nonZero(o.value) ? QStringLiteral("%1=%2").arg(o.name, o.value) : QString();
    }
    const auto fail = [&](const QString &what) { return Result<FioPlannedJob>::failure(what); };
    if (job.filenames.isEmpty())
        return fail(QStringLiteral("no filename=: fio would create files in the current directory; use "
                                   "filename=${DMTUNE_DEVICE}"));
    for (const QString &file : std::as_const(job.filenames)) {
        if (file != devicePath)
            return fail(QStringLiteral("filename %1 is not the device %2; use filename=${DMTUNE_DEVICE} so that "
                                       "the data-safety check covers what fio touches")
                            .arg(file, devicePath));
    }
    if (!allowedEngines().contains(job.ioengine))
        return fail(QStringLiteral("ioengine=%1 is refused: %2").arg(job.ioengine, engineRefusal(job.ioengine)));
    const std::optional<bool> writes = fioRwModeWrites(job.rw);
    if (!writes)
        return fail(QStringLiteral("rw=%1 is not an I/O direction fio knows").arg(job.rw));
    job.writes = *writes || !trim.isEmpty();
    job.writeReason = *writes ? QStringLiteral("rw=") + job.rw : trim;
    return job;
}

} // namespace

std::optional<bool> fioRwModeWrites(const QString &rw)
{
    // fio matches the part before ':' (an offset modifier) or ',' exactly, case and all.
    static const QRegularExpression end(QStringLiteral("[:,]"));
    const QString mode = rw.section(end, 0, 0);
    static const QStringList reads = { QStringLiteral("read"), QStringLiteral("randread") };
    static const QStringList writes = { QStringLiteral("write"), QStringLiteral("randwrite"), QStringLiteral("rw"),
        QStringLiteral("readwrite"), QStringLiteral("randrw"), QStringLiteral("trim"), QStringLiteral("randtrim"),
        QStringLiteral("trimwrite"), QStringLiteral("randtrimwrite") };
    if (reads.contains(mode))
        return false;
    if (writes.contains(mode))
        return true;
    return std::nullopt;
}

QStringList splitFioFilenames(const QString &value)
{
    // fio's get_next_str(): blanks around the whole value stripped, ':' separates unless escaped as "\:".
    QStringList names;
    QString current;
    const QString text = value.trimmed();
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u':' && !current.isEmpty() && current.endsWith(u'\\')) {
            current.chop(1);
            current += u':';
        } else if (c == u':') {
            if (!current.isEmpty())
                names << current;
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.isEmpty())
        names << current;
    return names;
}

Result<QStringList> parseFioShowcmd(const QString &text)
{
    QString line = text;
    if (line.endsWith(u'\n'))
        line.chop(1);
    if (line.contains(u'\n'))
        return Result<QStringList>::failure(
            QStringLiteral("fio --showcmd printed more than one line: '%1'").arg(line.section(u'\n', 1).left(120)));
    if (line.isEmpty() || line == QLatin1String("fio") || line == QLatin1String("fio "))
        return QStringList(); // no section at all
    if (!line.startsWith(QLatin1String("fio ")))
        return Result<QStringList>::failure(
            QStringLiteral("fio --showcmd printed '%1', not 'fio --option ...'").arg(line.left(120)));
    line = line.mid(4);
    if (line.endsWith(u' ')) // every option is printed with a blank after it
        line.chop(1);
    QStringList words;
    for (const QString &piece : line.split(u' ')) {
        if (piece.startsWith(QLatin1String("--")) || words.isEmpty())
            words << piece;
        else
            words.last() += u' ' + piece; // a value with blanks: fio prints it as it is
    }
    for (QString &word : words) {
        if (!word.startsWith(QLatin1String("--")))
            return Result<QStringList>::failure(
                QStringLiteral("fio --showcmd printed '%1' where an option belongs").arg(word.left(120)));
        // description is the one value fio prints in quotes
        static const QString quoted = QStringLiteral("--description=\"");
        if (word.startsWith(quoted) && word.endsWith(u'"') && word.size() > quoted.size())
            word = QStringLiteral("--description=") + word.mid(quoted.size(), word.size() - quoted.size() - 1);
    }
    return words;
}

Result<FioJobPlan> planFioArguments(const QStringList &arguments, const QString &devicePath)
{
    static const QRegularExpression shape(
        QStringLiteral("^--([A-Za-z0-9_-]+)(=(.*))?$"), QRegularExpression::DotMatchesEverythingOption);
    // fio's command line: options before the first --name, and after a --name=global..., are global; a job
    // starts from the global options as they are at its --name.
    QList<Option> global;
    QList<Section> jobs;
    bool inGlobal = true;
    // A refused engine first: its own options (exec's program=) would otherwise be what the message names.
    QString section;
    for (const QString &word : arguments) {
        const auto match = shape.match(word);
        const QString name = match.captured(1), value = match.captured(3);
        if (name == QLatin1String("name"))
            section = value.startsWith(QLatin1String("global")) ? QString() : value;
        if (name == QLatin1String("ioengine") && !allowedEngines().contains(value))
            return refuse(section, QStringLiteral("ioengine=%1 is refused: %2").arg(value, engineRefusal(value)));
    }
    for (const QString &word : arguments) {
        const auto match = shape.match(word);
        if (!match.hasMatch())
            return refuse({}, QStringLiteral("'%1' is not an --option=value").arg(word.left(120)));
        Option o { canonicalOption(match.captured(1)), match.captured(3), match.hasCaptured(2), word };
        const QString job = inGlobal ? QString() : jobs.last().name;
        if (o.name == QLatin1String("name")) {
            inGlobal = o.value.startsWith(QLatin1String("global")); // fio: strncmp(name, "global", 6)
            if (!inGlobal)
                jobs.append({ o.value, global });
            continue;
        }
        if (!allowedOptions().contains(o.name))
            return refuse(job, QStringLiteral("%1 is refused: %2").arg(o.name, refusalReason(o.name)));
        if (!o.hasValue && !valuelessOptions().contains(o.name))
            return refuse(job,
                QStringLiteral("%1 is given without a value: fio's command line would take the next option for "
                               "its value; write %1=VALUE")
                    .arg(o.name));
        if (const QString why = valueRefusal(allowedOptions().value(o.name), o.name, o.value); !why.isEmpty())
            return refuse(job, why);
        (inGlobal ? global : jobs.last().options).append(o);
    }
    if (jobs.isEmpty())
        return refuse({}, QStringLiteral("no job section: fio would run nothing"));
    FioJobPlan plan;
    plan.arguments = arguments;
    for (const Section &section : std::as_const(jobs)) {
        const auto job = planJob(section.name, section.options, devicePath);
        if (!job)
            return refuse(section.name, job.errorMessage());
        if (job->writes && !plan.writes) {
            plan.writes = true;
            plan.writeReason = QStringLiteral("job '%1': %2").arg(job->name, job->writeReason);
        }
        plan.jobs << job.value();
    }
    return plan;
}

QStringList fioAllowedOptions()
{
    QStringList names = allowedOptions().keys();
    names.sort();
    return names;
}

QStringList fioValuelessOptions()
{
    return valuelessOptions();
}

QString fioJobFileArgument(const QString &path)
{
    return path.startsWith(u'-') ? QStringLiteral("./") + path : path;
}

namespace {

constexpr int ShowcmdTimeoutMs = 10000;
constexpr int MaxIncludeDepth = 16; // fio has no limit: a file that includes itself recurses until it crashes
constexpr qsizetype MaxJobLineLength = 4000; // fio reads a line in pieces of at most 4 KiB (fgets)
// A section name no job file uses: with it selected, --showcmd prints the [global] sections only.
const QString globalsOnly = QStringLiteral("--section=dmtune-check-globals-only");
const QString deviceVariable = QStringLiteral("${DMTUNE_DEVICE}");

bool isCSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\v' || c == u'\f' || c == u'\r';
}

bool isCControl(QChar c)
{
    return c.unicode() < 0x20 || c.unicode() == 0x7f;
}

// One line as fio keeps it (init.c is_empty_or_comment, parse.c strip_blank_front and strip_blank_end): empty
// for a blank line or a comment; else without the blanks in front and without everything from the first ';'
// or '#' on, nor the blanks and control characters before that.
QString fioStrippedLine(const QString &raw)
{
    for (const QChar c : raw) {
        if (c == u';' || c == u'#')
            return {};
        if (!isCSpace(c) && !isCControl(c))
            break;
    }
    qsizetype from = 0;
    while (from < raw.size() && isCSpace(raw.at(from)))
        ++from;
    QString line = raw.mid(from);
    static const QRegularExpression commentStart(QStringLiteral("[;#]"));
    const qsizetype comment = line.indexOf(commentStart);
    if (comment >= 0)
        line.truncate(comment);
    while (!line.isEmpty() && (isCSpace(line.back()) || isCControl(line.back())))
        line.chop(1);
    return line;
}

Status inlineInto(QStringList *out, const QString &file, const QByteArray &content, int depth,
    const FioJobSource &source, qint64 *total)
{
    const bool nested = depth > 0;
    const QList<QByteArray> lines = content.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const auto fail = [&](const QString &what) {
            return Status::failure(QStringLiteral("%1 line %2: %3").arg(file).arg(i + 1).arg(what));
        };
        if (lines.at(i).contains('\0'))
            return fail(QStringLiteral("a NUL byte (fio would read the line differently)"));
        const QString line = fioStrippedLine(QString::fromUtf8(lines.at(i)));
        if (line.isEmpty())
            continue;
        if (line.size() > MaxJobLineLength)
            return fail(
                QStringLiteral("longer than %1 characters (fio would read it as several lines)").arg(MaxJobLineLength));
        if (line.startsWith(u'[') && nested)
            return fail(QStringLiteral("a section in an included file (fio refuses it too)"));
        // fio: any line starting with "include" names a file from its 9th character on, the character between
        // (blank, tab, '=', anything) skipped; relative to fio's working directory if it exists there, else
        // to the including file's directory. Its text is not expanded.
        if (!line.startsWith(QLatin1String("include"))) {
            *out << line;
            continue;
        }
        if (line.size() <= 8)
            return fail(QStringLiteral("include without a file name"));
        const QString name = line.mid(8);
        if (name.contains(u'$'))
            return fail(QStringLiteral("include %1: fio does not expand '$' in an include's name").arg(name));
        if (depth + 1 > MaxIncludeDepth)
            return fail(QStringLiteral("include %1: more than %2 levels of includes").arg(name).arg(MaxIncludeDepth));
        const qsizetype slash = file.lastIndexOf(u'/');
        const QString resolved
            = !name.startsWith(u'/') && !source.exists(name) && slash >= 0 ? file.left(slash + 1) + name : name;
        const auto included = source.read(resolved);
        if (!included)
            return fail(QStringLiteral("include %1: %2").arg(name, included.errorMessage()));
        *total += included->size();
        if (*total > TextInputCap)
            return fail(QStringLiteral("include %1: the job with its includes is more than %2")
                            .arg(name, byteSizeText(TextInputCap)));
        if (const Status inner = inlineInto(out, resolved, included.value(), depth + 1, source, total); !inner)
            return inner;
    }
    return Status::success();
}

// Who fio --showcmd runs as: nobody when dmtune is root. Parsing is not harmless: fio loads an external engine
// while it parses (ioengine=external:/x.so or a bare path, with an engine option), and reads a pattern file.
// screenFioJobText() refuses all of these first; should fio ever do more, it does so with no privilege, in an
// empty directory it cannot even read, on a job text it gets on its standard input.
struct RunAs {
    uid_t uid = 0;
    gid_t gid = 0;
    bool drop = false;
};

Result<RunAs> unprivilegedUser()
{
    RunAs as;
    if (::geteuid() != 0)
        return as; // already without privilege
    const struct passwd *nobody = ::getpwnam("nobody");
    if (!nobody)
        return Result<RunAs>::failure(QStringLiteral("there is no user 'nobody' to check the job file as"));
    as.uid = nobody->pw_uid;
    as.gid = nobody->pw_gid;
    as.drop = true;
    return as;
}

Result<QStringList> showcmd(
    const QString &fio, const QStringList &args, const QByteArray &jobText, const QString &devicePath, RunAs as)
{
    // The directory fio runs in: new, empty, root's and 0700 (nobody cannot even look inside).
    const QTemporaryDir empty(QDir::tempPath() + QStringLiteral("/dmtune-showcmd-XXXXXX"));
    if (!empty.isValid())
        return Result<QStringList>::failure(
            QStringLiteral("cannot make a directory to check the job in: %1").arg(empty.errorString()));
    QProcess process;
    const QByteArray directory = QFile::encodeName(empty.path());
    process.setChildProcessModifier([as, directory] {
        if (::chdir(directory.constData()) != 0)
            ::_exit(126);
        if (as.drop && (::setgroups(0, nullptr) != 0 || ::setgid(as.gid) != 0 || ::setuid(as.uid) != 0))
            ::_exit(126);
    });
    // Only the variable dmtune sets: the job text has no other '$' (screenFioJobText).
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("DMTUNE_DEVICE"), devicePath);
    process.setProcessEnvironment(environment);
    process.start(fio, QStringList { QStringLiteral("--showcmd") } + args + QStringList { QStringLiteral("-") });
    const QString shown = as.drop ? QStringLiteral("fio --showcmd (as nobody)") : QStringLiteral("fio --showcmd");
    if (!process.waitForStarted(ShowcmdTimeoutMs))
        return Result<QStringList>::failure(QStringLiteral("%1: %2").arg(shown, process.errorString()));
    process.write(jobText);
    process.closeWriteChannel();
    if (!process.waitForFinished(ShowcmdTimeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
        return Result<QStringList>::failure(QStringLiteral("%1 did not finish in 10 s").arg(shown));
    }
    const QString err = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
    const QString out = QString::fromLocal8Bit(process.readAllStandardOutput());
    // fio only warns about some errors: any message means "not what you wrote".
    if (!err.isEmpty())
        return Result<QStringList>::failure(QStringLiteral("%1: %2").arg(shown, err.section(u'\n', 0, 0)));
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return Result<QStringList>::failure(
            QStringLiteral("%1 failed (exit %2): %3").arg(shown).arg(process.exitCode()).arg(out.trimmed().left(120)));
    return parseFioShowcmd(out);
}

} // namespace

Result<QString> inlineFioJobFile(const QString &path, const FioJobSource &source)
{
    const auto content = source.read(path);
    if (!content)
        return Result<QString>::failure(content.errorMessage());
    QStringList lines;
    qint64 total = content->size();
    if (const Status inlined = inlineInto(&lines, path, content.value(), 0, source, &total); !inlined)
        return Result<QString>::failure(inlined.errorMessage());
    return lines.join(u'\n') + u'\n';
}

FioJobSource fioJobFilesOnDisk()
{
    FioJobSource source;
    source.exists = [](const QString &path) { return ::access(QFile::encodeName(path).constData(), F_OK) == 0; };
    source.read = [](const QString &path) { return readInputFile(path, TextInputCap, QStringLiteral("a job file")); };
    return source;
}

Status screenFioJobText(const QString &text)
{
    static const QRegularExpression control(QStringLiteral("[\\x00-\\x08\\x0a-\\x1f\\x7f]"));
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    struct Line {
        QString name, value, line;
        bool hasValue = false;
    };
    QList<Line> options;
    for (const QString &line : lines) {
        if (const auto bad = control.match(line); bad.hasMatch())
            return Status::failure(QStringLiteral("a control character (0x%1) in the job: refused, it would reach "
                                                  "the terminal as it is")
                                       .arg(bad.captured().at(0).unicode(), 2, 16, QChar(u'0')));
        if (line.startsWith(u'['))
            continue;
        const qsizetype equals = line.indexOf(u'=');
        Line o;
        o.name = line.left(equals < 0 ? line.size() : equals);
        while (!o.name.isEmpty() && (isCSpace(o.name.back()) || isCControl(o.name.back())))
            o.name.chop(1); // fio's get_option(): the name without the blanks before '='
        o.hasValue = equals >= 0;
        o.value = o.hasValue ? line.mid(equals + 1) : QString();
        o.line = line;
        options << o;
    }
    // The engine first: fio loads it while it parses, and its own options would otherwise be what is named.
    for (const Line &o : std::as_const(options)) {
        if (canonicalOption(o.name) == QLatin1String("ioengine") && !allowedEngines().contains(o.value))
            return Status::failure(
                QStringLiteral("ioengine=%1 is refused: %2").arg(o.value.left(120), engineRefusal(o.value.trimmed())));
    }
    for (const Line &o : std::as_const(options)) {
        const QString name = canonicalOption(o.name);
        if (name == QLatin1String("name"))
            continue;
        if (!allowedOptions().contains(name))
            return Status::failure(QStringLiteral("%1 is refused: %2").arg(o.name.left(60), refusalReason(name)));
        if (const QString why = valueRefusal(allowedOptions().value(name), name, o.value); !why.isEmpty())
            return Status::failure(why);
    }
    // fio expands ${VAR} from its environment, and $pagesize, $ncpus, $mb_memory and $(...) itself, in each
    // option's name and value as it parses it: only the device is dmtune's to give.
    for (const Line &o : std::as_const(options)) {
        if (QString(o.line).remove(deviceVariable).contains(u'$'))
            return Status::failure(QStringLiteral("%1: '$' is refused (only %2 is expanded: fio would take the "
                                                  "rest from its environment or its keywords)")
                                       .arg(o.name.left(60), deviceVariable));
    }
    return Status::success();
}

Result<FioJobPlan> checkFioJobFile(const QString &fioProgram, const QString &jobFile, const QString &devicePath)
{
    FioJobSource source = fioJobFilesOnDisk();
    // A job file of another user: its includes must be ones that user could read (fio ran as the file's owner
    // before; dmtune reads them itself now, as root).
    struct stat st { };
    if (::stat(QFile::encodeName(jobFile).constData(), &st) == 0 && ::geteuid() == 0 && st.st_uid != 0) {
        const uid_t owner = st.st_uid;
        const FioJobSource disk = source;
        source.read = [owner, disk, jobFile](const QString &path) {
            struct stat include { };
            if (path != jobFile
                && (::stat(QFile::encodeName(path).constData(), &include) != 0
                    || !((include.st_uid == owner && (include.st_mode & S_IRUSR)) || (include.st_mode & S_IROTH))))
                return Result<QByteArray>::failure(
                    QStringLiteral("%1: not readable by the job file's owner (uid %2)").arg(path).arg(owner));
            return disk.read(path);
        };
    }
    const auto text = inlineFioJobFile(fioJobFileArgument(jobFile), source);
    if (!text)
        return Result<FioJobPlan>::failure(text.errorMessage());
    if (const Status screened = screenFioJobText(text.value()); !screened)
        return Result<FioJobPlan>::failure(screened.errorMessage());
    const auto as = unprivilegedUser();
    if (!as)
        return Result<FioJobPlan>::failure(as.errorMessage());
    const QByteArray jobText = text->toUtf8();
    const auto words = showcmd(fioProgram, {}, jobText, devicePath, as.value());
    if (!words)
        return Result<FioJobPlan>::failure(words.errorMessage());
    // --showcmd prints a [global] section where it ends, without a --name: one after a job would read as that
    // job's options. With no job selected, only the globals are printed; they must be the options before the
    // first job, else some [global] comes after a job.
    const auto globals = showcmd(fioProgram, { globalsOnly }, jobText, devicePath, as.value());
    if (!globals)
        return Result<FioJobPlan>::failure(globals.errorMessage());
    qsizetype firstJob = 0;
    while (firstJob < words->size() && !words->at(firstJob).startsWith(QLatin1String("--name=")))
        ++firstJob;
    if (globals.value() != words->mid(0, firstJob))
        return Result<FioJobPlan>::failure(
            QStringLiteral("a [global] section after a job: fio --showcmd cannot show which jobs it applies to; "
                           "put the [global] sections first"));
    return planFioArguments(words.value(), devicePath);
}

Result<FioJobPlan> prepareFioJob(FioJob *job, const QString &devicePath, const QString &fioProgram)
{
    if (const Status valid = validateFioJob(*job); !valid)
        return Result<FioJobPlan>::failure(valid.errorMessage());
    if (!job->isCustom()) {
        QStringList args = fioArguments(*job, devicePath);
        for (const QString &status : fioStatusArguments())
            args.removeOne(status);
        return planFioArguments(args, devicePath);
    }
    QString fio = fioProgram;
    if (fio.isEmpty()) {
        const auto found = FioRun::findFio();
        if (!found)
            return Result<FioJobPlan>::failure(found.errorMessage());
        fio = found.value();
    }
    job->checkedArguments.clear();
    job->checkedDevice.clear();
    auto plan = checkFioJobFile(fio, job->jobFile, devicePath);
    if (!plan)
        return Result<FioJobPlan>::failure(QStringLiteral("%1: %2").arg(job->jobFile, plan.errorMessage()));
    job->checkedArguments = plan->arguments;
    job->checkedDevice = devicePath;
    return plan;
}

} // namespace dmtune
