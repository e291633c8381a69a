#include "core/sysfs/sysfsroot.h"

#include "core/sysfs/beneath.h"
#include "core/util/fd.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

QString sysfsErrorText(int error)
{
    switch (error) {
    case ENOENT:
    case ENOTDIR:
        return QStringLiteral("no such file");
    case EXDEV:
        return QStringLiteral("leads out of the tree (a link or ..), not followed");
    case ELOOP:
        return QStringLiteral("too many links");
    default:
        return QString::fromLocal8Bit(std::strerror(error));
    }
}

QString joined(const QString &root, const QString &relative)
{
    return relative.isEmpty() ? root : root + QLatin1Char('/') + relative;
}

// A descriptor of `relative` under `root`: a plain open for the live root (the kernel's own tree), else
// beneath::open from the root's directory. -1 with errno set.
int openIn(const QString &root, bool trusted, const QString &relative, int flags)
{
    if (trusted)
        return ::open(QFile::encodeName(joined(root, relative)).constData(), flags | O_CLOEXEC);
    const Fd dir(::open(QFile::encodeName(root).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() < 0)
        return -1;
    return beneath::open(dir.get(), QFile::encodeName(relative), flags | O_CLOEXEC);
}

// Reads an open file up to cap bytes. More is an error (a huge file in a crafted tree) when refuseMore,
// else the text is cut there (the kernel's own files never come near).
Result<QString> readCapped(int fd, const QString &shown, qint64 cap, bool refuseMore)
{
    // Page-sized reads: sysfs and procfs report 4096 or 0 as their size, so it cannot size the buffer.
    QByteArray data;
    char chunk[4096];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Result<QString>::failure(QStringLiteral("%1: %2").arg(shown, sysfsErrorText(errno)));
        if (n == 0)
            break;
        if (data.size() + n > cap) {
            if (refuseMore)
                return Result<QString>::failure(
                    QStringLiteral("%1: larger than %2 bytes, not read").arg(shown).arg(cap));
            data.append(chunk, cap - data.size());
            break;
        }
        data.append(chunk, n);
    }
    return QString::fromUtf8(data);
}

} // namespace

SysfsRoot::SysfsRoot(QString root, QString procRoot)
    : m_root(QDir::cleanPath(root))
    , m_procRoot(procRoot.isEmpty() ? QString() : QDir::cleanPath(procRoot))
    , m_kind(m_root == QLatin1String("/sys") ? Kind::Live : Kind::Captured)
{
}

SysfsRoot SysfsRoot::scratch(QString root, QString procRoot)
{
    SysfsRoot r(std::move(root), std::move(procRoot));
    if (r.m_kind == Kind::Captured)
        r.m_kind = Kind::Scratch;
    return r;
}

Status SysfsRoot::checkWritable() const
{
    if (isWritable())
        return Status::success();
    return Status::failure(
        QStringLiteral("%1 is a captured tree: read-only, nothing is written there or to this system").arg(m_root));
}

QString SysfsRoot::path(const QString &relative) const
{
    return joined(m_root, relative);
}

QString SysfsRoot::procPath(const QString &relative) const
{
    return m_procRoot.isEmpty() ? QString() : m_procRoot + QLatin1Char('/') + relative;
}

namespace {
QString resolvedUnder(const QString &root, const QString &relative)
{
    const Fd dir(::open(QFile::encodeName(root).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    QByteArray resolved;
    if (dir.get() < 0 || !beneath::resolve(dir.get(), QFile::encodeName(relative), &resolved))
        return {};
    return joined(root, QFile::decodeName(resolved));
}
} // namespace

QString SysfsRoot::resolvedPath(const QString &relative) const
{
    return trusted() ? path(relative) : resolvedUnder(m_root, relative);
}

QString SysfsRoot::resolvedProcPath(const QString &relative) const
{
    if (m_procRoot.isEmpty())
        return {};
    return trusted() ? procPath(relative) : resolvedUnder(m_procRoot, relative);
}

Result<QString> SysfsRoot::readUnder(const QString &root, const QString &relative, qint64 cap) const
{
    const QString shown = joined(root, relative);
    const auto failure = [&](int error) {
        return Result<QString>::failure(QStringLiteral("%1: %2").arg(shown, sysfsErrorText(error)));
    };
    if (trusted()) {
        // The kernel's tree (or one this process built): one open, O_NONBLOCK all the same. Its files are
        // regular; a test's scratch tree may stand a device node in for an attribute that fails writes.
        const Fd fd(openIn(root, true, relative, O_RDONLY | O_NONBLOCK | O_NOCTTY));
        if (fd.get() < 0)
            return failure(errno);
        struct stat st { };
        if (::fstat(fd.get(), &st) != 0)
            return failure(errno);
        if (S_ISDIR(st.st_mode))
            return failure(EISDIR);
        return readCapped(fd.get(), shown, cap, false);
    }
    // An untrusted tree: look at what it is (O_PATH opens nothing: no FIFO, no device's open side
    // effects), then open that same file, non-blocking.
    const Fd look(openIn(root, false, relative, O_PATH));
    if (look.get() < 0)
        return failure(errno);
    struct stat st { };
    if (::fstat(look.get(), &st) != 0)
        return failure(errno);
    if (!S_ISREG(st.st_mode))
        return Result<QString>::failure(QStringLiteral("%1: not a regular file").arg(shown));
    if (st.st_size > cap)
        return Result<QString>::failure(QStringLiteral("%1: larger than %2 bytes, not read").arg(shown).arg(cap));
    const Fd fd(openIn(root, false, relative, O_RDONLY | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0)
        return failure(errno);
    struct stat again { };
    if (::fstat(fd.get(), &again) != 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino)
        return Result<QString>::failure(QStringLiteral("%1: changed while read").arg(shown));
    return readCapped(fd.get(), shown, cap, true);
}

Result<QString> SysfsRoot::readRaw(const QString &relative) const
{
    return readUnder(m_root, relative, maxAttributeBytes);
}

Result<QString> SysfsRoot::read(const QString &relative) const
{
    auto r = readRaw(relative);
    if (!r)
        return r;
    // A tree captured with tar pads attribute files to their stated size (4096) with NULs: text ends there.
    QString text = r.value();
    const qsizetype nul = text.indexOf(QChar(0));
    if (nul >= 0)
        text.truncate(nul);
    return text.trimmed();
}

QString SysfsRoot::readOr(const QString &relative, const QString &fallback) const
{
    auto r = read(relative);
    return r ? r.value() : fallback;
}

Result<QString> SysfsRoot::readProc(const QString &relative) const
{
    if (m_procRoot.isEmpty())
        return Result<QString>::failure(QStringLiteral("/proc/%1: no proc root for this tree").arg(relative));
    return readUnder(m_procRoot, relative, maxProcBytes);
}

bool SysfsRoot::exists(const QString &relative) const
{
    if (trusted())
        return QFileInfo::exists(path(relative));
    const Fd fd(openIn(m_root, false, relative, O_PATH));
    return fd.get() >= 0;
}

bool SysfsRoot::isDir(const QString &relative) const
{
    if (trusted())
        return QFileInfo(path(relative)).isDir();
    const Fd fd(openIn(m_root, false, relative, O_PATH | O_DIRECTORY));
    return fd.get() >= 0;
}

QStringList SysfsRoot::list(const QString &relative) const
{
    // O_DIRECTORY fails on anything else before opening it (a FIFO is never opened).
    const int fd = openIn(m_root, trusted(), relative, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
    if (fd < 0)
        return {};
    DIR *dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return {};
    }
    QStringList names;
    while (const dirent *e = ::readdir(dir)) {
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            names.append(QFile::decodeName(e->d_name));
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

namespace {
// A link's target text cleaned against the directory that holds it (relative to the root): ".." past the root
// leaves it (empty), an absolute target too. Its own links are not followed.
QString cleanedTarget(const QByteArray &dir, const char *target, ssize_t size)
{
    if (size <= 0 || target[0] == '/')
        return {};
    QStringList parts = dir.isEmpty() ? QStringList() : QFile::decodeName(dir).split(QLatin1Char('/'));
    for (const QString &part : QFile::decodeName(QByteArray(target, int(size))).split(QLatin1Char('/'))) {
        if (part.isEmpty() || part == QLatin1String("."))
            continue;
        if (part == QLatin1String("..")) {
            if (parts.isEmpty())
                return {};
            parts.removeLast();
            continue;
        }
        parts.append(part);
    }
    return parts.join(QLatin1Char('/'));
}

bool isPlainName(const QByteArray &leaf)
{
    return !leaf.isEmpty() && leaf != "." && leaf != ".." && !leaf.contains('/');
}
} // namespace

QString SysfsRoot::readLiveLink(const QByteArray &dir, const QByteArray &leaf) const
{
    // readlink() by name opens nothing (a scan of thousands of devices resolves a few links each).
    const QByteArray linkPath = QFile::encodeName(m_root) + '/' + (dir.isEmpty() ? leaf : dir + '/' + leaf);
    char buffer[4096];
    const ssize_t n = ::readlink(linkPath.constData(), buffer, sizeof buffer - 1);
    return cleanedTarget(dir, buffer, n);
}

QString SysfsRoot::linkTarget(const QString &relative) const
{
    // sysfs links are relative to the directory that holds them, which is itself often reached
    // through a link (block/sda -> ../devices/...): resolve that directory first, inside the root.
    if (relative.isEmpty())
        return {};
    const QByteArray name = QFile::encodeName(relative);
    const qsizetype slash = name.lastIndexOf('/');
    const QByteArray leaf = slash >= 0 ? name.mid(slash + 1) : name;
    if (!isPlainName(leaf))
        return {};
    QByteArray dir;
    if (isLive()) {
        // The kernel's tree: realpath() opens nothing either.
        if (slash >= 0) {
            const QByteArray rootName = QFile::encodeName(m_root);
            char *real = ::realpath((rootName + '/' + name.left(slash)).constData(), nullptr);
            if (!real)
                return {};
            const QByteArray resolved(real);
            std::free(real);
            if (resolved.startsWith(rootName + '/'))
                dir = resolved.mid(rootName.size() + 1);
            else if (resolved != rootName)
                return {};
        }
        return readLiveLink(dir, leaf);
    }
    const Fd root(::open(QFile::encodeName(m_root).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (root.get() < 0)
        return {};
    if (slash >= 0 && !beneath::resolve(root.get(), name.left(slash), &dir))
        return {};
    char buffer[4096];
    const ssize_t n
        = ::readlinkat(root.get(), (dir.isEmpty() ? leaf : dir + '/' + leaf).constData(), buffer, sizeof buffer - 1);
    return cleanedTarget(dir, buffer, n);
}

QString SysfsRoot::linkTargetIn(const QString &resolvedDir, const QString &leaf) const
{
    if (!isLive())
        return linkTarget(resolvedDir.isEmpty() ? leaf : resolvedDir + QLatin1Char('/') + leaf);
    const QByteArray leafName = QFile::encodeName(leaf);
    if (!isPlainName(leafName))
        return {};
    return readLiveLink(QFile::encodeName(resolvedDir), leafName);
}

QHash<QString, QString> SysfsRoot::linkTargets(const QString &dir) const
{
    QHash<QString, QString> targets;
    const QStringList names = list(dir);
    targets.reserve(names.size());
    for (const QString &name : names) {
        // dir is no link on the live root (dev/block, block): its entries' links resolve against it as it is.
        const QString target = isLive() ? linkTargetIn(dir, name) : linkTarget(dir + QLatin1Char('/') + name);
        if (!target.isEmpty())
            targets.insert(name, target);
    }
    return targets;
}

QString SysfsRoot::linkName(const QString &relative) const
{
    const QString target = linkTarget(relative);
    return target.section(QLatin1Char('/'), -1);
}

bool SysfsRoot::isWritable(const QString &relative) const
{
    if (trusted()) {
        // The owner's write bit, as sysfs sets it: one stat (QFileInfo's permissions() also asks access() for the
        // user's bits, three more system calls per attribute at a thousand devices).
        struct stat st { };
        return ::stat(QFile::encodeName(path(relative)).constData(), &st) == 0 && (st.st_mode & S_IWUSR);
    }
    const Fd fd(openIn(m_root, false, relative, O_PATH));
    struct stat st { };
    return fd.get() >= 0 && ::fstat(fd.get(), &st) == 0 && (st.st_mode & S_IWUSR);
}

Status SysfsRoot::write(const QString &relative, const QString &value) const
{
    if (const Status s = checkWritable(); !s)
        return s;
    const QString full = path(relative);
    // O_TRUNC: on a plain-file tree (tests, umockdev) a shorter value must not leave old bytes behind.
    const Fd fd(openIn(m_root, true, relative, O_WRONLY | O_TRUNC));
    if (fd.get() < 0)
        return Status::failure(QStringLiteral("%1: %2").arg(full, QString::fromLocal8Bit(std::strerror(errno))));
    const QByteArray data = value.toUtf8();
    const ssize_t written = ::write(fd.get(), data.constData(), size_t(data.size()));
    if (written < 0)
        return Status::failure(QStringLiteral("%1: %2").arg(full, QString::fromLocal8Bit(std::strerror(errno))));
    if (written != data.size())
        return Status::failure(QStringLiteral("%1: short write").arg(full));
    return Status::success();
}

} // namespace dmtune
