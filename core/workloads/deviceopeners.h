#pragma once
// Which processes have a block device open, from /proc/<pid>/fd: what an O_EXCL probe cannot see (fio opens
// its target without O_EXCL, so a running read workload never claims the device). Reads only; a job's work.
#include <QList>
#include <QString>

#include <sys/types.h>

namespace dmtune {

struct DeviceOpener {
    qint64 pid = 0;
    QString command; // /proc/<pid>/comm ("fio")
};

// Every process with a descriptor on the block device `rdev`, by pid; procRoot is /proc (or a test's tree).
// Processes that go away while they are looked at, or whose descriptors cannot be read, are left out.
QList<DeviceOpener> deviceOpeners(const QString &procRoot, dev_t rdev);
// "fio (pid 812), dmtune (pid 77)"
QString openersText(const QList<DeviceOpener> &openers);

} // namespace dmtune
