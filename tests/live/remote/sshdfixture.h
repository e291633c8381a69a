#pragma once
// A real OpenSSH server for one test: its own host key, client key, authorized_keys and config in a temporary
// directory, listening on a free 127.0.0.1 port only, stopped (and everything removed) when the object goes.
// The client side is an ssh config file (configFile()) naming the host `dmtune-test`, with the server's key in its
// own known_hosts: nothing of the system's ssh set-up is read or changed.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace dmtune::live {

class SshdFixture {
public:
    static QString sshdPath()
    {
        return QStandardPaths::findExecutable(QStringLiteral("sshd"), { QStringLiteral("/usr/sbin") });
    }

    ~SshdFixture() { stop(); }

    // env: variables the agent side gets (sshd AcceptEnv, ssh SetEnv).
    bool start(const QHash<QString, QString> &env = {})
    {
        if (!m_dir.isValid())
            return fail(QStringLiteral("no temporary directory"));
        if (sshdPath().isEmpty())
            return fail(QStringLiteral("sshd not installed (packaging/install-deps.sh installs openssh-server)"));
        QDir().mkpath(QStringLiteral("/run/sshd")); // sshd's privilege separation directory
        if (!keygen(QStringLiteral("host_key")) || !keygen(QStringLiteral("client_key")))
            return false;
        QFile::copy(path(QStringLiteral("client_key.pub")), path(QStringLiteral("authorized_keys")));
        m_port = freePort();
        if (m_port <= 0)
            return fail(QStringLiteral("no free port on 127.0.0.1"));
        QStringList accept;
        QStringList setEnv;
        for (auto it = env.begin(); it != env.end(); ++it) {
            accept << it.key();
            setEnv << QStringLiteral("%1=%2").arg(it.key(), it.value());
        }
        write(QStringLiteral("sshd_config"),
            QStringLiteral(
                "Port %1\nListenAddress 127.0.0.1\nHostKey %2\nAuthorizedKeysFile %3\nPidFile %4\n"
                "PermitRootLogin prohibit-password\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "UsePAM no\nStrictModes no\nX11Forwarding no\nAllowTcpForwarding no\nPrintMotd no\n%5")
                .arg(m_port)
                .arg(path(QStringLiteral("host_key")), path(QStringLiteral("authorized_keys")),
                    path(QStringLiteral("sshd.pid")),
                    accept.isEmpty() ? QString()
                                     : QStringLiteral("AcceptEnv %1\n").arg(accept.join(QLatin1Char(' ')))));
        QFile pub(path(QStringLiteral("host_key.pub")));
        pub.open(QIODevice::ReadOnly);
        const QStringList hostKey = QString::fromLatin1(pub.readAll()).split(QLatin1Char(' '));
        write(QStringLiteral("known_hosts"),
            QStringLiteral("[127.0.0.1]:%1 %2 %3\n").arg(m_port).arg(hostKey.value(0), hostKey.value(1)));
        write(QStringLiteral("empty_known_hosts"), QString());
        writeClientConfig(path(QStringLiteral("ssh_config")), path(QStringLiteral("known_hosts")), setEnv);
        writeClientConfig(
            path(QStringLiteral("ssh_config_unknown_key")), path(QStringLiteral("empty_known_hosts")), setEnv);

        m_sshd.setProgram(sshdPath());
        m_sshd.setArguments(
            { QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), path(QStringLiteral("sshd_config")) });
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        m_sshd.start();
        if (!m_sshd.waitForStarted(5000))
            return fail(QStringLiteral("sshd did not start"));
        QByteArray log;
        for (int i = 0; i < 100 && !log.contains("Server listening"); ++i) {
            if (m_sshd.waitForReadyRead(100))
                log += m_sshd.readAll();
            if (m_sshd.state() == QProcess::NotRunning)
                return fail(QStringLiteral("sshd ended: %1").arg(QString::fromLocal8Bit(log + m_sshd.readAll())));
        }
        if (!log.contains("Server listening"))
            return fail(QStringLiteral("sshd is not listening: %1").arg(QString::fromLocal8Bit(log)));
        return true;
    }

    void stop()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            if (!m_sshd.waitForFinished(5000))
                m_sshd.kill();
            m_sshd.waitForFinished(2000);
        }
    }

    QString host() const { return QStringLiteral("dmtune-test"); }
    int port() const { return m_port; }
    QString configFile() const { return path(QStringLiteral("ssh_config")); }
    // The same host, but with a known_hosts that lacks its key: ssh must refuse it.
    QString configFileUnknownKey() const { return path(QStringLiteral("ssh_config_unknown_key")); }
    QString error() const { return m_error; }
    QString path(const QString &name) const { return m_dir.filePath(name); }

private:
    bool fail(const QString &message)
    {
        m_error = message;
        return false;
    }
    bool keygen(const QString &name)
    {
        QProcess keygen;
        keygen.start(QStringLiteral("ssh-keygen"),
            { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
                QStringLiteral("-f"), path(name) });
        if (!keygen.waitForFinished(20000) || keygen.exitCode() != 0)
            return fail(
                QStringLiteral("ssh-keygen failed: %1").arg(QString::fromLocal8Bit(keygen.readAllStandardError())));
        return true;
    }
    void write(const QString &name, const QString &text)
    {
        QFile file(path(name));
        file.open(QIODevice::WriteOnly);
        file.write(text.toUtf8());
    }
    void writeClientConfig(const QString &file, const QString &knownHosts, const QStringList &setEnv)
    {
        QFile out(file);
        out.open(QIODevice::WriteOnly);
        out.write(
            QStringLiteral("Host dmtune-test\n  HostName 127.0.0.1\n  Port %1\n  User root\n  IdentityFile %2\n"
                           "  IdentitiesOnly yes\n  UserKnownHostsFile %3\n  GlobalKnownHostsFile /dev/null\n"
                           "  StrictHostKeyChecking yes\n  LogLevel ERROR\n%4")
                .arg(m_port)
                .arg(path(QStringLiteral("client_key")), knownHosts,
                    setEnv.isEmpty() ? QString() : QStringLiteral("  SetEnv %1\n").arg(setEnv.join(QLatin1Char(' '))))
                .toUtf8());
    }
    static int freePort()
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

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    QString m_error;
};

} // namespace dmtune::live
