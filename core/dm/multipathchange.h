#pragma once
// One multipath operation (a target message or a table reload) run synchronously: the code path
// under the multipath.* core operations (ops/multipathoperations.h). Path and group operations go through
// multipathd when it runs and manages the map (so that its checker state agrees), else as
// device-mapper messages; a reload always goes through device-mapper (load, then resume without
// flush or lockfs, as libmultipath does) and warns that multipathd may put its own table back.
#include "core/dm/backend/devicemapper.h"
#include "core/dm/grammar/multipathmessages.h"
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/sysfs/sysfsroot.h"
#include "core/util/result.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <functional>

namespace dmtune {

struct MultipathOperationResult {
    QString map;
    QString operation; // the dm message form: "fail_path 8:16", "switch_group 2", "reload"
    Status status = Status::failure(QStringLiteral("not run")); // ok, or why it failed (nothing changed then)
    QString via; // "multipathd" or "device-mapper"
    QStringList warnings; // risks (mapsafety.h), multipathd caveats, a status that did not follow
    QString command; // what was sent: "fail path sdb" to multipathd, or the dm message / table line

    explicit operator bool() const { return status.ok(); }
};

// Sends one command to multipathd and returns its reply (an error for "fail"); how operations
// reach it. Empty: do not use multipathd (not running, or the caller wants device-mapper only).
using MultipathdCommand = std::function<Result<QString>(const QString &command)>;
// A MultipathdCommand over the real socket when multipathd is listening, else empty.
MultipathdCommand liveMultipathd();

struct MultipathMapState {
    DmInfo info;
    DmTargetLine line; // the multipath target line (start, length kept for a reload)
    MultipathTable table;
    MultipathStatus status;
};
// Reads info, table and status of a multipath map; an error when it is not one.
Result<MultipathMapState> readMultipathMapState(DeviceMapper &dm, const QString &map);

struct PreparedOperation {
    QString map;
    MultipathMessage message; // the device normalised to MAJ:MIN, checked against the map
    QString pathName; // "sdb" for path operations when sysfs knows it (multipathd needs it)
    MultipathMapState before;
    QStringList risks; // operationRisks() for the state read
};
// Resolves the path, checks that it is in the map (or the group number against its groups) and
// computes the risks. Nothing is changed.
Result<PreparedOperation> prepareMultipathOperation(
    DeviceMapper &dm, const SysfsRoot &sysfs, const QString &map, const MultipathMessage &message);
// Runs it: through multipathd when `multipathd` is set, it has a command for the operation and
// it manages the map; else as a dm message. Then reads the status back and warns when it does
// not show the change.
MultipathOperationResult executeMultipathOperation(
    DeviceMapper &dm, const PreparedOperation &prepared, const MultipathdCommand &multipathd);

struct PreparedReload {
    QString map;
    MultipathTable table; // checked (checkMultipathTable)
    DmTargetLine line; // the new target line: the current start and length
    MultipathMapState before;
    QStringList risks; // identityRisks() (paths of another LUN), then reloadRisks()
    qsizetype dataRiskCount = 0; // the first ones of `risks`, the identityRisks(): the map's data is at stake
    QString diff; // tableDiff(current, new); empty when nothing changes
};
// `sysfs` tells what LUN each path reports (lunidentity.h): a path the map does not have now must
// report the map's LUN, else that is a risk.
Result<PreparedReload> prepareMultipathReload(
    DeviceMapper &dm, const QString &map, const MultipathTable &table, const SysfsRoot &sysfs = SysfsRoot());
// `multipathdRunning` adds the warning that multipathd may reload the map from multipath.conf.
MultipathOperationResult executeMultipathReload(
    DeviceMapper &dm, const PreparedReload &prepared, bool multipathdRunning);
MultipathOperationResult runMultipathReload(DeviceMapper &dm, const QString &map, const MultipathTable &table,
    bool multipathdRunning, const SysfsRoot &sysfs = SysfsRoot());

// The multipathd command for an operation ("fail path sdb", "switchgroup map mpatha group 2",
// "disablequeueing map mpatha", "restorequeueing map mpatha"); empty when multipathd has none
// (enable/disable group) or the path has no name.
QString multipathdCommandFor(const QString &map, const MultipathMessage &message, const QString &pathName);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::MultipathOperationResult)
