#include "core/jobs/jobtracker.h"

namespace dmtune {

JobTracker::JobTracker(QObject *owner, Order order)
    : QObject(owner)
{
    // Parallel jobs may block for seconds in the kernel (a suspended map, a busy multipathd): enough threads
    // that one stuck read does not hold up the others.
    m_pool.setMaxThreadCount(order == Order::Serial ? 1 : order == Order::Parallel ? 8 : 4096);
}

JobTracker::~JobTracker()
{
    cancelAll();
    waitForDone();
}

std::shared_ptr<JobState> JobTracker::add(const QString &name, const QString &key)
{
    QMutexLocker lock(&m_mutex);
    auto state = std::make_shared<JobState>(m_nextId++, name);
    if (!key.isEmpty()) {
        const JobId older = m_latest.value(key);
        for (const auto &job : std::as_const(m_jobs)) {
            if (job->id() == older)
                job->cancel();
        }
        m_latest.insert(key, state->id());
    }
    m_jobs.append(state);
    return state;
}

void JobTracker::remove(JobId id, bool cancelled)
{
    bool nowIdle = false;
    {
        QMutexLocker lock(&m_mutex);
        m_jobs.removeIf([id](const auto &job) { return job->id() == id; });
        nowIdle = m_jobs.isEmpty();
    }
    Q_EMIT finished(id, cancelled);
    if (nowIdle)
        Q_EMIT idle();
}

JobId JobTracker::latest(const QString &key) const
{
    QMutexLocker lock(&m_mutex);
    return m_latest.value(key);
}

void JobTracker::cancel(JobId id)
{
    QMutexLocker lock(&m_mutex);
    for (const auto &job : std::as_const(m_jobs)) {
        if (job->id() == id)
            job->cancel();
    }
}

void JobTracker::cancelAll()
{
    QMutexLocker lock(&m_mutex);
    for (const auto &job : std::as_const(m_jobs))
        job->cancel();
}

void JobTracker::waitForDone()
{
    m_closing = true;
    m_pool.waitForDone();
}

bool JobTracker::isRunning(JobId id) const
{
    QMutexLocker lock(&m_mutex);
    return std::any_of(m_jobs.cbegin(), m_jobs.cend(), [id](const auto &job) { return job->id() == id; });
}

bool JobTracker::isIdle() const
{
    QMutexLocker lock(&m_mutex);
    return m_jobs.isEmpty();
}

QList<JobInfo> JobTracker::jobs() const
{
    QMutexLocker lock(&m_mutex);
    QList<JobInfo> out;
    for (const auto &job : m_jobs)
        out.append({ job->id(), job->name(), job->isCancelled() });
    return out;
}

} // namespace dmtune
