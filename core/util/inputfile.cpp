#include "core/util/inputfile.h"

#include "core/util/fd.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

QString fileTypeText(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("a directory");
    if (S_ISCHR(mode))
        return QStringLiteral("a character device");
    if (S_ISBLK(mode))
        return QStringLiteral("a block device");
    if (S_ISFIFO(mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(mode))
        return QStringLiteral("a socket");
    return QStringLiteral("not a regular file");
}

} // namespace

QString byteSizeText(qint64 bytes)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0)
        return QStringLiteral("%1 bytes").arg(bytes);
    const bool whole = value == double(qint64(value));
    return QStringLiteral("%1 %2").arg(
        whole ? QString::number(qint64(value)) : QString::number(value, 'f', 1), QString::fromLatin1(units[unit]));
}

QString inputFileProblem(int fd, qint64 cap, const QString &what)
{
    struct stat st { };
    if (::fstat(fd, &st) != 0)
        return QString::fromLocal8Bit(std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        return QStringLiteral("not a regular file (%1); %2 must be one").arg(fileTypeText(st.st_mode), what);
    if (st.st_size > cap)
        return QStringLiteral("%1, more than the %2 %3 may have")
            .arg(byteSizeText(st.st_size), byteSizeText(cap), what);
    return {};
}

Result<QByteArray> readInputFile(const QString &path, qint64 cap, const QString &what)
{
    using R = Result<QByteArray>;
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused by the fstat below.
    const int raw = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (raw < 0)
        return R::failure(QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    const Fd fd(raw);
    if (const QString problem = inputFileProblem(fd.get(), cap, what); !problem.isEmpty())
        return R::failure(QStringLiteral("%1: %2").arg(path, problem));
    // The size may grow after fstat (a file still being written): read at most cap + 1 bytes and refuse more.
    QByteArray bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return R::failure(QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        }
        if (n == 0)
            break;
        if (bytes.size() + n > cap)
            return R::failure(QStringLiteral("%1: more than the %2 %3 may have").arg(path, byteSizeText(cap), what));
        bytes.append(buffer, n);
    }
    return bytes;
}

} // namespace dmtune
