#include "core/sysfs/beneath.h"

#include <QList>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace dmtune::beneath {

namespace {

constexpr int maxLinks = 40; // the kernel's own limit (MAXSYMLINKS)
std::atomic<bool> g_forceFallback { false };
std::atomic<bool> g_noOpenat2 { false };

QList<QByteArray> components(const QByteArray &path)
{
    QList<QByteArray> out;
    for (const QByteArray &part : path.split('/')) {
        if (!part.isEmpty() && part != ".")
            out.append(part);
    }
    return out;
}

// Walks `relative` under rootFd with RESOLVE_BENEATH's rules: the components of where it leads.
// followLast false: a link as last component is the answer itself (O_NOFOLLOW). missingLastOk: the last
// component may be absent (O_CREAT).
bool walk(
    int rootFd, const QByteArray &relative, Links links, bool followLast, bool missingLastOk, QList<QByteArray> *out)
{
    if (relative.startsWith('/')) {
        errno = EXDEV;
        return false;
    }
    QList<QByteArray> pending = components(relative); // a stack: the next component is last
    std::reverse(pending.begin(), pending.end());
    QList<QByteArray> done;
    int followed = 0;
    while (!pending.isEmpty()) {
        const QByteArray part = pending.takeLast();
        if (part == "..") {
            if (done.isEmpty()) {
                errno = EXDEV;
                return false;
            }
            done.removeLast();
            continue;
        }
        const bool last = pending.isEmpty();
        done.append(part);
        const QByteArray path = done.join('/');
        struct stat st { };
        if (::fstatat(rootFd, path.constData(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT && last && missingLastOk)
                break;
            return false;
        }
        if (!S_ISLNK(st.st_mode)) {
            if (!last && !S_ISDIR(st.st_mode)) {
                errno = ENOTDIR;
                return false;
            }
            continue;
        }
        if (last && !followLast)
            continue;
        if (links == Links::Refuse || ++followed > maxLinks) {
            errno = ELOOP;
            return false;
        }
        char target[4096];
        const ssize_t n = ::readlinkat(rootFd, path.constData(), target, sizeof target);
        if (n < 0)
            return false;
        if (n == ssize_t(sizeof target)) {
            errno = ENAMETOOLONG;
            return false;
        }
        if (n == 0 || target[0] == '/') {
            errno = EXDEV;
            return false;
        }
        done.removeLast();
        QList<QByteArray> more = components(QByteArray(target, int(n)));
        // ".." survives components(): it is resolved against `done` as the walk reaches it.
        for (auto it = more.crbegin(); it != more.crend(); ++it)
            pending.append(*it);
    }
    *out = done;
    return true;
}

// The walk, then each directory opened with O_NOFOLLOW from the root: a link swapped in after the walk
// looked is refused (ELOOP), never followed.
int openByWalk(int rootFd, const QByteArray &relative, int flags, Links links, mode_t mode)
{
    QList<QByteArray> parts;
    if (!walk(rootFd, relative, links, !(flags & O_NOFOLLOW), (flags & O_CREAT) != 0, &parts))
        return -1;
    if (parts.isEmpty())
        return ::openat(rootFd, ".", flags & ~O_CREAT, mode);
    int dir = rootFd;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const int next = ::openat(dir, parts.at(i).constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        const int error = errno;
        if (dir != rootFd)
            ::close(dir);
        if (next < 0) {
            errno = error;
            return -1;
        }
        dir = next;
    }
    const int fd = ::openat(dir, parts.last().constData(), flags | O_NOFOLLOW, mode);
    const int error = errno;
    if (dir != rootFd)
        ::close(dir);
    errno = error;
    return fd;
}

} // namespace

int open(int rootFd, const QByteArray &relative, int flags, Links links, mode_t mode)
{
    if (!g_forceFallback.load(std::memory_order_relaxed) && !g_noOpenat2.load(std::memory_order_relaxed)) {
        struct open_how how { };
        how.flags = quint64(unsigned(flags));
        how.mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | (links == Links::Refuse ? RESOLVE_NO_SYMLINKS : 0);
        const char *path = relative.isEmpty() ? "." : relative.constData();
        for (int attempt = 0; attempt < 8; ++attempt) {
            const long fd = ::syscall(SYS_openat2, rootFd, path, &how, sizeof how);
            if (fd >= 0)
                return int(fd);
            if (errno == EAGAIN) // a rename raced the lookup: the kernel asks to try again
                continue;
            if (errno != ENOSYS && errno != EPERM) // EPERM: a seccomp filter that does not know openat2
                return -1;
            if (errno == ENOSYS)
                g_noOpenat2.store(true, std::memory_order_relaxed);
            break;
        }
    }
    return openByWalk(rootFd, relative, flags, links, mode);
}

bool resolve(int rootFd, const QByteArray &relative, QByteArray *resolved)
{
    QList<QByteArray> parts;
    if (!walk(rootFd, relative, Links::Follow, true, false, &parts))
        return false;
    *resolved = parts.join('/');
    return true;
}

void setForceFallback(bool force)
{
    g_forceFallback.store(force, std::memory_order_relaxed);
}

} // namespace dmtune::beneath
