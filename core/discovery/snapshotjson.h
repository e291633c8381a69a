#pragma once
// The JSON form of a snapshot (dmtunectl list --json; documented in README.md).
#include "core/discovery/devicesnapshot.h"
#include "core/dm/multipathd/multipathdview.h"

#include <QJsonObject>

namespace dmtune {

QJsonObject deviceToJson(const BlockDevice &device);
QJsonObject mapToJson(const MultipathMap &map);
QJsonObject nvmeHeadToJson(const NvmeMultipathHead &head);
QJsonObject snapshotToJson(const DeviceSnapshot &snapshot);

// What multipath -ll shows beside the kernel's states and the kernel does not know: multipathd's priority on
// each group of a map object (as mapToJson and map show --json make them, matched by index), and priority,
// checker_state and device_state on each path (matched by devnum within its group).
void addMultipathdView(QJsonObject *map, const MultipathdMapView &view);

// multipath -ll style text of one map; with multipathd's view of it, also what only multipathd knows, where
// multipath -ll prints it: prio=N on each group line, the checker and device states on each path line.
QString mapToText(const MultipathMap &map, const DeviceSnapshot &snapshot, const MultipathdMapView *view = nullptr);

// One native NVMe multipath head: a line of its own, then the block nvme list-subsys prints for it (subsystem,
// NQN, iopolicy, a " +- " line per path: controller, transport, address, controller state, ANA state).
QString nvmeHeadToText(const NvmeMultipathHead &head);

} // namespace dmtune
