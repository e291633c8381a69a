#include "core/remote/agentclient.h"

#include "core/remote/agentprotocol.h"

#include <QProcess>

namespace dmtune {

AgentClient::AgentClient(HostAddress address, SshSettings settings, QObject *parent)
    : QObject(parent)
    , m_address(std::move(address))
    , m_settings(std::move(settings))
{
}

AgentClient::~AgentClient()
{
    if (m_ssh) {
        m_ssh->disconnect(this);
        m_ssh->closeWriteChannel(); // the agent sees the end of its input and stops what is not a job
        if (!m_ssh->waitForFinished(3000))
            m_ssh->kill();
        m_ssh->waitForFinished(1000);
    }
}

void AgentClient::connectToHost(const QByteArray &sudoPassword)
{
    if (m_ssh)
        return;
    m_ready = false;
    m_buffer.clear();
    m_scanned = 0;
    m_stderr.clear();
    m_ssh = new QProcess(this);
    m_ssh->setProgram(QStringLiteral("ssh"));
    m_ssh->setArguments(sshArguments(m_address, m_settings, !sudoPassword.isEmpty()));
    connect(m_ssh, &QProcess::readyReadStandardOutput, this, &AgentClient::readOutput);
    m_sentPassword = !sudoPassword.isEmpty();
    connect(m_ssh, &QProcess::readyReadStandardError, this, [this] {
        m_stderr += m_ssh->readAllStandardError();
        if (m_stderr.size() > 65536)
            m_stderr = m_stderr.right(65536);
        // sudo -S asks again after a wrong password and would wait for a line that never comes: end it at once.
        if (m_sentPassword && !m_ready && m_stderr.contains("try again")) {
            m_ssh->disconnect(this);
            m_ssh->kill();
            m_ssh->waitForFinished(1000);
            m_ssh->deleteLater();
            m_ssh = nullptr;
            end(Status::failure(QStringLiteral("%1: sudo refused the password (it was sent once and not kept)")
                                    .arg(m_address.display()),
                    ErrorCode::NeedsPassword),
                false);
        }
    });
    connect(m_ssh, &QProcess::finished, this, [this](int code, QProcess::ExitStatus) { processEnded(code); });
    connect(m_ssh, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            m_ssh->deleteLater();
            m_ssh = nullptr;
            end(Status::failure(QStringLiteral("cannot start ssh: install openssh-client"), ErrorCode::HostSetup),
                false);
        }
    });
    m_ssh->start();
    if (!sudoPassword.isEmpty())
        m_ssh->write(sudoPassword + '\n');
    // Our hello goes after the agent's (the agent speaks first): before it, a line on stdin could still be read
    // by sudo as another password.
}

void AgentClient::disconnectFromHost()
{
    if (m_ssh)
        m_ssh->closeWriteChannel();
}

qint64 AgentClient::request(const QString &op, const QJsonObject &fields)
{
    const qint64 id = m_nextId++;
    QJsonObject message = fields;
    message.insert(QLatin1String("type"), QStringLiteral("request"));
    message.insert(QLatin1String("id"), id);
    message.insert(QLatin1String("op"), op);
    if (m_ssh)
        m_ssh->write(encodeAgentMessage(message));
    return id;
}

void AgentClient::readOutput()
{
    m_buffer += m_ssh->readAllStandardOutput();
    // Lines cut out by position and the buffer shortened once: a 30 MB line arriving in 64 KiB reads is scanned
    // once, not from its start on every read.
    qsizetype start = 0;
    qsizetype newline = 0;
    while (m_ssh && (newline = m_buffer.indexOf('\n', std::max(start, m_scanned))) >= 0) {
        const QByteArray line = m_buffer.sliced(start, newline - start);
        start = newline + 1;
        takeLine(line);
    }
    if (!m_ssh) // the hello was refused: the connection is gone
        return;
    m_buffer.remove(0, start);
    m_scanned = m_buffer.size();
}

void AgentClient::takeLine(const QByteArray &line)
{
    if (m_ready && (m_decoding > 0 || line.size() >= largeLineBytes)) {
        ++m_decoding;
        m_decodeJobs.start(
            QStringLiteral("decode a message of %1 bytes from %2").arg(line.size()).arg(m_address.display()),
            [line](JobContext &) { return decodeAgentMessage(line); },
            [this](const Result<QJsonObject> &decoded) {
                --m_decoding;
                if (decoded) // a line after the hello: a message even when the connection has ended since
                    Q_EMIT message(*decoded);
                if (m_decoding == 0 && m_endedWhileDecoding) {
                    const Ended ended = *std::exchange(m_endedWhileDecoding, std::nullopt);
                    end(ended.problem, ended.wasReady);
                }
            });
        return;
    }
    deliver(decodeAgentMessage(line));
}

void AgentClient::deliver(const Result<QJsonObject> &decoded)
{
    if (!decoded)
        return; // a login banner or motd on stdout before the agent starts; the agent writes only JSON
    if (m_ready) {
        Q_EMIT message(*decoded);
        return;
    }
    if (decoded->value(QLatin1String("type")).toString() != QLatin1String("hello"))
        return;
    const Status compatible = agentHelloProblem(*decoded, QStringLiteral("the agent on %1").arg(m_address.display()));
    if (!compatible) {
        m_ssh->disconnect(this);
        m_ssh->kill();
        m_ssh->deleteLater();
        m_ssh = nullptr;
        end(compatible, false);
        return;
    }
    m_hello = *decoded;
    m_ssh->write(encodeAgentMessage(dmtune::agentHello()));
    m_ready = true;
    Q_EMIT ready();
}

void AgentClient::processEnded(int exitCode)
{
    readOutput();
    m_stderr += m_ssh->readAllStandardError();
    const bool wasReady = m_ready;
    m_ready = false;
    m_ssh->deleteLater();
    m_ssh = nullptr;
    const QString sshText = QString::fromLocal8Bit(m_stderr);
    Status problem = remoteStartProblem(m_address, m_settings, exitCode, sshText);
    if (problem && wasReady)
        problem = Status::failure(
            QStringLiteral("the connection to %1 ended").arg(m_address.display()), ErrorCode::ConnectionLost);
    if (problem) {
        const QStringList lines = sshText.trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        problem = Status::failure(QStringLiteral("%1: the agent did not start (exit status %2)%3")
                                      .arg(m_address.display())
                                      .arg(exitCode)
                                      .arg(lines.isEmpty() ? QString() : QStringLiteral(": ") + lines.last().trimmed()),
            ErrorCode::HostSetup);
    }
    if (m_decoding > 0) {
        m_endedWhileDecoding = Ended { problem, wasReady }; // its last messages first
        return;
    }
    end(problem, wasReady);
}

void AgentClient::end(const Status &problem, bool wasReady)
{
    Q_EMIT disconnected(problem.errorMessage(), wasReady, problem.errorCode());
}

} // namespace dmtune
