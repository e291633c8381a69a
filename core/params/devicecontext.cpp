#include "core/params/devicecontext.h"

#include <QFile>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <functional>

#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

// The scheduler-owned nr_requests ceiling (MAX_SCHED_RQ = 16 x BLKDEV_DEFAULT_RQ).
constexpr qint64 maxSchedulerRequests = 2048;

qint64 readInt(const SysfsRoot &sysfs, const QString &relative)
{
    const auto text = sysfs.read(relative);
    if (!text)
        return -1;
    const auto v = parseInteger(*text);
    return v ? *v : -1;
}

qint64 pageKb()
{
    const long page = ::sysconf(_SC_PAGESIZE);
    return page > 0 ? page / 1024 : 4;
}

} // namespace

Status checkDeviceName(const SysfsRoot &sysfs, const QString &name)
{
    // Kernel names: sda, dm-3, nvme0n1, md127, cciss!c0d0. Nothing that could walk the tree.
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.:!+-]{0,63}$"));
    if (name.isEmpty())
        return Status::failure(QStringLiteral("empty device name"));
    if (name.contains(QLatin1Char('/')) || name.contains(QLatin1String("..")) || !pattern.match(name).hasMatch())
        return Status::failure(QStringLiteral("'%1' is not a kernel device name").arg(name));
    const QString entry = QStringLiteral("block/") + name;
    if (!sysfs.exists(entry))
        return Status::failure(QStringLiteral("%1: no such block device").arg(name));
    // block/NAME is always a link into devices/; anything else was not made by the kernel.
    if (!sysfs.linkTarget(entry).startsWith(QLatin1String("devices/")))
        return Status::failure(QStringLiteral("%1: %2 does not link into devices/").arg(name, sysfs.path(entry)));
    return Status::success();
}

DeviceContext readDeviceContext(const SysfsRoot &sysfs, const QString &name)
{
    DeviceContext c;
    c.name = name;
    const QString base = QStringLiteral("block/") + name;
    c.devicePath = sysfs.linkTarget(base);
    if (const auto list = sysfs.read(base + QStringLiteral("/queue/scheduler"))) {
        if (const auto parsed = parseSchedulerList(*list)) {
            c.schedulerKnown = true;
            c.schedulers = *parsed;
        }
    }
    c.kernelRelease = sysfs.readProc(QStringLiteral("sys/kernel/osrelease")).valueOr({}).trimmed();
    c.maxHwSectorsKb = readInt(sysfs, base + QStringLiteral("/queue/max_hw_sectors_kb"));
    c.nrTags = readInt(sysfs, base + QStringLiteral("/mq/0/nr_tags"));
    c.discardMaxHwBytes = readInt(sysfs, base + QStringLiteral("/queue/discard_max_hw_bytes"));
    c.discardGranularity = readInt(sysfs, base + QStringLiteral("/queue/discard_granularity"));
    c.slaves = sysfs.list(base + QStringLiteral("/slaves"));
    c.holders = sysfs.list(base + QStringLiteral("/holders"));
    c.isDm = sysfs.isDir(base + QStringLiteral("/dm"));
    if (c.isDm) {
        c.dmUuid = sysfs.readOr(base + QStringLiteral("/dm/uuid"));
        c.isMultipath = c.dmUuid.startsWith(QLatin1String("mpath-"));
        c.requestBased
            = sysfs.isDir(base + QStringLiteral("/mq")) || (c.schedulerKnown && c.schedulers.available.size() > 1);
    }
    const QString device = sysfs.linkTarget(base + QStringLiteral("/device"));
    if (sysfs.exists(base + QStringLiteral("/device/queue_depth"))) {
        c.isScsi = true;
        static const QRegularExpression hostPattern(QStringLiteral("^host[0-9]+$"));
        const auto parts = device.split(QLatin1Char('/'));
        for (const auto &part : parts) {
            if (hostPattern.match(part).hasMatch())
                c.scsiHost = part;
        }
        if (!c.scsiHost.isEmpty()) {
            c.canQueue = readInt(sysfs, QStringLiteral("class/scsi_host/%1/can_queue").arg(c.scsiHost));
            if (c.canQueue < 0) {
                const QString hostDir = device.left(device.indexOf(c.scsiHost) + c.scsiHost.size());
                c.canQueue = readInt(sysfs, QStringLiteral("%1/scsi_host/%2/can_queue").arg(hostDir, c.scsiHost));
            }
        }
    }
    // Native NVMe multipath: the head sits in the subsystem's directory; otherwise the
    // subsystem is the one that links to the namespace's controller.
    const QString parent = c.devicePath.section(QLatin1Char('/'), -2, -2);
    if (parent.startsWith(QLatin1String("nvme-subsys"))) {
        c.nvmeSubsystem = parent;
    } else if (name.startsWith(QLatin1String("nvme"))) {
        const QString controller = device.section(QLatin1Char('/'), -1);
        const auto subsystems = sysfs.list(QStringLiteral("class/nvme-subsystem"));
        for (const auto &subsys : subsystems) {
            if (!controller.isEmpty()
                && sysfs.exists(QStringLiteral("class/nvme-subsystem/%1/%2").arg(subsys, controller))) {
                c.nvmeSubsystem = subsys;
                break;
            }
        }
    }
    return c;
}

bool appliesTo(const TunableDef &def, const DeviceContext &device, const QString &scheduler)
{
    switch (def.location) {
    case TunableLocation::Queue:
        return true;
    case TunableLocation::IoScheduler:
        return def.scheduler == scheduler;
    case TunableLocation::ScsiDevice:
        return device.isScsi;
    case TunableLocation::DeviceMapper:
        return device.isDm;
    case TunableLocation::Module:
        if (def.module == QLatin1String("nvme_core"))
            return !device.nvmeSubsystem.isEmpty();
        return device.isDm && (def.module == QLatin1String("dm_mod") || device.isMultipath);
    case TunableLocation::NvmeSubsystem:
        return !device.nvmeSubsystem.isEmpty();
    }
    return false;
}

namespace {

// A root's real path, resolved at every call: a remote host's capture is a link repointed at each new capture (one
// system call for /sys).
QString realPathOf(const QString &path)
{
    char real[PATH_MAX];
    if (::realpath(QFile::encodeName(path).constData(), real) == nullptr)
        return QString();
    return QFile::decodeName(real);
}

// A directory's real path (every link followed), remembered per thread: the same devices' directories are asked
// for again at every scan. Only the confinement check below reads it, and a directory of sysfs that moves stays
// under devices/. A remembered path outside the root's real path now is of an earlier capture: resolved again.
// Empty when it does not exist.
QString canonicalOf(const QString &directory, const QString &realRoot)
{
    thread_local QHash<QString, QString> known;
    const auto inRoot = [&](const QString &real) {
        return real.size() > realRoot.size() && real.startsWith(realRoot) && real.at(realRoot.size()) == u'/';
    };
    if (const auto it = known.constFind(directory); it != known.constEnd() && inRoot(*it))
        return *it;
    if (known.size() >= 16384)
        known.clear(); // bounded: a host's devices' directories, a few times over
    const QString real = realPathOf(directory);
    if (!real.isEmpty())
        known.insert(directory, real);
    return real;
}

} // namespace

Result<QString> attributePath(const SysfsRoot &sysfs, const DeviceContext &device, const TunableDef &def)
{
    QString relative;
    switch (def.location) {
    case TunableLocation::Queue:
    case TunableLocation::IoScheduler:
    case TunableLocation::ScsiDevice:
    case TunableLocation::DeviceMapper:
        relative = QStringLiteral("block/%1/%2").arg(device.name, def.attribute);
        break;
    case TunableLocation::Module:
        relative = QStringLiteral("module/%1/parameters/%2").arg(def.module, def.fileName());
        break;
    case TunableLocation::NvmeSubsystem:
        if (device.nvmeSubsystem.isEmpty())
            return Result<QString>::failure(QStringLiteral("%1: not an NVMe namespace").arg(device.name));
        relative = QStringLiteral("class/nvme-subsystem/%1/%2").arg(device.nvmeSubsystem, def.fileName());
        break;
    }
    const QString full = sysfs.path(relative);
    struct stat st { };
    if (::lstat(QFile::encodeName(full).constData(), &st) != 0)
        return Result<QString>::failure(QStringLiteral("%1 has no %2").arg(device.name, def.attribute));
    // Follow every link: the file must be the kernel's, under devices/ or module/ of this root. The directory's real
    // path is resolved once (realpath reads every component's link: ten system calls an attribute, twenty
    // attributes a device); a last component that is itself a link is resolved whole.
    const QString root = realPathOf(sysfs.root());
    const qsizetype slash = full.lastIndexOf(QLatin1Char('/'));
    const QString real = S_ISLNK(st.st_mode) ? realPathOf(full) : canonicalOf(full.left(slash), root) + full.mid(slash);
    if (root.isEmpty() || real.isEmpty()
        || !(real.startsWith(root + QStringLiteral("/devices/")) || real.startsWith(root + QStringLiteral("/module/"))))
        return Result<QString>::failure(QStringLiteral("%1 %2: %3 leaves the sysfs device tree")
                                            .arg(device.name, def.attribute, sysfs.path(relative)));
    return relative;
}

ValueLimits deviceLimits(const TunableDef &def, const DeviceContext &device, const QString &scheduler)
{
    ValueLimits l = staticLimits(def);
    switch (def.limit) {
    case DynamicLimit::None:
        break;
    case DynamicLimit::MaxHwSectors:
        l.minimum = std::max(l.minimum, pageKb());
        if (device.maxHwSectorsKb > 0)
            l.maximum = device.maxHwSectorsKb;
        break;
    case DynamicLimit::NrRequests:
        if (!scheduler.isEmpty() && scheduler != QLatin1String("none"))
            l.maximum = maxSchedulerRequests;
        else if (device.nrTags > 0)
            l.maximum = device.nrTags;
        break;
    case DynamicLimit::CanQueue:
        if (device.canQueue > 0)
            l.maximum = device.canQueue;
        break;
    case DynamicLimit::DiscardMax:
        // The kernel refuses values that are not multiples of the granularity; with granularity 0
        // (no discard) that is every value but 0. Its own default (0xfffffe00) may not be one.
        if (device.discardGranularity == 0) {
            l.maximum = 0;
        } else if (device.discardGranularity > 0) {
            l.step = device.discardGranularity;
            if (device.discardMaxHwBytes >= 0)
                l.maximum = device.discardMaxHwBytes - device.discardMaxHwBytes % l.step;
        } else if (device.discardMaxHwBytes >= 0) {
            l.maximum = device.discardMaxHwBytes;
        }
        break;
    case DynamicLimit::SchedulerList:
        l.choices = device.schedulers.available;
        break;
    case DynamicLimit::NvmeIopolicies:
        // The kernel's nvme_iopolicy_names: queue-depth came with 6.11. An unknown release offers the old two.
        if (!kernelAtLeast(device.kernelRelease, 6, 11))
            l.choices.removeAll(QStringLiteral("queue-depth"));
        break;
    }
    return l;
}

bool kernelAtLeast(const QString &release, int major, int minor)
{
    static const QRegularExpression version(QStringLiteral("^(\\d+)\\.(\\d+)"));
    const QRegularExpressionMatch m = version.match(release);
    if (!m.hasMatch())
        return false;
    const int a = m.captured(1).toInt(), b = m.captured(2).toInt();
    return a > major || (a == major && b >= minor);
}

} // namespace dmtune
