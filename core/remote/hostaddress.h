#pragma once
// Where a remote host is and how the system's OpenSSH client reaches it: `[user@]host[:port]` (an IPv6 address
// in brackets: `[::1]:2222`), and the ssh command line that starts the agent there. ssh itself does the rest:
// ~/.ssh/config, the agent, jump hosts, known_hosts (an unknown or changed host key is refused by ssh).
#include "core/util/result.h"

#include <QString>
#include <QStringList>

namespace dmtune {

struct HostAddress {
    QString user; // empty: ssh's choice (~/.ssh/config, else the local user)
    QString host;
    int port = 0; // 0: ssh's choice
    QString display() const; // as the user wrote it, for every pane and message: "root@db1:2222"
};

// One clear line for a wrong address; no user name or host starting with '-' (ssh would read an option).
Result<HostAddress> parseHostAddress(const QString &text);

struct SshSettings {
    QString configFile; // ssh -F (empty: ~/.ssh/config)
    QString remoteDmtunectl = QStringLiteral("dmtunectl"); // the agent's program on the far side
};

// The remote command: checks the program is there (exit 127 with a marker line), becomes root (as root: itself;
// else `sudo -n`, exit 126 with a marker when sudo wants a password or is not allowed), runs `PROGRAM agent`.
QString remoteAgentCommand(const SshSettings &settings, bool sudoWithPassword = false);
// ssh's arguments (without "ssh"): no tty, BatchMode (never a password prompt of ssh's own), no compression.
QStringList sshArguments(const HostAddress &address, const SshSettings &settings, bool sudoWithPassword = false);

// The markers the remote command writes on stderr, and the one line the client shows for each.
inline constexpr char RemoteMissingMarker[] = "dmtune-remote: no-dmtunectl";
inline constexpr char RemoteNoSudoMarker[] = "dmtune-remote: no-sudo";
// What ssh's stderr and exit status say, as a failure with its code and line: HostSetup (no dmtune there, the host
// key or the login refused: the user has to act), NeedsPassword (sudo there wants one), HostUnreachable (ssh could
// not reach the host: down, rebooting, no network yet; worth retrying). Success when nothing is recognised (show
// ssh's own text).
Status remoteStartProblem(
    const HostAddress &address, const SshSettings &settings, int exitStatus, const QString &sshStderr);

} // namespace dmtune
