#pragma once
// multipathd's view of its maps (`multipathd show maps json`, multipath-tools 0.9: JSON format
// version 0.1), parsed without I/O, and compared with what the kernel reports for a map.
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

struct MultipathdPathView {
    QString dev; // "sdb"
    QString devT; // "8:16"
    QString dmState; // "active", "failed", "undef" (multipathd's copy of the kernel's A/F)
    QString deviceState; // "running", "offline", ...
    QString checkerState; // "ready", "faulty", "ghost", ...
    QString checker; // "tur"
    int priority = -1;

    bool operator==(const MultipathdPathView &) const = default;
};

struct MultipathdGroupView {
    int number = 0; // 1-based
    QString selector; // "service-time 0": name, #args, args
    int priority = -1;
    QString dmState; // "active", "enabled", "disabled"
    QList<MultipathdPathView> paths;

    bool operator==(const MultipathdGroupView &) const = default;
};

struct MultipathdMapView {
    QString name;
    QString uuid; // the WWID (without "mpath-")
    QString sysfs; // "dm-0"
    QString queueing; // "off", "on", "12 chk", "5 sec", "-"
    QString features; // "1 queue_if_no_path"
    QString hwhandler; // "1 alua"
    QString failback; // "-", "immediate", ...
    QString action; // "create", "reload", ... (the last action until the next reload)
    int activePaths = -1;
    QList<MultipathdGroupView> groups;

    bool operator==(const MultipathdMapView &) const = default;
};

Result<QList<MultipathdMapView>> parseMultipathdMapsJson(QStringView json);
// The map of that name, or an error naming the known ones.
Result<MultipathdMapView> findMultipathdMap(const QList<MultipathdMapView> &maps, const QString &name);

// Where multipathd's view differs from the kernel's table and status, one line each, e.g.
// "group 2: kernel selector round-robin 0, multipathd service-time 0",
// "path 8:16 (sdb): kernel F (failed), multipathd active", and a path whose checker state contradicts the
// kernel's A/F ("path 8:48 (sdd): kernel A (active), multipathd's checker faulty"). Empty when they agree.
QStringList compareMultipathdView(
    const MultipathdMapView &view, const MultipathTable &table, const MultipathStatus &status);

// Where multipathd's numbers are not what `multipath -ll` prints, although multipathd agrees with the kernel:
// a group priority that averages only the paths multipathd's checker calls up (0 when none is; -ll runs the
// checkers itself and averages the paths it finds up), and a failed path multipathd holds as faulty (after
// `fail path` it does not check it until it is reinstated; -ll's own checker may find it ready). One line each,
// e.g. "group 2: multipathd priority 0, the average over the paths its checker calls up (none); its paths' own:
// sdd 50". Empty when multipathd's numbers are its paths'.
QStringList explainMultipathdView(const MultipathdMapView &view, const MultipathStatus &status);

// What map show prints of the two: "multipathd: agrees with the kernel (...)" or "multipathd differs from the
// kernel:" with the differences indented, then the explanations under their heading.
QStringList multipathdComparisonLines(const QStringList &differences, const QStringList &notes);

// A checker state ("ready", "ghost" / "faulty", "shaky", "i/o timeout") as up or down; neither for "i/o pending",
// "delayed", "undef" and the like.
enum class CheckerVerdict { Up, Down, Unknown };
CheckerVerdict checkerVerdict(const QString &checkerState);

} // namespace dmtune
