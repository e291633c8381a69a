#include "core/util/systemprogram.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

// Owned by root and not writable by group or others (st: of the file or of a directory on its path).
bool rootOnly(const QString &path)
{
    struct stat st { };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && st.st_uid == 0
        && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

} // namespace

const QStringList &systemProgramDirectories()
{
    static const QStringList dirs { QStringLiteral("/usr/local/sbin"), QStringLiteral("/usr/local/bin"),
        QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"), QStringLiteral("/sbin"), QStringLiteral("/bin") };
    return dirs;
}

Result<QString> findProgram(const QString &name, bool asRoot, const QStringList &searchPath)
{
    if (name.isEmpty() || name.contains(u'/'))
        return Result<QString>::failure(QStringLiteral("'%1' is not a program name").arg(name));
    if (asRoot) {
        for (const QString &dir : systemProgramDirectories()) {
            const QString path = dir + u'/' + name;
            const QFileInfo info(path);
            if (!info.isFile() || !info.isExecutable())
                continue;
            // The file as resolved (Debian's /sbin is a link to /usr/sbin), and the directory it lies in.
            const QString real = info.canonicalFilePath();
            if (real.isEmpty() || !rootOnly(real) || !rootOnly(QFileInfo(real).path()))
                continue;
            return real;
        }
        return Result<QString>::failure(
            QStringLiteral("%1 not found in %2 (as root, dmtune runs only programs root owns there)")
                .arg(name, systemProgramDirectories().join(QLatin1String(", "))));
    }
    QString path = QStandardPaths::findExecutable(name, searchPath);
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(name, systemProgramDirectories());
    if (path.isEmpty())
        return Result<QString>::failure(QStringLiteral("%1 not found").arg(name));
    return QFileInfo(path).absoluteFilePath();
}

Result<QString> findProgram(const QString &name)
{
    return findProgram(name, ::geteuid() == 0);
}

} // namespace dmtune
