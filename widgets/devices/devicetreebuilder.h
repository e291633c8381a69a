#pragma once
// Turns a snapshot into the rows of the device tree (a pure function: tests call it directly).
#include "widgets/devices/devicetreenode.h"

#include "core/discovery/devicesnapshot.h"

namespace dmtune {

// Keys of the two top-level rows.
inline QString mapsSectionKey()
{
    return QStringLiteral("maps");
}
inline QString otherDevicesSectionKey()
{
    return QStringLiteral("other");
}

// An invisible root with two children: "Multipath maps" (maps -> path groups -> paths -> the
// path's hardware, plus whatever is stacked on the map) and "Other devices" (every device that
// is neither a map nor one of its paths, with partitions and holders).
std::unique_ptr<DeviceTreeNode> buildDeviceTree(const DeviceSnapshot &snapshot);

} // namespace dmtune
