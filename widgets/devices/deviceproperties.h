#pragma once
// What the detail pane lists about a device, as rows of text (a pure function of the snapshot).
#include "core/discovery/devicesnapshot.h"

#include <QCoreApplication>
#include <QList>

namespace dmtune {

struct PropertyRow {
    QString label;
    QString value;
    bool heading = false; // a section title ("Identity", "SCSI", "Multipath map", ...)
};

// Rows for a disk, a dm device (with its multipath map when it is one) or a partition.
// Empty when the snapshot does not know the name.
QList<PropertyRow> describeDevice(const DeviceSnapshot &snapshot, const QString &name);
// Rows for the whole machine (shown when a section row is selected), under `machine` (a remote host's name).
QList<PropertyRow> describeSnapshot(const DeviceSnapshot &snapshot,
    const QString &machine = QCoreApplication::translate("DeviceProperties", "This machine"));

// The disk a partition belongs to, or null when name is not a partition.
const BlockDevice *diskOfPartition(const DeviceSnapshot &snapshot, const QString &name);

} // namespace dmtune
