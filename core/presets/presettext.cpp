#include "core/presets/presettext.h"

#include <QJsonObject>

namespace dmtune {

QStringList presetItemLines(const Preset &preset, const QList<PresetItem> &items)
{
    QStringList out;
    for (const auto &i : items) {
        QString line = QStringLiteral("  %1 %2: %3 -> %4  [%5, %6]")
                           .arg(i.device, i.attribute, i.current.isEmpty() ? QStringLiteral("-") : i.current, i.wanted,
                               presetItemStateName(i.state), presetRuleLabel(preset, i.rule));
        if (!i.note.isEmpty())
            line += QStringLiteral(" (%1)").arg(i.note);
        if (!i.risk.isEmpty())
            line += QStringLiteral(" RISK: ") + i.risk;
        out.append(line);
    }
    return out;
}

QStringList presetMapLines(const QList<PresetMapItem> &maps)
{
    QStringList out;
    for (const auto &m : maps) {
        QString line = QStringLiteral("  map %1 (%2) multipath:").arg(m.map, m.device);
        if (!m.wanted.selector.isEmpty())
            line += QStringLiteral(" selector %1 -> %2")
                        .arg(m.currentSelector.isEmpty() ? QStringLiteral("?") : m.currentSelector, m.wanted.selector);
        if (!m.wanted.grouping.isEmpty())
            line += QStringLiteral(" grouping %1 -> %2")
                        .arg(m.currentGrouping.isEmpty() ? QStringLiteral("?") : m.currentGrouping, m.wanted.grouping);
        if (!m.wanted.features.isEmpty())
            line += QStringLiteral(" features [%1] -> +%2")
                        .arg(m.currentFeatures.join(QLatin1Char(' ')), m.wanted.features.join(QLatin1Char(' ')));
        line += m.differs ? QStringLiteral("  [differs]") : QStringLiteral("  [same]");
        if (!m.note.isEmpty())
            line += QStringLiteral(" (%1)").arg(m.note);
        out.append(line);
    }
    return out;
}

QJsonArray presetItemsJson(const Preset &preset, const QList<PresetItem> &items)
{
    QJsonArray out;
    for (const auto &i : items) {
        QJsonObject o { { QStringLiteral("device"), i.device }, { QStringLiteral("attribute"), i.attribute },
            { QStringLiteral("current"), i.current }, { QStringLiteral("preset"), i.wanted },
            { QStringLiteral("rule"), i.rule + 1 }, { QStringLiteral("rule_label"), presetRuleLabel(preset, i.rule) },
            { QStringLiteral("state"), presetItemStateName(i.state) }, { QStringLiteral("note"), i.note } };
        if (!i.risk.isEmpty())
            o.insert(QStringLiteral("risk"), i.risk); // puts data at risk: apply needs --force
        out.append(o);
    }
    return out;
}

} // namespace dmtune
