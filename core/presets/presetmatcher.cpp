#include "core/presets/presetmatcher.h"

#include <QRegularExpression>

namespace dmtune {

bool globMatches(const QString &glob, const QString &text)
{
    if (glob.isEmpty())
        return true;
    const QRegularExpression re(QRegularExpression::wildcardToRegularExpression(glob));
    return re.isValid() && re.match(text).hasMatch();
}

QString presetWwid(const BlockDevice &device)
{
    if (!device.wwid.isEmpty())
        return device.wwid;
    if (device.kind == DeviceKind::Multipath && device.dmUuid.startsWith(QLatin1String("mpath-")))
        return device.dmUuid.mid(6);
    return {};
}

bool deviceMatches(const BlockDevice &device, const PresetMatch &match)
{
    // A field that is given must have something to match: an empty vendor never matches "*".
    const auto field = [](const QString &glob, const QString &value) {
        return glob.isEmpty() || (!value.isEmpty() && globMatches(glob, value));
    };
    if (!field(match.wwid, presetWwid(device)) || !field(match.dmUuid, device.dmUuid)
        || !field(match.vendor, device.vendor.trimmed()) || !field(match.model, device.model.trimmed()))
        return false;
    // A hidden path (nvmeXcYnZ) shares its head's subsystem but is not a namespace anyone tunes.
    if (!match.nqn.isEmpty()
        && (!field(match.nqn, device.nvme.subsysNqn) || parseNvmePathName(device.name).has_value()))
        return false;
    if (!match.kinds.isEmpty() && !match.kinds.contains(deviceKindName(device.kind)))
        return false;
    if (!match.name.isEmpty() && !globMatches(match.name, device.name)
        && !(device.isDeviceMapper() && !device.dmName.isEmpty() && globMatches(match.name, device.dmName)))
        return false;
    return true;
}

QStringList matchDevices(const DeviceSnapshot &snapshot, const PresetMatch &match)
{
    QStringList out;
    if (!match.pathsOf) {
        for (const auto &d : snapshot.devices) {
            if (deviceMatches(d, match))
                out << d.name;
        }
        return out;
    }
    QStringList paths;
    for (const auto &map : snapshot.devices) {
        if (map.kind == DeviceKind::Multipath && deviceMatches(map, *match.pathsOf))
            paths << map.slaves;
    }
    for (const auto &d : snapshot.devices) {
        if (paths.contains(d.name) && deviceMatches(d, match))
            out << d.name;
    }
    return out;
}

} // namespace dmtune
