#pragma once
// A change set: attribute values to write to devices as one transaction, and the scopes that
// expand an edit to a map's paths.
#include "core/discovery/devicesnapshot.h"
#include "core/util/result.h"

#include <QList>
#include <QMetaType>

namespace dmtune {

struct Change {
    QString device; // kernel name (sdb, dm-0)
    QString attribute; // catalog key (queue/nomerges)
    QString value;
    bool operator==(const Change &) const = default;
};
using ChangeSet = QList<Change>;

struct Assignment {
    QString attribute;
    QString value;
};
// "queue/nomerges=2", also "nomerges=2" or "queue_depth=8": any last part of a catalog key that names it alone
// (catalog::resolve). Fails for an unknown, ambiguous or read-only attribute, saying which.
Result<Assignment> parseAssignment(const QString &text);

enum class ChangeScope {
    Device, // the devices given
    MapAndPaths, // the map and every path below it
    PathsOfMap, // only the paths below the map
    Selection, // the devices given (several)
};

// The devices a scope covers, expanded from the snapshot (a map's paths are its slaves).
Result<QStringList> scopeDevices(const DeviceSnapshot &snapshot, ChangeScope scope, const QStringList &devices);
// Every assignment on every device; global (module) attributes only once.
ChangeSet makeChangeSet(const QStringList &devices, const QList<Assignment> &assignments);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::ChangeSet)
