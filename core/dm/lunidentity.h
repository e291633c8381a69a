#pragma once
// Which LUN a path or a multipath map is. The kernel, udev and multipathd spell the same WWID
// differently: sysfs device/wwid "naa.33333330000007d0", udev ID_SERIAL "333333330000007d0" (scsi_id
// puts the designator type first: 3 NAA, 2 EUI-64, 1 T10 vendor id, 8 SCSI name), ID_WWN
// "0x33333330000007d0", and multipathd's map UUID "mpath-<ID_SERIAL>". parseLunId() reduces each to
// one key so that they compare equal; the readers collect what a path or a map reports.
#include "core/dm/grammar/multipathtable.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

struct LunId {
    // "naa.<hex>", "eui.<hex>", "t10.<words joined by _>", "uuid.<uuid>", "nvme.<...>", "iqn.<...>"
    // (lower-case hex), or the text as given when it has no known form (e.g. "QEMU_HARDDISK_QM00001").
    QString key;
    // ID_WWN of an NAA 6 name carries only its first 8 of 16 bytes (the rest is in
    // ID_WWN_VENDOR_EXTENSION): the LUNs of one array share them, so it never proves a match.
    bool truncated = false;

    bool operator==(const LunId &) const = default;
};

// Any one spelling: sysfs wwid (SCSI device/wwid, NVMe wwid), udev ID_SERIAL / ID_WWN /
// ID_WWN_WITH_EXTENSION, a WWID as multipathd keeps it, a DM UUID "mpath-<wwid>". Pure; an error for
// empty text.
Result<LunId> parseLunId(const QString &text);
// Whether two keys name the same LUN: equal keys, neither truncated.
bool sameLun(const LunId &a, const LunId &b);

// What one path device reports about its LUN, most authoritative first.
struct PathIdentity {
    QString device; // "8:64"
    QString name; // "sde"; empty when sysfs does not know the number
    QStringList wwids; // as read: sysfs wwid, then udev's ID_WWN_WITH_EXTENSION, ID_WWN, ID_SERIAL
    QString label() const; // "sde (8:64)"
};

// What a reload is checked against: the map's UUID and what its paths (of the live table and of the
// proposed one) report.
struct MapIdentity {
    QString map;
    QString uuid; // the DM UUID; used when it is "mpath-..."
    QList<PathIdentity> paths;

    const PathIdentity *path(const QString &device) const;
};

// Reads one path: <sysfs>/class/block/NAME/device/wwid (SCSI) or .../wwid (NVMe), and udev's
// properties when the root is live and udevd has a database entry. Never fails: a device that reports
// nothing has empty wwids.
PathIdentity readPathIdentity(const SysfsRoot &sysfs, const QString &devnum);
// Every path of both tables, read once.
MapIdentity readMapIdentity(const SysfsRoot &sysfs, const QString &map, const QString &uuid,
    const MultipathTable &current, const MultipathTable &proposed);

} // namespace dmtune
