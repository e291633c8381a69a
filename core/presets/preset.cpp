#include "core/presets/preset.h"

namespace dmtune {

bool PresetMatch::isEmpty() const
{
    return wwid.isEmpty() && dmUuid.isEmpty() && vendor.isEmpty() && model.isEmpty() && kinds.isEmpty()
        && name.isEmpty() && nqn.isEmpty() && !pathsOf;
}

QString PresetMatch::describe() const
{
    QStringList parts;
    const auto add = [&parts](const char *key, const QString &value) {
        if (!value.isEmpty())
            parts << QString::fromLatin1(key) + QLatin1Char('=') + value;
    };
    add("wwid", wwid);
    add("dmUuid", dmUuid);
    add("vendor", vendor);
    add("model", model);
    add("kind", kinds.join(QLatin1Char('|')));
    add("name", name);
    add("nqn", nqn);
    if (pathsOf)
        parts << QStringLiteral("paths of (%1)").arg(pathsOf->describe());
    return parts.join(QLatin1Char(' '));
}

bool PresetMatch::operator==(const PresetMatch &o) const
{
    const bool samePaths = (!pathsOf && !o.pathsOf) || (pathsOf && o.pathsOf && *pathsOf == *o.pathsOf);
    return wwid == o.wwid && dmUuid == o.dmUuid && vendor == o.vendor && model == o.model && kinds == o.kinds
        && name == o.name && nqn == o.nqn && samePaths;
}

bool PresetRule::operator==(const PresetRule &o) const
{
    if (settings.size() != o.settings.size())
        return false;
    for (qsizetype i = 0; i < settings.size(); ++i) {
        if (settings[i].attribute != o.settings[i].attribute || settings[i].value != o.settings[i].value)
            return false;
    }
    return comment == o.comment && match == o.match && multipath == o.multipath;
}

bool Preset::operator==(const Preset &o) const
{
    return schema == o.schema && name == o.name && description == o.description && reasoning == o.reasoning
        && host == o.host && kernel == o.kernel && created == o.created && rules == o.rules;
}

const QStringList &multipathGroupingPolicies()
{
    static const QStringList policies { QStringLiteral("failover"), QStringLiteral("multibus"),
        QStringLiteral("group_by_serial"), QStringLiteral("group_by_prio"), QStringLiteral("group_by_node_name") };
    return policies;
}

} // namespace dmtune
