#pragma once
// Which device of one recording stands for which device of another. Recordings of the same setup watch the
// same names; an experiment on 2 paths against 4, or a loop device that got another number, does not. A name
// present in every recording is one slot; the rest are paired by their position in each recording's
// watched list (the map first, then its paths), so "the map" meets "the map".
#include "core/recordings/recording.h"

namespace dmtune {

struct DeviceSlot {
    QString label; // "loop0", or "loop0 / loop3" when the names differ
    QStringList names; // per recording; empty where the recording has no device in this slot
};

QList<DeviceSlot> deviceSlots(const QList<QStringList> &deviceLists);
QList<DeviceSlot> deviceSlots(const QList<Recording> &recordings);

} // namespace dmtune
