#pragma once
// The GUI's end of dmtune-helper's latency stream (latencystream.h): asynchronous, one request in flight at a time,
// so a tick never waits for the helper (nor for pkexec's authorization dialog).
#include "latency/latencystream.h"

#include <QObject>
#include <QProcess>

namespace dmtune {

class HelperLatencyStream : public QObject {
    Q_OBJECT
public:
    explicit HelperLatencyStream(HelperLatencyProbe::Command command, QObject *parent = nullptr);
    // Ends the helper (the kernel detaches its probe).
    ~HelperLatencyStream() override;

    // Asks for a reading of `devices`: the first call starts the helper, a changed set is a watch line. False (and
    // nothing sent) while a request is still unanswered or after failed().
    bool request(const QList<BlockDeviceNumber> &devices);
    bool isWaiting() const { return m_waiting; }
    bool hasFailed() const { return m_failed; }

Q_SIGNALS:
    void readingAvailable(const dmtune::LatencyReading &reading);
    // One line (pkexec refused, the probe cannot load there, the helper ended); no reading comes after it.
    void failed(const QString &message);

private:
    void onReadyRead();
    void fail(const QString &message);

    HelperLatencyProbe::Command m_command;
    QProcess m_process;
    QList<BlockDeviceNumber> m_devices;
    bool m_started = false;
    bool m_waiting = false;
    bool m_failed = false;
};

} // namespace dmtune
