#include "core/workloads/fiojob.h"

#include "core/workloads/fiojobfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace dmtune {

namespace {

QString option(const char *name, const QString &value)
{
    return QStringLiteral("--%1=%2").arg(QLatin1String(name), value);
}

Result<FioJob> fieldError(const QString &field, const QString &what)
{
    return Result<FioJob>::failure(QStringLiteral("%1: %2").arg(field, what));
}

} // namespace

bool rwWrites(const QString &rw)
{
    return fioRwModeWrites(rw).value_or(true); // what fio does not know is not known to be a read
}

const QStringList &fioRwModes()
{
    static const QStringList modes = { QStringLiteral("read"), QStringLiteral("write"), QStringLiteral("randread"),
        QStringLiteral("randwrite"), QStringLiteral("rw"), QStringLiteral("randrw"), QStringLiteral("trim"),
        QStringLiteral("randtrim"), QStringLiteral("trimwrite"), QStringLiteral("randtrimwrite") };
    return modes;
}

const QStringList &fioEngines()
{
    static const QStringList engines = { QStringLiteral("libaio"), QStringLiteral("io_uring"), QStringLiteral("psync"),
        QStringLiteral("sync"), QStringLiteral("pvsync2"), QStringLiteral("posixaio") };
    return engines;
}

const QStringList &fioStatusArguments()
{
    static const QStringList args = { QStringLiteral("--status-interval=1"), QStringLiteral("--output-format=json+") };
    return args;
}

QStringList fioArguments(const FioJob &job, const QString &devicePath)
{
    if (job.isCustom() && !job.checkedArguments.isEmpty()) // fio's own options first, as `fio FILE` has them
        return fioStatusArguments() + job.checkedArguments;
    if (job.isCustom())
        return QStringList { fioJobFileArgument(job.jobFile) } + fioStatusArguments();
    QStringList args = { option("name", job.id.isEmpty() ? QStringLiteral("dmtune") : job.id),
        option("filename", devicePath), option("rw", job.rw), option("bs", job.bs), option("ioengine", job.ioengine),
        option("iodepth", QString::number(job.iodepth)), option("numjobs", QString::number(job.numjobs)),
        option("direct", job.direct ? QStringLiteral("1") : QStringLiteral("0")), QStringLiteral("--time_based"),
        option("runtime", QString::number(job.runtimeSeconds)), QStringLiteral("--group_reporting") };
    if (job.batching) // STYLE.md: what lets mq-deadline merge 4K writes on a direct-I/O loop device
        args << QStringLiteral("--iodepth_batch_submit=16") << QStringLiteral("--iodepth_batch_complete_min=8");
    args << job.options << fioStatusArguments();
    return args;
}

QStringList fioEnvironment(const QString &devicePath)
{
    return { QStringLiteral("DMTUNE_DEVICE=") + devicePath };
}

QString shellQuote(const QString &word)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_=,./:+%@-]+$"));
    if (safe.match(word).hasMatch())
        return word;
    // A control character (ESC from a job's description=) would reach the terminal as it is inside '...':
    // such a word is written in bash's $'...' with \xHH escapes, what a shell takes back as the same word.
    static const QRegularExpression control(QStringLiteral("[\\x00-\\x1f\\x7f]"));
    if (word.contains(control)) {
        QString escaped;
        for (const QChar c : word) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                escaped += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QChar(u'0'));
            else if (c == u'\\' || c == u'\'')
                escaped += u'\\' + QString(c);
            else
                escaped += c;
        }
        return QStringLiteral("$'") + escaped + u'\'';
    }
    QString quoted = word;
    quoted.replace(u'\'', QLatin1String("'\\''"));
    return u'\'' + quoted + u'\'';
}

QString fioCommandLine(const QString &program, const FioJob &job, const QString &devicePath)
{
    QStringList words;
    if (job.isCustom() && job.checkedArguments.isEmpty()) {
        for (const QString &entry : fioEnvironment(devicePath))
            words << shellQuote(entry);
    }
    words << shellQuote(program);
    for (const QString &arg : fioArguments(job, devicePath))
        words << shellQuote(arg);
    return words.join(u' ');
}

Status validateFioJob(const FioJob &job)
{
    if (job.isCustom())
        return QFile::exists(job.jobFile) ? Status::success()
                                          : Status::failure(QStringLiteral("job file %1 not found").arg(job.jobFile));
    if (!fioRwModeWrites(job.rw).has_value())
        return Status::failure(QStringLiteral("rw: '%1' is not one of %2").arg(job.rw, fioRwModes().join(u',')));
    static const QRegularExpression size(QStringLiteral("^[0-9]+[kKmM]?$"));
    if (!size.match(job.bs).hasMatch())
        return Status::failure(QStringLiteral("bs: '%1' is not a size like 4k, 512, 1m").arg(job.bs));
    static const QRegularExpression word(QStringLiteral("^[a-z0-9_]+$"));
    if (!word.match(job.ioengine).hasMatch())
        return Status::failure(QStringLiteral("ioengine: '%1' is not an engine name").arg(job.ioengine));
    if (job.iodepth < 1 || job.iodepth > 65536)
        return Status::failure(QStringLiteral("iodepth: %1 is not in 1..65536").arg(job.iodepth));
    if (job.numjobs < 1 || job.numjobs > 4096)
        return Status::failure(QStringLiteral("numjobs: %1 is not in 1..4096").arg(job.numjobs));
    if (job.runtimeSeconds < 1 || job.runtimeSeconds > 7 * 24 * 3600)
        return Status::failure(QStringLiteral("runtime: %1 s is not in 1 s..7 days").arg(job.runtimeSeconds));
    for (const QString &extra : job.options) {
        if (!extra.startsWith(QLatin1String("--")) || extra.startsWith(QLatin1String("--filename"))
            || extra.startsWith(QLatin1String("--output")))
            return Status::failure(
                QStringLiteral("options: '%1' is not a --name=value option dmtune lets through").arg(extra));
    }
    return Status::success();
}

Status fioJobRunnable(const FioJob &job, const QString &devicePath)
{
    if (const Status valid = validateFioJob(job); !valid)
        return valid;
    if (job.isCustom() && (job.checkedArguments.isEmpty() || job.checkedDevice != devicePath))
        return Status::failure(QStringLiteral("job file %1 was not checked for %2").arg(job.jobFile, devicePath));
    return Status::success();
}

Result<FioJob> fioJobFromJson(const QJsonObject &o)
{
    FioJob job;
    job.id = o.value(QLatin1String("id")).toString();
    if (job.id.isEmpty())
        return fieldError(QStringLiteral("id"), QStringLiteral("missing"));
    job.title = o.value(QLatin1String("title")).toString(job.id);
    job.why = o.value(QLatin1String("why")).toString();
    const auto text = [&](const char *key, QString *out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        if (!v.isString())
            return false;
        *out = v.toString();
        return true;
    };
    const auto number = [&](const char *key, int *out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return true;
        if (!v.isDouble() || v.toDouble() != double(v.toInt()))
            return false;
        *out = v.toInt();
        return true;
    };
    if (!text("rw", &job.rw))
        return fieldError(QStringLiteral("rw"), QStringLiteral("not a string"));
    if (!text("bs", &job.bs))
        return fieldError(QStringLiteral("bs"), QStringLiteral("not a string"));
    if (!text("ioengine", &job.ioengine))
        return fieldError(QStringLiteral("ioengine"), QStringLiteral("not a string"));
    if (!number("iodepth", &job.iodepth))
        return fieldError(QStringLiteral("iodepth"), QStringLiteral("not an integer"));
    if (!number("numjobs", &job.numjobs))
        return fieldError(QStringLiteral("numjobs"), QStringLiteral("not an integer"));
    if (!number("runtime", &job.runtimeSeconds))
        return fieldError(QStringLiteral("runtime"), QStringLiteral("not an integer"));
    job.direct = o.value(QLatin1String("direct")).toBool(true);
    job.batching = o.value(QLatin1String("batching")).toBool(false);
    for (const QJsonValue &v : o.value(QLatin1String("options")).toArray()) {
        if (!v.isString())
            return fieldError(QStringLiteral("options"), QStringLiteral("not a list of strings"));
        job.options << v.toString();
    }
    if (const Status valid = validateFioJob(job); !valid)
        return Result<FioJob>::failure(valid.errorMessage());
    return job;
}

QJsonObject fioJobToJson(const FioJob &job)
{
    QJsonObject o { { QStringLiteral("id"), job.id }, { QStringLiteral("title"), job.title },
        { QStringLiteral("rw"), job.rw }, { QStringLiteral("bs"), job.bs }, { QStringLiteral("iodepth"), job.iodepth },
        { QStringLiteral("numjobs"), job.numjobs }, { QStringLiteral("runtime"), job.runtimeSeconds },
        { QStringLiteral("ioengine"), job.ioengine }, { QStringLiteral("direct"), job.direct },
        { QStringLiteral("batching"), job.batching },
        { QStringLiteral("options"), QJsonArray::fromStringList(job.options) } };
    if (!job.why.isEmpty())
        o.insert(QStringLiteral("why"), job.why);
    if (job.isCustom())
        o.insert(QStringLiteral("job_file"), job.jobFile);
    if (!job.checkedArguments.isEmpty())
        o.insert(QStringLiteral("checked_arguments"), QJsonArray::fromStringList(job.checkedArguments));
    return o;
}

const QList<FioJob> &fioTemplates()
{
    static const QList<FioJob> templates = [] {
        QList<FioJob> list;
        const QDir dir(QStringLiteral(":/dmtune/workloads"));
        for (const QString &name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const auto job = fioJobFromJson(QJsonDocument::fromJson(file.readAll()).object());
            if (job) // the templates are tested (tst_fiojob); a bad one is left out rather than half-used
                list << job.value();
        }
        std::sort(list.begin(), list.end(), [](const FioJob &a, const FioJob &b) { return a.id < b.id; });
        return list;
    }();
    return templates;
}

const FioJob *fioTemplate(const QString &id)
{
    for (const FioJob &job : fioTemplates()) {
        if (job.id == id)
            return &job;
    }
    return nullptr;
}

} // namespace dmtune
