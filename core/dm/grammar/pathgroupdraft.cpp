#include "core/dm/grammar/pathgroupdraft.h"

#include "core/dm/grammar/pathselectors.h"

#include <QHash>
#include <QSet>

namespace dmtune {

namespace {

const QString repeatCount = QStringLiteral("repeat_count");
const QString relativeThroughput = QStringLiteral("relative_throughput");
const QString cpuMask = QStringLiteral("cpu_mask");

bool sameWord(const QString &a, QLatin1String b)
{
    return a.compare(b, Qt::CaseInsensitive) == 0;
}

QString defaultFor(const QString &argName)
{
    // repeat_count 1 (what current kernels use anyway), relative throughput 1 (all paths equal),
    // CPU 0 for io-affinity (a mask needs at least one CPU; the admin sets the real ones).
    if (argName == repeatCount || argName == relativeThroughput || argName == cpuMask)
        return QStringLiteral("1");
    return {};
}

} // namespace

MultipathFeatures MultipathFeatures::fromWords(const QStringList &features)
{
    MultipathFeatures f;
    for (qsizetype i = 0; i < features.size(); ++i) {
        const QString &word = features.at(i);
        const QString value = features.value(i + 1);
        if (sameWord(word, QLatin1String("queue_if_no_path"))) {
            f.queueIfNoPath = true;
        } else if (sameWord(word, QLatin1String("retain_attached_hw_handler"))) {
            f.retainAttachedHwHandler = true;
        } else if (sameWord(word, QLatin1String("pg_init_retries"))) {
            f.pgInitRetries = value.toInt();
            ++i;
        } else if (sameWord(word, QLatin1String("pg_init_delay_msecs"))) {
            f.pgInitDelayMsecs = value.toInt();
            ++i;
        } else if (sameWord(word, QLatin1String("queue_mode"))) {
            f.queueMode = value;
            ++i;
        }
    }
    return f;
}

QStringList MultipathFeatures::toWords() const
{
    QStringList words;
    if (queueIfNoPath)
        words << QStringLiteral("queue_if_no_path");
    if (pgInitRetries > 0)
        words << QStringLiteral("pg_init_retries") << QString::number(pgInitRetries);
    if (pgInitDelayMsecs >= 0)
        words << QStringLiteral("pg_init_delay_msecs") << QString::number(pgInitDelayMsecs);
    if (retainAttachedHwHandler)
        words << QStringLiteral("retain_attached_hw_handler");
    if (!queueMode.isEmpty())
        words << QStringLiteral("queue_mode") << queueMode;
    return words;
}

PathGroupDraft::PathGroupDraft(const MultipathTable &current)
{
    reset(current);
}

void PathGroupDraft::reset(const MultipathTable &current)
{
    m_current = current;
    m_table = current;
    m_origins.clear();
    for (int g = 0; g < current.groups.size(); ++g)
        m_origins.append(g);
}

void PathGroupDraft::rebase(const MultipathTable &current)
{
    m_current = current;
    setTable(MultipathTable(m_table));
}

void PathGroupDraft::setTable(const MultipathTable &table)
{
    m_table = table;
    // Groups are matched to the live ones by their first path: good enough to show live states.
    m_origins.clear();
    for (const PathGroupSpec &group : table.groups) {
        int origin = -1;
        if (!group.paths.isEmpty()) {
            for (int g = 0; g < m_current.groups.size() && origin < 0; ++g) {
                for (const PathSpec &path : m_current.groups.at(g).paths) {
                    if (path.device == group.paths.first().device)
                        origin = g;
                }
            }
        }
        m_origins.append(origin);
    }
}

PathGroupDraft::Place PathGroupDraft::find(const QString &device) const
{
    for (int g = 0; g < m_table.groups.size(); ++g) {
        const auto &paths = m_table.groups.at(g).paths;
        for (int p = 0; p < paths.size(); ++p) {
            if (paths.at(p).device == device)
                return { g, p };
        }
    }
    return {};
}

void PathGroupDraft::removeEmptyGroup(int group)
{
    if (group < 0 || group >= m_table.groups.size() || !m_table.groups.at(group).paths.isEmpty())
        return;
    m_table.groups.removeAt(group);
    m_origins.removeAt(group);
    const int count = int(m_table.groups.size());
    // The initial group keeps pointing at the same group; when that one is gone, at the one that
    // takes its place.
    if (m_table.initialGroup - 1 > group)
        --m_table.initialGroup;
    m_table.initialGroup = count == 0 ? 0 : qBound(1, m_table.initialGroup, count);
}

Status PathGroupDraft::movePath(const QString &device, int toGroup, int toRow)
{
    const Place from = find(device);
    if (!from.isValid())
        return Status::failure(QStringLiteral("path %1 is not in the draft").arg(device));
    if (toGroup < 0 || toGroup >= m_table.groups.size())
        return Status::failure(
            QStringLiteral("there is no group %1 (the draft has %2)").arg(toGroup + 1).arg(groupCount()));

    PathGroupSpec &source = m_table.groups[from.group];
    PathSpec path = source.paths.takeAt(from.row);
    PathGroupSpec &target = m_table.groups[toGroup];
    if (toGroup == from.group && toRow > from.row)
        --toRow;
    if (toRow < 0 || toRow > target.paths.size())
        toRow = int(target.paths.size());
    if (toGroup != from.group)
        path.args = convertPathArgs(path.args, source.selector, target.selector, target.perPathArgCount);
    target.paths.insert(toRow, path);
    removeEmptyGroup(from.group);
    return Status::success();
}

Status PathGroupDraft::movePathToNewGroup(const QString &device)
{
    const Place from = find(device);
    if (!from.isValid())
        return Status::failure(QStringLiteral("path %1 is not in the draft").arg(device));
    PathGroupSpec &source = m_table.groups[from.group];
    PathGroupSpec fresh;
    fresh.selector = source.selector;
    fresh.selectorArgs = source.selectorArgs;
    fresh.perPathArgCount = source.perPathArgCount;
    fresh.paths.append(source.paths.takeAt(from.row));
    m_table.groups.append(fresh);
    m_origins.append(-1);
    removeEmptyGroup(from.group);
    return Status::success();
}

Status PathGroupDraft::addPath(const QString &device, int toGroup, int toRow)
{
    if (device.isEmpty())
        return Status::failure(QStringLiteral("no device to add"));
    if (const Place at = find(device); at.isValid())
        return Status::failure(QStringLiteral("path %1 is already in group %2").arg(device).arg(at.group + 1));
    const int count = groupCount();
    if (toGroup < 0 || toGroup > count || count == 0)
        return Status::failure(QStringLiteral("there is no group %1 to add %2 to").arg(toGroup + 1).arg(device));
    if (toGroup == count) {
        const PathGroupSpec &last = m_table.groups.at(count - 1);
        PathGroupSpec fresh;
        fresh.selector = last.selector;
        fresh.selectorArgs = last.selectorArgs;
        fresh.perPathArgCount = last.perPathArgCount;
        m_table.groups.append(fresh);
        m_origins.append(-1);
    }
    PathGroupSpec &group = m_table.groups[toGroup];
    QStringList args = defaultPathArgs(group.selector);
    if (args.size() != group.perPathArgCount)
        args = convertPathArgs({}, group.selector, group.selector, group.perPathArgCount);
    const qsizetype row = toRow < 0 || toRow > group.paths.size() ? group.paths.size() : toRow;
    group.paths.insert(row, PathSpec { device, args });
    return Status::success();
}

Status PathGroupDraft::moveGroup(int from, int to)
{
    const int count = groupCount();
    if (from < 0 || from >= count || to < 0 || to >= count)
        return Status::failure(
            QStringLiteral("group %1 cannot move to place %2 of %3").arg(from + 1).arg(to + 1).arg(count));
    if (from == to)
        return Status::success();
    m_table.groups.move(from, to);
    m_origins.move(from, to);
    const int initial = m_table.initialGroup - 1;
    if (initial == from)
        m_table.initialGroup = to + 1;
    else if (from < initial && initial <= to)
        --m_table.initialGroup;
    else if (to <= initial && initial < from)
        ++m_table.initialGroup;
    return Status::success();
}

Status PathGroupDraft::setSelector(int group, const QString &selector)
{
    if (group < 0 || group >= groupCount())
        return Status::failure(QStringLiteral("there is no group %1").arg(group + 1));
    if (selector.trimmed().isEmpty())
        return Status::failure(QStringLiteral("a path selector needs a name"));
    PathGroupSpec &spec = m_table.groups[group];
    if (spec.selector == selector)
        return Status::success();
    const PathSelectorInfo *info = findPathSelector(selector);
    const int count = info ? info->tableArgsPerPath : spec.perPathArgCount;
    for (PathSpec &path : spec.paths)
        path.args = convertPathArgs(path.args, spec.selector, selector, count);
    spec.selector = selector;
    spec.selectorArgs.clear();
    spec.perPathArgCount = count;
    return Status::success();
}

Status PathGroupDraft::setSelectorArgs(int group, const QStringList &args)
{
    if (group < 0 || group >= groupCount())
        return Status::failure(QStringLiteral("there is no group %1").arg(group + 1));
    m_table.groups[group].selectorArgs = args;
    return Status::success();
}

Status PathGroupDraft::setPathArgs(const QString &device, const QStringList &args)
{
    const Place place = find(device);
    if (!place.isValid())
        return Status::failure(QStringLiteral("path %1 is not in the draft").arg(device));
    PathGroupSpec &group = m_table.groups[place.group];
    if (args.size() != group.perPathArgCount)
        return Status::failure(QStringLiteral("group %1 (%2) takes %3 argument(s) per path, got %4")
                                   .arg(place.group + 1)
                                   .arg(group.selector)
                                   .arg(group.perPathArgCount)
                                   .arg(args.size()));
    group.paths[place.row].args = args;
    return Status::success();
}

Status PathGroupDraft::setPathArg(const QString &device, int index, const QString &value)
{
    const Place place = find(device);
    if (!place.isValid())
        return Status::failure(QStringLiteral("path %1 is not in the draft").arg(device));
    QStringList args = m_table.groups.at(place.group).paths.at(place.row).args;
    if (index < 0 || index >= args.size())
        return Status::failure(QStringLiteral("path %1 has no argument %2").arg(device).arg(index + 1));
    args[index] = value.trimmed();
    return setPathArgs(device, args);
}

Status PathGroupDraft::setInitialGroup(int group)
{
    if (group < 1 || group > groupCount())
        return Status::failure(QStringLiteral("the initial group must be between 1 and %1").arg(groupCount()));
    m_table.initialGroup = group;
    return Status::success();
}

void PathGroupDraft::setFeatures(const MultipathFeatures &features)
{
    m_table.features = features.toWords();
}

void PathGroupDraft::setHwHandler(const QStringList &words)
{
    QStringList cleaned;
    for (const QString &word : words) {
        if (!word.trimmed().isEmpty())
            cleaned << word.trimmed();
    }
    m_table.hwHandler = cleaned;
}

Status PathGroupDraft::validate() const
{
    if (m_table.groups.isEmpty())
        return Status::failure(QStringLiteral("the table has no path group"));
    QHash<QString, int> groupOf;
    for (int g = 0; g < m_table.groups.size(); ++g) {
        const PathGroupSpec &group = m_table.groups.at(g);
        if (group.paths.isEmpty())
            return Status::failure(QStringLiteral("group %1 has no path: move a path into it or remove it").arg(g + 1));
        for (const PathSpec &path : group.paths) {
            const auto seen = groupOf.constFind(path.device);
            if (seen != groupOf.constEnd()) {
                return Status::failure(seen.value() == g + 1
                        ? QStringLiteral("path %1 is twice in group %2").arg(path.device).arg(g + 1)
                        : QStringLiteral("path %1 is in group %2 and in group %3")
                              .arg(path.device)
                              .arg(seen.value())
                              .arg(g + 1));
            }
            groupOf.insert(path.device, g + 1);
        }
    }
    for (const PathGroupSpec &group : m_current.groups) {
        for (const PathSpec &path : group.paths) {
            if (!groupOf.contains(path.device))
                return Status::failure(QStringLiteral("path %1 of the live table is missing: this editor moves paths, "
                                                      "it does not remove them")
                                           .arg(path.device));
        }
    }
    if (const Status checked = checkMultipathTable(m_table); !checked)
        return checked;
    return Status::success();
}

QStringList PathGroupDraft::notes(const QStringList &failedDevices) const
{
    QStringList notes;
    const MultipathFeatures f = features();
    for (int g = 0; g < m_table.groups.size(); ++g) {
        const PathGroupSpec &group = m_table.groups.at(g);
        const QStringList names = pathArgNames(group.selector);
        const int repeatIndex = int(names.indexOf(repeatCount));
        bool repeatAboveOne = false;
        int failed = 0;
        for (const PathSpec &path : group.paths) {
            if (repeatIndex >= 0 && repeatIndex < path.args.size() && path.args.at(repeatIndex).toULongLong() > 1)
                repeatAboveOne = true;
            if (failedDevices.contains(path.device))
                ++failed;
        }
        if (repeatAboveOne)
            notes << QStringLiteral("Group %1: current kernels use repeat_count 1 whatever the table says (%2 warns "
                                    "\"repeat_count > 1 is deprecated\").")
                         .arg(g + 1)
                         .arg(group.selector);
        if (!group.paths.isEmpty() && failed == group.paths.size())
            notes << QStringLiteral("Group %1: all its paths are failed now; a reload makes them active again until "
                                    "the path checker fails them.")
                         .arg(g + 1);
        if (!findPathSelector(group.selector))
            notes << QStringLiteral("Group %1: \"%2\" is not an in-tree path selector; the kernel must have its "
                                    "module, and its per-path arguments are not checked here.")
                         .arg(g + 1)
                         .arg(group.selector);
    }
    if ((f.pgInitRetries > 0 || f.pgInitDelayMsecs >= 0) && m_table.hwHandler.isEmpty() && !f.retainAttachedHwHandler)
        notes << QStringLiteral("pg_init_retries and pg_init_delay_msecs only matter with a hardware handler: the "
                                "table names none.");
    if (f.queueMode.compare(QLatin1String("bio"), Qt::CaseInsensitive) == 0 && !m_table.hwHandler.isEmpty())
        notes << QStringLiteral("queue_mode bio: the kernel ignores the hardware handler (it only retains an "
                                "attached one).");
    if (m_table.hwHandler.size() > 1)
        notes << QStringLiteral("The kernel passes the hardware handler's arguments to it but does not print them "
                                "back: the live table will show \"1 %1\".")
                     .arg(m_table.hwHandler.first());
    return notes;
}

QString PathGroupDraft::tableText() const
{
    return formatMultipathTable(m_table);
}

QStringList PathGroupDraft::pathArgNames(const QString &selector)
{
    if (selector == QLatin1String("round-robin") || selector == QLatin1String("queue-length")
        || selector == QLatin1String("historical-service-time"))
        return { repeatCount };
    if (selector == QLatin1String("service-time"))
        return { repeatCount, relativeThroughput };
    if (selector == QLatin1String("io-affinity"))
        return { cpuMask };
    return {};
}

QStringList PathGroupDraft::convertPathArgs(
    const QStringList &args, const QString &fromSelector, const QString &toSelector, int count)
{
    const QStringList fromNames = pathArgNames(fromSelector);
    const QStringList toNames = pathArgNames(toSelector);
    QStringList converted;
    for (int i = 0; i < count; ++i) {
        if (fromSelector == toSelector) {
            converted << (i < args.size() ? args.at(i) : defaultFor(toNames.value(i)));
            continue;
        }
        const QString name = toNames.value(i);
        const qsizetype at = name.isEmpty() ? -1 : fromNames.indexOf(name);
        converted << (at >= 0 && at < args.size() ? args.at(at) : defaultFor(name));
    }
    return converted;
}

} // namespace dmtune
