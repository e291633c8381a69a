#pragma once
// Owns the current DeviceSnapshot: scans in the background (a JobTracker, serial: one scan at a time), rescans on
// udev events. A newer rescan supersedes an older one: one queued behind it never runs, one running is dropped.
#include "core/discovery/devicesnapshot.h"
#include "core/jobs/jobtracker.h"
#include "core/sysfs/sysfsroot.h"

#include <QObject>
#include <QTimer>

namespace dmtune {

class UdevMonitor;

class Discovery : public QObject {
    Q_OBJECT
public:
    explicit Discovery(SysfsRoot sysfs = SysfsRoot(), QObject *parent = nullptr);
    ~Discovery() override; // waits for a scan that runs (its tracker joins)

    // One synchronous scan (CLI, tests): libudev on the live root, a directory walk otherwise.
    static DeviceSnapshot scan(const SysfsRoot &sysfs);

    // First scan in the background; on the live root also starts the udev monitor.
    void start();
    // Rescan in the background; a newer request supersedes an older one.
    void refresh();

    const DeviceSnapshot &snapshot() const { return m_snapshot; }
    bool hasSnapshot() const { return m_hasSnapshot; }
    const SysfsRoot &sysfs() const { return m_sysfs; }
    // "udev", "kernel" or empty when no monitor runs (captured tree, or it failed: see monitorError).
    QString monitorSource() const;
    QString monitorError() const { return m_monitorError; }
    // The scans (for a "scanning" indicator: started/idle); owned by this object.
    const JobTracker &jobs() const { return m_jobs; }

Q_SIGNALS:
    void snapshotChanged(const dmtune::DeviceSnapshot &snapshot);
    void devicesAdded(const QStringList &names);
    void devicesRemoved(const QStringList &names);
    // Raw event, before the rescan it triggers.
    void blockEvent(const QString &action, const QString &sysname);

private:
    void onScanned(const DeviceSnapshot &snapshot);

    SysfsRoot m_sysfs;
    DeviceSnapshot m_snapshot;
    bool m_hasSnapshot = false;
    QTimer m_debounce;
    UdevMonitor *m_monitor = nullptr;
    QString m_monitorError;
    JobTracker m_jobs { this, JobTracker::Order::Serial }; // last: joins before the members above go
};

} // namespace dmtune
