#include "sysfsroot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace dmtune {

namespace {
// sysfs attributes are small; a bounded read keeps a malformed tree (a huge file) harmless.
constexpr qint64 maxAttributeBytes = 1 << 20;

Result<QString> readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (!file.exists())
            return Result<QString>::failure(QStringLiteral("%1: no such file").arg(path));
        return Result<QString>::failure(QStringLiteral("%1: %2").arg(path, file.errorString()));
    }
    // Page-sized reads: QFile::read(max) would allocate the whole bound up front on every call.
    QByteArray data;
    char chunk[4096];
    while (data.size() < maxAttributeBytes) {
        const qint64 n = file.read(chunk, sizeof chunk);
        if (n < 0)
            return Result<QString>::failure(QStringLiteral("%1: %2").arg(path, file.errorString()));
        if (n == 0)
            break;
        data.append(chunk, n);
    }
    return QString::fromUtf8(data);
}
} // namespace

SysfsRoot::SysfsRoot(QString root, QString procRoot)
    : m_root(QDir::cleanPath(root))
    , m_procRoot(procRoot.isEmpty() ? QString() : QDir::cleanPath(procRoot))
    , m_live(m_root == QLatin1String("/sys"))
{
}

QString SysfsRoot::path(const QString &relative) const
{
    return relative.isEmpty() ? m_root : m_root + QLatin1Char('/') + relative;
}

QString SysfsRoot::procPath(const QString &relative) const
{
    return m_procRoot.isEmpty() ? QString() : m_procRoot + QLatin1Char('/') + relative;
}

Result<QString> SysfsRoot::readRaw(const QString &relative) const
{
    return readFile(path(relative));
}

Result<QString> SysfsRoot::read(const QString &relative) const
{
    auto r = readFile(path(relative));
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
    return readFile(procPath(relative));
}

bool SysfsRoot::exists(const QString &relative) const
{
    return QFileInfo::exists(path(relative));
}

bool SysfsRoot::isDir(const QString &relative) const
{
    return QFileInfo(path(relative)).isDir();
}

QStringList SysfsRoot::list(const QString &relative) const
{
    QDir dir(path(relative));
    return dir.entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

QString SysfsRoot::linkTarget(const QString &relative) const
{
    const QString full = path(relative);
    char buffer[4096];
    const QByteArray name = QFile::encodeName(full);
    const ssize_t n = ::readlink(name.constData(), buffer, sizeof buffer - 1);
    if (n <= 0)
        return {};
    const QString text = QFile::decodeName(QByteArray(buffer, int(n)));
    // sysfs links are relative to the directory that holds them, which is itself often reached
    // through a link (block/sda -> ../devices/...): resolve that directory first.
    const QString dir = QFileInfo(QFileInfo(full).path()).canonicalFilePath();
    const QString canonicalRoot = QFileInfo(m_root).canonicalFilePath();
    if (dir.isEmpty() || canonicalRoot.isEmpty())
        return {};
    const QString resolved = QDir::cleanPath(text.startsWith(QLatin1Char('/')) ? text : dir + QLatin1Char('/') + text);
    if (!resolved.startsWith(canonicalRoot + QLatin1Char('/')))
        return {};
    return resolved.mid(canonicalRoot.size() + 1);
}

QString SysfsRoot::linkName(const QString &relative) const
{
    const QString target = linkTarget(relative);
    return target.section(QLatin1Char('/'), -1);
}

bool SysfsRoot::isWritable(const QString &relative) const
{
    const QFileInfo info(path(relative));
    return info.exists() && (info.permissions() & QFileDevice::WriteOwner);
}

Status SysfsRoot::write(const QString &relative, const QString &value) const
{
    const QString full = path(relative);
    const QByteArray name = QFile::encodeName(full);
    // O_TRUNC: on a plain-file tree (tests, umockdev) a shorter value must not leave old bytes behind.
    const int fd = ::open(name.constData(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return Status::failure(QStringLiteral("%1: %2").arg(full, QString::fromLocal8Bit(std::strerror(errno))));
    const QByteArray data = value.toUtf8();
    const ssize_t written = ::write(fd, data.constData(), size_t(data.size()));
    const int writeErrno = errno;
    ::close(fd);
    if (written < 0)
        return Status::failure(QStringLiteral("%1: %2").arg(full, QString::fromLocal8Bit(std::strerror(writeErrno))));
    if (written != data.size())
        return Status::failure(QStringLiteral("%1: short write").arg(full));
    return Status::success();
}

} // namespace dmtune
