#pragma once
// What the kernel's dm-multipath path selectors (drivers/md/dm-ps-*.c) print and accept.
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

struct PathSelectorInfo {
    QString name;
    // Words per path in `dmsetup table` output (the selector's table_args).
    int tableArgsPerPath = 0;
    // Words per path in `dmsetup status` output (info_args).
    int statusInfoPerPath = 0;
    // What those status words mean, e.g. {"in-flight bytes", "relative throughput"}.
    QList<QString> statusInfoNames;
    QString description;
};

const QList<PathSelectorInfo> &knownPathSelectors();
// nullptr for a selector this program does not know (an out-of-tree module).
const PathSelectorInfo *findPathSelector(QStringView name);
// Per-path arguments the kernel prints for a selector's defaults, so that a table built with them
// reads back equal (io-affinity: CPU 0's mask); empty for a selector this program does not know.
QStringList defaultPathArgs(QStringView selector);

} // namespace dmtune
