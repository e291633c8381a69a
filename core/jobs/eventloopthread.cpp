#include "core/jobs/eventloopthread.h"

namespace dmtune {

EventLoopThread::EventLoopThread(const QString &name)
    : m_context(new QObject)
{
    m_thread.setObjectName(name);
    m_context->moveToThread(&m_thread);
    // Emitted on the thread as it ends; its deferred deletions run before it is gone.
    QObject::connect(&m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread.start();
}

EventLoopThread::~EventLoopThread()
{
    finish();
}

void EventLoopThread::post(std::function<void()> work)
{
    if (m_finished)
        return;
    QMetaObject::invokeMethod(m_context, std::move(work), Qt::QueuedConnection);
}

void EventLoopThread::finish()
{
    if (m_finished)
        return;
    // Queued behind the work posted so far: the loop stops once that has run.
    post([this] { m_thread.quit(); });
    m_finished = true;
    m_thread.wait();
}

} // namespace dmtune
