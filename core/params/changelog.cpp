#include "core/params/changelog.h"

#include "core/util/errnotext.h"
#include "core/util/fd.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

using namespace Qt::StringLiterals;

QString changeLogPath()
{
    if (const QString forced = qEnvironmentVariable("DMTUNE_CHANGE_LOG"); !forced.isEmpty())
        return forced;
    // Only root writes the live sysfs (a user's GUI through dmtune-helper, which is root): one log per host, which a
    // user's window reads (0644).
    return QStringLiteral("/var/lib/dmtune/changes.jsonl");
}

QList<ChangeLogEntry> changeLogEntries(const ApplyResult &result, double epochSeconds)
{
    QList<ChangeLogEntry> out;
    if (result.dryRun || result.rolledBack)
        return out;
    const QString tool = QCoreApplication::instance() ? QCoreApplication::applicationName() : QString();
    for (const ChangeOutcome &c : result.changes) {
        if (!c.written && !c.sideEffect)
            continue;
        if (c.oldValue == c.newValue)
            continue;
        out << ChangeLogEntry { epochSeconds, tool, qint64(::getpid()), qint64(::getppid()), c.device, c.attribute,
            c.oldValue, c.newValue };
    }
    return out;
}

QByteArray changeLogLine(const ChangeLogEntry &e)
{
    const QJsonObject o { { "t"_L1, e.epochSeconds }, { "tool"_L1, e.tool }, { "pid"_L1, e.pid },
        { "ppid"_L1, e.parentPid }, { "device"_L1, e.device }, { "attribute"_L1, e.attribute },
        { "old"_L1, e.oldValue }, { "new"_L1, e.newValue } };
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

Status appendChangeLog(const QString &path, const QList<ChangeLogEntry> &entries)
{
    if (entries.isEmpty())
        return Status::success();
    const QString dir = QFileInfo(path).path();
    if (!QDir().mkpath(dir))
        return Status::failure(QStringLiteral("%1: cannot make the directory").arg(dir));
    const QByteArray name = QFile::encodeName(path);
    // Grown past what is read back: moved aside (rename replaces a link named .1, never what it points to).
    struct stat st { };
    if (::lstat(name.constData(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > MaxChangeLogBytes)
        ::rename(name.constData(), QFile::encodeName(path + QStringLiteral(".1")).constData());
    const Fd fd(::open(name.constData(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644));
    if (fd.get() < 0)
        return Status::failure(QStringLiteral("%1: %2").arg(path, errnoText(errno)));
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        return Status::failure(QStringLiteral("%1: not a regular file").arg(path));
    QByteArray lines;
    for (const ChangeLogEntry &e : entries)
        lines += changeLogLine(e);
    // One write: O_APPEND keeps another program's lines whole beside these.
    if (::write(fd.get(), lines.constData(), size_t(lines.size())) != lines.size())
        return Status::failure(QStringLiteral("%1: %2").arg(path, errnoText(errno)));
    return Status::success();
}

QList<ChangeLogEntry> parseChangeLog(const QByteArray &bytes)
{
    QList<ChangeLogEntry> out;
    for (const QByteArray &line : bytes.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!o.value("t"_L1).isDouble() || !o.value("device"_L1).isString() || !o.value("attribute"_L1).isString()
            || !o.value("new"_L1).isString())
            continue;
        out << ChangeLogEntry { o.value("t"_L1).toDouble(), o.value("tool"_L1).toString(),
            qint64(o.value("pid"_L1).toDouble()), qint64(o.value("ppid"_L1).toDouble()),
            o.value("device"_L1).toString(), o.value("attribute"_L1).toString(), o.value("old"_L1).toString(),
            o.value("new"_L1).toString() };
    }
    return out;
}

Result<QList<ChangeLogEntry>> readChangeLog(const QString &path)
{
    using R = Result<QList<ChangeLogEntry>>;
    const Fd fd(::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0)
        return errno == ENOENT ? R(QList<ChangeLogEntry>())
                               : R::failure(QStringLiteral("%1: %2").arg(path, errnoText(errno)));
    struct stat st { };
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
        return R::failure(QStringLiteral("%1: not a regular file").arg(path));
    // Only the end: a window asks about the last seconds, and the log is moved aside past MaxChangeLogBytes.
    const off_t from = st.st_size > MaxChangeLogBytes ? st.st_size - MaxChangeLogBytes : 0;
    QByteArray bytes(qsizetype(st.st_size - from), Qt::Uninitialized);
    const ssize_t n = ::pread(fd.get(), bytes.data(), size_t(bytes.size()), from);
    if (n < 0)
        return R::failure(QStringLiteral("%1: %2").arg(path, errnoText(errno)));
    bytes.truncate(n);
    return parseChangeLog(bytes);
}

QString externalChangeLabel(const QString &device, const QString &attribute, const QString &oldValue,
    const QString &newValue, double fromEpoch, double toEpoch, const QList<ChangeLogEntry> &log, qint64 ownPid)
{
    const QString shown = attribute.startsWith(QLatin1String("queue/")) ? attribute.mid(6) : attribute;
    const QString change = QStringLiteral("%1 %2 %3 -> %4").arg(device, shown, oldValue, newValue);
    // The newest write of that value in the interval (a second of slack each side: the clocks are one host's, the
    // log's time is taken after the write).
    for (auto it = log.crbegin(); it != log.crend(); ++it) {
        if (it->device != device || it->attribute != attribute || it->newValue != newValue)
            continue;
        if (it->epochSeconds < fromEpoch - 1 || it->epochSeconds > toEpoch + 1)
            continue;
        if (it->pid == ownPid || (it->tool == QLatin1String("dmtune-helper") && it->parentPid == ownPid))
            return {}; // this window's own change: it has its marker already
        return QStringLiteral("%1 (%2, pid %3)").arg(change, it->tool).arg(it->pid);
    }
    return QStringLiteral("%1 (changed outside dmtune)").arg(change);
}

} // namespace dmtune
