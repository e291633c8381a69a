#include "core/params/deviceresolver.h"

#include <QFile>
#include <QRegularExpression>

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace dmtune {

namespace {

Result<QString> byDevnum(const DeviceSnapshot &snapshot, const QString &devnum, const QString &spec)
{
    if (const BlockDevice *d = snapshot.deviceByDevnum(devnum))
        return d->name;
    for (const auto &d : snapshot.devices) {
        for (const auto &p : d.partitions) {
            if (p.devnum == devnum)
                return Result<QString>::failure(
                    QStringLiteral("%1 is partition %2 of %3; queue parameters belong to %3")
                        .arg(spec, p.name, d.name));
        }
    }
    return Result<QString>::failure(QStringLiteral("%1: no block device %2").arg(spec, devnum));
}

Result<QString> byName(const DeviceSnapshot &snapshot, const QString &name, const QString &spec)
{
    if (const BlockDevice *d = snapshot.device(name))
        return d->name;
    if (const MultipathMap *m = snapshot.map(name))
        return m->device;
    for (const auto &d : snapshot.devices) {
        if (d.dmName == name)
            return d.name;
        for (const auto &p : d.partitions) {
            if (p.name == name)
                return Result<QString>::failure(
                    QStringLiteral("%1 is a partition of %2; queue parameters belong to %2").arg(spec, d.name));
        }
    }
    return Result<QString>::failure(QStringLiteral("%1: no such device").arg(spec));
}

} // namespace

Result<QString> resolveDeviceSpec(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QString &spec)
{
    static const QRegularExpression devnum(QStringLiteral("^[0-9]+:[0-9]+$"));
    const QString s = spec.trimmed();
    if (devnum.match(s).hasMatch())
        return byDevnum(snapshot, s, spec);
    if (s.startsWith(QLatin1String("/dev/"))) {
        if (sysfs.isLive()) {
            // The node's dev_t: works for links (/dev/mapper, /dev/disk/by-*) and plain nodes alike.
            struct stat st { };
            if (::stat(QFile::encodeName(s).constData(), &st) != 0)
                return Result<QString>::failure(QStringLiteral("%1: no such file").arg(spec));
            if (!S_ISBLK(st.st_mode))
                return Result<QString>::failure(QStringLiteral("%1 is not a block device").arg(spec));
            return byDevnum(snapshot, QStringLiteral("%1:%2").arg(major(st.st_rdev)).arg(minor(st.st_rdev)), spec);
        }
        // A captured tree has no /dev of its own: go by the name.
        const QString name = s.startsWith(QLatin1String("/dev/mapper/")) ? s.mid(12) : s.section(QLatin1Char('/'), -1);
        return byName(snapshot, name, spec);
    }
    return byName(snapshot, s, spec);
}

} // namespace dmtune
