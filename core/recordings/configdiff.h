#pragma once
// The configuration snapshots of recordings, flattened to "device / setting" = value, and the settings whose
// values differ between them. Devices are matched by deviceSlots(): "loop0 / tunable queue/nomerges".
#include "core/recordings/deviceslots.h"

#include <QMap>

namespace dmtune {

// Key -> value text of one recording's configuration; devices under their slot labels.
QMap<QString, QString> flattenConfiguration(const QJsonObject &configuration, const QHash<QString, QString> &slotOf);

struct ConfigDiffRow {
    QString key; // "loop0 / tunable queue/nomerges", "kernel", "map mpatha / table"
    QStringList values; // per recording; a null QString where the recording has no such setting
};

struct ConfigDiff {
    QStringList recordings; // display names
    QList<ConfigDiffRow> rows; // sorted by key; only keys whose values are not all equal
    QList<ConfigDiffRow> allRows; // every key, sorted (the full configurations side by side)
    int comparedKeys = 0; // how many settings were compared in all
};

// Volatile keys (capture time) are left out: they always differ and say nothing about the setup.
ConfigDiff configurationDiff(const QList<Recording> &recordings);

} // namespace dmtune
