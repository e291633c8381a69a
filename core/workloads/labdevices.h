#pragma once
// The lab devices of this process (labloop.h: a loop device with direct I/O over a sparse file, mq-deadline,
// the ownership rule), safe to use from any thread: the lab.create and lab.remove operations
// (ops/laboperations.h) run on a job's thread while the window that owns this object lives on the UI thread.
// One mutex, held across each device call: a find() waits while a create() or remove() runs. What it made it
// removes when destroyed (the app's exit).
#include "core/util/result.h"

#include <QList>
#include <QMutex>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace dmtune {

class LabLoop;

// One lab device as a value, for plans, results and shells.
struct LabDeviceInfo {
    QString name; // "loop3"
    QString backingFile; // <dir>/lab.img
    QString directory; // <base>/dmtune-lab-XXXXXX
    qint64 bytes = 0;
    quint64 fileDevice = 0, fileInode = 0; // the backing file we made (what LOOP_GET_STATUS64 must report)
    bool directIo = false; // loop/dio right after the attach
    QString schedulerBefore; // the loop device's scheduler before ours
    QString schedulerToRestore; // what removal writes back; empty when nothing was changed
    QString devicePath() const { return name.isEmpty() ? QString() : QStringLiteral("/dev/") + name; }
};

class LabDevices {
public:
    static QString defaultBaseDirectory() { return QStringLiteral("/var/tmp"); } // disk-backed, so O_DIRECT works

    LabDevices();
    ~LabDevices(); // removes every device it made (only the ones still provably ours are detached)
    LabDevices(const LabDevices &) = delete;
    LabDevices &operator=(const LabDevices &) = delete;

    // Whether create() can work here (root, /dev/loop-control); why not otherwise.
    static bool canCreate(QString *why = nullptr);

    // A new lab device of `bytes` (at least 1 MiB) in a new directory under baseDir (empty: the default); a crashed
    // dmtune's stale ones in baseDir go first (LabLoop::removeStale).
    Result<LabDeviceInfo> create(qint64 bytes, const QString &baseDir = {});
    // Detaches `name` when it is one of ours and still backed by our file, restores its scheduler, deletes our
    // files; a device re-attached by someone else is left attached and forgotten (the error says so). Fails for a
    // name that is not ours.
    Status remove(const QString &name);
    QList<LabDeviceInfo> list() const;
    std::optional<LabDeviceInfo> find(const QString &name) const;

private:
    LabLoop *findLocked(const QString &name) const;

    mutable QMutex m_mutex;
    std::vector<std::unique_ptr<LabLoop>> m_loops;
};

} // namespace dmtune
