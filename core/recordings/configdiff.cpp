#include "core/recordings/configdiff.h"

#include <QJsonArray>
#include <QSet>

namespace dmtune {

namespace {

QString valueText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("(unknown)");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 15);
    case QJsonValue::String:
        // An empty value is one the capture could not read (a driver_version without device-mapper): said as
        // the other unknowns are, not a blank cell.
        return v.toString().isEmpty() ? QStringLiteral("(unknown)") : v.toString();
    case QJsonValue::Array: {
        QStringList parts;
        for (const QJsonValue &item : v.toArray())
            parts.append(item.isObject() || item.isArray() ? QStringLiteral("{…}") : valueText(item));
        return parts.join(QLatin1String(", "));
    }
    case QJsonValue::Object:
        break;
    }
    return {};
}

void flattenObject(const QString &prefix, const QJsonObject &o, QMap<QString, QString> &out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1String(" / ") + it.key();
        if (it->isObject())
            flattenObject(key, it->toObject(), out);
        else
            out.insert(key, valueText(*it));
    }
}

} // namespace

QMap<QString, QString> flattenConfiguration(const QJsonObject &configuration, const QHash<QString, QString> &slotOf)
{
    QMap<QString, QString> out;
    static const QSet<QString> volatileKeys { QStringLiteral("captured"), QStringLiteral("devices"),
        QStringLiteral("maps") };
    for (auto it = configuration.begin(); it != configuration.end(); ++it) {
        if (volatileKeys.contains(it.key()))
            continue;
        if (it->isObject())
            flattenObject(it.key(), it->toObject(), out);
        else
            out.insert(it.key(), valueText(*it));
    }
    for (const QJsonValue &d : configuration.value(QStringLiteral("devices")).toArray()) {
        QJsonObject device = d.toObject();
        const QString name = device.value(QStringLiteral("name")).toString();
        const QJsonObject tunables = device.take(QStringLiteral("tunables")).toObject();
        device.remove(QStringLiteral("name"));
        const QString slot = slotOf.value(name, name);
        flattenObject(slot, device, out);
        for (auto t = tunables.begin(); t != tunables.end(); ++t)
            out.insert(slot + QLatin1String(" / tunable ") + t.key(), valueText(*t));
    }
    for (const QJsonValue &m : configuration.value(QStringLiteral("maps")).toArray()) {
        QJsonObject map = m.toObject();
        const QString name = map.take(QStringLiteral("name")).toString();
        flattenObject(QStringLiteral("map ") + name, map, out);
    }
    return out;
}

ConfigDiff configurationDiff(const QList<Recording> &recordings)
{
    ConfigDiff diff;
    const QList<DeviceSlot> slotList = deviceSlots(recordings);
    QList<QMap<QString, QString>> flat;
    QSet<QString> keys;
    diff.recordings = distinctRecordingNames(recordings);
    for (qsizetype r = 0; r < recordings.size(); ++r) {
        QHash<QString, QString> slotOf;
        for (const DeviceSlot &slot : slotList) {
            if (!slot.names.value(r).isEmpty())
                slotOf.insert(slot.names[r], slot.label);
        }
        flat.append(flattenConfiguration(recordings[r].meta.configuration, slotOf));
        for (auto it = flat.last().begin(); it != flat.last().end(); ++it)
            keys.insert(it.key());
    }
    QStringList sorted(keys.begin(), keys.end());
    sorted.sort();
    diff.comparedKeys = int(sorted.size());
    for (const QString &key : sorted) {
        ConfigDiffRow row { key, {} };
        bool differs = false;
        for (const auto &f : flat) {
            row.values.append(f.value(key)); // null when missing
            differs = differs || row.values.last() != row.values.first()
                || row.values.last().isNull() != row.values.first().isNull();
        }
        diff.allRows.append(row);
        if (differs)
            diff.rows.append(row);
    }
    return diff;
}

} // namespace dmtune
