#pragma once
// A real OpenSSH server for one test: its own host key, client key, authorized_keys and config in a temporary
// directory, listening on a free 127.0.0.1 port only, stopped (and everything removed) when the object goes.
// The client side is an ssh config file (configFile()) naming the host `dmtune-test`, with the server's key in its
// own known_hosts: nothing of the system's ssh set-up is read or changed.
#include "sshtestsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

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
        m_port = sshtest::freeLoopbackPort();
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
        write(QStringLiteral("known_hosts"), sshtest::knownHostsLine(m_port, path(QStringLiteral("host_key.pub"))));
        write(QStringLiteral("empty_known_hosts"), QString());
        sshtest::ClientHost client { host(), m_port, QStringLiteral("root"), path(QStringLiteral("client_key")),
            path(QStringLiteral("known_hosts")), setEnv };
        write(QStringLiteral("ssh_config"), sshtest::clientConfig(client));
        client.knownHostsFile = path(QStringLiteral("empty_known_hosts"));
        write(QStringLiteral("ssh_config_unknown_key"), sshtest::clientConfig(client));

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
        const QString problem = sshtest::keygen(path(name));
        return problem.isEmpty() || fail(problem);
    }
    void write(const QString &name, const QString &text) { sshtest::writeFile(path(name), text); }

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    QString m_error;
};

} // namespace dmtune::live
