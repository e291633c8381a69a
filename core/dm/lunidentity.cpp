#include "core/dm/lunidentity.h"

#include "core/dm/pathdevice.h"

#include <libudev.h>

#include <memory>

namespace dmtune {

namespace {
bool isHex(QStringView text)
{
    if (text.isEmpty())
        return false;
    for (const QChar c : text) {
        if (!c.isDigit() && !(c >= QLatin1Char('a') && c <= QLatin1Char('f'))
            && !(c >= QLatin1Char('A') && c <= QLatin1Char('F')))
            return false;
    }
    return true;
}

// An NAA name's first nibble gives its length (SPC-4 7.8.6.6): 2, 3 and 5 are 8 bytes, 6 is 16. A
// 16-digit NAA 6 is therefore ID_WWN's first half (udev puts the rest into ID_WWN_VENDOR_EXTENSION).
LunId naa(const QString &hex)
{
    const QString lower = hex.toLower();
    return { QStringLiteral("naa.") + lower, lower.size() == 16 && lower.startsWith(QLatin1Char('6')) };
}

bool isNaaNibble(QChar c)
{
    return QStringView(u"12356").contains(c);
}

// The T10 vendor id designator as the kernel prints it ("ATA     QEMU HARDDISK   QM00001") and as
// scsi_id does with --replace-whitespace ("ATA_QEMU_HARDDISK_QM00001"): runs of blanks and '_' are one.
QString t10Words(QStringView text)
{
    QString key;
    bool gap = false;
    for (const QChar c : text) {
        if (c.isSpace() || c == QLatin1Char('_')) {
            gap = !key.isEmpty();
            continue;
        }
        if (gap)
            key += QLatin1Char('_');
        gap = false;
        key += c;
    }
    return QStringLiteral("t10.") + key;
}

bool hasPrefix(const QString &lower, const char *prefix)
{
    return lower.startsWith(QLatin1String(prefix));
}

struct UdevDeleter {
    void operator()(udev *u) const { udev_unref(u); }
    void operator()(udev_device *d) const { udev_device_unref(d); }
};

// udevd's database properties of a block device, in the order they are trusted.
QStringList udevWwids(const QString &name)
{
    std::unique_ptr<udev, UdevDeleter> context(udev_new());
    if (!context)
        return {};
    std::unique_ptr<udev_device, UdevDeleter> device(
        udev_device_new_from_subsystem_sysname(context.get(), "block", name.toUtf8().constData()));
    if (!device)
        return {};
    QStringList wwids;
    for (const char *key : { "ID_WWN_WITH_EXTENSION", "ID_WWN", "ID_SERIAL" }) {
        const char *value = udev_device_get_property_value(device.get(), key);
        const QString text = QString::fromUtf8(value ? value : "").trimmed();
        if (!text.isEmpty() && !wwids.contains(text))
            wwids.append(text);
    }
    return wwids;
}
} // namespace

Result<LunId> parseLunId(const QString &input)
{
    QString text = input.trimmed();
    if (text.startsWith(QLatin1String("mpath-"))) // multipathd names its maps "mpath-" + the WWID
        text = text.mid(6);
    if (text.isEmpty())
        return Result<LunId>::failure(QStringLiteral("empty WWID"));
    const QString lower = text.toLower();
    // sysfs: the kernel's designator prefixes (scsi_vpd_lun_id), NVMe's wwid attribute.
    if (hasPrefix(lower, "naa.") || hasPrefix(lower, "eui.") || hasPrefix(lower, "uuid.") || hasPrefix(lower, "nvme.")
        || hasPrefix(lower, "iqn."))
        return LunId { lower };
    if (hasPrefix(lower, "t10."))
        return LunId { t10Words(QStringView(text).mid(4)) };
    // udev's ID_WWN / ID_WWN_WITH_EXTENSION: an NAA name in hex.
    if (hasPrefix(lower, "0x") && isHex(QStringView(lower).mid(2)))
        return naa(lower.mid(2));
    if (isHex(lower)) {
        const qsizetype n = lower.size();
        // udev's ID_SERIAL: the designator type, then the designator in hex.
        if ((n == 17 || n == 33) && lower.startsWith(QLatin1Char('3')))
            return naa(lower.mid(1));
        if ((n == 17 || n == 25 || n == 33) && lower.startsWith(QLatin1Char('2')))
            return LunId { QStringLiteral("eui.") + lower.mid(1) };
        // A bare NAA name, as some maps carry it ("mpath-" + the sysfs wwid without "naa.").
        if ((n == 16 || n == 32) && isNaaNibble(lower.at(0)))
            return naa(lower);
    }
    // ID_SERIAL of a T10 vendor id designator ("1" + vendor + ...) and of a SCSI name string ("8" + name).
    if (text.startsWith(QLatin1Char('1')) && text.size() > 9)
        return LunId { t10Words(QStringView(text).mid(1)) };
    if (text.startsWith(QLatin1Char('8')) && text.size() > 5) {
        const QString rest = lower.mid(1);
        if (hasPrefix(rest, "iqn.") || hasPrefix(rest, "naa.") || hasPrefix(rest, "eui."))
            return LunId { rest };
    }
    return LunId { text }; // a vendor's serial ("QEMU_HARDDISK_QM00001"): compared as it is
}

bool sameLun(const LunId &a, const LunId &b)
{
    // Half an NAA 6 name is shared by the LUNs of one array: it proves nothing.
    return !a.key.isEmpty() && !a.truncated && !b.truncated && a.key == b.key;
}

QString PathIdentity::label() const
{
    return name.isEmpty() ? device : QStringLiteral("%1 (%2)").arg(name, device);
}

const PathIdentity *MapIdentity::path(const QString &device) const
{
    for (const PathIdentity &p : paths) {
        if (p.device == device)
            return &p;
    }
    return nullptr;
}

PathIdentity readPathIdentity(const SysfsRoot &sysfs, const QString &devnum)
{
    PathIdentity identity;
    identity.device = devnum;
    const auto resolved = resolvePathDevice(sysfs, devnum);
    if (!resolved)
        return identity;
    identity.name = resolved->name; // `device` stays as the table writes it
    if (identity.name.isEmpty())
        return identity;
    // SCSI: the LUN's device/wwid; NVMe: the namespace's wwid.
    for (const char *attribute : { "device/wwid", "wwid" }) {
        const QString wwid
            = sysfs.readOr(QStringLiteral("class/block/%1/%2").arg(identity.name, QLatin1String(attribute)));
        if (!wwid.isEmpty()) {
            identity.wwids.append(wwid);
            break;
        }
    }
    if (sysfs.isLive()) {
        for (const QString &wwid : udevWwids(identity.name)) {
            if (!identity.wwids.contains(wwid))
                identity.wwids.append(wwid);
        }
    }
    return identity;
}

MapIdentity readMapIdentity(const SysfsRoot &sysfs, const QString &map, const QString &uuid,
    const MultipathTable &current, const MultipathTable &proposed)
{
    MapIdentity identity;
    identity.map = map;
    identity.uuid = uuid;
    for (const MultipathTable *table : { &current, &proposed }) {
        for (const PathGroupSpec &group : table->groups) {
            for (const PathSpec &path : group.paths) {
                if (!identity.path(path.device))
                    identity.paths.append(readPathIdentity(sysfs, path.device));
            }
        }
    }
    return identity;
}

} // namespace dmtune
