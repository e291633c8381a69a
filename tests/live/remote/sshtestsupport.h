#pragma once
// What the tests that talk to a real sshd share (tst_live_remote's SshdFixture, tst_vm_remote's lab VM): key pairs
// made with ssh-keygen, a free port on 127.0.0.1, a known_hosts line and a client-side ssh config that reads
// nothing of the system's ssh set-up (its own key, its own known_hosts, strict host key checking).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace dmtune::sshtest {

// An ed25519 key pair without passphrase: PATH and PATH.pub. Empty on success, else what went wrong.
inline QString keygen(const QString &path)
{
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"),
        { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
            QStringLiteral("-f"), path });
    if (!keygen.waitForFinished(20000) || keygen.exitCode() != 0)
        return QStringLiteral("ssh-keygen failed: %1").arg(QString::fromLocal8Bit(keygen.readAllStandardError()));
    return {};
}

// A port on 127.0.0.1 that nothing listens on now (the kernel's pick), -1 if there is none.
inline int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0
        && ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

// "[127.0.0.1]:PORT ssh-ed25519 AAAA...\n": the server's public key (from its .pub file) for known_hosts.
inline QString knownHostsLine(int port, const QString &hostPublicKeyFile)
{
    QFile pub(hostPublicKeyFile);
    if (!pub.open(QIODevice::ReadOnly))
        return {};
    const QStringList key = QString::fromLatin1(pub.readAll()).split(QLatin1Char(' '));
    return QStringLiteral("[127.0.0.1]:%1 %2 %3\n").arg(port).arg(key.value(0), key.value(1));
}

// One Host block of a client config: HostName 127.0.0.1, the port, the user, the key, its own known_hosts only.
struct ClientHost {
    QString patterns; // what `Host` matches: an alias, or 127.0.0.1 itself
    int port = 0;
    QString user = QStringLiteral("root");
    QString identityFile;
    QString knownHostsFile;
    QStringList setEnv; // VAR=VALUE the far side gets (its sshd must AcceptEnv them)
};

inline QString clientConfig(const ClientHost &host)
{
    return QStringLiteral("Host %1\n  HostName 127.0.0.1\n  Port %2\n  User %3\n  IdentityFile %4\n"
                          "  IdentitiesOnly yes\n  UserKnownHostsFile %5\n  GlobalKnownHostsFile /dev/null\n"
                          "  StrictHostKeyChecking yes\n  LogLevel ERROR\n%6")
        .arg(host.patterns)
        .arg(host.port)
        .arg(host.user, host.identityFile, host.knownHostsFile,
            host.setEnv.isEmpty() ? QString()
                                  : QStringLiteral("  SetEnv %1\n").arg(host.setEnv.join(QLatin1Char(' '))));
}

inline bool writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text.toUtf8()) >= 0;
}

// The ssh client this process started (an AgentClient's): killing it is a lost connection; -1 when none.
inline pid_t sshChildOfThisProcess()
{
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray s = stat.readAll();
        const qsizetype close = s.lastIndexOf(')');
        if (close < 0 || !s.contains("(ssh)"))
            continue;
        if (s.mid(close + 2).split(' ').value(1).toLongLong() == ::getpid())
            return pid_t(entry.toLongLong());
    }
    return -1;
}

} // namespace dmtune::sshtest
