#include "workloads/deviceopeners.h"

#include <QFile>
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

bool hasDescriptorOn(const QByteArray &fdDir, dev_t rdev)
{
    const Dir dir(::opendir(fdDir.constData()));
    if (!dir)
        return false;
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
        if (::fstatat(dirFd, entry->d_name, &st, 0) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
            return true;
    }
    return false;
}

} // namespace

QList<DeviceOpener> deviceOpeners(const QString &procRoot, dev_t rdev)
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
        if (!hasDescriptorOn(pidDir + "/fd", rdev))
            continue;
        DeviceOpener opener;
        opener.pid = QByteArray(entry->d_name).toLongLong();
        QFile comm(QFile::decodeName(pidDir + "/comm"));
        if (comm.open(QIODevice::ReadOnly))
            opener.command = QString::fromLocal8Bit(comm.read(64)).trimmed();
        out.append(opener);
    }
    return out;
}

QString openersText(const QList<DeviceOpener> &openers)
{
    QStringList parts;
    for (const DeviceOpener &o : openers)
        parts << QStringLiteral("%1 (pid %2)").arg(o.command.isEmpty() ? QStringLiteral("?") : o.command).arg(o.pid);
    return parts.join(QStringLiteral(", "));
}

} // namespace dmtune
