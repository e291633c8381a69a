#include "widgets/devices/devicelabels.h"

#include <QCoreApplication>

#include <array>

namespace dmtune {

QString formatSize(qint64 bytes)
{
    if (bytes < 0)
        return QCoreApplication::translate("DeviceLabels", "unknown");
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    static const std::array<const char *, 6> units = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double value = double(bytes) / 1024.0;
    size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < units.size()) {
        value /= 1024.0;
        ++unit;
    }
    // One decimal is enough to tell LUNs apart; "100.0" reads as noise, so whole numbers drop it.
    QString number = QString::number(value, 'f', 1);
    if (number.endsWith(QLatin1String(".0")))
        number.chop(2);
    return number + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString groupStateLabel(const QString &state)
{
    if (state == QLatin1String("A"))
        return QStringLiteral("active");
    if (state == QLatin1String("E"))
        return QStringLiteral("enabled");
    if (state == QLatin1String("D"))
        return QStringLiteral("disabled");
    return state.isEmpty() ? QCoreApplication::translate("DeviceLabels", "unknown") : state;
}

QString pathGroupLabel(const PathGroupInfo &group)
{
    QStringList parts { QCoreApplication::translate("DeviceLabels", "Group %1").arg(group.index) };
    if (!group.selector.isEmpty())
        parts.append(group.selector);
    parts.append(groupStateLabel(group.state));
    return parts.join(QStringLiteral(" · "));
}

QString pathStateLabel(const QString &state)
{
    if (state == QLatin1String("A"))
        return QStringLiteral("active");
    if (state == QLatin1String("F"))
        return QStringLiteral("failed");
    return state.isEmpty() ? QCoreApplication::translate("DeviceLabels", "unknown") : state;
}

QString pathStatusText(const PathInfo &path)
{
    QString text = pathStateLabel(path.state);
    if (path.failCount >= 0)
        text += QStringLiteral(" · ")
            + (path.failCount == 1 ? QCoreApplication::translate("DeviceLabels", "1 failure")
                                   : QCoreApplication::translate("DeviceLabels", "%1 failures").arg(path.failCount));
    return text;
}

QString identityText(const BlockDevice &device)
{
    switch (device.kind) {
    case DeviceKind::Loop:
        return device.loopBackingFile.isEmpty() ? QCoreApplication::translate("DeviceLabels", "no backing file")
                                                : device.loopBackingFile;
    case DeviceKind::Md:
        return device.mdLevel;
    case DeviceKind::Multipath:
        return device.wwid;
    case DeviceKind::DmLvm:
    case DeviceKind::DmCrypt:
    case DeviceKind::DmOther:
        return device.dmName;
    case DeviceKind::Virtio:
        // Its "vendor" is the PCI vendor id (0x1af4 for every virtio disk): the serial says more.
        if (!device.serial.isEmpty())
            return device.serial;
        break;
    default:
        break;
    }
    const QString vendorModel = QStringList { device.vendor, device.model }.join(QLatin1Char(' ')).simplified();
    if (!vendorModel.isEmpty())
        return vendorModel;
    return device.serial;
}

QString stateText(const BlockDevice &device)
{
    QStringList parts;
    if (!device.scsi.state.isEmpty())
        parts.append(device.scsi.state);
    if (device.readOnly)
        parts.append(QCoreApplication::translate("DeviceLabels", "read-only"));
    if (device.removable)
        parts.append(QCoreApplication::translate("DeviceLabels", "removable"));
    return parts.join(QStringLiteral(" · "));
}

QString mapWwid(const MultipathMap &map)
{
    return map.uuid.startsWith(QLatin1String("mpath-")) ? map.uuid.mid(6) : map.uuid;
}

} // namespace dmtune
