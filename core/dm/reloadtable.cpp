#include "core/dm/reloadtable.h"

#include "core/dm/grammar/pathselectors.h"
#include "core/dm/pathdevice.h"

namespace dmtune {

Result<MultipathTable> reloadTableFromText(const QString &text, const DmTargetLine &current)
{
    using R = Result<MultipathTable>;
    const QString trimmed = text.trimmed();
    if (const auto line = parseTargetLine(trimmed); line && line->targetType == QLatin1String("multipath")) {
        if (line->start != current.start || line->length != current.length)
            return R::failure(QStringLiteral("the table line covers %1+%2, the map %3+%4 sectors")
                                  .arg(line->start)
                                  .arg(line->length)
                                  .arg(current.start)
                                  .arg(current.length));
        return parseMultipathTable(line->params);
    }
    return parseMultipathTable(trimmed);
}

Result<MultipathTable> reloadTableFromGroups(
    const SysfsRoot &sysfs, const MultipathTable &current, const ReloadGroups &groups)
{
    using R = Result<MultipathTable>;
    if (!findPathSelector(groups.selector))
        return R::failure(QStringLiteral("unknown selector '%1' (round-robin, queue-length, service-time, "
                                         "historical-service-time, io-affinity)")
                              .arg(groups.selector));
    if (groups.groups.isEmpty())
        return R::failure(QStringLiteral("a reload by groups needs at least one group"));
    MultipathTable table;
    table.hwHandler = current.hwHandler;
    table.features = groups.features.value_or(current.features);
    const QStringList args = defaultPathArgs(groups.selector);
    for (qsizetype g = 0; g < groups.groups.size(); ++g) {
        PathGroupSpec group;
        group.selector = groups.selector;
        group.perPathArgCount = int(args.size());
        for (const QString &spec : groups.groups.at(g)) {
            const auto path = resolvePathDevice(sysfs, spec.trimmed());
            if (!path)
                return R::failure(path.errorMessage());
            group.paths.append({ path->devnum, args });
        }
        if (group.paths.isEmpty())
            return R::failure(QStringLiteral("group %1 names no device").arg(g + 1));
        table.groups.append(group);
    }
    table.initialGroup = 1;
    // What the kernel would refuse is refused here, with the word and column named.
    return parseMultipathTable(formatMultipathTable(table));
}

} // namespace dmtune
