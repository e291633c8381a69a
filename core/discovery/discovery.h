#pragma once
// Owns the current DeviceSnapshot: scans in the background, rescans on udev events.
#include "discovery/devicesnapshot.h"
#include "sysfs/sysfsroot.h"

#include <QObject>
#include <QThreadPool>
#include <QTimer>

namespace dmtune {

class UdevMonitor;

class Discovery : public QObject
{
    Q_OBJECT
public:
    explicit Discovery(SysfsRoot sysfs = SysfsRoot(), QObject *parent = nullptr);
    ~Discovery() override;

    // One synchronous scan (CLI, tests): libudev on the live root, a directory walk otherwise.
    static DeviceSnapshot scan(const SysfsRoot &sysfs);

    // First scan in the background; on the live root also starts the udev monitor.
    void start();
    // Rescan in the background; a newer request supersedes an older one.
    void refresh();

    const DeviceSnapshot &snapshot() const { return m_snapshot; }
    bool hasSnapshot() const { return m_generationShown > 0; }
    const SysfsRoot &sysfs() const { return m_sysfs; }
    // "udev", "kernel" or empty when no monitor runs (captured tree, or it failed: see monitorError).
    QString monitorSource() const;
    QString monitorError() const { return m_monitorError; }

Q_SIGNALS:
    void snapshotChanged(const dmtune::DeviceSnapshot &snapshot);
    void devicesAdded(const QStringList &names);
    void devicesRemoved(const QStringList &names);
    // Raw event, before the rescan it triggers.
    void blockEvent(const QString &action, const QString &sysname);

private:
    void onScanned(quint64 generation, const DeviceSnapshot &snapshot);

    SysfsRoot m_sysfs;
    DeviceSnapshot m_snapshot;
    QThreadPool m_pool;
    QTimer m_debounce;
    UdevMonitor *m_monitor = nullptr;
    QString m_monitorError;
    quint64 m_generationRequested = 0;
    quint64 m_generationShown = 0;
};

} // namespace dmtune
