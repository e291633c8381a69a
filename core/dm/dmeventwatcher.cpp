#include "dmeventwatcher.h"

#include <QThread>

#include <atomic>
#include <csignal>
#include <mutex>
#include <pthread.h>
#include <thread>

namespace dmtune {

namespace {
// DM_DEVICE_WAITEVENT sleeps interruptibly in the kernel: a signal whose handler is installed
// without SA_RESTART makes the ioctl return EINTR, which is how dmeventd stops its waiting
// threads too. A real-time signal nobody else in the process uses, with an empty handler.
int wakeSignal()
{
    static int signal = 0;
    static std::once_flag once;
    std::call_once(once, [] {
        for (int candidate = SIGRTMIN + 4; candidate <= SIGRTMAX; ++candidate) {
            struct sigaction current { };
            if (sigaction(candidate, nullptr, &current) != 0 || current.sa_handler != SIG_DFL)
                continue; // someone else's
            struct sigaction action { };
            action.sa_handler = [](int) {};
            sigemptyset(&action.sa_mask);
            action.sa_flags = 0; // no SA_RESTART: the blocked ioctl must return
            if (sigaction(candidate, &action, nullptr) == 0) {
                signal = candidate;
                return;
            }
        }
    });
    return signal;
}
} // namespace

struct DmEventWatcher::Worker {
    QString map;
    std::unique_ptr<DeviceMapper> backend;
    std::atomic<bool> stop { false };
    std::atomic<bool> done { false };
    std::thread thread;
};

DmEventWatcher::DmEventWatcher(std::function<std::unique_ptr<DeviceMapper>()> backendFactory, QObject *parent)
    : QObject(parent)
    , m_factory(std::move(backendFactory))
{
    wakeSignal();
}

DmEventWatcher::~DmEventWatcher()
{
    const QStringList maps = m_workers.keys();
    for (const QString &map : maps)
        stopWorker(map);
}

QStringList DmEventWatcher::watchedMaps() const
{
    QStringList maps = m_workers.keys();
    maps.sort();
    return maps;
}

void DmEventWatcher::watch(const QStringList &maps)
{
    const QStringList current = m_workers.keys();
    for (const QString &map : current) {
        if (!maps.contains(map))
            stopWorker(map);
    }
    for (const QString &map : maps) {
        // A worker that gave up (its map went away) is replaced: the map may be back.
        if (const auto it = m_workers.constFind(map); it != m_workers.constEnd() && it.value()->done.load())
            stopWorker(map);
        if (m_workers.contains(map))
            continue;
        auto worker = std::make_shared<Worker>();
        worker->map = map;
        worker->backend = m_factory();
        if (!worker->backend) {
            Q_EMIT watchStopped(map, QStringLiteral("%1: no device-mapper backend").arg(map));
            continue;
        }
        // The first event number is read here, not in the worker: every event after watch()
        // returns is reported (one quick DM_DEV_STATUS ioctl on the caller's thread).
        const auto first = worker->backend->info(map);
        if (!first || !first->exists) {
            const QString reason = first ? QStringLiteral("%1: no such map").arg(map) : first.errorMessage();
            QMetaObject::invokeMethod(
                this, [this, map, reason] { Q_EMIT watchStopped(map, reason); }, Qt::QueuedConnection);
            continue;
        }
        Worker *w = worker.get();
        w->thread = std::thread([this, w, eventNr = first->eventNr]() mutable {
            QString reason;
            int failures = 0;
            const auto report = [this, w](quint32 nr) {
                const QString map = w->map;
                QMetaObject::invokeMethod(
                    this, [this, map, nr] { Q_EMIT mapEvent(map, nr); }, Qt::QueuedConnection);
            };
            while (!w->stop.load()) {
                const auto next = w->backend->waitEvent(w->map, eventNr);
                if (w->stop.load())
                    break;
                if (next) {
                    failures = 0;
                    if (next.value() != eventNr)
                        report(eventNr = next.value());
                    continue;
                }
                // A stray signal (EINTR) or a test backend's timeout: look again; give up when
                // the map is gone or device-mapper keeps failing.
                const auto info = w->backend->info(w->map);
                if (info && !info->exists) {
                    reason = QStringLiteral("%1: the map went away").arg(w->map);
                    break;
                }
                if (!info) {
                    if (++failures >= 5) {
                        reason = info.errorMessage();
                        break;
                    }
                    QThread::msleep(100);
                    continue;
                }
                if (info->eventNr != eventNr)
                    report(eventNr = info->eventNr);
            }
            if (!w->stop.load() && !reason.isEmpty()) {
                const QString map = w->map;
                QMetaObject::invokeMethod(
                    this, [this, map, reason] { Q_EMIT watchStopped(map, reason); }, Qt::QueuedConnection);
            }
            w->done.store(true);
        });
        m_workers.insert(map, worker);
    }
}

void DmEventWatcher::stopWorker(const QString &map)
{
    const std::shared_ptr<Worker> worker = m_workers.take(map);
    if (!worker)
        return;
    worker->stop.store(true);
    // The signal may arrive just before the thread enters the ioctl: repeat until it is out.
    const int signal = wakeSignal();
    while (!worker->done.load()) {
        if (signal)
            pthread_kill(worker->thread.native_handle(), signal);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    worker->thread.join();
}

} // namespace dmtune
