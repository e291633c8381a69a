#include "core/workloads/deviceopeners.h"

#include <QFile>
#include <QHash>
#include <QStringList>

#include <cstring>
#include <memory>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

struct DirCloser {
    void operator()(DIR *d) const { ::closedir(d); }
};
using Dir = std::unique_ptr<DIR, DirCloser>;

bool isNumber(const char *name)
{
    if (!*name)
        return false;
    for (; *name; ++name) {
        if (*name < '0' || *name > '9')
            return false;
    }
    return true;
}

// Which of `rdevs` the process has a descriptor on (each once).
QList<dev_t> descriptorsOn(const QByteArray &fdDir, const QList<dev_t> &rdevs)
{
    QList<dev_t> found;
    const Dir dir(::opendir(fdDir.constData()));
    if (!dir)
        return found;
    const int dirFd = ::dirfd(dir.get());
    while (const dirent *entry = ::readdir(dir.get())) {
        if (!isNumber(entry->d_name))
            continue;
        // The link first: stat() follows it into whatever the descriptor is (a FIFO, a file on a hung mount);
        // only device nodes are looked at further.
        char target[256];
        const ssize_t n = ::readlinkat(dirFd, entry->d_name, target, sizeof target - 1);
        if (n <= 5 || std::strncmp(target, "/dev/", 5) != 0)
            continue;
        struct stat st { };
        if (::fstatat(dirFd, entry->d_name, &st, 0) == 0 && S_ISBLK(st.st_mode) && rdevs.contains(st.st_rdev)
            && !found.contains(st.st_rdev))
            found.append(st.st_rdev);
    }
    return found;
}

QByteArray readSmall(const QByteArray &path, qint64 max)
{
    QFile file(QFile::decodeName(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(max);
}

// /proc/<pid>/stat's fourth field. The second, (comm), may hold blanks and parentheses: the fields after it
// are counted from its last ')'.
qint64 parentPid(const QByteArray &pidDir)
{
    const QByteArray stat = readSmall(pidDir + "/stat", 512);
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return -1;
    const QList<QByteArray> fields = stat.mid(close + 1).simplified().split(' ');
    bool ok = false;
    const qint64 ppid = fields.size() >= 2 ? fields.at(1).toLongLong(&ok) : -1;
    return ok ? ppid : -1;
}

bool isDmtuneExecutable(const QByteArray &pidDir)
{
    char target[4096];
    const ssize_t n = ::readlink((pidDir + "/exe").constData(), target, sizeof target - 1);
    if (n <= 0)
        return false;
    QByteArray path(target, n);
    if (path.endsWith(" (deleted)")) // replaced by an upgrade while it runs: still that program
        path.chop(10);
    const QByteArray name = path.mid(path.lastIndexOf('/') + 1);
    return name == "dmtune" || name == "dmtunectl" || name == "dmtune-helper" || name == "dmtune-report";
}

} // namespace

QList<DeviceOpener> deviceOpeners(const QString &procRoot, dev_t rdev)
{
    return deviceOpeners(procRoot, QList<dev_t> { rdev });
}

QList<DeviceOpener> deviceOpeners(const QString &procRoot, const QList<dev_t> &rdevs)
{
    QList<DeviceOpener> out;
    const QByteArray root = QFile::encodeName(procRoot);
    const Dir proc(::opendir(root.constData()));
    if (!proc)
        return out;
    while (const dirent *entry = ::readdir(proc.get())) {
        if (!isNumber(entry->d_name))
            continue;
        const QByteArray pidDir = root + '/' + entry->d_name;
        const QList<dev_t> on = descriptorsOn(pidDir + "/fd", rdevs);
        if (on.isEmpty())
            continue;
        DeviceOpener opener;
        opener.pid = QByteArray(entry->d_name).toLongLong();
        opener.command = QString::fromLocal8Bit(readSmall(pidDir + "/comm", 64)).trimmed();
        for (const dev_t rdev : on) {
            opener.rdev = rdev;
            out.append(opener);
        }
    }
    return out;
}

// Why pids and the executable, not the name: comm is whatever the process set (prctl(PR_SET_NAME), or any
// binary called "dmtune"), so a database, a VM or a hostile program could name itself so and have its open
// descriptor ignored. The pid tree cannot be chosen: only what dmtune started (descendants) or what started
// it (ancestors: the GUI over dmtune-helper, ssh's shell over the agent) is in it. Among those, only dmtune's
// own programs by the kernel's exe link are left out: fio, a shell or a checker that dmtune or its caller
// started is still an opener. Another dmtune (not in the tree) and the fio it runs are openers too: they use
// the device.
QSet<qint64> ownProcesses(const QString &procRoot, qint64 self)
{
    const QByteArray root = QFile::encodeName(procRoot);
    QSet<qint64> own { self };
    QHash<qint64, qint64> parents;
    if (const Dir proc(::opendir(root.constData())); proc) {
        while (const dirent *entry = ::readdir(proc.get())) {
            if (isNumber(entry->d_name))
                parents.insert(QByteArray(entry->d_name).toLongLong(), parentPid(root + '/' + entry->d_name));
        }
    }
    const auto pidDir = [&root](qint64 pid) { return root + '/' + QByteArray::number(pid); };
    // Ancestors up to init (the walk stops at a pid seen twice: a tree read while it changes).
    QSet<qint64> seen { self };
    for (qint64 pid = parents.value(self, -1); pid > 0 && !seen.contains(pid); pid = parents.value(pid, -1)) {
        seen.insert(pid);
        if (isDmtuneExecutable(pidDir(pid)))
            own.insert(pid);
    }
    // Descendants, breadth first.
    QList<qint64> frontier { self };
    QSet<qint64> descendants { self };
    while (!frontier.isEmpty()) {
        const qint64 parent = frontier.takeFirst();
        for (auto it = parents.cbegin(); it != parents.cend(); ++it) {
            if (it.value() != parent || descendants.contains(it.key()))
                continue;
            descendants.insert(it.key());
            frontier.append(it.key());
            if (isDmtuneExecutable(pidDir(it.key())))
                own.insert(it.key());
        }
    }
    return own;
}

QString openersText(const QList<DeviceOpener> &openers)
{
    QStringList parts;
    for (const DeviceOpener &o : openers)
        parts << QStringLiteral("%1 (pid %2)").arg(o.command.isEmpty() ? QStringLiteral("?") : o.command).arg(o.pid);
    return parts.join(QStringLiteral(", "));
}

} // namespace dmtune
