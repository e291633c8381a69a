#include "core/presets/presetresolution.h"

#include "core/params/catalog.h"
#include "core/params/planner.h"
#include "core/params/tunable.h"
#include "core/params/valueparsers.h"
#include "core/presets/presetmatcher.h"

namespace dmtune {

namespace {

// "service-time 0": the selector as tables and multipath.conf write it (name, count, arguments).
QString selectorText(const PathGroupInfo &g)
{
    return (QStringList { g.selector, QString::number(g.selectorArgs.size()) } + g.selectorArgs).join(QLatin1Char(' '));
}

// "failover" when every group has one path, "multibus" for one group, else the count.
QString groupingSeen(const MultipathMap &map)
{
    if (map.groups.size() == 1)
        return QStringLiteral("multibus");
    bool single = !map.groups.isEmpty();
    for (const auto &g : map.groups)
        single = single && g.paths.size() == 1;
    return single ? QStringLiteral("failover") : QStringLiteral("%1 groups").arg(map.groups.size());
}

PresetMapItem mapItem(const MultipathMap &map, int rule, const MultipathSettings &wanted)
{
    PresetMapItem item;
    item.map = map.name;
    item.device = map.device;
    item.rule = rule;
    item.wanted = wanted;
    if (!map.groupsKnown) {
        item.note = QStringLiteral("groups unknown: %1").arg(map.groupsUnknownReason);
        item.differs = true;
        return item;
    }
    if (!map.groups.isEmpty()) {
        const auto &g = map.groups.first();
        item.currentSelector = selectorText(g);
    }
    item.currentGrouping = groupingSeen(map);
    item.currentFeatures = map.features;
    bool selectorSame = wanted.selector.isEmpty();
    if (!selectorSame) {
        selectorSame = true;
        for (const auto &g : map.groups)
            selectorSame = selectorSame && selectorText(g) == wanted.selector;
    }
    const bool groupingSame = wanted.grouping.isEmpty() || wanted.grouping == item.currentGrouping
        || (wanted.grouping != QLatin1String("failover") && wanted.grouping != QLatin1String("multibus"));
    if (!wanted.grouping.isEmpty() && wanted.grouping != QLatin1String("failover")
        && wanted.grouping != QLatin1String("multibus"))
        item.note = QStringLiteral("%1 depends on path properties: not checked").arg(wanted.grouping);
    bool featuresSame = true;
    for (const auto &f : wanted.features)
        featuresSame = featuresSame && map.features.contains(f);
    item.differs = !(selectorSame && groupingSame && featuresSame);
    return item;
}

// Two rules for one map make one item: the later rule's fields win, the earlier one's others stay.
void addMapItem(PresetResolution &res, QHash<QString, qsizetype> &mapIndex, const MultipathMap &map, int rule,
    const MultipathSettings &settings)
{
    const auto seen = mapIndex.constFind(map.name);
    if (seen == mapIndex.constEnd()) {
        mapIndex.insert(map.name, res.maps.size());
        res.maps << mapItem(map, rule, settings);
        return;
    }
    MultipathSettings merged = res.maps[*seen].wanted;
    if (!settings.selector.isEmpty())
        merged.selector = settings.selector;
    if (!settings.grouping.isEmpty())
        merged.grouping = settings.grouping;
    if (!settings.features.isEmpty())
        merged.features = settings.features;
    res.maps[*seen] = mapItem(map, rule, merged);
}

// Current value and state of every item, each device's attributes read once.
void readItemStates(
    const SysfsRoot &sysfs, QList<PresetItem> &items, const QHash<QString, QHash<QString, qsizetype>> &index)
{
    QHash<QString, QHash<QString, Tunable>> tunables; // read once per device
    for (auto &item : items) {
        if (!tunables.contains(item.device)) {
            auto &byName = tunables[item.device];
            for (const auto &t : readTunables(sysfs, item.device))
                byName.insert(t.attribute, t);
        }
        const auto &deviceTunables = tunables[item.device];
        const TunableDef *def = catalog::find(item.attribute);
        // An iosched file of the scheduler this preset switches to appears with the switch.
        const QHash<QString, qsizetype> deviceIndex = index.value(item.device);
        const auto sched = deviceIndex.constFind(QStringLiteral("queue/scheduler"));
        const bool createdBySwitch = def && def->location == TunableLocation::IoScheduler
            && sched != deviceIndex.constEnd() && items[*sched].wanted == def->scheduler
            && items[*sched].wanted != deviceTunables.value(QStringLiteral("queue/scheduler")).value;
        if (createdBySwitch) {
            item.state = PresetItemState::Differs;
            item.note = QStringLiteral("appears with the scheduler change");
            continue;
        }
        const auto t = deviceTunables.constFind(item.attribute);
        if (t == deviceTunables.constEnd()) {
            item.state = PresetItemState::Unavailable;
            const Status name = checkDeviceName(sysfs, item.device);
            item.note = name ? QStringLiteral("%1 has no attribute %2").arg(item.device, item.attribute)
                             : name.errorMessage();
            continue;
        }
        item.current = t->value;
        if (def && t->readable && sameValue(*def, t->value, item.wanted)) {
            item.state = PresetItemState::Same;
        } else if (!t->writable || !t->readable) {
            item.state = PresetItemState::Unavailable;
            item.note = t->readable ? QStringLiteral("read-only on this device") : t->rawValue;
        } else {
            item.state = PresetItemState::Differs;
            item.risk = dataRiskNote(item.attribute, t->value, item.wanted);
        }
    }
}

} // namespace

QList<PresetItem> PresetResolution::risky() const
{
    QList<PresetItem> out;
    for (const PresetItem &i : items) {
        if (i.state == PresetItemState::Differs && !i.risk.isEmpty())
            out << i;
    }
    return out;
}

ChangeSet PresetResolution::changes(const QStringList &devices) const
{
    ChangeSet out;
    for (const auto &i : items) {
        if (i.state == PresetItemState::Differs && (devices.isEmpty() || devices.contains(i.device)))
            out << Change { i.device, i.attribute, i.wanted };
    }
    return out;
}

QList<PresetItem> PresetResolution::drift() const
{
    QList<PresetItem> out;
    for (const auto &i : items) {
        if (i.state != PresetItemState::Same)
            out << i;
    }
    return out;
}

bool PresetResolution::hasDrift() const
{
    if (!drift().isEmpty())
        return true;
    for (const auto &m : maps) {
        if (m.differs)
            return true;
    }
    return false;
}

QString presetItemStateName(PresetItemState state)
{
    switch (state) {
    case PresetItemState::Same:
        return QStringLiteral("same");
    case PresetItemState::Differs:
        return QStringLiteral("differs");
    case PresetItemState::Unavailable:
        return QStringLiteral("unavailable");
    }
    return {};
}

QString presetRuleLabel(const Preset &preset, int rule)
{
    const QString comment = preset.rules.value(rule).comment;
    return comment.isEmpty() ? QStringLiteral("rule %1").arg(rule + 1)
                             : QStringLiteral("rule %1 (%2)").arg(rule + 1).arg(comment);
}

PresetResolution resolvePreset(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const Preset &preset)
{
    PresetResolution res;
    // device -> attribute -> index in res.items: a later rule replaces an earlier one's value.
    QHash<QString, QHash<QString, qsizetype>> index;
    QHash<QString, qsizetype> mapIndex; // map name -> index in res.maps
    for (int r = 0; r < preset.rules.size(); ++r) {
        const PresetRule &rule = preset.rules[r];
        const QStringList devices = matchDevices(snapshot, rule.match);
        if (devices.isEmpty())
            res.unmatched
                << QStringLiteral("%1 matched no device (%2)").arg(presetRuleLabel(preset, r), rule.match.describe());
        for (const auto &device : devices) {
            for (const auto &a : rule.settings) {
                PresetItem item { device, a.attribute, {}, a.value, r, PresetItemState::Same, {} };
                const auto existing = index[device].constFind(a.attribute);
                if (existing != index[device].constEnd())
                    res.items[*existing] = item;
                else {
                    index[device].insert(a.attribute, res.items.size());
                    res.items << item;
                }
            }
            if (const MultipathMap *map = rule.multipath.isEmpty() ? nullptr : snapshot.map(device))
                addMapItem(res, mapIndex, *map, r, rule.multipath);
        }
    }
    readItemStates(sysfs, res.items, index);
    return res;
}

} // namespace dmtune
