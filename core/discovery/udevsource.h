#pragma once
// libudev at the edge: enumeration of subsystem "block" and a monitor of its events.
#include "discovery/snapshotbuilder.h"

#include <QObject>

struct udev;
struct udev_monitor;
class QSocketNotifier;

namespace dmtune {

// Disks (DEVTYPE disk) of subsystem block, with udev database properties when udevd has them.
Result<QList<UdevRecord>> enumerateWithUdev();

// Whether udevd runs (its control socket exists); without it events come from the kernel.
bool udevDaemonRunning();

class UdevMonitor : public QObject {
    Q_OBJECT
public:
    explicit UdevMonitor(QObject *parent = nullptr);
    ~UdevMonitor() override;

    // Listens to udevd's events when it runs, else to the kernel's uevents.
    Status start();
    bool isRunning() const { return m_monitor != nullptr; }
    QString source() const { return m_source; }

Q_SIGNALS:
    // action: add, remove, change, move, online, offline; devtype: disk or partition.
    void blockEvent(const QString &action, const QString &sysname, const QString &devtype);

private:
    void readEvents();

    struct udev *m_udev = nullptr;
    struct udev_monitor *m_monitor = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QString m_source;
};

} // namespace dmtune
