#include "core/dm/multipathd/multipathdview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace dmtune {

namespace {
// Older multipath-tools print states in brackets ("[active]").
QString state(const QJsonValue &value)
{
    QString text = value.toString().trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']')))
        text = text.mid(1, text.size() - 2);
    return text;
}

MultipathdPathView parsePath(const QJsonObject &o)
{
    MultipathdPathView path;
    path.dev = o.value(QLatin1String("dev")).toString();
    path.devT = o.value(QLatin1String("dev_t")).toString();
    path.dmState = state(o.value(QLatin1String("dm_st")));
    path.deviceState = state(o.value(QLatin1String("dev_st")));
    path.checkerState = state(o.value(QLatin1String("chk_st")));
    path.checker = o.value(QLatin1String("checker")).toString();
    path.priority = o.value(QLatin1String("pri")).toInt(-1);
    return path;
}

Result<MultipathdMapView> parseMap(const QJsonObject &o)
{
    MultipathdMapView map;
    map.name = o.value(QLatin1String("name")).toString();
    if (map.name.isEmpty())
        return Result<MultipathdMapView>::failure(QStringLiteral("a map without \"name\""));
    map.uuid = o.value(QLatin1String("uuid")).toString();
    map.sysfs = o.value(QLatin1String("sysfs")).toString();
    map.queueing = o.value(QLatin1String("queueing")).toString();
    map.features = o.value(QLatin1String("features")).toString();
    map.hwhandler = o.value(QLatin1String("hwhandler")).toString();
    map.failback = o.value(QLatin1String("failback")).toString();
    map.action = o.value(QLatin1String("action")).toString();
    map.activePaths = o.value(QLatin1String("paths")).toInt(-1);
    const QJsonArray groups = o.value(QLatin1String("path_groups")).toArray();
    for (qsizetype i = 0; i < groups.size(); ++i) {
        const QJsonObject g = groups.at(i).toObject();
        MultipathdGroupView group;
        group.number = g.value(QLatin1String("group")).toInt(int(i + 1));
        group.selector = g.value(QLatin1String("selector")).toString();
        group.priority = g.value(QLatin1String("pri")).toInt(-1);
        group.dmState = state(g.value(QLatin1String("dm_st")));
        for (const QJsonValue &p : g.value(QLatin1String("paths")).toArray())
            group.paths.append(parsePath(p.toObject()));
        map.groups.append(group);
    }
    return map;
}

QStringList words(const QString &text)
{
    return text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QStringList countedWords(const QStringList &list)
{
    QStringList out { QString::number(list.size()) };
    out += list;
    return out;
}

QString kernelGroupState(QChar state)
{
    switch (state.unicode()) {
    case 'A':
        return QStringLiteral("active");
    case 'D':
        return QStringLiteral("disabled");
    default:
        return QStringLiteral("enabled");
    }
}

// multipathd's "queueing" says what it wants: "off" (no_path_retry fail, or disablequeueing),
// "on"/"N chk"/"N sec" (queueing, "sec" while the retry countdown runs), "-" (not set).
bool multipathdWantsQueueing(const QString &queueing)
{
    return queueing == QLatin1String("on") || queueing.endsWith(QLatin1String(" chk"))
        || queueing.endsWith(QLatin1String(" sec"));
}

void comparePaths(
    int number, const MultipathdGroupView &view, const PathGroupSpec *spec, const GroupStatus *status, QStringList &out)
{
    QStringList kernelDevices;
    if (spec) {
        for (const PathSpec &path : spec->paths)
            kernelDevices.append(path.device);
    }
    QStringList viewDevices;
    for (const MultipathdPathView &path : view.paths)
        viewDevices.append(path.devT);
    if (kernelDevices != viewDevices)
        out.append(QStringLiteral("group %1: kernel paths %2, multipathd %3")
                       .arg(number)
                       .arg(kernelDevices.isEmpty() ? QStringLiteral("(none)") : kernelDevices.join(QLatin1Char(' ')),
                           viewDevices.isEmpty() ? QStringLiteral("(none)") : viewDevices.join(QLatin1Char(' '))));
    if (!status)
        return;
    for (const MultipathdPathView &path : view.paths) {
        for (const PathStatus &kernel : status->paths) {
            if (kernel.device != path.devT)
                continue;
            const QString want = kernel.active ? QStringLiteral("active") : QStringLiteral("failed");
            const QString kernelText
                = QStringLiteral("path %1 (%2): kernel %3 (%4)")
                      .arg(path.devT, path.dev, kernel.active ? QStringLiteral("A") : QStringLiteral("F"), want);
            if (path.dmState != want) {
                out.append(QStringLiteral("%1, multipathd %2")
                               .arg(kernelText, path.dmState.isEmpty() ? QStringLiteral("(none)") : path.dmState));
                continue;
            }
            // multipathd's copy of A/F agrees; its checker's word on the device may not (it acts on it at the
            // next check: fails an active path that checks faulty, reinstates a failed one that checks ready).
            const CheckerVerdict verdict = checkerVerdict(path.checkerState);
            if ((kernel.active && verdict == CheckerVerdict::Down) || (!kernel.active && verdict == CheckerVerdict::Up))
                out.append(QStringLiteral("%1, multipathd's checker %2").arg(kernelText, path.checkerState));
        }
    }
}

bool kernelFailed(const MultipathStatus &status, const QString &devnum)
{
    for (const GroupStatus &g : status.groups) {
        for (const PathStatus &p : g.paths) {
            if (p.device == devnum)
                return !p.active;
        }
    }
    return false;
}
} // namespace

CheckerVerdict checkerVerdict(const QString &checkerState)
{
    // multipath-tools' print.c names of the checker states (PATH_UP, PATH_GHOST / PATH_DOWN, PATH_SHAKY,
    // PATH_TIMEOUT); the rest (i/o pending, delayed, undef, unchecked) say nothing either way.
    if (checkerState == QLatin1String("ready") || checkerState == QLatin1String("ghost"))
        return CheckerVerdict::Up;
    if (checkerState == QLatin1String("faulty") || checkerState == QLatin1String("shaky")
        || checkerState == QLatin1String("i/o timeout"))
        return CheckerVerdict::Down;
    return CheckerVerdict::Unknown;
}

Result<QList<MultipathdMapView>> parseMultipathdMapsJson(QStringView json)
{
    using R = Result<QList<MultipathdMapView>>;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return R::failure(
            QStringLiteral("multipathd JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        return R::failure(QStringLiteral("multipathd JSON: not an object"));
    const QJsonObject root = doc.object();
    const int major = root.value(QLatin1String("major_version")).toInt(-1);
    if (major > 0)
        return R::failure(QStringLiteral("multipathd JSON: format version %1 is not supported").arg(major));
    QList<MultipathdMapView> maps;
    QJsonArray array;
    if (root.contains(QLatin1String("maps"))) {
        if (!root.value(QLatin1String("maps")).isArray())
            return R::failure(QStringLiteral("multipathd JSON: \"maps\" is not a list"));
        array = root.value(QLatin1String("maps")).toArray();
    } else if (root.contains(QLatin1String("map"))) // `show map NAME json`
        array.append(root.value(QLatin1String("map")));
    else
        return R::failure(QStringLiteral("multipathd JSON: neither \"maps\" nor \"map\""));
    for (const QJsonValue &value : array) {
        const auto map = parseMap(value.toObject());
        if (!map)
            return R::failure(QStringLiteral("multipathd JSON: ") + map.errorMessage());
        maps.append(map.value());
    }
    return maps;
}

Result<MultipathdMapView> findMultipathdMap(const QList<MultipathdMapView> &maps, const QString &name)
{
    QStringList names;
    for (const MultipathdMapView &map : maps) {
        if (map.name == name)
            return map;
        names.append(map.name);
    }
    return Result<MultipathdMapView>::failure(
        QStringLiteral("multipathd does not manage %1 (it has: %2)")
            .arg(name, names.isEmpty() ? QStringLiteral("no maps") : names.join(QStringLiteral(", "))));
}

QStringList compareMultipathdView(
    const MultipathdMapView &view, const MultipathTable &table, const MultipathStatus &status)
{
    QStringList out;
    if (words(view.features) != countedWords(table.features))
        out.append(QStringLiteral("features: kernel %1, multipathd %2")
                       .arg(countedWords(table.features).join(QLatin1Char(' ')), view.features));
    if (words(view.hwhandler) != countedWords(table.hwHandler))
        out.append(QStringLiteral("hardware handler: kernel %1, multipathd %2")
                       .arg(countedWords(table.hwHandler).join(QLatin1Char(' ')), view.hwhandler));
    if (!view.queueing.isEmpty() && view.queueing != QLatin1String("-")
        && multipathdWantsQueueing(view.queueing) != table.queueIfNoPath())
        out.append(QStringLiteral("queueing: kernel queue_if_no_path %1, multipathd \"%2\"")
                       .arg(table.queueIfNoPath() ? QStringLiteral("on") : QStringLiteral("off"), view.queueing));
    if (view.groups.size() != table.groups.size())
        out.append(QStringLiteral("groups: kernel %1, multipathd %2").arg(table.groups.size()).arg(view.groups.size()));
    const bool statusMatches = status.groups.size() == table.groups.size();
    for (qsizetype i = 0; i < view.groups.size(); ++i) {
        const MultipathdGroupView &group = view.groups.at(i);
        const int number = int(i + 1);
        const PathGroupSpec *spec = i < table.groups.size() ? &table.groups.at(i) : nullptr;
        const GroupStatus *groupStatus = statusMatches && spec ? &status.groups.at(i) : nullptr;
        if (spec) {
            const QStringList kernelSelector = QStringList { spec->selector } + countedWords(spec->selectorArgs);
            if (words(group.selector) != kernelSelector)
                out.append(QStringLiteral("group %1: kernel selector %2, multipathd %3")
                               .arg(number)
                               .arg(kernelSelector.join(QLatin1Char(' ')), group.selector));
        }
        if (groupStatus && !group.dmState.isEmpty() && group.dmState != kernelGroupState(groupStatus->state))
            out.append(QStringLiteral("group %1: kernel %2 (%3), multipathd %4")
                           .arg(number)
                           .arg(QString(groupStatus->state), kernelGroupState(groupStatus->state), group.dmState));
        comparePaths(number, group, spec, groupStatus, out);
    }
    return out;
}

QStringList explainMultipathdView(const MultipathdMapView &view, const MultipathStatus &status)
{
    QStringList out;
    for (const MultipathdGroupView &group : view.groups) {
        // multipathd's group priority: the average priority of the paths its checker calls up, 0 with none
        // (multipath-tools' path_group_prio_update). Where that is not the average of its paths' own priorities,
        // multipath -ll (which checks the paths itself) may print another number.
        QStringList own;
        QStringList up;
        qint64 sum = 0;
        int counted = 0;
        for (const MultipathdPathView &path : group.paths) {
            if (path.priority < 0)
                continue;
            own.append(QStringLiteral("%1 %2").arg(path.dev.isEmpty() ? path.devT : path.dev).arg(path.priority));
            sum += path.priority;
            ++counted;
            if (checkerVerdict(path.checkerState) == CheckerVerdict::Up)
                up.append(path.dev.isEmpty() ? path.devT : path.dev);
        }
        if (group.priority < 0 || counted == 0 || group.priority == int(sum / counted))
            continue;
        out.append(QStringLiteral("group %1: multipathd priority %2, the average over the paths its checker calls up "
                                  "(%3); its paths' own: %4")
                       .arg(group.number)
                       .arg(group.priority)
                       .arg(up.isEmpty() ? QStringLiteral("none") : up.join(QStringLiteral(", ")),
                           own.join(QStringLiteral(", "))));
    }
    for (const MultipathdGroupView &group : view.groups) {
        for (const MultipathdPathView &path : group.paths) {
            if (checkerVerdict(path.checkerState) != CheckerVerdict::Down || !kernelFailed(status, path.devT))
                continue;
            out.append(QStringLiteral("path %1 (%2): failed, multipathd's checker state %3: a path failed through "
                                      "multipathd (path fail) stays failed and unchecked until it is reinstated; "
                                      "multipath -ll runs the checker itself and prints what the device answers")
                           .arg(path.devT, path.dev, path.checkerState));
        }
    }
    return out;
}

QStringList multipathdComparisonLines(const QStringList &differences, const QStringList &notes)
{
    QStringList out;
    const QString notesHeading = QStringLiteral("where multipathd's numbers are not what multipath -ll prints:");
    if (differences.isEmpty()) {
        out.append(QStringLiteral("multipathd: agrees with the kernel (table, group and path states)")
            + (notes.isEmpty() ? QString() : QStringLiteral("; ") + notesHeading));
    } else {
        out.append(QStringLiteral("multipathd differs from the kernel:"));
        for (const QString &d : differences)
            out.append(QStringLiteral("  ") + d);
        if (!notes.isEmpty())
            out.append(notesHeading);
    }
    for (const QString &n : notes)
        out.append(QStringLiteral("  ") + n);
    return out;
}

} // namespace dmtune
