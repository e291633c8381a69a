#include "core/diagnosis/diagnosisreader.h"

#include "core/discovery/devicesnapshot.h"
#include "core/discovery/nvmemultipath.h"
#include "core/params/devicecontext.h"
#include "core/params/valueparsers.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/inputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace dmtune {

namespace {

qint64 sysfsInteger(const SysfsRoot &sysfs, const QString &relative)
{
    const auto v = parseInteger(sysfs.readOr(relative));
    return v ? *v : -1;
}

QString currentScheduler(const SysfsRoot &sysfs, const QString &device)
{
    const auto list = parseSchedulerList(sysfs.readOr(QStringLiteral("block/%1/queue/scheduler").arg(device)));
    return list ? list->current : QString();
}

DiagnosedPath readPath(const SysfsRoot &sysfs, const QString &name, int group, const QString &dmState)
{
    DiagnosedPath p;
    p.name = name;
    p.group = group;
    p.dmState = dmState;
    p.queueDepth = sysfsInteger(sysfs, QStringLiteral("block/%1/device/queue_depth").arg(name));
    p.scheduler = currentScheduler(sysfs, name);
    p.maxSectorsKb = sysfsInteger(sysfs, QStringLiteral("block/%1/queue/max_sectors_kb").arg(name));
    return p;
}

} // namespace

DiagnosedMap readDiagnosedMap(const SysfsRoot &sysfs, const MultipathMap &map)
{
    DiagnosedMap d;
    d.name = map.name;
    d.device = map.device;
    d.requestBased = readDeviceContext(sysfs, map.device).requestBased;
    d.nrRequests = sysfsInteger(sysfs, QStringLiteral("block/%1/queue/nr_requests").arg(map.device));
    d.maxSectorsKb = sysfsInteger(sysfs, QStringLiteral("block/%1/queue/max_sectors_kb").arg(map.device));
    d.scheduler = currentScheduler(sysfs, map.device);
    d.queueIfNoPath = map.features.contains(QLatin1String("queue_if_no_path"));
    if (map.groupsKnown) {
        for (const PathGroupInfo &g : map.groups) {
            if (g.state == QLatin1String("A")) {
                d.groupInUse = g.index;
                d.selector = g.selector.section(u' ', 0, 0);
            } else if (d.groupInUse == 0 && g.index == (map.nextGroup > 0 ? map.nextGroup : 1)) {
                d.selector = g.selector.section(u' ', 0, 0); // no I/O yet, no active group: the one dm uses first
            }
            for (const PathInfo &p : g.paths) {
                if (!p.name.isEmpty())
                    d.paths << readPath(sysfs, p.name, g.index, p.state);
            }
        }
    } else {
        for (const QString &slave : map.slaves)
            d.paths << readPath(sysfs, slave, 0, QString());
    }
    return d;
}

DiagnosisInput readDiagnosisInput(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QStringList &devices)
{
    DiagnosisInput input;
    for (const MultipathMap &map : snapshot.maps) {
        if (devices.isEmpty() || devices.contains(map.name) || devices.contains(map.device))
            input.maps << readDiagnosedMap(sysfs, map);
    }
    if (sysfs.isLive())
        input.ignoredKnobs = findIgnoredKnobSettings(systemConfigurationFiles());
    for (const NvmeMultipathHead &head : snapshot.nvmeMultipath) {
        if (!devices.isEmpty() && !devices.contains(head.name))
            continue;
        const QString note = nvmeHeadStatisticsNote(head, snapshot.kernelRelease);
        if (!note.isEmpty())
            input.nvmeHeads << HeadWithoutStatistics { head.name, note };
    }
    return input;
}

QList<IgnoredKnobSetting> ignoredKnobSettings(const QString &file, const QString &text)
{
    static const QStringList knobs { QStringLiteral("rq_based_seq_io_merge_deadline") };
    QList<IgnoredKnobSetting> out;
    int number = 0;
    for (const QString &line : text.split(u'\n')) {
        ++number;
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(u'#') || trimmed.startsWith(u';'))
            continue;
        for (const QString &knob : knobs) {
            if (trimmed.contains(knob))
                out << IgnoredKnobSetting { knob, file, number, trimmed };
        }
    }
    return out;
}

QStringList systemConfigurationFiles()
{
    QStringList files;
    for (const char *dir : { "/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d" }) {
        const QDir d(QString::fromLatin1(dir));
        for (const QString &name : d.entryList({ QStringLiteral("*.rules") }, QDir::Files, QDir::Name))
            files << d.filePath(name);
    }
    for (const char *dir : { "/etc/tuned", "/usr/lib/tuned" }) {
        const QDir d(QString::fromLatin1(dir));
        for (const QString &profile : d.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFileInfo::exists(d.filePath(profile + QStringLiteral("/tuned.conf"))))
                files << d.filePath(profile + QStringLiteral("/tuned.conf"));
        }
    }
    return files;
}

QList<IgnoredKnobSetting> findIgnoredKnobSettings(const QStringList &files)
{
    QList<IgnoredKnobSetting> out;
    for (const QString &path : files) {
        // Rules and profiles are small regular files; a huge file, a FIFO or a device is not one of them.
        const auto bytes = readInputFile(path, qint64(1) << 20, QStringLiteral("a udev rule or tuned profile"));
        if (!bytes)
            continue;
        out << ignoredKnobSettings(path, QString::fromUtf8(bytes.value()));
    }
    return out;
}

QStringList diagnosedDeviceNames(const DiagnosisInput &input)
{
    QStringList out;
    for (const DiagnosedMap &map : input.maps) {
        out << map.device;
        for (const DiagnosedPath &p : map.paths) {
            if (!out.contains(p.name))
                out << p.name;
        }
    }
    return out;
}

void attachMetrics(DiagnosisInput *input, const QHash<QString, IostatMetrics> &metrics, double seconds)
{
    input->seconds = seconds;
    for (DiagnosedMap &map : input->maps) {
        if (const auto it = metrics.constFind(map.device); it != metrics.cend())
            map.metrics = *it;
        for (DiagnosedPath &p : map.paths) {
            if (const auto it = metrics.constFind(p.name); it != metrics.cend())
                p.metrics = *it;
        }
    }
}

} // namespace dmtune
