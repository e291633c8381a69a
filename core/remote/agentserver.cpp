#include "core/remote/agentserver.h"

#include "core/remote/agentserver_p.h"

#include "core/remote/agentoperations.h"
#include "core/remote/agentprotocol.h"
#include "core/remote/agentstreams.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace dmtune {

namespace {

QString typeOf(const QJsonObject &m)
{
    return m.value(QLatin1String("type")).toString();
}

bool writeAll(int fd, const QByteArray &data)
{
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, static_cast<size_t>(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += n;
    }
    return true;
}

} // namespace

AgentServer::AgentServer(QString program, QString jobsDir, QObject *parent)
    : QObject(parent)
    , m_program(std::move(program))
    , m_jobsDir(std::move(jobsDir))
    , m_jobPoll(new QTimer(this))
{
    m_jobPoll->setInterval(100);
    connect(m_jobPoll, &QTimer::timeout, this, &AgentServer::pollJobs);
    setSysfsRoot(SysfsRoot());
}

void AgentServer::setSysfsRoot(const SysfsRoot &root)
{
    m_root = root;
    delete m_operations;
    m_operations = nullptr;
    delete m_streams;
    m_streams = new AgentStreams(
        root, [this](const QJsonObject &message) { send(message); }, this);
}

AgentServer::~AgentServer()
{
    for (Command *command : std::as_const(m_commands)) {
        if (command->process) {
            command->process->disconnect(this);
            command->process->kill();
            command->process->waitForFinished(1000);
        }
        delete command;
    }
}

void AgentServer::start(int inFd, int outFd)
{
    m_inFd = inFd;
    m_outFd = outFd;
    ::signal(SIGPIPE, SIG_IGN); // a closed connection is an end of input, not a death mid-write
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    send(agentHello({ { QLatin1String("host"), QString::fromLocal8Bit(host) },
        { QLatin1String("uid"), static_cast<int>(::geteuid()) },
        { QLatin1String("pid"), static_cast<qint64>(::getpid()) },
        { QLatin1String("ops"),
            QJsonArray { QStringLiteral("cli"), QStringLiteral("signal"), QStringLiteral("jobs"),
                QStringLiteral("attach"), QStringLiteral("forget"), QStringLiteral("stream"),
                QStringLiteral("stream-update"), QStringLiteral("watch"), QStringLiteral("map"),
                QStringLiteral("cancel"), QStringLiteral("kinds"), QStringLiteral("plan"),
                QStringLiteral("run") } } }));
    m_notifier = new QSocketNotifier(inFd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &AgentServer::readInput);
}

void AgentServer::send(const QJsonObject &message)
{
    writeAll(m_outFd, encodeAgentMessage(message));
}

void AgentServer::sendError(qint64 id, const QString &error)
{
    send({ { QLatin1String("type"), QStringLiteral("error") }, { QLatin1String("id"), id },
        { QLatin1String("error"), error } });
}

void AgentServer::readInput()
{
    char buffer[65536];
    const ssize_t n = ::read(m_inFd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        endOfInput();
        return;
    }
    m_input.append(buffer, n);
    qsizetype newline = 0;
    while ((newline = m_input.indexOf('\n')) >= 0) {
        const QByteArray line = m_input.left(newline);
        m_input.remove(0, newline + 1);
        if (line.trimmed().isEmpty())
            continue;
        const Result<QJsonObject> message = decodeAgentMessage(line);
        if (!message) {
            sendError(0, QStringLiteral("bad message: %1").arg(message.errorMessage()));
            continue;
        }
        handle(*message);
    }
    if (m_input.size() > 64 * 1024 * 1024) { // no line is that long: a wrong peer
        sendError(0, QStringLiteral("a line over 64 MiB"));
        endOfInput();
    }
}

void AgentServer::endOfInput()
{
    if (m_notifier)
        m_notifier->setEnabled(false);
    m_streams->stopAll();
    // As a closed terminal: the commands of this connection get SIGHUP (stat stops, its output is gone anyway);
    // jobs go on, detached.
    for (Command *command : std::as_const(m_commands)) {
        if (command->process && command->process->state() != QProcess::NotRunning) {
            command->process->disconnect(this);
            ::kill(static_cast<pid_t>(command->process->processId()), SIGHUP);
            if (!command->process->waitForFinished(5000))
                command->process->kill();
        }
    }
    Q_EMIT finished();
}

void AgentServer::handle(const QJsonObject &message)
{
    const QString type = typeOf(message);
    if (type == QLatin1String("hello")) {
        const Status compatible = agentHelloProblem(message, QStringLiteral("the client"));
        if (!compatible) {
            sendError(0, compatible.errorMessage());
            endOfInput();
            return;
        }
        m_helloReceived = true;
        return;
    }
    const qint64 id = message.value(QLatin1String("id")).toInteger();
    if (!m_helloReceived) {
        sendError(id, QStringLiteral("a request before the client's hello"));
        return;
    }
    if (type != QLatin1String("request")) {
        sendError(id, QStringLiteral("unknown message type '%1'").arg(type));
        return;
    }
    if (id <= 0 || m_commands.contains(id) || m_streams->contains(id)) {
        sendError(id, QStringLiteral("a request needs a new positive \"id\""));
        return;
    }
    const QString op = message.value(QLatin1String("op")).toString();
    if (AgentStreams::isStreamOp(op)) {
        const QString problem = m_streams->handle(id, op, message);
        if (!problem.isEmpty())
            sendError(id, problem);
    } else if (op == QLatin1String("start") && message.value(QLatin1String("detach")).toBool()) {
        startOperationJob(id, message);
    } else if (AgentOperations::isOperationOp(op)) {
        if (!m_operations)
            m_operations = new AgentOperations(
                m_root, [this](const QJsonObject &m) { send(m); }, this);
        const QString problem = m_operations->handle(id, op, message);
        if (!problem.isEmpty())
            sendError(id, problem);
    } else if (op == QLatin1String("cli"))
        startCli(id, message);
    else if (op == QLatin1String("signal"))
        signalTarget(id, message);
    else if (op == QLatin1String("jobs"))
        listJobs(id);
    else if (op == QLatin1String("attach"))
        attach(id, message.value(QLatin1String("job")).toString());
    else if (op == QLatin1String("forget")) {
        const QString job = message.value(QLatin1String("job")).toString();
        const QString dir = m_jobsDir + QLatin1Char('/') + job;
        if (!agentserver::validJobId(job) || !QFileInfo::exists(dir + QStringLiteral("/status")))
            sendError(id, QStringLiteral("no ended job '%1'").arg(job));
        else {
            QDir(dir).removeRecursively();
            send({ { QLatin1String("type"), QStringLiteral("response") }, { QLatin1String("id"), id } });
        }
    } else
        sendError(
            id, QStringLiteral("unknown op '%1' (this agent speaks protocol %2)").arg(op, agentProtocolVersion()));
}

} // namespace dmtune
