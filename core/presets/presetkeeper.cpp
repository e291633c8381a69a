#include "core/presets/presetkeeper.h"

#include "core/presets/presetmatcher.h"

#include <QSet>

namespace dmtune {

namespace {

QSet<QString> matched(const DeviceSnapshot &snapshot, const Preset &preset)
{
    QSet<QString> out;
    for (const auto &rule : preset.rules) {
        if (rule.settings.isEmpty())
            continue;
        for (const auto &d : matchDevices(snapshot, rule.match))
            out.insert(d);
    }
    return out;
}

// "sdc" -> "mpatha" for each active path of a map (state A), and failed ones separately.
QHash<QString, QString> pathsInState(const DeviceSnapshot &snapshot, const QString &state)
{
    QHash<QString, QString> out;
    for (const auto &map : snapshot.maps) {
        for (const auto &g : map.groups) {
            for (const auto &p : g.paths) {
                if (p.state == state && !p.name.isEmpty())
                    out.insert(p.name, map.name);
            }
        }
    }
    return out;
}

} // namespace

QList<ReapplyReason> devicesToReapply(const DeviceSnapshot &before, const DeviceSnapshot &after, const Preset &preset)
{
    QList<ReapplyReason> out;
    const QSet<QString> now = matched(after, preset);
    const QHash<QString, QString> failedBefore = pathsInState(before, QStringLiteral("F"));
    const QHash<QString, QString> activeNow = pathsInState(after, QStringLiteral("A"));
    for (const auto &d : after.devices) {
        if (!now.contains(d.name))
            continue;
        const BlockDevice *old = before.device(d.name);
        if (!old || old->devnum != d.devnum)
            out << ReapplyReason { d.name, QStringLiteral("appeared") };
        else if (failedBefore.contains(d.name) && activeNow.contains(d.name))
            out << ReapplyReason { d.name, QStringLiteral("path reinstated in %1").arg(activeNow.value(d.name)) };
    }
    return out;
}

PresetKeeper::PresetKeeper(QObject *parent)
    : QObject(parent)
{
}

void PresetKeeper::keep(const Preset &preset, const DeviceSnapshot &current)
{
    m_preset = preset;
    m_last = current;
    m_active = true;
}

void PresetKeeper::stop()
{
    m_active = false;
}

void PresetKeeper::onSnapshot(const DeviceSnapshot &snapshot)
{
    if (!m_active) {
        m_last = snapshot;
        return;
    }
    const QList<ReapplyReason> reasons = devicesToReapply(m_last, snapshot, m_preset);
    m_last = snapshot;
    if (reasons.isEmpty())
        return;
    QStringList devices, why;
    for (const auto &r : reasons) {
        devices << r.device;
        why << QStringLiteral("%1 %2").arg(r.device, r.why);
    }
    Q_EMIT reapplyRequested(devices, why.join(QStringLiteral("; ")));
}

} // namespace dmtune
