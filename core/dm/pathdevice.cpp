#include "core/dm/pathdevice.h"

#include "core/dm/grammar/tokenreader.h"

#include <QFile>

#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace dmtune {

namespace {
bool isPlainName(const QString &name)
{
    return !name.isEmpty() && !name.contains(QLatin1Char('/')) && name != QLatin1String(".")
        && name != QLatin1String("..");
}

// The kernel name of a block device number: /sys/dev/block/M:m when the tree has it, else a
// walk over class/block (captured trees and test trees have no dev/block links).
QString nameOfDevnum(const SysfsRoot &sysfs, const QString &devnum)
{
    const QString viaLink = sysfs.linkName(QStringLiteral("dev/block/") + devnum);
    if (!viaLink.isEmpty())
        return viaLink;
    for (const QString &name : sysfs.list(QStringLiteral("class/block"))) {
        if (sysfs.readOr(QStringLiteral("class/block/%1/dev").arg(name)) == devnum)
            return name;
    }
    return {};
}

Result<PathDevice> byName(const SysfsRoot &sysfs, const QString &name, const QString &spec)
{
    const auto devnum = sysfs.read(QStringLiteral("class/block/%1/dev").arg(name));
    if (!devnum)
        return Result<PathDevice>::failure(QStringLiteral("%1: no such block device").arg(spec));
    return PathDevice { devnum.value(), name };
}
} // namespace

Result<PathDevice> resolvePathDevice(const SysfsRoot &sysfs, const QString &spec)
{
    using R = Result<PathDevice>;
    const QString text = spec.trimmed();
    if (text.isEmpty())
        return R::failure(QStringLiteral("empty path device"));
    if (!text.startsWith(QLatin1Char('/'))) {
        if (isDeviceToken(text)) {
            // "08:016" and "8:16" are the same device; the kernel prints the short form.
            const QStringList parts = text.split(QLatin1Char(':'));
            const QString devnum = QStringLiteral("%1:%2").arg(parts.at(0).toUInt()).arg(parts.at(1).toUInt());
            return PathDevice { devnum, nameOfDevnum(sysfs, devnum) };
        }
        if (!isPlainName(text))
            return R::failure(QStringLiteral("%1: not a device name, /dev path or MAJ:MIN").arg(spec));
        return byName(sysfs, text, spec);
    }
    // /dev/sdb is looked up by name first (works on captured trees); anything else (by-id links)
    // needs the real device node.
    if (text.startsWith(QLatin1String("/dev/"))) {
        const QString name = text.mid(5);
        if (isPlainName(name) && sysfs.exists(QStringLiteral("class/block/") + name))
            return byName(sysfs, name, spec);
    }
    if (!sysfs.isLive())
        return R::failure(QStringLiteral("%1: not in the captured sysfs tree").arg(spec));
    struct stat st { };
    if (::stat(QFile::encodeName(text).constData(), &st) != 0)
        return R::failure(QStringLiteral("%1: %2").arg(spec, QString::fromLocal8Bit(std::strerror(errno))));
    if (!S_ISBLK(st.st_mode))
        return R::failure(QStringLiteral("%1: not a block device").arg(spec));
    const QString devnum = QStringLiteral("%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev));
    return PathDevice { devnum, nameOfDevnum(sysfs, devnum) };
}

} // namespace dmtune
