#pragma once
// A thread with its own event loop, owned by the core object that made it (an OperationService's run handle): for
// event-driven work that must not run on the owner's thread and cannot be a job, because it needs an event loop
// for minutes (a sweep: its settle timer, the sampler's ticks, fio's QProcess) and does device I/O between events.
// Objects made by posted work live on the thread; the owner talks to them only by posting work.
// finish() (and the destructor) runs everything posted before it, then stops the loop and joins.
#include <QObject>
#include <QThread>

#include <functional>

namespace dmtune {

class EventLoopThread {
public:
    explicit EventLoopThread(const QString &name);
    ~EventLoopThread();
    EventLoopThread(const EventLoopThread &) = delete;
    EventLoopThread &operator=(const EventLoopThread &) = delete;

    // Runs `work` on the thread, after what was posted before; dropped once finish() was called.
    void post(std::function<void()> work);
    // Blocks until what was posted has run and the thread has ended. For a destructor, never a UI flow.
    void finish();

private:
    QThread m_thread;
    QObject *m_context; // lives on m_thread: posted work is queued to it; deleted there when the thread ends
    bool m_finished = false;
};

} // namespace dmtune
