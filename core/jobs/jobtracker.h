#pragma once
// The one way background work runs in dmtune (after hotspot's src/jobtracker.h): a job has an id, a name, an
// owner (the tracker, a child or member of the object that started it), progress, cancellation and a typed
// result handed back on the owner's thread. When the owner goes away the tracker cancels what has not started
// and waits for what runs, so no job outlives the state it was started for and a hand-back never reaches a
// destroyed object. Work runs on the tracker's own threads; the caller's thread never waits for it.
//
// Hold the tracker as the LAST member of its owner (members are destroyed in reverse order, so the tracker
// joins its jobs before the members they might read go away) and let work capture values, not `this`.
#include <QHash>
#include <QMetaObject>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>

namespace dmtune {

using JobId = quint64;

// A job's shared state: written by the work (progress) and the owner (cancel), read by both.
class JobState {
public:
    JobState(JobId id, QString name)
        : m_id(id)
        , m_name(std::move(name))
    {
    }
    JobId id() const { return m_id; }
    const QString &name() const { return m_name; }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_acquire); }
    void cancel() { m_cancelled.store(true, std::memory_order_release); }

private:
    const JobId m_id;
    const QString m_name;
    std::atomic<bool> m_cancelled { false };
};

// What the work of a job sees: whether it was asked to stop, and a way to say how far it got. Work that has
// steps checks isCancelled() between them and returns a result that says where it stopped; a step that has
// begun is finished (a suspended map is always resumed).
class JobContext {
public:
    JobContext(std::shared_ptr<JobState> state, std::function<void(int, int, const QString &)> progress,
        std::function<void(std::function<void()>)> post)
        : m_state(std::move(state))
        , m_progress(std::move(progress))
        , m_post(std::move(post))
    {
    }
    JobId id() const { return m_state->id(); }
    bool isCancelled() const { return m_state->isCancelled(); }
    // `done` of `total` steps, the one starting now; delivered as JobTracker::progress on the owner's thread.
    void setProgress(int done, int total, const QString &step) const { m_progress(done, total, step); }
    // Runs `handBack` on the tracker's thread while the job still runs: for work that reports more than once
    // (a watcher's events). Dropped, like the final hand-back, once the tracker closes or the job is superseded;
    // delivered in the order posted, and before the job's final hand-back.
    void post(std::function<void()> handBack) const { m_post(std::move(handBack)); }

private:
    std::shared_ptr<JobState> m_state;
    std::function<void(int, int, const QString &)> m_progress;
    std::function<void(std::function<void()>)> m_post;
};

struct JobInfo {
    JobId id = 0;
    QString name;
    bool cancelRequested = false;
};

class JobTracker : public QObject {
    Q_OBJECT
public:
    enum class Order {
        Parallel, // jobs run side by side (scans, probes, reads)
        Serial, // one at a time, in the order started (operations on devices: "fail, then reinstate")
        // Every job gets a thread of its own at once, never queued: work that blocks until it is cancelled (an event
        // wait per map). Parallel caps its threads, so its ninth such job would never start.
        Blocking,
    };

    explicit JobTracker(QObject *owner, Order order = Order::Parallel);
    ~JobTracker() override; // cancels all, waits for running work; pending hand-backs are dropped

    // Runs `work(JobContext&) -> R` on the tracker's threads; `done(R)` runs afterwards on the tracker's thread,
    // unless the tracker is gone by then or the job was superseded (startLatest).
    template<typename Work, typename Done>
    JobId start(const QString &name, Work work, Done done)
    {
        return startJob(name, QString(), std::move(work), std::move(done));
    }
    // As start(), but a newer job with the same `key` supersedes an older one: the older one is cancelled and its
    // result dropped (a 1 Hz poll, a rescan after udev events: only the latest answer matters).
    template<typename Work, typename Done>
    JobId startLatest(const QString &key, const QString &name, Work work, Done done)
    {
        return startJob(name, key, std::move(work), std::move(done));
    }

    // Asks a job to stop: not started yet -> it never runs (no hand-back); running -> its work sees
    // isCancelled() and stops at the next step.
    void cancel(JobId id);
    void cancelAll();
    // Closes the tracker: blocks until every job has run (or was skipped); no hand-back is delivered after
    // this. For destructors (an owner that must join before its members go); never from a UI flow.
    void waitForDone();

    bool isRunning(JobId id) const;
    bool isIdle() const;
    QList<JobInfo> jobs() const; // not finished yet, oldest first

Q_SIGNALS:
    void started(dmtune::JobId id, const QString &name);
    void progress(dmtune::JobId id, int done, int total, const QString &step);
    void finished(dmtune::JobId id, bool cancelled);
    void idle(); // the last job finished

private:
    template<typename Work, typename Done>
    JobId startJob(const QString &name, const QString &key, Work work, Done done)
    {
        using R = std::invoke_result_t<Work &, JobContext &>;
        const std::shared_ptr<JobState> state = add(name, key);
        QPointer<JobTracker> self(this);
        auto onProgress = [self, id = state->id()](int n, int total, const QString &step) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, id, n, total, step] {
                    if (self)
                        Q_EMIT self->progress(id, n, total, step);
                },
                Qt::QueuedConnection);
        };
        auto onPost = [self, state, key](std::function<void()> handBack) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, state, key, handBack = std::move(handBack)] {
                    if (self && !self->m_closing && (key.isEmpty() || self->latest(key) == state->id()))
                        handBack();
                },
                Qt::QueuedConnection);
        };
        m_pool.start([self, state, key, onProgress, onPost, work = std::move(work), done = std::move(done)]() mutable {
            if (state->isCancelled()) {
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, state] {
                        if (self)
                            self->remove(state->id(), true);
                    },
                    Qt::QueuedConnection);
                return;
            }
            JobContext context(state, onProgress, onPost);
            auto result = std::make_shared<R>(work(context));
            // Queued to the tracker's thread; dropped when the tracker is gone (its destructor waited for this
            // work, so `self` is null there and nothing runs).
            QMetaObject::invokeMethod(
                self.data(),
                [self, state, key, result, done = std::move(done)]() mutable {
                    if (!self)
                        return;
                    const bool superseded = !key.isEmpty() && self->latest(key) != state->id();
                    const bool dropped = superseded || self->m_closing;
                    if (!dropped)
                        done(std::move(*result));
                    if (self)
                        self->remove(state->id(), state->isCancelled());
                },
                Qt::QueuedConnection);
        });
        Q_EMIT started(state->id(), name);
        return state->id();
    }

    std::shared_ptr<JobState> add(const QString &name, const QString &key);
    void remove(JobId id, bool cancelled);
    JobId latest(const QString &key) const;

    mutable QMutex m_mutex; // guards m_jobs, m_latest (cancel may come from work on another thread)
    QList<std::shared_ptr<JobState>> m_jobs;
    QHash<QString, JobId> m_latest;
    JobId m_nextId = 1;
    bool m_closing = false;
    QThreadPool m_pool;
};

} // namespace dmtune
