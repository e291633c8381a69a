#include "core/latency/helperlatencystream.h"

namespace dmtune {

HelperLatencyStream::HelperLatencyStream(HelperLatencyProbe::Command command, QObject *parent)
    : LatencySource(parent)
    , m_command(std::move(command))
{
    qRegisterMetaType<dmtune::LatencyReading>();
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &HelperLatencyStream::onReadyRead);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            end(QStringLiteral("%1 did not start (%2)").arg(m_command.program, m_process.errorString()));
    });
    connect(&m_process, &QProcess::finished, this, [this](int exitCode) {
        onReadyRead(); // a last line (the helper's error) before the end
        end(QStringLiteral("the privileged helper ended (%1, exit %2)").arg(m_command.program).arg(exitCode));
    });
}

HelperLatencyStream::~HelperLatencyStream()
{
    m_process.disconnect(this);
    // Killed, not asked to end: the kernel detaches the probe's programs when the helper dies, and reaping a
    // killed process takes a moment (a pkexec still asking is never waited for).
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(1000);
    }
}

bool HelperLatencyStream::request(const QList<BlockDeviceNumber> &devices)
{
    if (isWaiting() || hasFailed())
        return false;
    if (!m_started) {
        if (devices.isEmpty())
            return false; // the first request names at least one device
        m_started = true;
        m_devices = devices;
        m_process.start(m_command.program, m_command.arguments);
        m_process.write(latencyRequestJson(devices));
        m_process.write("read\n");
    } else if (devices != m_devices) {
        m_devices = devices;
        m_process.write(latencyWatchLine(devices));
    } else {
        m_process.write("read\n");
    }
    setWaiting(true);
    return true;
}

void HelperLatencyStream::onReadyRead()
{
    while (m_process.canReadLine() && !hasFailed()) {
        const QByteArray line = m_process.readLine(latencyStreamMaxLine);
        setWaiting(false);
        auto reading = parseHelperLatencyLine(line);
        if (!reading) {
            end(reading.errorMessage());
            return;
        }
        Q_EMIT readingAvailable(reading.value());
    }
    if (m_process.bytesAvailable() > latencyStreamMaxLine)
        end(QStringLiteral("the privileged helper's line is too long"));
}

void HelperLatencyStream::end(const QString &message)
{
    if (hasFailed())
        return;
    if (m_process.state() != QProcess::NotRunning)
        m_process.kill();
    fail(message);
}

} // namespace dmtune
