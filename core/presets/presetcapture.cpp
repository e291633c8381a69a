#include "core/presets/presetcapture.h"

#include "core/params/catalog.h"
#include "core/params/tunable.h"
#include "core/params/valueparsers.h"
#include "core/presets/presetselection.h"

#include <QSysInfo>

#include <algorithm>
#include <optional>

namespace dmtune {

PresetMatch identityMatch(const BlockDevice &device, QString *comment)
{
    PresetMatch m;
    QString why;
    if (device.kind == DeviceKind::Multipath || (device.isDeviceMapper() && !device.dmUuid.isEmpty())) {
        m.dmUuid = device.dmUuid;
        why = QStringLiteral("%1 (%2) by its dm uuid").arg(device.name, device.dmName);
    } else if (!device.wwid.isEmpty()) {
        m.wwid = device.wwid;
        why = QStringLiteral("%1 by its WWID").arg(device.name);
    } else {
        m.kinds << deviceKindName(device.kind);
        m.name = device.name;
        why = QStringLiteral("%1: no stable identity, matched by kind and name").arg(device.name);
    }
    if (comment)
        *comment = why;
    return m;
}

namespace {

// An NVMe namespace's subsystem attributes (nvme/iopolicy) belong to every namespace of its subsystem and follow
// it by NQN, not by the namespace's WWID: moved out of `rule` into a rule of their own.
std::optional<PresetRule> takeSubsystemSettings(const BlockDevice &device, PresetRule &rule)
{
    if (device.nvme.subsysNqn.isEmpty())
        return std::nullopt;
    PresetRule subsystem;
    subsystem.match.nqn = device.nvme.subsysNqn;
    subsystem.comment = QStringLiteral("the NVMe subsystem of %1 by its NQN").arg(device.name);
    for (auto it = rule.settings.begin(); it != rule.settings.end();) {
        const TunableDef *def = catalog::find(it->attribute);
        if (def && def->location == TunableLocation::NvmeSubsystem) {
            subsystem.settings << *it;
            it = rule.settings.erase(it);
        } else {
            ++it;
        }
    }
    if (subsystem.settings.isEmpty())
        return std::nullopt;
    return subsystem;
}

} // namespace

Result<Preset> presetFromDevices(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot, const QStringList &devices,
    const QStringList &attributeNames, const QString &name)
{
    QList<DeviceAttributes> selection;
    for (const auto &device : devices)
        selection << DeviceAttributes { device, attributeNames };
    return presetFromSelection(sysfs, snapshot, selection, name);
}

Result<Preset> presetFromSelection(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot,
    const QList<DeviceAttributes> &selection, const QString &name)
{
    using R = Result<Preset>;
    Preset p;
    p.name = name;
    p.host = QSysInfo::machineHostName();
    p.kernel = snapshot.kernelRelease.isEmpty() ? QSysInfo::kernelVersion() : snapshot.kernelRelease;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    p.created = now.addMSecs(-now.time().msec()); // whole seconds: what ISO 8601 in the file keeps
    QStringList devices;
    for (const auto &[devName, attributeNames] : selection) {
        QStringList attributes; // catalog keys: any last part of a name that names one attribute alone works
        for (const auto &typed : attributeNames) {
            const auto key = catalog::resolve(typed);
            if (!key)
                return R::failure(key.errorMessage());
            attributes << key.value();
        }
        for (const auto &a : std::as_const(attributes)) {
            const TunableDef *def = catalog::find(a);
            if (def->ignored)
                return R::failure(QStringLiteral("%1 is ignored by current kernels").arg(a));
            if (def->location == TunableLocation::Module)
                return R::failure(QStringLiteral("%1 is a module parameter (global), not a device setting").arg(a));
        }
        const BlockDevice *device = snapshot.device(devName);
        if (!device)
            return R::failure(QStringLiteral("no device %1").arg(devName));
        devices << devName;
        PresetRule rule;
        rule.match = identityMatch(*device, &rule.comment);
        const QList<Tunable> tunables = readTunables(sysfs, devName);
        for (const auto &t : tunables) {
            if (attributes.isEmpty()) {
                if (isSavableTunable(t))
                    rule.settings << Assignment { t.attribute, t.value };
                continue;
            }
            if (!t.known || !attributes.contains(t.attribute))
                continue;
            if (!t.writable || !t.readable)
                return R::failure(QStringLiteral("%1 %2 is not writable").arg(devName, t.attribute));
            if (const auto back = checkValue(*catalog::find(t.attribute), t.limits, t.value); !back)
                return R::failure(QStringLiteral("%1 %2=%3: the kernel would refuse it back (%4)")
                                      .arg(devName, t.attribute, t.value, back.errorMessage()));
            rule.settings << Assignment { t.attribute, t.value };
        }
        for (const auto &a : std::as_const(attributes)) {
            const bool found = std::any_of(
                rule.settings.cbegin(), rule.settings.cend(), [&a](const Assignment &s) { return s.attribute == a; });
            if (!found)
                return R::failure(QStringLiteral("%1 has no attribute %2").arg(devName, a));
        }
        std::sort(rule.settings.begin(), rule.settings.end(),
            [](const Assignment &x, const Assignment &y) { return x.attribute < y.attribute; });
        const bool hadSettings = !rule.settings.isEmpty();
        if (auto subsystemRule = takeSubsystemSettings(*device, rule)) {
            const bool known = std::any_of(p.rules.cbegin(), p.rules.cend(),
                [&subsystemRule](const PresetRule &r) { return r.match == subsystemRule->match; });
            if (!known)
                p.rules << *subsystemRule;
        }
        if (!hadSettings)
            return R::failure(QStringLiteral("%1 has no writable tunables").arg(devName));
        if (!rule.settings.isEmpty())
            p.rules << rule;
    }
    if (p.rules.isEmpty())
        return R::failure(QStringLiteral("no devices given"));
    p.description = QStringLiteral("Saved from %1 on %2").arg(devices.join(QStringLiteral(", ")), p.host);
    return p;
}

} // namespace dmtune
