#pragma once
// Fills a map's path groups from device-mapper's table and status of it.
#include "core/discovery/devicesnapshot.h"

namespace dmtune {

class DeviceMapper;

// On failure the map keeps groupsKnown false and says why in groupsUnknownReason.
void readMultipathGroups(MultipathMap &map, DeviceMapper &dm, const DeviceSnapshot &snapshot);

} // namespace dmtune
