#include "core/dm/grammar/tablediff.h"

#include <QSet>

namespace dmtune {

namespace {
QString counted(const QStringList &words)
{
    return words.isEmpty() ? QStringLiteral("0")
                           : QStringLiteral("%1 %2").arg(words.size()).arg(words.join(QLatin1Char(' ')));
}

QString selectorText(const PathGroupSpec &group)
{
    return group.selector + QLatin1Char(' ') + counted(group.selectorArgs);
}

QStringList devices(const PathGroupSpec &group)
{
    QStringList out;
    for (const PathSpec &path : group.paths)
        out.append(path.device);
    return out;
}

QString pathArgs(const PathSpec &path)
{
    return path.args.isEmpty() ? QStringLiteral("(none)") : path.args.join(QLatin1Char(' '));
}

// Which group of `table` holds `device` (1-based), 0 when none.
int groupOf(const MultipathTable &table, const QString &device)
{
    for (qsizetype g = 0; g < table.groups.size(); ++g) {
        if (devices(table.groups.at(g)).contains(device))
            return int(g + 1);
    }
    return 0;
}

void diffGroup(const MultipathTable &a, const MultipathTable &b, int number, QStringList &out)
{
    const PathGroupSpec &ga = a.groups.at(number - 1);
    const PathGroupSpec &gb = b.groups.at(number - 1);
    const QString prefix = QStringLiteral("group %1: ").arg(number);
    if (selectorText(ga) != selectorText(gb))
        out.append(prefix + QStringLiteral("selector %1 -> %2").arg(selectorText(ga), selectorText(gb)));
    const QStringList da = devices(ga);
    const QStringList db = devices(gb);
    for (const PathSpec &path : gb.paths) {
        if (da.contains(path.device))
            continue;
        const int from = groupOf(a, path.device);
        out.append(prefix
            + (from ? QStringLiteral("+ %1 (moved from group %2)").arg(path.device).arg(from)
                    : QStringLiteral("+ %1 (path added)").arg(path.device)));
    }
    for (const PathSpec &path : ga.paths) {
        if (db.contains(path.device))
            continue;
        const int to = groupOf(b, path.device);
        out.append(prefix
            + (to ? QStringLiteral("- %1 (moved to group %2)").arg(path.device).arg(to)
                  : QStringLiteral("- %1 (path removed)").arg(path.device)));
    }
    // Same paths, other order: the selectors take paths in table order.
    QStringList common;
    for (const QString &d : da) {
        if (db.contains(d))
            common.append(d);
    }
    QStringList commonB;
    for (const QString &d : db) {
        if (da.contains(d))
            commonB.append(d);
    }
    if (common != commonB)
        out.append(prefix
            + QStringLiteral("path order %1 -> %2").arg(common.join(QLatin1Char(' ')), commonB.join(QLatin1Char(' '))));
    for (const PathSpec &pa : ga.paths) {
        for (const PathSpec &pb : gb.paths) {
            if (pa.device == pb.device && pa.args != pb.args)
                out.append(prefix + QStringLiteral("%1 args %2 -> %3").arg(pa.device, pathArgs(pa), pathArgs(pb)));
        }
    }
}
} // namespace

QStringList tableDiffLines(const MultipathTable &a, const MultipathTable &b)
{
    QStringList out;
    if (a.features != b.features)
        out.append(QStringLiteral("features: %1 -> %2").arg(counted(a.features), counted(b.features)));
    if (a.hwHandler != b.hwHandler)
        out.append(QStringLiteral("hardware handler: %1 -> %2").arg(counted(a.hwHandler), counted(b.hwHandler)));
    if (a.groups.size() != b.groups.size())
        out.append(QStringLiteral("groups: %1 -> %2").arg(a.groups.size()).arg(b.groups.size()));
    if (a.initialGroup != b.initialGroup)
        out.append(QStringLiteral("initial group: %1 -> %2").arg(a.initialGroup).arg(b.initialGroup));
    const qsizetype common = qMin(a.groups.size(), b.groups.size());
    for (qsizetype g = 0; g < common; ++g)
        diffGroup(a, b, int(g + 1), out);
    for (qsizetype g = common; g < b.groups.size(); ++g)
        out.append(QStringLiteral("group %1: added (%2: %3)")
                       .arg(g + 1)
                       .arg(selectorText(b.groups.at(g)), devices(b.groups.at(g)).join(QLatin1Char(' '))));
    for (qsizetype g = common; g < a.groups.size(); ++g)
        out.append(QStringLiteral("group %1: removed (%2: %3)")
                       .arg(g + 1)
                       .arg(selectorText(a.groups.at(g)), devices(a.groups.at(g)).join(QLatin1Char(' '))));
    return out;
}

QString tableDiff(const MultipathTable &a, const MultipathTable &b)
{
    return tableDiffLines(a, b).join(QLatin1Char('\n'));
}

} // namespace dmtune
