#include "core/params/stacking.h"

#include "core/params/catalog.h"
#include "core/params/devicecontext.h"

#include <algorithm>

namespace dmtune {

namespace {

QString mapLabel(const MapStackFacts &f)
{
    return f.name.isEmpty() ? f.device : QStringLiteral("%1 (%2)").arg(f.name, f.device);
}

// The value the attribute will have: the change set's (valid integers only) over the current one.
QString effective(const SysfsRoot &sysfs, const ChangeSet &changes, const QString &device, const QString &attribute)
{
    for (auto it = changes.crbegin(); it != changes.crend(); ++it) {
        if (it->device == device && it->attribute == attribute) {
            const TunableDef *def = catalog::find(attribute);
            return def ? normalizeValue(*def, it->value) : it->value.trimmed();
        }
    }
    const QString text = sysfs.readOr(QStringLiteral("block/%1/%2").arg(device, attribute));
    if (attribute == QLatin1String("queue/scheduler")) {
        const auto list = parseSchedulerList(text);
        return list ? list->current : QString();
    }
    return text;
}

qint64 effectiveInt(const SysfsRoot &sysfs, const ChangeSet &changes, const QString &device, const QString &attribute)
{
    const auto v = parseInteger(effective(sysfs, changes, device, attribute));
    return v ? *v : -1;
}

} // namespace

int StackLevels::level(const QString &device)
{
    if (const auto known = m_levels.constFind(device); known != m_levels.cend())
        return std::max(*known, 0);
    struct Frame {
        QString device;
        QStringList slaves;
        qsizetype next = 0;
        int deepest = -1;
    };
    QList<Frame> stack;
    const auto enter = [&](const QString &name) {
        m_levels.insert(name, -1);
        ++m_listed;
        stack.append({ name, m_sysfs.list(QStringLiteral("block/%1/slaves").arg(name)) });
    };
    enter(device);
    while (!stack.isEmpty()) {
        Frame &top = stack.last();
        if (top.next < top.slaves.size()) {
            const QString slave = top.slaves.at(top.next++);
            const auto known = m_levels.constFind(slave);
            if (known == m_levels.cend())
                enter(slave); // `top` is not used after this
            else if (*known >= 0)
                top.deepest = std::max(top.deepest, *known);
            continue; // -1: on the stack, a cycle
        }
        const int level = top.deepest + 1;
        m_levels.insert(top.device, level);
        stack.removeLast();
        if (!stack.isEmpty())
            stack.last().deepest = std::max(stack.last().deepest, level);
    }
    return m_levels.value(device);
}

int stackLevel(const SysfsRoot &sysfs, const QString &name)
{
    return StackLevels(sysfs).level(name);
}

QList<StackingWarning> checkStacking(const MapStackFacts &f)
{
    QList<StackingWarning> out;
    if (f.paths.isEmpty())
        return out;

    // 1. A request-based map hands its requests to the paths as they are: bigger than a path's
    //    max_sectors_kb and the path rejects them (I/O errors), whatever the map allows.
    const PathFacts *smallest = nullptr;
    for (const auto &p : f.paths) {
        if (p.maxSectorsKb > 0 && (!smallest || p.maxSectorsKb < smallest->maxSectorsKb))
            smallest = &p;
    }
    if (smallest && f.maxSectorsKb > smallest->maxSectorsKb) {
        out << StackingWarning { QStringLiteral("max-sectors-above-paths"), f.device,
            QStringLiteral("queue/max_sectors_kb"), f.maxSectorsKb, smallest->maxSectorsKb,
            QStringLiteral("%1: max_sectors_kb %2 is above the smallest of its paths (%3: %4); "
                           "requests that large fail on that path")
                .arg(mapLabel(f), QString::number(f.maxSectorsKb), smallest->name,
                    QString::number(smallest->maxSectorsKb)) };
    }

    // 2. The map's queue only holds what the paths cannot take: with nr_requests <= the sum of the
    //    paths' queue depths every request is dispatched at once, the queue stays empty and
    //    nothing merges (4 paths x 32 = 128 = the default nr_requests).
    qint64 depthSum = 0;
    bool allKnown = true;
    QStringList depths;
    for (const auto &p : f.paths) {
        if (p.queueDepth <= 0) {
            allKnown = false;
            break;
        }
        depthSum += p.queueDepth;
        depths << QString::number(p.queueDepth);
    }
    if (f.requestBased && allKnown && f.nrRequests > 0 && f.nrRequests <= depthSum) {
        const bool uniform = std::all_of(f.paths.begin(), f.paths.end(),
            [&](const PathFacts &p) { return p.queueDepth == f.paths.first().queueDepth; });
        const QString sum = uniform
            ? QStringLiteral("%1 paths x queue_depth %2 = %3")
                  .arg(QString::number(f.paths.size()), depths.first(), QString::number(depthSum))
            : QStringLiteral("queue_depth %1 = %2").arg(depths.join(QLatin1Char('+')), QString::number(depthSum));
        out << StackingWarning { QStringLiteral("nr-requests-vs-queue-depth"), f.device,
            QStringLiteral("queue/nr_requests"), f.nrRequests, depthSum,
            QStringLiteral("%1: nr_requests %2 <= %3: the map's queue stays empty and nothing "
                           "merges; raise nr_requests above %4 or lower the paths' queue_depth")
                .arg(mapLabel(f), QString::number(f.nrRequests), sum, QString::number(depthSum)) };
    }

    // 3. Under a request-based map the map's scheduler has already sorted and merged; a second
    //    one on each path only adds latency.
    if (f.requestBased) {
        for (const auto &p : f.paths) {
            if (!p.scheduler.isEmpty() && p.scheduler != QLatin1String("none")) {
                out << StackingWarning { QStringLiteral("scheduler-under-rq-map"), p.name,
                    QStringLiteral("queue/scheduler"), -1, -1,
                    QStringLiteral("%1: scheduler %2 on a path of request-based map %3; use none")
                        .arg(p.name, p.scheduler, mapLabel(f)) };
            }
        }
    }
    return out;
}

MapStackFacts readMapStackFacts(const SysfsRoot &sysfs, const QString &mapDevice, const ChangeSet &changes)
{
    const DeviceContext ctx = readDeviceContext(sysfs, mapDevice);
    MapStackFacts f;
    f.device = mapDevice;
    f.name = sysfs.readOr(QStringLiteral("block/%1/dm/name").arg(mapDevice));
    f.requestBased = ctx.requestBased;
    f.maxSectorsKb = effectiveInt(sysfs, changes, mapDevice, QStringLiteral("queue/max_sectors_kb"));
    f.nrRequests = effectiveInt(sysfs, changes, mapDevice, QStringLiteral("queue/nr_requests"));
    for (const auto &slave : ctx.slaves) {
        PathFacts p;
        p.name = slave;
        p.maxSectorsKb = effectiveInt(sysfs, changes, slave, QStringLiteral("queue/max_sectors_kb"));
        p.queueDepth = effectiveInt(sysfs, changes, slave, QStringLiteral("device/queue_depth"));
        p.scheduler = effective(sysfs, changes, slave, QStringLiteral("queue/scheduler"));
        f.paths << p;
    }
    return f;
}

namespace {

// Whether the change set names one of the values a warning is about: a map's standing warning is news only to a
// change of those (set read_ahead_kb on a map says nothing about its nr_requests).
bool concerns(const StackingWarning &w, const MapStackFacts &f, const ChangeSet &changes)
{
    const auto sets = [&changes](const QString &device, QLatin1String attribute) {
        return std::any_of(changes.cbegin(), changes.cend(),
            [&](const Change &c) { return c.device == device && c.attribute == attribute; });
    };
    const auto setsOnMapOrPaths = [&](QLatin1String onMap, QLatin1String onPaths) {
        return sets(f.device, onMap)
            || std::any_of(f.paths.cbegin(), f.paths.cend(), [&](const PathFacts &p) { return sets(p.name, onPaths); });
    };
    if (w.code == QLatin1String("max-sectors-above-paths"))
        return setsOnMapOrPaths(QLatin1String("queue/max_sectors_kb"), QLatin1String("queue/max_sectors_kb"));
    if (w.code == QLatin1String("nr-requests-vs-queue-depth"))
        return setsOnMapOrPaths(QLatin1String("queue/nr_requests"), QLatin1String("device/queue_depth"));
    if (w.code == QLatin1String("scheduler-under-rq-map"))
        return sets(w.device, QLatin1String("queue/scheduler"));
    return true;
}

} // namespace

QList<StackingWarning> stackingWarnings(const SysfsRoot &sysfs, const ChangeSet &changes)
{
    QStringList maps;
    const auto consider = [&](const QString &device) {
        const DeviceContext ctx = readDeviceContext(sysfs, device);
        if (ctx.isMultipath && !maps.contains(device))
            maps << device;
    };
    for (const auto &c : changes) {
        if (!checkDeviceName(sysfs, c.device))
            continue;
        consider(c.device);
        const auto holders = sysfs.list(QStringLiteral("block/%1/holders").arg(c.device));
        for (const auto &h : holders) {
            if (checkDeviceName(sysfs, h))
                consider(h);
        }
    }
    QList<StackingWarning> out;
    for (const auto &m : maps) {
        const MapStackFacts facts = readMapStackFacts(sysfs, m, changes);
        for (const StackingWarning &w : checkStacking(facts)) {
            if (concerns(w, facts, changes))
                out << w;
        }
    }
    return out;
}

} // namespace dmtune
