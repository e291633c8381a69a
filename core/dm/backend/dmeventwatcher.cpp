#include "core/dm/backend/dmeventwatcher.h"

#include <QMutex>
#include <QMutexLocker>
#include <QSet>
#include <QThread>

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iterator>
#include <mutex>

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

QString wentAway(const QString &map)
{
    return QStringLiteral("%1: the map went away").arg(map);
}

// How the poll job ended: `unsupported` sends the watcher to one wait per map.
struct PollEnd {
    bool unsupported = false;
    QString reason;
};

// Reads that fail this many times in a row give a map up (device-mapper keeps failing).
constexpr int maxFailures = 5;
} // namespace

// The set of maps the poll job watches, and its wake-up (an eventfd it polls beside the control device).
struct DmEventWatcher::PollShared {
    PollShared()
        : wakeFd(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC))
    {
    }
    ~PollShared()
    {
        if (wakeFd >= 0)
            ::close(wakeFd);
    }
    PollShared(const PollShared &) = delete;
    PollShared &operator=(const PollShared &) = delete;
    void wake() const { eventfd_write(wakeFd, 1); }

    QMutex mutex;
    QStringList wanted; // guarded by mutex
    quint64 generation = 0; // guarded by mutex; each watch() bumps it: maps that stopped are tried again
    const int wakeFd;
    JobId job = 0; // owner's thread only
};

// One map's DM_DEVICE_WAITEVENT job (fallback). `thread` is valid while `inWork`: the owner signals it there only.
struct DmEventWatcher::Waiter {
    QString map;
    JobId job = 0;
    QMutex mutex;
    bool inWork = false;
    pthread_t thread {};
    std::atomic<bool> ended { false };
};

DmEventWatcher::DmEventWatcher(std::function<std::shared_ptr<DeviceMapper>()> backendFactory, QObject *parent)
    : QObject(parent)
    , m_factory(std::move(backendFactory))
{
    m_interrupt.setInterval(10);
    connect(&m_interrupt, &QTimer::timeout, this, &DmEventWatcher::interruptWaits);
}

DmEventWatcher::~DmEventWatcher()
{
    m_jobs.cancelAll();
    if (m_poll)
        m_poll->wake();
    for (const auto &waiter : std::as_const(m_waiters))
        m_stopping.append(waiter);
    m_waiters.clear();
    // The signal may arrive just before a wait enters its ioctl: repeat until every one is out. Then the tracker
    // (the last member) joins them.
    for (interruptWaits(); !m_stopping.isEmpty(); interruptWaits())
        QThread::msleep(5);
}

QStringList DmEventWatcher::watchedMaps() const
{
    QStringList maps = m_wanted;
    maps.sort();
    return maps;
}

void DmEventWatcher::watch(const QStringList &maps)
{
    m_wanted = maps;
    m_wanted.removeDuplicates();
    if (m_mode == Mode::None)
        m_mode = Mode::ArmPoll;
    if (m_mode == Mode::ArmPoll) {
        if (!m_poll)
            m_poll = std::make_shared<PollShared>();
        {
            QMutexLocker lock(&m_poll->mutex);
            m_poll->wanted = m_wanted;
            ++m_poll->generation;
        }
        m_poll->wake();
        if (!m_poll->job && !m_wanted.isEmpty())
            startPollJob();
        return;
    }
    QStringList stop;
    for (auto it = m_waiters.cbegin(); it != m_waiters.cend(); ++it) {
        // A wait that gave up (its map went away) is replaced: the map may be back.
        if (!m_wanted.contains(it.key()) || it.value()->ended.load())
            stop.append(it.key());
    }
    for (const QString &map : std::as_const(stop))
        stopWaitJob(map);
    for (const QString &map : std::as_const(m_wanted)) {
        if (!m_waiters.contains(map))
            startWaitJob(map);
    }
}

void DmEventWatcher::deliverEvent(const QString &map, quint32 eventNr)
{
    if (m_wanted.contains(map)) // dropped from the set while the job read it
        Q_EMIT mapEvent(map, eventNr);
}

void DmEventWatcher::deliverStarted(const QString &map, quint32 eventNr)
{
    if (m_wanted.contains(map))
        Q_EMIT watchStarted(map, eventNr);
}

void DmEventWatcher::deliverStopped(const QString &map, const QString &reason)
{
    if (m_wanted.contains(map))
        Q_EMIT watchStopped(map, reason);
}

// The one job of ArmPoll: (first event numbers of new maps) -> poll -> arm -> read every map's event number.
// Its posts run on the owner's thread while the tracker (a member) is open, so they may use `watcher`.
void DmEventWatcher::startPollJob()
{
    DmEventWatcher *watcher = this;
    m_poll->job = m_jobs.start(
        QStringLiteral("device-mapper events"),
        [factory = m_factory, shared = m_poll, watcher](JobContext &job) {
            const auto stopped = [&job, watcher](const QString &map, const QString &reason) {
                job.post([watcher, map, reason] { watcher->deliverStopped(map, reason); });
            };
            const std::shared_ptr<DeviceMapper> backend = factory ? factory() : nullptr;
            if (!backend) {
                const QString reason = QStringLiteral("no device-mapper backend");
                QMutexLocker lock(&shared->mutex);
                for (const QString &map : std::as_const(shared->wanted))
                    stopped(map, QStringLiteral("%1: %2").arg(map, reason));
                return PollEnd { false, reason };
            }
            auto opened = backend->openEventPoll();
            if (!opened)
                return PollEnd { true, opened.errorMessage() };
            const std::shared_ptr<DmEventPoll> events = opened.value();

            struct Watched {
                quint32 eventNr = 0;
                int failures = 0;
            };
            QHash<QString, Watched> watched;
            QSet<QString> gaveUp; // until the next watch()
            quint64 seenGeneration = 0;
            bool rereadFailing = false;
            while (!job.isCancelled()) {
                QStringList wanted;
                {
                    QMutexLocker lock(&shared->mutex);
                    wanted = shared->wanted;
                    if (shared->generation != seenGeneration) {
                        seenGeneration = shared->generation;
                        gaveUp.clear();
                    }
                }
                for (auto it = watched.begin(); it != watched.end();)
                    it = wanted.contains(it.key()) ? std::next(it) : watched.erase(it);
                // The first event number of a new map; an event after it makes the control device readable (the
                // last arm came before this read).
                for (const QString &map : std::as_const(wanted)) {
                    if (watched.contains(map) || gaveUp.contains(map))
                        continue;
                    const auto info = backend->info(map);
                    if (!info || !info->exists) {
                        stopped(map, info ? QStringLiteral("%1: no such map").arg(map) : info.errorMessage());
                        gaveUp.insert(map);
                        continue;
                    }
                    watched.insert(map, { info->eventNr, 0 });
                    job.post([watcher, map, nr = info->eventNr] { watcher->deliverStarted(map, nr); });
                }

                pollfd fds[2] = { { events->fd(), POLLIN, 0 }, { shared->wakeFd, POLLIN, 0 } };
                // A map whose read failed is read again soon, event or not.
                const int ready = ::poll(fds, 2, rereadFailing ? 100 : -1);
                if (ready < 0 && errno == EINTR)
                    continue;
                if (ready < 0 || (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL))) {
                    const QString reason = QStringLiteral("device-mapper event poll failed: %1")
                                               .arg(QString::fromLocal8Bit(std::strerror(ready < 0 ? errno : EIO)));
                    for (auto it = watched.cbegin(); it != watched.cend(); ++it)
                        stopped(it.key(), QStringLiteral("%1: %2").arg(it.key(), reason));
                    return PollEnd { false, reason };
                }
                if (fds[1].revents & POLLIN) {
                    eventfd_t drained = 0;
                    eventfd_read(shared->wakeFd, &drained);
                }
                const bool event = fds[0].revents & POLLIN;
                if (!event && !(ready == 0 && rereadFailing))
                    continue; // woken by watch() or the destructor: look at the set (or the cancel) again
                // Arm first, then read: an event that lands after the read polls readable next time.
                if (event) {
                    if (const Status armed = events->arm(); !armed) {
                        for (auto it = watched.cbegin(); it != watched.cend(); ++it)
                            stopped(it.key(), QStringLiteral("%1: %2").arg(it.key(), armed.errorMessage()));
                        return PollEnd { false, armed.errorMessage() };
                    }
                }
                rereadFailing = false;
                for (auto it = watched.begin(); it != watched.end();) {
                    const QString map = it.key();
                    const auto info = backend->info(map);
                    if (info && !info->exists) {
                        stopped(map, wentAway(map));
                        gaveUp.insert(map);
                        it = watched.erase(it);
                        continue;
                    }
                    if (!info) {
                        if (++it->failures >= maxFailures) {
                            stopped(map, info.errorMessage());
                            gaveUp.insert(map);
                            it = watched.erase(it);
                            continue;
                        }
                        rereadFailing = true;
                        ++it;
                        continue;
                    }
                    it->failures = 0;
                    if (info->eventNr != it->eventNr) {
                        it->eventNr = info->eventNr;
                        job.post([watcher, map, nr = info->eventNr] { watcher->deliverEvent(map, nr); });
                    }
                    ++it;
                }
            }
            return PollEnd {};
        },
        [this](const PollEnd &end) {
            m_poll->job = 0;
            if (!end.unsupported) {
                // It failed for good; the next watch() starts it again.
                return;
            }
            m_mode = Mode::WaitPerMap;
            m_fallbackReason = end.reason;
            m_poll.reset();
            for (const QString &map : std::as_const(m_wanted))
                startWaitJob(map);
        });
}

// The fallback: one job per map, blocked in DM_DEVICE_WAITEVENT. Its posts run on the owner's thread while the
// tracker is open.
void DmEventWatcher::startWaitJob(const QString &map)
{
    wakeSignal();
    auto waiter = std::make_shared<Waiter>();
    waiter->map = map;
    DmEventWatcher *watcher = this;
    waiter->job = m_jobs.start(
        QStringLiteral("device-mapper events of %1").arg(map),
        [factory = m_factory, waiter, watcher, map](JobContext &job) {
            {
                QMutexLocker lock(&waiter->mutex);
                waiter->thread = pthread_self();
                waiter->inWork = true;
            }
            const auto stop = [&](const QString &reason) {
                if (!reason.isEmpty() && !job.isCancelled())
                    job.post([watcher, map, reason] { watcher->deliverStopped(map, reason); });
                QMutexLocker lock(&waiter->mutex);
                waiter->inWork = false;
                waiter->ended.store(true);
                return 0;
            };
            const std::shared_ptr<DeviceMapper> backend = factory ? factory() : nullptr;
            if (!backend)
                return stop(QStringLiteral("%1: no device-mapper backend").arg(map));
            const auto first = backend->info(map);
            if (!first || !first->exists)
                return stop(first ? QStringLiteral("%1: no such map").arg(map) : first.errorMessage());
            quint32 eventNr = first->eventNr;
            job.post([watcher, map, eventNr] { watcher->deliverStarted(map, eventNr); });
            const auto report = [&](quint32 nr) {
                eventNr = nr;
                job.post([watcher, map, nr] { watcher->deliverEvent(map, nr); });
            };
            int failures = 0;
            while (!job.isCancelled()) {
                const auto next = backend->waitEvent(map, eventNr);
                if (job.isCancelled())
                    break;
                if (next) {
                    failures = 0;
                    if (next.value() != eventNr)
                        report(next.value());
                    continue;
                }
                // A stray signal (EINTR) or a test backend's timeout: look again; give up when the map is gone or
                // device-mapper keeps failing.
                const auto info = backend->info(map);
                if (info && !info->exists)
                    return stop(wentAway(map));
                if (!info) {
                    if (++failures >= maxFailures)
                        return stop(info.errorMessage());
                    QThread::msleep(100);
                    continue;
                }
                if (info->eventNr != eventNr)
                    report(info->eventNr);
            }
            return stop({});
        },
        [this, waiter](int) {
            if (m_waiters.value(waiter->map) == waiter)
                m_waiters.remove(waiter->map);
        });
    m_waiters.insert(map, waiter);
}

void DmEventWatcher::stopWaitJob(const QString &map)
{
    const std::shared_ptr<Waiter> waiter = m_waiters.take(map);
    if (!waiter)
        return;
    m_jobs.cancel(waiter->job);
    m_stopping.append(waiter);
    interruptWaits();
    if (!m_stopping.isEmpty())
        m_interrupt.start();
}

void DmEventWatcher::interruptWaits()
{
    const int signal = wakeSignal();
    m_stopping.removeIf([signal](const std::shared_ptr<Waiter> &waiter) {
        QMutexLocker lock(&waiter->mutex);
        if (!waiter->inWork)
            return true;
        if (signal)
            pthread_kill(waiter->thread, signal);
        return false;
    });
    if (m_stopping.isEmpty())
        m_interrupt.stop();
}

} // namespace dmtune
