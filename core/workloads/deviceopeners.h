#pragma once
// Which processes have a block device open, from /proc/<pid>/fd: what an O_EXCL probe cannot see (fio, a
// database on a raw device or a VM's disk open it without O_EXCL, read-write). Reads only; a job's work.
#include <QList>
#include <QSet>
#include <QString>

#include <sys/types.h>

namespace dmtune {

struct DeviceOpener {
    qint64 pid = 0;
    QString command; // /proc/<pid>/comm ("fio"): chosen by the process itself, so only ever shown, escaped
    dev_t rdev = 0; // the device its descriptor is on
};

// Every process with a descriptor on the block device `rdev`, by pid; procRoot is /proc (or a test's tree).
// Processes that go away while they are looked at, or whose descriptors cannot be read, are left out.
QList<DeviceOpener> deviceOpeners(const QString &procRoot, dev_t rdev);
// The same over several devices in one pass (a disk and its partitions): one entry per process and device.
QList<DeviceOpener> deviceOpeners(const QString &procRoot, const QList<dev_t> &rdevs);
// "fio (pid 812), dmtune (pid 77)"
QString openersText(const QList<DeviceOpener> &openers);

// The pids that are dmtune itself for a look taken by process `self`: self, and those of its ancestors and
// descendants whose executable (the kernel's /proc/<pid>/exe, not comm) is one of dmtune's programs (dmtune,
// dmtunectl, which is also the agent, dmtune-helper, dmtune-report). See the .cpp for why not by name alone.
QSet<qint64> ownProcesses(const QString &procRoot, qint64 self);

} // namespace dmtune
