#include "core/recordings/deviceslots.h"

namespace dmtune {

QList<DeviceSlot> deviceSlots(const QList<QStringList> &deviceLists)
{
    QList<DeviceSlot> out;
    if (deviceLists.isEmpty())
        return out;
    const qsizetype n = deviceLists.size();
    QList<QStringList> rest = deviceLists;
    // Names every recording has, in the first recording's order.
    for (const QString &name : deviceLists.first()) {
        bool everywhere = true;
        for (const QStringList &list : deviceLists)
            everywhere = everywhere && list.contains(name);
        if (!everywhere)
            continue;
        out.append({ name, QStringList(n, name) });
        for (QStringList &r : rest)
            r.removeAll(name);
    }
    // The others by position.
    qsizetype longest = 0;
    for (const QStringList &r : rest)
        longest = std::max(longest, r.size());
    for (qsizetype i = 0; i < longest; ++i) {
        DeviceSlot slot;
        QStringList distinct;
        for (const QStringList &r : rest) {
            const QString name = r.value(i);
            slot.names.append(name);
            if (!name.isEmpty() && !distinct.contains(name))
                distinct.append(name);
        }
        slot.label = distinct.join(QLatin1String(" / "));
        out.append(slot);
    }
    return out;
}

QList<DeviceSlot> deviceSlots(const QList<Recording> &recordings)
{
    QList<QStringList> lists;
    for (const Recording &r : recordings)
        lists.append(r.deviceNames());
    return deviceSlots(lists);
}

} // namespace dmtune
