#pragma once
// Device-mapper events as they happen, handed back on the owner's thread: a path failed by the kernel, a message,
// a reload: mapEvent() at once, no polling of tables. All work runs on the watcher's own JobTracker:
// - where the kernel has DM_DEV_ARM_POLL (4.13+): ONE job for all maps, blocked in poll() on a control device of
//   its own (DeviceMapper::openEventPoll) and on a wake-up eventfd; on an event it re-arms, then reads every
//   watched map's event number (DM_DEV_STATUS) to see which changed;
// - elsewhere (older kernels, backends without a poll): one job per map blocked in DM_DEVICE_WAITEVENT
//   (DeviceMapper::waitEvent). Stopping one interrupts the ioctl with a real-time signal (EINTR, as dmeventd
//   does): the first watcher installs an empty handler, without SA_RESTART, for the first free SIGRTMIN+4...
//   A backend whose wait ignores signals (FakeDeviceMapper) needs a wait timeout to stop.
// No call here does device I/O on the caller's thread: watch() only hands the set of maps to the job.
#include "core/dm/backend/devicemapper.h"
#include "core/jobs/jobtracker.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

namespace dmtune {

class DmEventWatcher : public QObject {
    Q_OBJECT
public:
    enum class Mode {
        None, // nothing watched yet
        ArmPoll, // one job for every map (DM_DEV_ARM_POLL)
        WaitPerMap, // one job per map (DM_DEVICE_WAITEVENT)
    };
    Q_ENUM(Mode)

    // The jobs make their backends with the factory (HostContext::newDeviceMapper() on a real system): one for the poll
    // job, one per map in the fallback.
    explicit DmEventWatcher(std::function<std::shared_ptr<DeviceMapper>()> backendFactory, QObject *parent = nullptr);
    ~DmEventWatcher() override; // stops and joins its jobs (wakes the poll, interrupts the waits)

    // The set of maps to watch: maps no longer listed are dropped (no event for them is delivered after this
    // returns), new ones are added; ones that stopped by themselves (watchStopped) are tried again.
    void watch(const QStringList &maps);
    QStringList watchedMaps() const;
    Mode mode() const { return m_mode; }
    // Why the ArmPoll mode is not used (empty while it is, or before the first watch()).
    QString fallbackReason() const { return m_fallbackReason; }
    // The watcher's jobs: one in ArmPoll whatever the number of maps, one per map in WaitPerMap.
    const JobTracker &jobs() const { return m_jobs; }

Q_SIGNALS:
    // The first event number of a map was read: every event after it is reported. An owner that reads the map's
    // state on this signal misses nothing between watch() and the first event.
    void watchStarted(const QString &map, quint32 eventNr);
    void mapEvent(const QString &map, quint32 eventNr);
    // A map's watch gave up: the map went away, or device-mapper failed. watch() again to retry.
    void watchStopped(const QString &map, const QString &reason);

private:
    struct PollShared;
    struct Waiter;
    void startPollJob();
    void startWaitJob(const QString &map);
    void stopWaitJob(const QString &map);
    void interruptWaits(); // signals the threads of cancelled waits still inside their ioctl
    void deliverEvent(const QString &map, quint32 eventNr);
    void deliverStarted(const QString &map, quint32 eventNr);
    void deliverStopped(const QString &map, const QString &reason);

    std::function<std::shared_ptr<DeviceMapper>()> m_factory;
    QStringList m_wanted;
    Mode m_mode = Mode::None;
    QString m_fallbackReason;
    std::shared_ptr<PollShared> m_poll; // ArmPoll: the set handed to the job and its wake-up
    QHash<QString, std::shared_ptr<Waiter>> m_waiters; // WaitPerMap: a running job per map
    QList<std::shared_ptr<Waiter>> m_stopping; // cancelled waits not out of their ioctl yet
    QTimer m_interrupt; // re-sends the wake signal to m_stopping until they are out
    JobTracker m_jobs { this, JobTracker::Order::Blocking }; // last: joins before the members above go
};

} // namespace dmtune
