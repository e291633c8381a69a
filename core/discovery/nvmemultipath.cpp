#include "core/discovery/nvmemultipath.h"

#include "core/params/devicecontext.h"
#include "core/sysfs/sysfsroot.h"

#include <QRegularExpression>

#include <algorithm>

namespace dmtune {

bool NvmePath::usable() const
{
    const bool anaAllows
        = anaState.isEmpty() || anaState == QLatin1String("optimized") || anaState == QLatin1String("non-optimized");
    return state == QLatin1String("live") && anaAllows;
}

const NvmePath *NvmeMultipathHead::path(const QString &name) const
{
    for (const NvmePath &p : paths) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

int NvmeMultipathHead::usablePaths() const
{
    return int(std::count_if(paths.begin(), paths.end(), [](const NvmePath &p) { return p.usable(); }));
}

std::optional<NvmePathName> parseNvmePathName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^nvme(\\d+)c(\\d+)n(\\d+)$"));
    const QRegularExpressionMatch m = pattern.match(name);
    if (!m.hasMatch())
        return std::nullopt;
    return NvmePathName { QStringLiteral("nvme%1n%2").arg(m.captured(1), m.captured(3)),
        QStringLiteral("nvme") + m.captured(2) };
}

namespace {

QString blockAttribute(const QString &device, const QString &attribute)
{
    return QStringLiteral("block/%1/%2").arg(device, attribute);
}

bool isHead(const BlockDevice &d)
{
    return d.kind == DeviceKind::NvmeNamespace && d.syspath.contains(QLatin1String("/nvme-subsystem/"));
}

NvmeSubsystemInfo readSubsystem(const SysfsRoot &sysfs, const QString &name)
{
    NvmeSubsystemInfo s;
    s.name = name;
    const QString dir = QStringLiteral("class/nvme-subsystem/") + name;
    s.nqn = sysfs.readOr(dir + QStringLiteral("/subsysnqn"));
    s.model = sysfs.readOr(dir + QStringLiteral("/model"));
    s.serial = sysfs.readOr(dir + QStringLiteral("/serial"));
    s.firmware = sysfs.readOr(dir + QStringLiteral("/firmware_rev"));
    s.iopolicy = sysfs.readOr(dir + QStringLiteral("/iopolicy"));
    static const QRegularExpression controller(QStringLiteral("^nvme\\d+$"));
    for (const QString &entry : sysfs.list(dir)) {
        if (controller.match(entry).hasMatch())
            s.controllers << entry;
    }
    std::sort(s.controllers.begin(), s.controllers.end(),
        [](const QString &a, const QString &b) { return a.mid(4).toInt() < b.mid(4).toInt(); });
    return s;
}

NvmePath readPath(const SysfsRoot &sysfs, const QString &name, const QString &controller)
{
    NvmePath p;
    p.name = name;
    p.controller = controller;
    const QString ctrl = QStringLiteral("class/nvme/") + controller;
    p.transport = sysfs.readOr(ctrl + QStringLiteral("/transport"));
    p.address = sysfs.readOr(ctrl + QStringLiteral("/address"));
    p.state = sysfs.readOr(ctrl + QStringLiteral("/state"));
    p.anaState = sysfs.readOr(blockAttribute(name, QStringLiteral("ana_state")));
    p.anaGroup = sysfs.readOr(blockAttribute(name, QStringLiteral("ana_grpid")));
    p.queueDepth = sysfs.readOr(blockAttribute(name, QStringLiteral("queue_depth")));
    p.numaNodes = sysfs.readOr(blockAttribute(name, QStringLiteral("numa_nodes")));
    return p;
}

} // namespace

QList<NvmeMultipathHead> readNvmeMultipath(const SysfsRoot &sysfs, const QList<BlockDevice> &devices)
{
    QList<NvmeMultipathHead> heads;
    for (const BlockDevice &d : devices) {
        if (!isHead(d))
            continue;
        NvmeMultipathHead head;
        head.name = d.name;
        head.devnum = d.devnum;
        head.wwid = d.wwid;
        head.nsid = d.nvme.nsid;
        head.sizeBytes = d.sizeBytes;
        head.iostats = sysfs.readOr(blockAttribute(d.name, QStringLiteral("queue/iostats")));
        head.subsystem = readSubsystem(sysfs, d.nvme.subsystem);
        // 6.14 and later link the paths under the head; before, the kernel's naming is what ties them.
        QStringList names = sysfs.list(blockAttribute(d.name, QStringLiteral("multipath")));
        if (names.isEmpty()) {
            for (const BlockDevice &other : devices) {
                const auto parsed = parseNvmePathName(other.name);
                if (parsed && parsed->head == d.name)
                    names << other.name;
            }
        }
        for (const QString &name : std::as_const(names)) {
            if (const auto parsed = parseNvmePathName(name))
                head.paths << readPath(sysfs, name, parsed->controller);
        }
        std::sort(head.paths.begin(), head.paths.end(), [](const NvmePath &a, const NvmePath &b) {
            return a.controller.mid(4).toInt() < b.controller.mid(4).toInt();
        });
        heads << head;
    }
    return heads;
}

QString nativeNvmeInsteadOfDm(const SysfsRoot &sysfs, const QString &name)
{
    static const QRegularExpression safeName(QStringLiteral("^nvme[0-9a-z]+$"));
    if (!safeName.match(name).hasMatch())
        return {};
    QString head = name;
    if (const auto path = parseNvmePathName(name))
        head = path->head;
    const QString subsystem = sysfs.linkName(blockAttribute(head, QStringLiteral("device")));
    if (!subsystem.startsWith(QLatin1String("nvme-subsys")))
        return {};
    const QString what = head == name
        ? QStringLiteral("%1 is a native NVMe multipath head (%2), not a dm-multipath map").arg(name, subsystem)
        : QStringLiteral("%1 is a path of the native NVMe multipath head %2 (%3), not a dm-multipath map")
              .arg(name, head, subsystem);
    return what
        + QStringLiteral(": the kernel chooses its paths by the subsystem's iopolicy (dmtunectl set %1 iopolicy=...) "
                         "and their ANA states; path, group and map commands are for dm maps")
              .arg(head);
}

bool nvmeHeadStatisticsCanBeTurnedOn(const QString &kernelRelease)
{
    return kernelAtLeast(kernelRelease, 6, 2);
}

QString nvmeHeadStatisticsNote(const NvmeMultipathHead &head, const QString &kernelRelease)
{
    const bool counting = nvmeHeadStatisticsCanBeTurnedOn(kernelRelease);
    // iostats 1 on a known kernel before 6.2 still counts nothing (6.1 in the lab VM: 0 writes under 1,024).
    const bool blind = head.iostats == QLatin1String("1") && !kernelRelease.isEmpty() && !counting;
    if (head.iostats != QLatin1String("0") && !blind)
        return {};
    QStringList paths;
    for (const NvmePath &p : head.paths)
        paths << p.name;
    const QString why = blind ? QStringLiteral("this kernel has no statistics for a head, whatever its queue/iostats "
                                               "says; they came with Linux 6.2")
                              : QStringLiteral("its queue/iostats is 0: the kernel counts native multipath I/O on "
                                               "the paths only");
    const QString remedy = blind ? QString()
        : counting               ? QStringLiteral("; queue/iostats=1 makes the kernel count the head too")
                   : QStringLiteral("; this kernel has no statistics for a head (they came with Linux 6.2)");
    return QStringLiteral("%1 counts no I/O (%2); its paths %3 do, and are never to be added to the head's numbers%4")
        .arg(head.name, why, paths.join(QLatin1Char(' ')), remedy);
}

QString nvmeCoreMultipath(const SysfsRoot &sysfs)
{
    return sysfs.readOr(QStringLiteral("module/nvme_core/parameters/multipath"));
}

} // namespace dmtune
