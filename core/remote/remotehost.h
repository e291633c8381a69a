#pragma once
// One remote host for the GUI (docs/remote.md): its agent connection (AgentClient, ssh), made again with backoff
// after the connection was lost, and its devices as a capture (`dmtunectl capture` run there) fetched into a
// private temporary directory that a SysfsRoot reads as `dmtune --sysfs-root` reads one. The capture is fetched
// again on every (re)connect and, debounced, on the agent's `watch` events (a disk added, a map reloaded, a path
// failed). All of it asynchronous: ssh is a QProcess, the capture is written on a job.
//
// A problem that needs the user is shown once and not retried: ssh refused the host key or the login, dmtune is
// not installed there, the agent speaks another protocol major, sudo wants a password. A lost connection, or
// one that could not be made because the host or the network is down, is retried: 2 s, 4 s, ... up to 60 s.
#include "core/jobs/jobtracker.h"
#include "core/remote/hostaddress.h"
#include "core/sysfs/sysfsroot.h"

#include <QDateTime>
#include <QJsonArray>
#include <QObject>
#include <QTimer>

#include <memory>

class QTemporaryDir;

namespace dmtune {

class AgentClient;

// ssh's settings as dmtunectl --host takes them from the environment: $DMTUNE_SSH_CONFIG (ssh -F) and
// $DMTUNE_REMOTE_DMTUNECTL (the program on the far side).
SshSettings sshSettingsFromEnvironment();

// Writes a directory the agent sent as "entries" ({"path", "dir":true} | {"path", "data":base64} |
// {"path", "link":target}) under `directory`, which must exist and be this process's own: every entry is created
// new (O_EXCL), nothing is written through a link, no path may be absolute or climb out with "..", and a link's
// target must be relative (a capture's links are: sysfs lays them out so). One line on the first refusal.
Status writeFetchedDirectory(const QString &directory, const QJsonArray &entries);

class RemoteHost : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected };
    Q_ENUM(State)
    // What the last problem needs: nothing (connected), time (retried by itself), the user (shown once), or the
    // sudo password (asked by the GUI, given once to `sudo -S`, never kept).
    enum class Need { Nothing, Retry, User, Password };
    Q_ENUM(Need)

    static constexpr int DefaultFirstRetryMs = 2000;
    static constexpr int DefaultMaxRetryMs = 60000;
    static constexpr int DefaultConnectTimeoutMs = 30000;
    static constexpr int RefetchDebounceMs = 500;

    RemoteHost(HostAddress address, SshSettings settings, QObject *parent = nullptr);
    ~RemoteHost() override;

    const HostAddress &address() const { return m_address; }
    const SshSettings &sshSettings() const { return m_settings; }
    // "root@db1:2222", as the user wrote it: on the window, every pane and chart.
    QString displayName() const { return m_address.display(); }
    // The far side's own name (its hello's "host"); empty before the first connection.
    QString agentHostName() const { return m_agentHost; }
    // The connection (for RemoteSampler, which streams over it whenever it is ready). Owned.
    AgentClient *client() const { return m_client; }

    // The host's devices: always this root (<private dir>/current/sys and /proc); every fetch replaces what
    // `current` points at in one rename. Empty (no devices) until the first fetch.
    SysfsRoot sysfsRoot() const;
    bool hasCapture() const { return m_generation > 0; }
    QDateTime captureTime() const { return m_captureTime; }
    // The agent sends its host's udev events (its `watch`): the capture follows them.
    bool isWatching() const { return m_watchId != 0; }

    // Connects now (also "Reconnect now": a scheduled retry is dropped). `sudoPassword`: written once to the
    // far side's `sudo -S` by AgentClient; not kept here.
    void connectToHost(const QByteArray &sudoPassword = {});
    // Ends the connection and retries nothing until connectToHost().
    void disconnectFromHost();
    // Fetches the capture again now (or after the one being fetched).
    void refetch();

    State state() const { return m_state; }
    // The one line of the last failed or lost connection (empty while connected).
    QString problem() const { return m_problem; }
    Need need() const { return m_need; }
    // When the next automatic attempt starts; -1 when none is scheduled.
    qint64 msecsUntilRetry() const;
    int attempts() const { return m_attempt; } // failed attempts since the last connection

    // Tests: faster retries and timeouts.
    void setRetryDelays(int firstMs, int maxMs);
    void setConnectTimeout(int ms) { m_connectTimeout.setInterval(ms); }

    // What a problem line of AgentClient::disconnected needs (hostaddress.cpp's and agentprotocol.cpp's lines;
    // ssh's own last line for exit status 255).
    static Need classify(ErrorCode problem, bool wasReady);

Q_SIGNALS:
    void stateChanged(dmtune::RemoteHost::State state);
    // A retry is scheduled in `ms` (the banner counts down).
    void retryScheduled(int ms);
    // A new capture is under sysfsRoot(): rescan it.
    void captureFetched();
    void captureFailed(const QString &message);

private:
    void onReady();
    void onMessage(const QJsonObject &message);
    void onDisconnected(const QString &problem, bool wasReady, ErrorCode code);
    void setState(State state);
    void fetchCapture();
    void onCaptureExit(const QJsonObject &message);
    void scheduleRetry();

    HostAddress m_address;
    SshSettings m_settings;
    AgentClient *m_client = nullptr;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_current; // <dir>/current: the link every read goes through
    State m_state = State::Disconnected;
    QString m_problem;
    Need m_need = Need::Nothing;
    QString m_agentHost;
    bool m_wanted = false; // the user wants the connection (retries run)
    bool m_timedOut = false;
    int m_attempt = 0;
    int m_firstRetryMs = DefaultFirstRetryMs;
    int m_maxRetryMs = DefaultMaxRetryMs;
    QTimer m_retry;
    QTimer m_connectTimeout;
    QTimer m_refetchDebounce;
    qint64 m_watchId = 0;
    qint64 m_captureId = 0;
    QString m_captureErrors; // the capture command's stderr
    bool m_refetchWanted = false;
    bool m_writing = false; // a fetched capture is being written
    int m_generation = 0;
    QDateTime m_captureTime;
    JobTracker m_jobs { this, JobTracker::Order::Serial }; // writes the captures; last: joins before the rest goes
};

} // namespace dmtune
