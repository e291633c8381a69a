#pragma once
// Device-mapper events as they happen: one worker thread per watched map blocks in
// DM_DEVICE_WAITEVENT (DeviceMapper::waitEvent) and hands each new event number back to the
// owner's thread. A path failed by the kernel, a message, a reload: mapEvent() at once, no polling.
// Stopping interrupts the blocked ioctl with a real-time signal (EINTR, as dmeventd does): the
// first watcher installs an empty handler, without SA_RESTART, for the first free SIGRTMIN+4...
// A backend whose wait ignores signals (FakeDeviceMapper) needs a wait timeout to stop.
#include "dm/devicemapper.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace dmtune {

class DmEventWatcher : public QObject {
    Q_OBJECT
public:
    // Each worker gets its own backend from the factory (LibDevmapperBackend on a real system).
    explicit DmEventWatcher(std::function<std::unique_ptr<DeviceMapper>()> backendFactory, QObject *parent = nullptr);
    ~DmEventWatcher() override; // stops its threads cleanly (interrupts their waits)

    // The set of maps to watch: workers for maps no longer listed stop, new ones start (and
    // ones that stopped by themselves start again).
    void watch(const QStringList &maps);
    QStringList watchedMaps() const;

Q_SIGNALS:
    void mapEvent(const QString &map, quint32 eventNr);
    // A worker gave up: the map went away, or device-mapper failed. watch() again to retry.
    void watchStopped(const QString &map, const QString &reason);

private:
    struct Worker;
    void stopWorker(const QString &map);

    std::function<std::unique_ptr<DeviceMapper>()> m_factory;
    QHash<QString, std::shared_ptr<Worker>> m_workers;
};

} // namespace dmtune
