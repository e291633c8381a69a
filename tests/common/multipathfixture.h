#pragma once
// The tests' one multipath fixture: map mpatha (dm-0, 253:0, mpath-36001405aaaaaaaaa) over four SCSI paths
// of LUN naa.6001405aaaaaaaaa (sda..sdd: 8:0, 8:16, 8:32, 8:48), as a FakeSysfs tree and as a
// FakeDeviceMapper map. In the tree each path has queue_depth 32 behind a host with can_queue 64 and the map
// has nr_requests 128 (= 4 x 32: its queue stays empty); the map's table has two round-robin groups of two
// paths (sda sdb | sdc sdd), group 1 in use.
#include "core/util/result.h"

#include <QString>
#include <QStringList>

namespace dmtune {
class FakeDeviceMapper;
}

namespace dmtune::test {

class FakeSysfs;

inline const QString fixtureMap = QStringLiteral("mpatha");
inline const QString fixtureMapUuid = QStringLiteral("mpath-36001405aaaaaaaaa");
inline const QString fixtureLun = QStringLiteral("naa.6001405aaaaaaaaa");
// The map's and each path's size: 1 GiB.
inline constexpr qint64 fixtureSectors = 2097152;

// sda, sdb, sdc, sdd.
const QStringList &fixturePaths();
// A path's device number as the sd driver gives it: sda 8:0, sdb 8:16, ...
QString scsiDevnum(const QString &name);

// The map's table and status parameters (what follows "multipath" in `dmsetup table` / `status`).
QString fixtureTableParams(const QStringList &paths = fixturePaths());
QString fixtureStatusParams(const QStringList &paths = fixturePaths());
// Whole `dmsetup table` / `status` lines: "0 2097152 multipath <params>".
QString fixtureLine(const QString &params);
QString fixtureTableLine(const QStringList &paths = fixturePaths());
QString fixtureStatusLine(const QStringList &paths = fixturePaths());

// The tree: the four paths (host N for the Nth), dm-0 over them, dm_mod and dm_multipath's parameters. `map`
// renames the map (a test that runs dmtunectl picks a name this host has no map of).
void buildMultipathFixture(FakeSysfs &t, const QStringList &paths = fixturePaths(), const QString &map = fixtureMap);
// The map in a fake device-mapper, with the tree's uuid.
Status addFixtureMap(FakeDeviceMapper &dm, const QStringList &paths = fixturePaths(), const QString &map = fixtureMap);
// The same map with a table and status of the test's own (a lab's features, selectors and path states).
Status addFixtureMapWithTable(
    FakeDeviceMapper &dm, const QString &tableParams, const QString &statusParams, const QString &map = fixtureMap);

} // namespace dmtune::test
