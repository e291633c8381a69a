#pragma once
// multipathd's view of its maps (`multipathd show maps json`, multipath-tools 0.9: JSON format
// version 0.1), parsed without I/O, and compared with what the kernel reports for a map.
#include "dm/multipathstatus.h"
#include "dm/multipathtable.h"
#include "util/result.h"

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
// "path 8:16: kernel F (failed), multipathd active". Empty when they agree.
QStringList compareMultipathdView(
    const MultipathdMapView &view, const MultipathTable &table, const MultipathStatus &status);

} // namespace dmtune
