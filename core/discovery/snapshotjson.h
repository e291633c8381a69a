#pragma once
// The JSON form of a snapshot (dmtunectl list --json; documented in README.md).
#include "discovery/devicesnapshot.h"

#include <QJsonObject>

namespace dmtune {

QJsonObject deviceToJson(const BlockDevice &device);
QJsonObject mapToJson(const MultipathMap &map);
QJsonObject snapshotToJson(const DeviceSnapshot &snapshot);

// multipath -ll style text of one map.
QString mapToText(const MultipathMap &map, const DeviceSnapshot &snapshot);

} // namespace dmtune
