#pragma once
// Where the Latency tab's readings come from when this process does not load the probe itself: dmtune-helper
// through pkexec (helperlatencystream.h, a normal user here) or a remote host's agent (remote/remotelatencystream.h).
// Asynchronous, one request in flight at a time, so a tick never waits for the source.
#include "core/latency/latencystream.h"

#include <QObject>

namespace dmtune {

class LatencySource : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Asks for the cumulative reading of `devices` (a changed set is watched from then on, a new device from zero).
    // False, and nothing sent, while a request is unanswered or after failed().
    virtual bool request(const QList<BlockDeviceNumber> &devices) = 0;
    bool isWaiting() const { return m_waiting; }
    bool hasFailed() const { return m_failed; }
    // failed() said the source went away for a while (a lost connection), not that the probe cannot run there: a
    // new source may be asked for once it is back.
    bool mayRetry() const { return m_mayRetry; }

Q_SIGNALS:
    void readingAvailable(const dmtune::LatencyReading &reading);
    // One line; no reading comes after it.
    void failed(const QString &message);

protected:
    // For the implementations: the state the accessors report, and failed() once.
    void setWaiting(bool waiting) { m_waiting = waiting; }
    void fail(const QString &message, bool mayRetry = false)
    {
        if (m_failed)
            return;
        m_failed = true;
        m_waiting = false;
        m_mayRetry = mayRetry;
        Q_EMIT failed(message);
    }

private:
    bool m_waiting = false;
    bool m_failed = false;
    bool m_mayRetry = false;
};

} // namespace dmtune
