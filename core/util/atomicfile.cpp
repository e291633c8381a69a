#include "core/util/atomicfile.h"
#include "core/util/errnotext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

// RENAME_NOREPLACE; some file systems (older NFS, 9p) reject it: link(2) then unlink(2) is the fallback,
// as atomic about an existing name.
int renameNoReplace(const QByteArray &from, const QByteArray &to)
{
#ifdef RENAME_NOREPLACE
    if (::renameat2(AT_FDCWD, from.constData(), AT_FDCWD, to.constData(), RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
#endif
    if (::link(from.constData(), to.constData()) != 0)
        return -1;
    ::unlink(from.constData());
    return 0;
}

} // namespace

QString unsafeTargetReason(const QString &path)
{
    struct stat st { };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return {}; // nothing there (or an unreadable directory, which open() reports)
    if (S_ISLNK(st.st_mode))
        return QStringLiteral("is a symbolic link (not followed, not replaced)");
    if (S_ISDIR(st.st_mode))
        return QStringLiteral("is a directory");
    if (!S_ISREG(st.st_mode))
        return QStringLiteral("is not a regular file");
    return {};
}

QString outputFileProblem(const QString &path, ExistingFile existing)
{
    if (const QString why = unsafeTargetReason(path); !why.isEmpty())
        return QStringLiteral("%1 %2").arg(path, why);
    struct stat st { };
    if (existing == ExistingFile::Refuse && ::lstat(QFile::encodeName(path).constData(), &st) == 0)
        return QStringLiteral("%1 exists").arg(path);
    return {};
}

bool outputFileOnlyExists(const QString &path)
{
    struct stat st { };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISREG(st.st_mode);
}

QString nextFreshFilePath(const QString &used)
{
    const QFileInfo info(used);
    const QString suffix = info.suffix();
    QString base = info.completeBaseName();
    int n = 2;
    if (const qsizetype dash = base.lastIndexOf(QLatin1Char('-')); dash > 0) {
        // A count is 1 to 4 digits without a leading zero: "-06" or "-101010" (a date, a time) is part of the name.
        const QString tail = base.mid(dash + 1);
        bool numbered = false;
        const int last = tail.size() <= 4 && !tail.startsWith(QLatin1Char('0')) ? tail.toInt(&numbered) : 0;
        if (numbered && last >= 1) {
            base.truncate(dash);
            n = last + 1;
        }
    }
    const QString stem = info.path() + QLatin1Char('/') + base;
    for (const int end = n + 1000; n < end; ++n) {
        const QString candidate = suffix.isEmpty() ? QStringLiteral("%1-%2").arg(stem).arg(n)
                                                   : QStringLiteral("%1-%2.%3").arg(stem).arg(n).arg(suffix);
        struct stat st { };
        if (candidate != used && ::lstat(QFile::encodeName(candidate).constData(), &st) != 0)
            return candidate;
    }
    return {};
}

QString outputDirectoryProblem(const QString &path)
{
    struct stat st { };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return {};
    if (S_ISLNK(st.st_mode))
        return QStringLiteral("%1 is a symbolic link (not followed)").arg(path);
    if (!S_ISDIR(st.st_mode))
        return QStringLiteral("%1 is not a directory").arg(path);
    if (!QDir(path).entryList(QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty())
        return QStringLiteral("%1 is not empty (give a new directory)").arg(path);
    return {};
}

Status makeOutputDirectory(const QString &path)
{
    if (const QString why = outputDirectoryProblem(path); !why.isEmpty())
        return Status::failure(why);
    const QString parent = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(parent))
        return Status::failure(QStringLiteral("cannot create %1").arg(parent));
    if (::mkdir(QFile::encodeName(path).constData(), 0755) != 0 && errno != EEXIST)
        return Status::failure(QStringLiteral("cannot create %1: %2").arg(path, errnoText(errno)));
    // Again after the mkdir: a link or a file planted in between is refused, not used.
    if (const QString why = outputDirectoryProblem(path); !why.isEmpty())
        return Status::failure(why);
    struct stat st { };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISDIR(st.st_mode))
        return Status::failure(QStringLiteral("cannot create %1").arg(path));
    return Status::success();
}

AtomicFile::AtomicFile(QString path, ExistingFile existing)
    : m_path(std::move(path))
    , m_existing(existing)
{
}

AtomicFile::~AtomicFile()
{
    if (m_fd >= 0 && m_keep) {
        ::close(m_fd);
        m_fd = -1;
        return;
    }
    discard();
}

Status AtomicFile::open()
{
    if (m_fd >= 0)
        return Status::failure(QStringLiteral("%1: already open").arg(m_path));
    if (const QString why = unsafeTargetReason(m_path); !why.isEmpty())
        return Status::failure(QStringLiteral("%1 %2").arg(m_path, why));
    if (const QString why = outputFileProblem(m_path, m_existing); !why.isEmpty())
        return Status::failure(why);
    for (int attempt = 0; attempt < 100; ++attempt) {
        const QString candidate = QStringLiteral("%1.%2.part")
                                      .arg(m_path)
                                      .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
        const int fd = ::open(
            QFile::encodeName(candidate).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            m_fd = fd;
            m_tempPath = candidate;
            return Status::success();
        }
        if (errno != EEXIST)
            return Status::failure(QStringLiteral("cannot create %1: %2").arg(candidate, errnoText(errno)));
    }
    return Status::failure(QStringLiteral("cannot create a temporary file beside %1").arg(m_path));
}

Status AtomicFile::write(QByteArrayView bytes)
{
    if (m_fd < 0)
        return Status::failure(QStringLiteral("%1: not open").arg(m_path));
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, size_t(bytes.size() - done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Status::failure(QStringLiteral("cannot write %1: %2").arg(m_tempPath, errnoText(errno)));
        }
        done += n;
    }
    return Status::success();
}

Status AtomicFile::commit()
{
    if (m_fd < 0)
        return Status::failure(QStringLiteral("%1: not open").arg(m_path));
    if (::fsync(m_fd) != 0) {
        const int error = errno;
        discard();
        return Status::failure(QStringLiteral("cannot write %1: %2").arg(m_path, errnoText(error)));
    }
    ::close(m_fd);
    m_fd = -1;
    const QByteArray from = QFile::encodeName(m_tempPath);
    const QByteArray to = QFile::encodeName(m_path);
    // Checked again at the last moment: a link planted since open() is refused, not replaced.
    if (const QString why = unsafeTargetReason(m_path); !why.isEmpty()) {
        discard();
        return Status::failure(QStringLiteral("%1 %2").arg(m_path, why));
    }
    const int renamed
        = m_existing == ExistingFile::Refuse ? renameNoReplace(from, to) : ::rename(from.constData(), to.constData());
    if (renamed != 0) {
        const int error = errno;
        discard();
        return Status::failure(error == EEXIST
                ? QStringLiteral("%1 exists").arg(m_path)
                : QStringLiteral("cannot rename %1 to %2: %3").arg(m_tempPath, m_path, errnoText(error)));
    }
    m_tempPath.clear();
    // The rename itself survives a power loss only once the directory is on disk.
    const QByteArray dir = QFile::encodeName(QFileInfo(m_path).absolutePath());
    const int dirFd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return Status::success();
}

void AtomicFile::discard()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_tempPath.isEmpty()) {
        ::unlink(QFile::encodeName(m_tempPath).constData());
        m_tempPath.clear();
    }
}

Status writeFileAtomically(const QString &path, QByteArrayView bytes, ExistingFile existing)
{
    AtomicFile file(path, existing);
    if (Status s = file.open(); !s)
        return s;
    if (Status s = file.write(bytes); !s)
        return s;
    return file.commit();
}

} // namespace dmtune
