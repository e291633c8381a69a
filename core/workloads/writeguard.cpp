#include "core/workloads/writeguard.h"

#include "core/util/printable.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QThread>

#include <unistd.h>

#ifdef DMTUNE_HAVE_BLKID
#include <blkid/blkid.h>
#endif

namespace dmtune {

namespace {

// mountinfo escapes blanks and backslashes in paths as \ooo (octal).
QString unescapeMountPath(const QString &path)
{
    QString out;
    out.reserve(path.size());
    for (qsizetype i = 0; i < path.size(); ++i) {
        if (path.at(i) == u'\\' && i + 3 < path.size()) {
            bool ok = false;
            const int code = path.mid(i + 1, 3).toInt(&ok, 8);
            if (ok) {
                out += QChar(code);
                i += 3;
                continue;
            }
        }
        out += path.at(i);
    }
    return out;
}

// How long an opener that is about to close is waited for: udev's blkid after the last writer closed the
// device (the change uevent), a monitoring probe. Longer than those take, short enough for a plan.
constexpr int OpenerGraceMs = 2000;
constexpr int OpenerPollMs = 50;

// Other processes with a descriptor on any of `devnums` ("7:3"), named by the devices of `names` (index for
// index), dmtune's own left out.
void lookForOpeners(const SysfsRoot &root, const QStringList &names, const QStringList &devnums, DeviceFacts *facts)
{
    facts->openers.clear();
    facts->openerDevices.clear();
    QList<dev_t> rdevs;
    for (const QString &devnum : devnums) {
        dev_t rdev = 0;
        rdevs.append(parseDevnum(devnum, &rdev) ? rdev : dev_t(0));
    }
    const QSet<qint64> own = ownProcesses(root.procRoot(), qint64(::getpid()));
    for (const DeviceOpener &opener : deviceOpeners(root.procRoot(), rdevs)) {
        if (own.contains(opener.pid))
            continue;
        facts->openers.append(opener);
        const qsizetype at = rdevs.indexOf(opener.rdev);
        facts->openerDevices.append(at >= 0 && at < names.size() ? names.at(at) : facts->device);
    }
}

#ifdef DMTUNE_HAVE_BLKID
QString probeValue(blkid_probe probe, const char *name)
{
    const char *data = nullptr;
    size_t length = 0;
    if (blkid_probe_lookup_value(probe, name, &data, &length) != 0 || !data)
        return {};
    return QString::fromUtf8(data, qsizetype(strnlen(data, length))).trimmed();
}

// Every signature libblkid finds on one device, as wipefs lists them: superblocks (file systems, RAID and
// LVM members, crypto) and partition tables. heldFd >= 0: probe that descriptor (the device the hold
// checked), else open /dev/<name>. FORCE_GPT: a GPT whose protective MBR was zeroed (or overwritten by a
// "dos" label) is still a GPT, with partitions, to the kernel's "gpt" parser and to sgdisk.
Status probeSignatures(const QString &name, int heldFd, QList<BlockSignature> *out)
{
    blkid_probe probe = nullptr;
    if (heldFd >= 0) {
        probe = blkid_new_probe();
        if (probe && blkid_probe_set_device(probe, heldFd, 0, 0) != 0) {
            blkid_free_probe(probe);
            probe = nullptr;
        }
    } else {
        probe = blkid_new_probe_from_filename(QFile::encodeName(QStringLiteral("/dev/") + name).constData());
    }
    if (!probe)
        return Status::failure(QStringLiteral("libblkid cannot open /dev/%1").arg(name));
    blkid_probe_enable_superblocks(probe, 1);
    blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_BADCSUM);
    blkid_probe_enable_partitions(probe, 1);
    blkid_probe_set_partitions_flags(probe, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
    int rc = 0;
    while ((rc = blkid_do_probe(probe)) == 0) {
        BlockSignature s;
        s.device = name;
        s.type = probeValue(probe, "TYPE");
        s.usage = probeValue(probe, "USAGE");
        if (s.type.isEmpty()) {
            s.type = probeValue(probe, "PTTYPE");
            s.usage = QStringLiteral("partition table");
        }
        if (!s.type.isEmpty())
            out->append(s);
    }
    blkid_free_probe(probe);
    return rc < 0 ? Status::failure(QStringLiteral("libblkid failed to probe /dev/%1").arg(name)) : Status::success();
}
#endif

} // namespace

QList<MountEntry> parseMountinfo(const QString &text)
{
    QList<MountEntry> entries;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList f = line.split(u' ', Qt::SkipEmptyParts);
        const qsizetype dash = f.indexOf(QStringLiteral("-"));
        if (f.size() < 6 || dash < 6 || dash + 2 >= f.size())
            continue;
        entries.append({ f.at(2), unescapeMountPath(f.at(4)), f.at(dash + 1), unescapeMountPath(f.at(dash + 2)) });
    }
    return entries;
}

QStringList parseSwaps(const QString &text)
{
    QStringList devices;
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < lines.size(); ++i) { // the first line is the header
        const QString path = lines.at(i).section(u' ', 0, 0, QString::SectionSkipEmpty);
        if (!path.isEmpty())
            devices << unescapeMountPath(path);
    }
    return devices;
}

DeviceFacts gatherDeviceFacts(const SysfsRoot &root, const QString &device, DeviceHold *holdOut)
{
    DeviceFacts facts;
    facts.device = device;
    // class/block has partitions too (block/ only whole devices): a workload may target sda2.
    const QString base = QStringLiteral("class/block/") + device;
    facts.exists = !device.isEmpty() && !device.contains(u'/') && root.exists(base + QStringLiteral("/dev"));
    if (!facts.exists)
        return facts;
    // The hold first: what is probed below is then the device the kernel says nobody else has claimed.
    DeviceHold hold;
    if (root.isLive()) {
        auto acquired = DeviceHold::acquire(root, device);
        if (acquired)
            hold = std::move(acquired.value());
        else
            facts.exclusiveError = acquired.errorMessage();
    }
    facts.held = hold.isHeld();
    for (const QString &entry : root.list(base)) {
        if (root.exists(QStringLiteral("%1/%2/partition").arg(base, entry)))
            facts.partitions << entry;
    }

    QStringList names = { device };
    names += facts.partitions;
    QStringList devnums;
    for (const QString &name : std::as_const(names)) {
        const QString dir = name == device ? base : QStringLiteral("%1/%2").arg(base, name);
        devnums << root.readOr(dir + QStringLiteral("/dev"));
        for (const QString &holder : root.list(dir + QStringLiteral("/holders")))
            facts.holders << (name == device ? holder : QStringLiteral("%1 (on %2)").arg(holder, name));
    }
    // A partition's disk: sysfs links class/block/sdb1 to .../block/sdb/sdb1. Its holders (a multipath map
    // over the disk, LVM on the whole disk) and its mounts make the partition unsafe too.
    QStringList inUseNames = names;
    if (root.exists(base + QStringLiteral("/partition"))) {
        const QString parent = root.linkTarget(base).section(u'/', -2, -2);
        if (!parent.isEmpty() && parent != device && root.exists(QStringLiteral("class/block/%1/dev").arg(parent))) {
            facts.parentDisk = parent;
            facts.parentHolders = root.list(QStringLiteral("class/block/%1/holders").arg(parent));
            devnums << root.readOr(QStringLiteral("class/block/%1/dev").arg(parent));
            inUseNames << parent;
        }
    }

    // Openers last before the probe: the hold is taken, so nothing new can claim the device while they are waited
    // for. Not waited for when the device is refused anyway (claimed, held). Plans run in a job, never on the UI
    // thread, so the short wait blocks no window.
    if (root.isLive() && !root.procRoot().isEmpty()) {
        lookForOpeners(root, inUseNames, devnums, &facts);
        const QDeadlineTimer grace(OpenerGraceMs);
        while (!facts.openers.isEmpty() && facts.exclusiveError.isEmpty() && facts.holders.isEmpty()
            && facts.parentHolders.isEmpty() && !grace.hasExpired()) {
            QThread::msleep(OpenerPollMs);
            lookForOpeners(root, inUseNames, devnums, &facts);
        }
    }

    if (const auto mountinfo = root.readProc(QStringLiteral("self/mountinfo")))
        for (const MountEntry &m : parseMountinfo(mountinfo.value())) {
            if (devnums.contains(m.devnum))
                facts.mounts << m;
        }
    if (const auto swaps = root.readProc(QStringLiteral("swaps")))
        for (const QString &path : parseSwaps(swaps.value())) {
            if (inUseNames.contains(path.section(u'/', -1)))
                facts.swaps << path;
        }

#ifdef DMTUNE_HAVE_BLKID
    if (!root.isLive()) {
        facts.probeError = QStringLiteral("a captured sysfs tree: the device cannot be probed");
    } else {
        for (const QString &name : std::as_const(names)) {
            const int fd = name == device && hold.isHeld() ? hold.fd() : -1;
            if (const Status probed = probeSignatures(name, fd, &facts.signatures); !probed)
                facts.probeError = probed.errorMessage();
        }
    }
#else
    facts.probeError = QStringLiteral("dmtune was built without libblkid: signatures cannot be checked");
#endif
    if (holdOut)
        *holdOut = std::move(hold);
    return facts;
}

WriteDecision decideWrite(const DeviceFacts &facts, bool writes, const QString &confirmation)
{
    WriteDecision d;
    if (!facts.exists) {
        d.reasons << QStringLiteral("%1 is not a block device").arg(facts.device);
        return d;
    }
    if (!writes) {
        d.allowed = true;
        return d;
    }
    // In use: something else has the device (or its disk) now. No confirmation can make that safe.
    QStringList inUse;
    for (const MountEntry &m : facts.mounts)
        inUse << QStringLiteral("%1 (%2) is mounted on %3").arg(m.source, m.fsType, m.mountPoint);
    for (const QString &swap : facts.swaps)
        inUse << QStringLiteral("%1 is in use as swap").arg(swap);
    for (const QString &holder : facts.holders)
        inUse << QStringLiteral("held by %1 (LVM, dm or md on top of it)").arg(holder);
    for (const QString &holder : facts.parentHolders)
        inUse << QStringLiteral("its disk %1 is held by %2 (a multipath map, LVM, dm or md uses the whole disk)")
                     .arg(facts.parentDisk, holder);
    for (qsizetype i = 0; i < facts.openers.size(); ++i) {
        const DeviceOpener &o = facts.openers.at(i);
        const QString on = facts.openerDevices.value(i, facts.device);
        inUse << QStringLiteral("held open by %1, pid %2%3")
                     .arg(o.command.isEmpty() ? QStringLiteral("?") : printable(o.command))
                     .arg(o.pid)
                     .arg(on == facts.device ? QString() : QStringLiteral(" (on %1)").arg(on));
    }
    if (!facts.exclusiveError.isEmpty())
        inUse << facts.exclusiveError;
    else if (!facts.held)
        inUse << QStringLiteral("%1 was not opened exclusively, so nothing keeps it unused until fio ends")
                     .arg(facts.device);
    // Holds data: destroyed by the write, which the user may want.
    QStringList data;
    for (const BlockSignature &s : facts.signatures)
        data << QStringLiteral("%1 holds %2 (%3)")
                    .arg(s.device, s.type, s.usage.isEmpty() ? QStringLiteral("signature") : s.usage);
    if (!facts.partitions.isEmpty())
        data << QStringLiteral("it has partitions: %1").arg(facts.partitions.join(QLatin1String(", ")));
    if (!facts.probeError.isEmpty())
        data << QStringLiteral("its contents could not be checked: %1").arg(facts.probeError);
    d.reasons = inUse + data;
    if (!inUse.isEmpty())
        return d;
    if (d.reasons.isEmpty()) {
        d.allowed = true;
        return d;
    }
    d.needsConfirmation = true;
    const QString typed = confirmation.trimmed();
    d.allowed = typed == facts.device || typed == QStringLiteral("/dev/") + facts.device;
    return d;
}

WriteDecision checkWrite(
    const SysfsRoot &root, const QString &device, bool writes, const QString &confirmation, DeviceHold *hold)
{
    if (!writes) // a read workload is never refused for what the device holds: no probe, no hold
        return decideWrite({ device, !device.contains(u'/') && root.exists(QStringLiteral("class/block/") + device) },
            false, confirmation);
    DeviceHold taken;
    const WriteDecision decision = decideWrite(gatherDeviceFacts(root, device, &taken), true, confirmation);
    if (decision.allowed && hold)
        *hold = std::move(taken);
    return decision;
}

} // namespace dmtune
