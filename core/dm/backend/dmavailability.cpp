#include "core/dm/backend/dmavailability.h"

#include "core/sysfs/sysfsroot.h"

#include <QFile>
#include <QFileInfo>

#include <unistd.h>

namespace dmtune {

namespace {
// /proc/misc: one "<minor> <name>" line per misc device.
bool procMiscListsDeviceMapper(const SysfsRoot &root)
{
    const auto misc = root.readProc(QStringLiteral("misc"));
    if (!misc)
        return false;
    for (const QStringView line : QStringView(misc.value()).split(QLatin1Char('\n'))) {
        const QStringView trimmed = line.trimmed();
        const qsizetype blank = trimmed.indexOf(QLatin1Char(' '));
        if (blank > 0 && trimmed.mid(blank + 1).trimmed() == QLatin1String("device-mapper"))
            return true;
    }
    return false;
}
} // namespace

DmAvailability checkDeviceMapper(const SysfsRoot &root, const QString &controlPath)
{
    if (!root.isDir(QStringLiteral("module/dm_mod")) && !procMiscListsDeviceMapper(root)) {
        return { false,
            QStringLiteral("the kernel has no device-mapper (no %1, no device-mapper in %2); load it with "
                           "\"modprobe dm_mod\"")
                .arg(root.path(QStringLiteral("module/dm_mod")),
                    root.procRoot().isEmpty() ? QStringLiteral("/proc/misc") : root.procPath(QStringLiteral("misc"))) };
    }
    const QFileInfo control(controlPath);
    if (!control.exists())
        return { false, QStringLiteral("device-mapper is loaded but %1 is missing").arg(controlPath) };
    const QByteArray encoded = QFile::encodeName(controlPath);
    if (::access(encoded.constData(), R_OK | W_OK) != 0)
        return { false, QStringLiteral("no permission to open %1 (device-mapper needs root)").arg(controlPath) };
    return { true, {} };
}

} // namespace dmtune
