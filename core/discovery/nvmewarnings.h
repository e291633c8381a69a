#pragma once
// Warnings about how NVMe namespaces are stacked and reached (docs/nvme.md "Warnings"): a
// dm-multipath map over native NVMe multipath, one namespace through several controllers with neither layer doing
// failover, and native heads without a usable, an optimized or a second path. One English line each, shared by
// dmtunectl and the GUI.
#include "core/discovery/devicesnapshot.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

class SysfsRoot;

struct NvmeWarning {
    // dm-over-native, no-failover, no-usable-path, no-optimized-path, single-path
    QString code;
    // What it is about, as the message names them: a map by its dm name, heads, paths, namespaces.
    QStringList devices;
    QString message;
};

// The warnings of a snapshot, in this order: dm-over-native per map, no-failover per namespace, then per native
// head the most severe of no-usable-path, no-optimized-path and single-path. nvmeCoreMultipath: nvme_core's
// multipath parameter ("Y", "N"; empty when the kernel has none: built without native multipath).
// ctrlLossTmo: a fabrics controller's ctrl_loss_tmo ("600", "off") by name, for how long I/O waits for it.
QList<NvmeWarning> nvmeWarnings(
    const DeviceSnapshot &snapshot, const QString &nvmeCoreMultipath, const QHash<QString, QString> &ctrlLossTmo = {});
// The same, with nvme_core's multipath and the controllers' ctrl_loss_tmo read from the root the snapshot came
// from (a capture has both).
QList<NvmeWarning> nvmeWarnings(const SysfsRoot &sysfs, const DeviceSnapshot &snapshot);

// Those that name the head or one of its paths.
QList<NvmeWarning> nvmeWarningsOfHead(const QList<NvmeWarning> &warnings, const NvmeMultipathHead &head);

// [{"code", "devices": [...], "message"}], as list --json's nvme_warnings.
QJsonArray nvmeWarningsToJson(const QList<NvmeWarning> &warnings);

} // namespace dmtune
