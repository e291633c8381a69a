#include "core/discovery/nvmewarnings.h"

#include "core/sysfs/sysfsroot.h"

#include <QJsonObject>

#include <algorithm>

namespace dmtune {

namespace {

// "a", "a and b", "a, b and c"
QString listed(const QStringList &items)
{
    if (items.size() < 2)
        return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
}

// The kernel treats a path without ANA as optimized (nvme_mpath_add_disk).
bool optimized(const NvmePath &p)
{
    return p.usable() && (p.anaState.isEmpty() || p.anaState == QLatin1String("optimized"));
}

// "nvme0c0n1: nvme0 live, inaccessible"
QString pathState(const NvmePath &p)
{
    QStringList states { p.state.isEmpty() ? QStringLiteral("?") : p.state };
    if (!p.anaState.isEmpty())
        states << p.anaState;
    return QStringLiteral("%1: %2 %3").arg(p.name, p.controller, states.join(QStringLiteral(", ")));
}

// What the kernel does with I/O while `controller` is lost and nothing else carries it (nvme_available_path: a
// reconnecting fabrics controller keeps I/O queued until ctrl_loss_tmo ends and the controller is deleted).
QString whileLost(const QString &controller, const QHash<QString, QString> &ctrlLossTmo)
{
    const QString tmo = ctrlLossTmo.value(controller);
    bool numeric = false;
    tmo.toInt(&numeric);
    if (numeric)
        return QStringLiteral("waits for %1 to reconnect for up to %2 s (ctrl_loss_tmo), then fails")
            .arg(controller, tmo);
    if (tmo == QLatin1String("off"))
        return QStringLiteral("waits for %1 to reconnect without end (ctrl_loss_tmo off)").arg(controller);
    return QStringLiteral("fails");
}

void dmOverNative(const DeviceSnapshot &s, const QString &nvmeCoreMultipath, QList<NvmeWarning> *out)
{
    const QString nativeOn = nvmeCoreMultipath.isEmpty() ? QStringLiteral("native NVMe multipath is on")
                                                         : QStringLiteral("nvme_core multipath=") + nvmeCoreMultipath;
    for (const MultipathMap &map : s.maps) {
        QStringList native, devices { map.name }, paths;
        for (const QString &slave : map.slaves) {
            const NvmeMultipathHead *head = s.nvmeHead(slave);
            if (head) {
                native << QStringLiteral("the head %1").arg(slave);
            } else if ((head = s.nvmeHeadOfPath(slave))) {
                native << QStringLiteral("%1 (a path of the head %2)").arg(slave, head->name);
            } else {
                continue;
            }
            devices << slave;
            for (const NvmePath &p : head->paths) {
                if (!paths.contains(p.name))
                    paths << p.name;
            }
        }
        if (native.isEmpty())
            continue;
        out->append({ QStringLiteral("dm-over-native"), devices,
            QStringLiteral("dm-multipath map %1 (%2) is stacked on native NVMe multipath, %3, while %4: both layers "
                           "do failover and path selection on the same %5 path(s) (%6); blacklist the NVMe devices "
                           "in multipath.conf (blacklist { devnode \"^nvme\" }) and remove the map, or boot with "
                           "nvme_core.multipath=N and let dm-multipath own them")
                .arg(map.name, map.device, listed(native), nativeOn, QString::number(paths.size()),
                    paths.join(QStringLiteral(", "))) });
    }
}

void noFailover(const DeviceSnapshot &s, const QString &nvmeCoreMultipath, QList<NvmeWarning> *out)
{
    if (nvmeCoreMultipath == QLatin1String("Y"))
        return;
    // One namespace through several controllers: each controller's nvmeXnY has its WWID (or, without one, the
    // subsystem's NQN and the nsid). Heads and their hidden paths are native multipath's own.
    QStringList keys;
    QHash<QString, QList<const BlockDevice *>> byKey;
    for (const BlockDevice &d : s.devices) {
        if (d.kind != DeviceKind::NvmeNamespace || s.nvmeHead(d.name) || parseNvmePathName(d.name))
            continue;
        QString key;
        if (!d.wwid.isEmpty())
            key = QStringLiteral("wwid ") + d.wwid;
        else if (!d.nvme.subsysNqn.isEmpty() && !d.nvme.nsid.isEmpty())
            key = QStringLiteral("nsid %1 of %2").arg(d.nvme.nsid, d.nvme.subsysNqn);
        else
            continue;
        if (!byKey.contains(key))
            keys << key;
        byKey[key] << &d;
    }
    const QString off = nvmeCoreMultipath.isEmpty() ? QStringLiteral("no native NVMe multipath")
                                                    : QStringLiteral("nvme_core multipath=") + nvmeCoreMultipath;
    for (const QString &key : std::as_const(keys)) {
        const QList<const BlockDevice *> &namespaces = byKey[key];
        if (namespaces.size() < 2)
            continue;
        if (std::any_of(
                namespaces.begin(), namespaces.end(), [&](const BlockDevice *d) { return s.mapOfPath(d->name); }))
            continue;
        QStringList devices, named;
        for (const BlockDevice *d : namespaces) {
            devices << d->name;
            named << QStringLiteral("%1 (controller %2)")
                         .arg(d->name, d->nvme.controller.isEmpty() ? QStringLiteral("?") : d->nvme.controller);
        }
        out->append({ QStringLiteral("no-failover"), devices,
            QStringLiteral("%1 are one namespace (%2) reached through %3 controllers, with %4 and no dm-multipath map "
                           "over them: nothing fails over, I/O to each stops when its controller is lost; let "
                           "multipathd map them (multipath.conf must not blacklist nvme) or boot with "
                           "nvme_core.multipath=Y")
                .arg(listed(named), key, QString::number(namespaces.size()), off) });
    }
}

// The most severe of no-usable-path, no-optimized-path and single-path for one head, if any.
void headWarning(const NvmeMultipathHead &head, const QHash<QString, QString> &ctrlLossTmo, QList<NvmeWarning> *out)
{
    QStringList devices { head.name };
    QStringList states;
    QList<const NvmePath *> usable, best;
    for (const NvmePath &p : head.paths) {
        devices << p.name;
        states << pathState(p);
        if (p.usable())
            usable << &p;
        if (optimized(p))
            best << &p;
    }
    const int total = int(head.paths.size());
    if (total == 0) {
        out->append({ QStringLiteral("no-usable-path"), devices,
            QStringLiteral("%1 has no path: no controller reaches it, I/O to it fails").arg(head.name) });
        return;
    }
    if (usable.isEmpty()) {
        // nvme_ns_head_submit_bio: with no usable path, I/O is queued while a controller is live, resetting or
        // connecting (nvme_available_path), and fails otherwise.
        const auto any = [&](std::initializer_list<const char *> wanted) {
            return std::any_of(head.paths.begin(), head.paths.end(), [&](const NvmePath &p) {
                return std::any_of(
                    wanted.begin(), wanted.end(), [&](const char *w) { return p.state == QLatin1String(w); });
            });
        };
        QString fate;
        if (any({ "live" })) {
            fate = QStringLiteral("I/O to it queues until an ANA state allows I/O again, without a time limit while "
                                  "a controller is live");
        } else if (any({ "connecting", "resetting" })) {
            QStringList tmos;
            for (const NvmePath &p : head.paths) {
                const QString tmo = ctrlLossTmo.value(p.controller);
                if (!tmo.isEmpty() && (p.state == QLatin1String("connecting") || p.state == QLatin1String("resetting")))
                    tmos << QStringLiteral("%1 %2").arg(p.controller, tmo);
            }
            fate = QStringLiteral("I/O to it queues until a controller reconnects, and fails when its ctrl_loss_tmo "
                                  "ends")
                + (tmos.isEmpty() ? QString() : QStringLiteral(" (%1 s)").arg(tmos.join(QStringLiteral(" s, "))));
        } else {
            fate = QStringLiteral("I/O to it fails (no controller is live or reconnecting)");
        }
        out->append({ QStringLiteral("no-usable-path"), devices,
            QStringLiteral("%1 has none of its %2 path(s) usable (%3): %4")
                .arg(head.name, QString::number(total), states.join(QStringLiteral("; ")), fate) });
        return;
    }
    if (best.isEmpty()) {
        QStringList through;
        for (const NvmePath *p : std::as_const(usable))
            through << QStringLiteral("%1 (%2)").arg(p->name, p->controller);
        out->append({ QStringLiteral("no-optimized-path"), devices,
            QStringLiteral("%1 has no ANA optimized path: its I/O goes through the non-optimized %2, %3 of its %4 "
                           "path(s), slower than through an optimized one")
                .arg(head.name, listed(through), QString::number(usable.size()), QString::number(total)) });
        return;
    }
    if (usable.size() > 1)
        return;
    const NvmePath &only = *usable.first();
    if (total == 1) {
        QStringList others = head.subsystem.controllers;
        others.removeAll(only.controller);
        out->append({ QStringLiteral("single-path"), devices,
            QStringLiteral("%1 is reached through one controller only, %2 (path %3): no redundancy; when %2 is lost, "
                           "I/O to %1 %4%5")
                .arg(head.name, only.controller, only.name, whileLost(only.controller, ctrlLossTmo),
                    others.isEmpty() ? QString()
                                     : QStringLiteral("; %1's other controller(s) %2 have no path to it")
                                           .arg(head.subsystem.name, others.join(QStringLiteral(", ")))) });
        return;
    }
    QStringList unusable;
    for (const NvmePath &p : head.paths) {
        if (!p.usable())
            unusable << pathState(p);
    }
    out->append({ QStringLiteral("single-path"), devices,
        QStringLiteral("%1 has one usable path left of %2, %3 via %4 (%5): no redundancy; I/O to %1 stops when %4 is "
                       "lost")
            .arg(head.name, QString::number(total), only.name, only.controller, unusable.join(QStringLiteral("; "))) });
}

} // namespace

QList<NvmeWarning> nvmeWarnings(
    const DeviceSnapshot &snapshot, const QString &nvmeCoreMultipath, const QHash<QString, QString> &ctrlLossTmo)
{
    QList<NvmeWarning> warnings;
    dmOverNative(snapshot, nvmeCoreMultipath, &warnings);
    noFailover(snapshot, nvmeCoreMultipath, &warnings);
    for (const NvmeMultipathHead &head : snapshot.nvmeMultipath)
        headWarning(head, ctrlLossTmo, &warnings);
    return warnings;
}

QList<NvmeWarning> nvmeWarnings(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot)
{
    QHash<QString, QString> ctrlLossTmo;
    const auto read = [&](const QString &controller) {
        if (!controller.isEmpty() && !ctrlLossTmo.contains(controller))
            ctrlLossTmo.insert(controller, sysfs.readOr(QStringLiteral("class/nvme/%1/ctrl_loss_tmo").arg(controller)));
    };
    for (const NvmeMultipathHead &head : snapshot.nvmeMultipath) {
        for (const NvmePath &p : head.paths)
            read(p.controller);
    }
    return nvmeWarnings(snapshot, nvmeCoreMultipath(sysfs), ctrlLossTmo);
}

QList<NvmeWarning> nvmeWarningsOfHead(const QList<NvmeWarning> &warnings, const NvmeMultipathHead &head)
{
    QList<NvmeWarning> own;
    for (const NvmeWarning &w : warnings) {
        const bool names = std::any_of(
            w.devices.begin(), w.devices.end(), [&](const QString &d) { return d == head.name || head.path(d); });
        if (names)
            own << w;
    }
    return own;
}

QJsonArray nvmeWarningsToJson(const QList<NvmeWarning> &warnings)
{
    QJsonArray array;
    for (const NvmeWarning &w : warnings) {
        array.append(QJsonObject { { QStringLiteral("code"), w.code },
            { QStringLiteral("devices"), QJsonArray::fromStringList(w.devices) },
            { QStringLiteral("message"), w.message } });
    }
    return array;
}

} // namespace dmtune
