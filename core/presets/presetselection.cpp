#include "core/presets/presetselection.h"

#include "core/params/catalog.h"

namespace dmtune {

QString firstSeenKey(const BlockDevice &device)
{
    if (!device.wwid.isEmpty())
        return QStringLiteral("wwid:") + device.wwid;
    if (!device.dmUuid.isEmpty())
        return QStringLiteral("dmuuid:") + device.dmUuid;
    return QStringLiteral("devnum:") + device.devnum;
}

void FirstSeenValues::record(const BlockDevice &device, const QList<Tunable> &tunables)
{
    QHash<QString, QString> &values = m_values[firstSeenKey(device)];
    for (const Tunable &t : tunables) {
        if (isSavableTunable(t) && !values.contains(t.attribute))
            values.insert(t.attribute, t.value);
    }
}

void FirstSeenValues::record(const BlockDevice &device, const QString &attribute, const QString &value)
{
    QHash<QString, QString> &values = m_values[firstSeenKey(device)];
    if (!values.contains(attribute))
        values.insert(attribute, value);
}

bool isSavableTunable(const Tunable &tunable)
{
    if (!tunable.known || !tunable.writable || !tunable.readable)
        return false;
    const TunableDef *def = catalog::find(tunable.attribute);
    // A value the kernel would refuse back is not stored: applying the preset must never be refused for it.
    return def && def->location != TunableLocation::Module && tunable.kernelTakesBack();
}

QList<AttributeChoice> defaultAttributeChoices(const QString &device, const QList<Tunable> &tunables,
    const QList<ApplyResult> &history, const QHash<QString, QString> &firstSeen)
{
    // The values each attribute dmtune changed on this device went through: "0 -> 2 -> 0".
    QHash<QString, QStringList> changed;
    for (const ApplyResult &result : history) {
        if (result.rolledBack || result.dryRun)
            continue;
        for (const ChangeOutcome &c : result.changes) {
            if (c.device != device || !c.error.isEmpty() || c.oldValue == c.newValue)
                continue;
            QStringList &values = changed[c.attribute];
            if (values.isEmpty())
                values << c.oldValue;
            values << c.newValue;
        }
    }
    QList<AttributeChoice> choices;
    for (const Tunable &t : tunables) {
        if (!isSavableTunable(t))
            continue;
        AttributeChoice c { device, t.attribute, t.value };
        if (const auto it = changed.constFind(t.attribute); it != changed.cend()) {
            c.checked = true;
            c.reason = QStringLiteral("changed in dmtune: %1").arg(it->join(QStringLiteral(" -> ")));
        } else if (const auto seen = firstSeen.constFind(t.attribute);
                   seen != firstSeen.cend() && seen.value() != t.value) {
            c.checked = true;
            c.reason = QStringLiteral("first seen %1").arg(seen.value());
        }
        choices << c;
    }
    return choices;
}

} // namespace dmtune
