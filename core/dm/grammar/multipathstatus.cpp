#include "core/dm/grammar/multipathstatus.h"

#include "core/dm/grammar/multipathtable.h"
#include "core/dm/grammar/pathselectors.h"
#include "core/dm/grammar/tokenreader.h"

#include <climits>

namespace dmtune {

namespace {

bool parseGroup(TokenReader &reader, int number, GroupStatus &group)
{
    const QString where = QStringLiteral(" of priority group %1").arg(number);
    QString state;
    if (!reader.readWord(QStringLiteral("the state (A, E or D)") + where, state))
        return false;
    if (state != QLatin1String("A") && state != QLatin1String("E") && state != QLatin1String("D"))
        return reader.failLast(QStringLiteral("expected the state (A, E or D)") + where);
    group.state = state.front();

    quint32 count = 0;
    if (!reader.readNumber(QStringLiteral("the number of selector status words") + where, 0, multipathMaxCount, count)
        || !reader.readWords(QStringLiteral("the selector status") + where, count, group.selectorStatusArgs))
        return false;

    quint32 pathCount = 0;
    quint32 infoCount = 0;
    if (!reader.readNumber(QStringLiteral("the number of paths") + where, 1, multipathMaxCount, pathCount)
        || !reader.readNumber(
            QStringLiteral("the number of info words per path") + where, 0, multipathMaxCount, infoCount))
        return false;
    group.perPathInfoCount = int(infoCount);

    for (quint32 p = 1; p <= pathCount; ++p) {
        const QString pathWhere = QStringLiteral(" of path %1 in priority group %2").arg(p).arg(number);
        PathStatus path;
        if (!reader.readWord(QStringLiteral("the device") + pathWhere, path.device))
            return false;
        if (!isDeviceToken(path.device))
            return reader.failLast(QStringLiteral("expected a device (major:minor)") + pathWhere);
        QString active;
        if (!reader.readWord(QStringLiteral("the path state (A or F)") + pathWhere, active))
            return false;
        if (active != QLatin1String("A") && active != QLatin1String("F"))
            return reader.failLast(QStringLiteral("expected the path state (A or F)") + pathWhere);
        path.active = active == QLatin1String("A");
        quint32 failCount = 0;
        if (!reader.readNumber(QStringLiteral("the fail count") + pathWhere, 0, INT_MAX, failCount))
            return false;
        path.failCount = int(failCount);
        if (!reader.readWords(QStringLiteral("the selector info") + pathWhere, infoCount, path.selectorInfo))
            return false;
        group.paths.append(std::move(path));
    }
    return true;
}

int featureNumber(const QStringList &features, qsizetype index)
{
    if (features.size() != 2)
        return -1;
    quint64 value = 0;
    return parseDecimal(features.at(index), INT_MAX, value) ? int(value) : -1;
}

// The selector's per-path info right after the table is loaded (the *_add_path() start values).
QStringList initialPathInfo(const QString &selector, const PathSpec &path, int count)
{
    QStringList info;
    if (selector == QLatin1String("queue-length") || selector == QLatin1String("io-affinity"))
        info = { QStringLiteral("0") };
    else if (selector == QLatin1String("service-time"))
        info = { QStringLiteral("0"), path.args.size() > 1 ? path.args.at(1) : QStringLiteral("1") };
    else if (selector == QLatin1String("historical-service-time"))
        info = { QStringLiteral("1024"), QStringLiteral("0"), QStringLiteral("0") };
    while (info.size() < count)
        info.append(QStringLiteral("0"));
    return info.mid(0, count);
}
} // namespace

int GroupStatus::activePathCount() const
{
    int count = 0;
    for (const PathStatus &path : paths)
        count += path.active ? 1 : 0;
    return count;
}

int MultipathStatus::queueIo() const
{
    return featureNumber(features, 0);
}

int MultipathStatus::pgInitCount() const
{
    return featureNumber(features, 1);
}

int MultipathStatus::activeGroup() const
{
    for (qsizetype i = 0; i < groups.size(); ++i) {
        if (groups.at(i).state == QLatin1Char('A'))
            return int(i + 1);
    }
    return 0;
}

Result<MultipathStatus> parseMultipathStatus(QStringView params)
{
    using R = Result<MultipathStatus>;
    if (params.size() > maxDmParamsLength)
        return R::failure(QStringLiteral("multipath status longer than %1 characters").arg(maxDmParamsLength));
    TokenReader reader(params);
    MultipathStatus status;
    const auto failed = [&] { return R::failure(reader.error()); };

    quint32 count = 0;
    if (!reader.readNumber(QStringLiteral("the number of feature words"), 0, multipathMaxCount, count)
        || !reader.readWords(QStringLiteral("the features"), count, status.features))
        return failed();
    if (!reader.readNumber(QStringLiteral("the number of hardware handler status words"), 0, multipathMaxCount, count)
        || !reader.readWords(QStringLiteral("the hardware handler status"), count, status.hwHandlerStatus))
        return failed();

    quint32 groupCount = 0;
    quint32 next = 0;
    if (!reader.readNumber(QStringLiteral("the number of priority groups"), 0, multipathMaxCount, groupCount)
        || !reader.readNumber(QStringLiteral("the current priority group"), 0, multipathMaxCount, next))
        return failed();
    if ((groupCount == 0) != (next == 0) || next > groupCount) {
        reader.failLast(
            QStringLiteral("the current priority group must be 1-%1 (0 only without groups)").arg(groupCount));
        return failed();
    }
    status.nextGroup = int(next);

    for (quint32 g = 1; g <= groupCount; ++g) {
        GroupStatus group;
        if (!parseGroup(reader, int(g), group))
            return failed();
        status.groups.append(std::move(group));
    }
    if (!reader.atEnd()) {
        reader.failAt(reader.position(),
            QStringLiteral("unexpected word after the last of %1 priority group(s)").arg(groupCount));
        return failed();
    }
    return status;
}

QString formatMultipathStatus(const MultipathStatus &status)
{
    QStringList words;
    appendCounted(words, status.features);
    appendCounted(words, status.hwHandlerStatus);
    words.append(QString::number(status.groups.size()));
    words.append(QString::number(status.nextGroup));
    for (const GroupStatus &group : status.groups) {
        words.append(QString(group.state));
        appendCounted(words, group.selectorStatusArgs);
        words.append(QString::number(group.paths.size()));
        words.append(QString::number(group.perPathInfoCount));
        for (const PathStatus &path : group.paths) {
            words.append(path.device);
            words.append(path.active ? QStringLiteral("A") : QStringLiteral("F"));
            words.append(QString::number(path.failCount));
            words.append(path.selectorInfo);
        }
    }
    return words.join(QLatin1Char(' '));
}

Result<MultipathStatus> multipathStatusOf(const QList<DmTargetLine> &lines)
{
    using R = Result<MultipathStatus>;
    const auto params = multipathTargetParams(lines);
    if (!params)
        return R::failure(params.errorMessage());
    auto status = parseMultipathStatus(params.value());
    if (!status)
        return R::failure(QStringLiteral("multipath status: ") + status.errorMessage());
    return status;
}

MultipathStatus initialMultipathStatus(const MultipathTable &table)
{
    MultipathStatus status;
    // queue_io starts set (alloc_multipath_stage2) and is cleared by the first path choice.
    status.features = { QStringLiteral("1"), QStringLiteral("0") };
    status.nextGroup = table.initialGroup;
    for (const PathGroupSpec &spec : table.groups) {
        GroupStatus group;
        const PathSelectorInfo *selector = findPathSelector(spec.selector);
        group.perPathInfoCount = selector ? selector->statusInfoPerPath : 0;
        if (spec.selector == QLatin1String("historical-service-time")) {
            // hst_status() prints its first weight, which equals the base weight, and the threshold.
            group.selectorStatusArgs = { QString::number(spec.selectorArgs.value(0, QStringLiteral("972")).toUInt()),
                QString::number(spec.selectorArgs.value(1, QStringLiteral("0")).toUInt()) };
        }
        for (const PathSpec &pathSpec : spec.paths) {
            PathStatus path;
            path.device = pathSpec.device;
            path.selectorInfo = initialPathInfo(spec.selector, pathSpec, group.perPathInfoCount);
            group.paths.append(path);
        }
        status.groups.append(group);
    }
    return status;
}

} // namespace dmtune
