#include "writeguard.h"

#include <QFile>

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
// LVM members, crypto) and partition tables.
Status probeSignatures(const QString &name, QList<BlockSignature> *out)
{
    const QByteArray node = QFile::encodeName(QStringLiteral("/dev/") + name);
    blkid_probe probe = blkid_new_probe_from_filename(node.constData());
    if (!probe)
        return Status::failure(QStringLiteral("libblkid cannot open /dev/%1").arg(name));
    blkid_probe_enable_superblocks(probe, 1);
    blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_BADCSUM);
    blkid_probe_enable_partitions(probe, 1);
    blkid_probe_set_partitions_flags(probe, BLKID_PARTS_MAGIC);
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

DeviceFacts gatherDeviceFacts(const SysfsRoot &root, const QString &device)
{
    DeviceFacts facts;
    facts.device = device;
    // class/block has partitions too (block/ only whole devices): a workload may target sda2.
    const QString base = QStringLiteral("class/block/") + device;
    facts.exists = !device.isEmpty() && !device.contains(u'/') && root.exists(base + QStringLiteral("/dev"));
    if (!facts.exists)
        return facts;
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

    if (const auto mountinfo = root.readProc(QStringLiteral("self/mountinfo")))
        for (const MountEntry &m : parseMountinfo(mountinfo.value())) {
            if (devnums.contains(m.devnum))
                facts.mounts << m;
        }
    if (const auto swaps = root.readProc(QStringLiteral("swaps")))
        for (const QString &path : parseSwaps(swaps.value())) {
            if (names.contains(path.section(u'/', -1)))
                facts.swaps << path;
        }

#ifdef DMTUNE_HAVE_BLKID
    if (!root.isLive()) {
        facts.probeError = QStringLiteral("a captured sysfs tree: the device cannot be probed");
    } else {
        for (const QString &name : std::as_const(names)) {
            if (const Status probed = probeSignatures(name, &facts.signatures); !probed)
                facts.probeError = probed.errorMessage;
        }
    }
#else
    facts.probeError = QStringLiteral("dmtune was built without libblkid: signatures cannot be checked");
#endif
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
    for (const MountEntry &m : facts.mounts)
        d.reasons << QStringLiteral("%1 (%2) is mounted on %3").arg(m.source, m.fsType, m.mountPoint);
    for (const QString &swap : facts.swaps)
        d.reasons << QStringLiteral("%1 is in use as swap").arg(swap);
    for (const QString &holder : facts.holders)
        d.reasons << QStringLiteral("held by %1 (LVM, dm or md on top of it)").arg(holder);
    for (const BlockSignature &s : facts.signatures)
        d.reasons << QStringLiteral("%1 holds %2 (%3)")
                         .arg(s.device, s.type, s.usage.isEmpty() ? QStringLiteral("signature") : s.usage);
    if (!facts.partitions.isEmpty())
        d.reasons << QStringLiteral("it has partitions: %1").arg(facts.partitions.join(QLatin1String(", ")));
    if (!facts.probeError.isEmpty())
        d.reasons << QStringLiteral("its contents could not be checked: %1").arg(facts.probeError);
    if (d.reasons.isEmpty()) {
        d.allowed = true;
        return d;
    }
    d.needsConfirmation = true;
    const QString typed = confirmation.trimmed();
    d.allowed = typed == facts.device || typed == QStringLiteral("/dev/") + facts.device;
    return d;
}

WriteDecision checkWrite(const SysfsRoot &root, const QString &device, bool writes, const QString &confirmation)
{
    if (!writes) // a read workload is never refused for what the device holds: no probe needed
        return decideWrite({ device, !device.contains(u'/') && root.exists(QStringLiteral("class/block/") + device) },
            false, confirmation);
    return decideWrite(gatherDeviceFacts(root, device), true, confirmation);
}

} // namespace dmtune
