#pragma once
// The near side of the agent's protocol: starts `ssh HOST dmtunectl agent` (hostaddress.h) with the system's
// OpenSSH client, checks the agent's hello, sends requests and hands every message back. One connection per
// client; after disconnected() it may connect again (the GUI's reconnect, the CLI's job attach).
#include "core/jobs/jobtracker.h"
#include "core/remote/hostaddress.h"

#include <QJsonObject>
#include <QObject>

#include <optional>
#include <utility>

class QProcess;

namespace dmtune {

class AgentClient : public QObject {
    Q_OBJECT
public:
    AgentClient(HostAddress address, SshSettings settings, QObject *parent = nullptr);
    ~AgentClient() override;

    // `sudoPassword`: given to the far side's `sudo -S` once, first thing on the connection; never kept.
    void connectToHost(const QByteArray &sudoPassword = {});
    void disconnectFromHost();
    bool isReady() const { return m_ready; }
    const HostAddress &address() const { return m_address; }
    const QJsonObject &agentHello() const { return m_hello; }

    // Sends {"type":"request","id":N,"op":op, ...fields}; returns N.
    qint64 request(const QString &op, const QJsonObject &fields = {});

    // Lines of at least this many bytes are decoded on a job, not on the client's thread: a capture of a host with
    // thousands of devices is one line of tens of MB (docs/remote.md, "Costs").
    static constexpr qsizetype largeLineBytes = 256 * 1024;

Q_SIGNALS:
    void ready(); // the agent said hello in our major version
    void message(const QJsonObject &message); // every message after the hello
    // The connection could not be made or was lost: one line (ssh's own words for a refused host key) and its code
    // (util/result.h: ConnectionLost, HostUnreachable, NeedsPassword, HostSetup), which callers branch on.
    void disconnected(const QString &problem, bool wasReady, dmtune::ErrorCode code);

private:
    void readOutput();
    void takeLine(const QByteArray &line);
    void deliver(const Result<QJsonObject> &decoded);
    void processEnded(int exitCode);

    HostAddress m_address;
    SshSettings m_settings;
    QProcess *m_ssh = nullptr;
    QByteArray m_buffer;
    qsizetype m_scanned = 0; // m_buffer holds no newline before this
    int m_decoding = 0; // lines on the decode jobs: later lines wait their turn, so messages keep their order
    struct Ended {
        Status problem;
        bool wasReady = false;
    };
    std::optional<Ended> m_endedWhileDecoding; // disconnected() after the last of them
    void end(const Status &problem, bool wasReady); // disconnected()
    QByteArray m_stderr;
    QJsonObject m_hello;
    bool m_ready = false;
    bool m_sentPassword = false; // this connection gave sudo a password
    qint64 m_nextId = 1;
    JobTracker m_decodeJobs { this, JobTracker::Order::Serial }; // last: joins before the members go
};

} // namespace dmtune
