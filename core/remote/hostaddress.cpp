#include "core/remote/hostaddress.h"

namespace dmtune {

namespace {

bool validHostName(const QString &host)
{
    if (host.isEmpty() || host.startsWith(QLatin1Char('-')))
        return false;
    for (const QChar c : host) {
        if (!(c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('-') || c == QLatin1Char('_')
                || c == QLatin1Char(':')))
            return false;
    }
    return true;
}

// Single quotes for the remote shell.
QString singleQuoted(const QString &text)
{
    QString quoted = text;
    quoted.replace(QLatin1String("'"), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace

QString HostAddress::display() const
{
    QString text = user.isEmpty() ? QString() : user + QLatin1Char('@');
    text += host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (port > 0)
        text += QLatin1Char(':') + QString::number(port);
    return text;
}

Result<HostAddress> parseHostAddress(const QString &text)
{
    const auto bad = [&](const QString &why) {
        return Result<HostAddress>::failure(
            QStringLiteral("bad host '%1': %2 (expected [user@]host[:port])").arg(text, why));
    };
    HostAddress address;
    QString rest = text.trimmed();
    const int at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        address.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (address.user.isEmpty() || address.user.startsWith(QLatin1Char('-'))
            || address.user.contains(QLatin1Char(' ')))
            return bad(QStringLiteral("no valid user name before '@'"));
    }
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const int close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return bad(QStringLiteral("'[' without ']'"));
        address.host = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return bad(QStringLiteral("text after ']'"));
            portText = after.mid(1);
            if (portText.isEmpty())
                return bad(QStringLiteral("no port after ':'"));
        }
    } else {
        const int colon = rest.indexOf(QLatin1Char(':'));
        if (colon >= 0 && rest.indexOf(QLatin1Char(':'), colon + 1) >= 0)
            return bad(QStringLiteral("an IPv6 address goes in brackets"));
        address.host = colon >= 0 ? rest.left(colon) : rest;
        if (colon >= 0) {
            portText = rest.mid(colon + 1);
            if (portText.isEmpty())
                return bad(QStringLiteral("no port after ':'"));
        }
    }
    if (!validHostName(address.host) || (!rest.startsWith(QLatin1Char('[')) && address.host.contains(QLatin1Char(':'))))
        return bad(QStringLiteral("no valid host name"));
    if (!portText.isEmpty()) {
        bool ok = false;
        address.port = portText.toInt(&ok);
        if (!ok || address.port < 1 || address.port > 65535)
            return bad(QStringLiteral("port '%1' is not 1-65535").arg(portText));
    }
    return address;
}

QString remoteAgentCommand(const SshSettings &settings, bool sudoWithPassword)
{
    const QString program = singleQuoted(settings.remoteDmtunectl);
    // `sudo -S -p ''` reads the password the client writes first on stdin, once; `-n` never asks. LC_ALL=C: its
    // "Sorry, try again." after a wrong password is what AgentClient looks for.
    if (sudoWithPassword)
        return QStringLiteral(
            "command -v %1 >/dev/null 2>&1 || { echo '%2' >&2; exit 127; }; "
            "if [ \"$(id -u)\" = 0 ]; then exec %1 agent; fi; exec env LC_ALL=C sudo -S -p '' %1 agent")
            .arg(program, QLatin1String(RemoteMissingMarker));
    const QString sudo = QStringLiteral("sudo -n");
    return QStringLiteral("command -v %1 >/dev/null 2>&1 || { echo '%2' >&2; exit 127; }; "
                          "if [ \"$(id -u)\" = 0 ]; then exec %1 agent; fi; "
                          "%3 true 2>/dev/null || { echo '%4' >&2; exit 126; }; exec %3 %1 agent")
        .arg(program, QLatin1String(RemoteMissingMarker), sudo, QLatin1String(RemoteNoSudoMarker));
}

QStringList sshArguments(const HostAddress &address, const SshSettings &settings, bool sudoWithPassword)
{
    QStringList args;
    if (!settings.configFile.isEmpty())
        args << QStringLiteral("-F") << settings.configFile;
    args << QStringLiteral("-T") << QStringLiteral("-o") << QStringLiteral("BatchMode=yes") << QStringLiteral("-o")
         << QStringLiteral("Compression=no") << QStringLiteral("-o") << QStringLiteral("ServerAliveInterval=5")
         << QStringLiteral("-o") << QStringLiteral("ServerAliveCountMax=3");
    if (!address.user.isEmpty())
        args << QStringLiteral("-l") << address.user;
    if (address.port > 0)
        args << QStringLiteral("-p") << QString::number(address.port);
    args << QStringLiteral("--") << address.host << remoteAgentCommand(settings, sudoWithPassword);
    return args;
}

Status remoteStartProblem(
    const HostAddress &address, const SshSettings &settings, int exitStatus, const QString &sshStderr)
{
    if (sshStderr.contains(QLatin1String(RemoteMissingMarker)))
        return Status::failure(QStringLiteral("%1 has no '%2': install dmtune there (its package, or set the program "
                                              "with --remote-dmtunectl)")
                                   .arg(address.display(), settings.remoteDmtunectl),
            ErrorCode::HostSetup);
    if (sshStderr.contains(QLatin1String(RemoteNoSudoMarker)))
        return Status::failure(
            QStringLiteral("%1: user %2 is not root and sudo refused without a password: log in as root, allow "
                           "'%3 agent' with NOPASSWD in sudoers, or give the password (--sudo-password-stdin)")
                .arg(address.display(), address.user.isEmpty() ? QStringLiteral("(ssh's default)") : address.user,
                    settings.remoteDmtunectl),
            ErrorCode::NeedsPassword);
    if (exitStatus != 255)
        return Status::success();
    // ssh's own words (host key refused, connection refused, permission denied), its last line. ssh has no codes:
    // what a host that is down or rebooting, or a network not there yet, makes it say is read here, once.
    const QStringList lines = sshStderr.trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString last = lines.isEmpty() ? QStringLiteral("exit status 255") : lines.last().trimmed();
    bool transient = false;
    for (const char *words : { "Connection refused", "Connection timed out", "No route to host",
             "Network is unreachable", "Connection reset", "Connection closed by", "closed by remote host",
             "Broken pipe", "Temporary failure in name resolution" })
        transient = transient || last.contains(QLatin1String(words));
    return Status::failure(QStringLiteral("ssh to %1 failed: %2").arg(address.display(), last),
        transient ? ErrorCode::HostUnreachable : ErrorCode::HostSetup);
}

} // namespace dmtune
