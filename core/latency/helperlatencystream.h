#pragma once
// The GUI's end of dmtune-helper's latency stream (latencystream.h): a LatencySource, so a tick never waits for the
// helper (nor for pkexec's authorization dialog).
#include "core/latency/latencysource.h"

#include <QProcess>

namespace dmtune {

class HelperLatencyStream : public LatencySource {
    Q_OBJECT
public:
    explicit HelperLatencyStream(HelperLatencyProbe::Command command, QObject *parent = nullptr);
    // Ends the helper (the kernel detaches its probe).
    ~HelperLatencyStream() override;

    // The first call starts the helper, a changed set is a watch line.
    bool request(const QList<BlockDeviceNumber> &devices) override;

private:
    void onReadyRead();
    void end(const QString &message);

    HelperLatencyProbe::Command m_command;
    QProcess m_process;
    QList<BlockDeviceNumber> m_devices;
    bool m_started = false;
};

} // namespace dmtune
