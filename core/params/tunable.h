#pragma once
// One tunable of one device as an editor shows it: current value, pending value, writable, range.
// Plain value; a Qt model keeps a QList<Tunable> per device.
#include "core/params/changeset.h"
#include "core/params/devicecontext.h"

#include <QList>
#include <QMetaType>

namespace dmtune {

struct Tunable {
    QString device;
    QString attribute; // catalog key ("queue/nr_requests"), or the raw path below the device
    QString path; // relative to the sysfs root
    TunableType type = TunableType::String;
    QString unit;
    QString description;
    bool known = false; // in the catalog; unknown attributes are raw and read-only
    bool readable = false;
    QString value; // normalized (scheduler: the current one's name)
    QString rawValue; // the text as read (trimmed), or why it could not be read
    QString pending; // an edit not applied yet; null when none
    bool writable = false; // catalog allows it, not ignored, and the file mode has the write bit
    bool ignored = false; // the kernel accepts it but does nothing
    QString note; // why it is ignored, or what the kernel does at the edges
    ValueLimits limits;
    QStringList choiceNotes;

    bool hasPending() const { return !pending.isNull(); }
    QString limitsText() const;
    // The check the planner will make: the text to write, or why not.
    Result<QString> check(const QString &input) const;
    // Whether the current value is one a write may set (within the limits, on the grid): what a preset may store to
    // write back elsewhere. The kernel reports some it refuses (discard_max_bytes 0xfffffe00 off the granularity).
    bool kernelTakesBack() const;
};

// Every tunable the device has: catalog entries that apply and exist, then the unknown files of
// queue/, queue/iosched/ and dm/ (raw, read-only). Catalog order, unknown ones sorted.
QList<Tunable> readTunables(const SysfsRoot &sysfs, const QString &device);
// One attribute (catalog key, or an unknown one under the device).
Result<Tunable> readTunable(const SysfsRoot &sysfs, const QString &device, const QString &attribute);

// The edits of an editor's rows as a change set (rows with a pending value that differs).
ChangeSet pendingChanges(const QList<Tunable> &tunables);

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::Tunable)
