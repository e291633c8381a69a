#include "remote/agentserver.h"

#include "discovery/sysfscapture.h"
#include "ops/workloadoperations.h"
#include "remote/operationjob.h"
#include "util/atomicfile.h"
#include "util/fd.h"

#include "remote/agentoperations.h"
#include "remote/agentprotocol.h"
#include "remote/agentstreams.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QTemporaryDir>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

struct AgentServer::Command {
    qint64 id = 0;
    QProcess *process = nullptr; // a command of this connection; null for a job
    std::unique_ptr<QTemporaryDir> scratch; // the command's files (removed with it)
    QString jobDir; // a job's directory
    qint64 outOffset = 0;
    qint64 errOffset = 0;
    QByteArray pendingOut;
    QByteArray pendingErr;
    QJsonArray files; // {index, output, directory, remote, path}
    QHash<QString, QString> replacements; // the agent's paths -> the paths the user wrote
};

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

bool makePrivateDir(const QString &path)
{
    if (!QDir().mkpath(path))
        return false;
    return QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QString readLine(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

// The bytes of a file the command wrote, or every file of a directory it made (relative paths).
QJsonObject collectOutput(const QString &remote, bool directory)
{
    QJsonObject out;
    if (!directory) {
        QFile file(remote);
        if (file.open(QIODevice::ReadOnly))
            out.insert(QLatin1String("data"), QString::fromLatin1(file.readAll().toBase64()));
        return out;
    }
    if (!QFileInfo(remote).isDir())
        return out;
    QJsonArray entries;
    QDirIterator it(remote, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
        QDirIterator::Subdirectories);
    const QDir base(remote);
    while (it.hasNext()) {
        it.next();
        const QFileInfo info = it.fileInfo();
        QJsonObject entry { { QLatin1String("path"), base.relativeFilePath(info.filePath()) } };
        if (info.isSymLink()) {
            // A capture is mostly links (block/sda -> ../devices/...), relative ones: sent as they are, made again
            // on the near side inside its own copy of the tree (writeFetchedDirectory).
            char target[4096];
            const ssize_t n = ::readlink(QFile::encodeName(info.filePath()).constData(), target, sizeof target - 1);
            if (n > 0) {
                entry.insert(QLatin1String("link"), QFile::decodeName(QByteArray(target, n)));
                entries.append(entry);
            }
            continue;
        }
        if (info.isDir()) {
            entry.insert(QLatin1String("dir"), true);
        } else {
            QFile file(info.filePath());
            if (!file.open(QIODevice::ReadOnly))
                continue;
            entry.insert(QLatin1String("data"), QString::fromLatin1(file.readAll().toBase64()));
            // A capture keeps sysfs's owner-write bit ("rw" in dmtune means writable there): said for the files
            // without it, so that the near side's copy marks the same attributes read-only.
            if (!(info.permissions() & QFileDevice::WriteOwner))
                entry.insert(QLatin1String("ro"), true);
        }
        entries.append(entry);
    }
    out.insert(QLatin1String("entries"), entries);
    return out;
}

QString newJobId()
{
    return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-"))
        + QString::number(QRandomGenerator::global()->bounded(0x10000), 16).rightJustified(4, QLatin1Char('0'));
}

bool validJobId(const QString &id)
{
    if (id.isEmpty() || id.size() > 64)
        return false;
    for (const QChar c : id) {
        if (!(c.isLetterOrNumber() || c == QLatin1Char('-')))
            return false;
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

QString AgentServer::defaultJobsDir()
{
    const QString forced = qEnvironmentVariable("DMTUNE_AGENT_JOBS");
    if (!forced.isEmpty())
        return forced;
    if (::geteuid() == 0)
        return QStringLiteral("/run/dmtune/jobs");
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty())
        return runtime + QStringLiteral("/dmtune/jobs");
    return QDir::tempPath() + QStringLiteral("/dmtune-%1/jobs").arg(::geteuid());
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
        if (!validJobId(job) || !QFileInfo::exists(dir + QStringLiteral("/status")))
            sendError(id, QStringLiteral("no ended job '%1'").arg(job));
        else {
            QDir(dir).removeRecursively();
            send({ { QLatin1String("type"), QStringLiteral("response") }, { QLatin1String("id"), id } });
        }
    } else
        sendError(
            id, QStringLiteral("unknown op '%1' (this agent speaks protocol %2)").arg(op, agentProtocolVersion()));
}

void AgentServer::startCli(qint64 id, const QJsonObject &request)
{
    const QJsonArray argvJson = request.value(QLatin1String("argv")).toArray();
    QStringList argv;
    for (const QJsonValue &v : argvJson)
        argv << v.toString();
    if (argv.isEmpty() || argv.first().isEmpty() || argv.first().startsWith(QLatin1Char('-'))
        || argv.first() == QLatin1String("agent")) {
        sendError(id, QStringLiteral("cli: give a dmtunectl command (not the agent)"));
        return;
    }
    const bool job = argv.first() == QLatin1String("run") && !argv.contains(QLatin1String("--list"))
        && !argv.contains(QLatin1String("--help"));

    auto command = std::make_unique<Command>();
    command->id = id;
    QString workDir;
    QString jobId;
    if (job) {
        jobId = newJobId();
        workDir = m_jobsDir + QLatin1Char('/') + jobId;
        if (!makePrivateDir(m_jobsDir) || !makePrivateDir(workDir)) {
            sendError(id, QStringLiteral("cannot make the job directory %1").arg(workDir));
            return;
        }
    } else {
        command->scratch = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/dmtune-agent-XXXXXX"));
        if (!command->scratch->isValid()) {
            sendError(id, QStringLiteral("cannot make a temporary directory"));
            return;
        }
        workDir = command->scratch->path();
    }

    const QJsonArray files = request.value(QLatin1String("files")).toArray();
    for (const QJsonValue &value : files) {
        const QJsonObject file = value.toObject();
        const int index = file.value(QLatin1String("index")).toInt(-1);
        const bool output = file.value(QLatin1String("output")).toBool();
        const QString path = file.value(QLatin1String("path")).toString();
        QString base = QFileInfo(path).fileName();
        if (index <= 0 || index >= argv.size() || base.isEmpty() || base == QLatin1String("..")) {
            sendError(id, QStringLiteral("cli: a file at a wrong argument index %1").arg(index));
            return;
        }
        const QString dir
            = workDir + (output ? QStringLiteral("/out%1").arg(index) : QStringLiteral("/in%1").arg(index));
        makePrivateDir(dir);
        const QString remote = dir + QLatin1Char('/') + base;
        if (!output) {
            QFile in(remote);
            if (!in.open(QIODevice::WriteOnly)
                || in.write(QByteArray::fromBase64(file.value(QLatin1String("data")).toString().toLatin1())) < 0) {
                sendError(id, QStringLiteral("cannot write %1").arg(remote));
                return;
            }
        }
        argv[index] = file.value(QLatin1String("prefix")).toString() + remote;
        command->replacements.insert(remote, path);
        command->files.append(QJsonObject { { QLatin1String("index"), index }, { QLatin1String("output"), output },
            { QLatin1String("directory"), file.value(QLatin1String("directory")).toBool() },
            { QLatin1String("remote"), remote }, { QLatin1String("path"), path },
            { QLatin1String("local"), file.value(QLatin1String("local")) } });
    }

    if (job) {
        if (!startJob(id, workDir, argv, command->files, command->replacements)) {
            QDir(workDir).removeRecursively();
            return;
        }
        command->jobDir = workDir;
        m_commands.insert(id, command.release());
        m_jobPoll->start();
        return;
    }

    auto *process = new QProcess(this);
    command->process = process;
    process->setProgram(m_program);
    process->setArguments(argv);
    process->setStandardInputFile(QProcess::nullDevice());
    Command *raw = command.release();
    m_commands.insert(id, raw);
    connect(process, &QProcess::readyReadStandardOutput, this, [this, id, raw] {
        forward(id, QStringLiteral("out"), &raw->pendingOut, raw->process->readAllStandardOutput(), false);
    });
    connect(process, &QProcess::readyReadStandardError, this, [this, id, raw] {
        forward(id, QStringLiteral("err"), &raw->pendingErr, raw->process->readAllStandardError(), false);
    });
    connect(process, &QProcess::finished, this, [this, id, raw](int code, QProcess::ExitStatus status) {
        forward(id, QStringLiteral("out"), &raw->pendingOut, raw->process->readAllStandardOutput(), true);
        forward(id, QStringLiteral("err"), &raw->pendingErr, raw->process->readAllStandardError(), true);
        finishCommand(id, status == QProcess::NormalExit ? code : 128 + SIGTERM);
    });
    connect(process, &QProcess::errorOccurred, this, [this, id](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            sendError(id, QStringLiteral("cannot start %1").arg(m_program));
            delete m_commands.take(id);
        }
    });
    process->start();
}

bool AgentServer::startJob(qint64 id, const QString &workDir, const QStringList &argv, const QJsonArray &files,
    const QHash<QString, QString> &replacements, const QString &command)
{
    QJsonObject names;
    for (auto it = replacements.begin(); it != replacements.end(); ++it)
        names.insert(it.key(), it.value());
    QJsonObject meta { { QLatin1String("argv"), QJsonArray::fromStringList(argv) }, { QLatin1String("files"), files },
        { QLatin1String("replacements"), names },
        { QLatin1String("started"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate) } };
    if (!command.isEmpty())
        meta.insert(QLatin1String("command"), command); // an operation's job: listed by what it does
    QFile metaFile(workDir + QStringLiteral("/job.json"));
    if (!metaFile.open(QIODevice::WriteOnly) || metaFile.write(QJsonDocument(meta).toJson()) < 0) {
        sendError(id, QStringLiteral("cannot write %1").arg(metaFile.fileName()));
        return false;
    }
    metaFile.close();
    // The job is its own session (setsid): no terminal, no SIGHUP when ssh goes. sh records the command's pid and
    // exit status; the command ends on its own (fio's runtime) or on an explicit stop (SIGINT to that pid).
    const QString script = QStringLiteral(
        "J=$1; shift; \"$@\" >\"$J/stdout\" 2>\"$J/stderr\" </dev/null & echo $! >\"$J/pid.tmp\"; mv \"$J/pid.tmp\" "
        "\"$J/pid\"; wait $!; echo $? >\"$J/status.tmp\"; mv \"$J/status.tmp\" \"$J/status\"");
    QProcess launcher;
    launcher.setProgram(QStringLiteral("setsid"));
    launcher.setArguments(QStringList { QStringLiteral("-f"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                              QStringLiteral("dmtune-job"), workDir, m_program }
        + argv);
    launcher.setStandardInputFile(QProcess::nullDevice());
    launcher.setStandardOutputFile(QProcess::nullDevice());
    launcher.setStandardErrorFile(QProcess::nullDevice());
    if (!launcher.startDetached()) {
        sendError(id, QStringLiteral("cannot start setsid (util-linux) for the job"));
        return false;
    }
    send({ { QLatin1String("type"), QStringLiteral("job") }, { QLatin1String("id"), id },
        { QLatin1String("job"), QFileInfo(workDir).fileName() } });
    return true;
}

void AgentServer::startOperationJob(qint64 id, const QJsonObject &request)
{
    const Result<OperationPlan> plan = planFromJson(request.value(QLatin1String("plan")).toObject());
    if (!plan)
        return sendError(id, QStringLiteral("start: the plan: %1").arg(plan.errorMessage()));
    const Result<OperationAnswers> answers = answersFromJson(request.value(QLatin1String("answers")).toObject());
    if (!answers)
        return sendError(id, QStringLiteral("start: the answers: %1").arg(answers.errorMessage()));
    if (!isDetachableOperation(plan->kind))
        return sendError(
            id, QStringLiteral("start: %1 does not run as a job (start it without \"detach\")").arg(plan->kind));
    if (!m_root.isLive())
        return sendError(id, QStringLiteral("start: this agent reads a captured tree: nothing runs here"));
    // The answers are the user's for this very plan; the job checks the state against its basis when it starts.
    if (const QString problem = answersProblem(*plan, *answers); !problem.isEmpty())
        return sendError(id, QStringLiteral("start: %1").arg(problem));

    const QString jobId = newJobId();
    const QString workDir = m_jobsDir + QLatin1Char('/') + jobId;
    if (!makePrivateDir(m_jobsDir) || !makePrivateDir(workDir) || !makePrivateDir(workDir + QStringLiteral("/in"))
        || !makePrivateDir(workDir + QStringLiteral("/out")))
        return sendError(id, QStringLiteral("cannot make the job directory %1").arg(workDir));
    const auto refuse = [&](const QString &error) {
        QDir(workDir).removeRecursively();
        sendError(id, error);
    };
    OperationJob job { plan->kind, plan->request, plan->basis, answers->accepted, {} };
    // A job file sent as content is the job's own copy, in its directory: the plan's copy went with the plan.
    const QJsonObject content { { QStringLiteral("job"), request.value(QLatin1String("job_file")) } };
    if (const auto sent = sentJobFileOf(content); !sent) {
        return refuse(sent.errorMessage());
    } else if (sent->has_value()) {
        const Fd in(::open(QFile::encodeName(workDir + QStringLiteral("/in")).constData(),
            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        if (const Status written = createNewFile(in.get(), (*sent)->fileName, (*sent)->content, 0600); !written)
            return refuse(QStringLiteral("start: the job file: %1").arg(written.errorMessage()));
        QJsonObject o = job.request.value(QLatin1String("job")).toObject();
        o.insert(QStringLiteral("job_file"), workDir + QStringLiteral("/in/") + (*sent)->fileName);
        job.request.insert(QStringLiteral("job"), o);
    }
    // The recording is written in the job's directory and fetched to the near side's file when the job ends.
    QJsonArray files;
    if (const QString near = request.value(QLatin1String("record")).toString(); !near.isEmpty()) {
        QString base = QFileInfo(near).fileName();
        if (base.isEmpty() || base == QLatin1String(".."))
            base = QStringLiteral("run.dmrec");
        const QString remote = workDir + QStringLiteral("/out/") + base;
        job.request.insert(QStringLiteral("record"), remote);
        files.append(QJsonObject { { QLatin1String("index"), 0 }, { QLatin1String("output"), true },
            { QLatin1String("remote"), remote }, { QLatin1String("path"), near } });
    } else {
        job.request.remove(QStringLiteral("record"));
    }
    job.request.remove(QStringLiteral("replace_recording"));
    job.command = operationJobCommand(job.kind, plan->request);
    if (const Status written = writeFileAtomically(workDir + QLatin1Char('/') + QLatin1String(OperationJobFileName),
            QJsonDocument(operationJobToJson(job)).toJson(QJsonDocument::Compact));
        !written)
        return refuse(QStringLiteral("start: %1").arg(written.errorMessage()));
    auto command = std::make_unique<Command>();
    command->id = id;
    command->files = files;
    if (!startJob(
            id, workDir, { QStringLiteral("agent"), QStringLiteral("--run-job"), workDir }, files, {}, job.command)) {
        QDir(workDir).removeRecursively();
        return;
    }
    command->jobDir = workDir;
    m_commands.insert(id, command.release());
    m_jobPoll->start();
}

void AgentServer::attach(qint64 id, const QString &job)
{
    const QString dir = m_jobsDir + QLatin1Char('/') + job;
    const QJsonObject meta = readJson(dir + QStringLiteral("/job.json"));
    if (!validJobId(job) || meta.isEmpty()) {
        sendError(id, QStringLiteral("no job '%1' on this host (dmtunectl --host HOST job list)").arg(job));
        return;
    }
    auto *command = new Command;
    command->id = id;
    command->jobDir = dir;
    command->files = meta.value(QLatin1String("files")).toArray();
    const QJsonObject names = meta.value(QLatin1String("replacements")).toObject();
    for (auto it = names.begin(); it != names.end(); ++it)
        command->replacements.insert(it.key(), it.value().toString());
    m_commands.insert(id, command);
    send({ { QLatin1String("type"), QStringLiteral("job") }, { QLatin1String("id"), id },
        { QLatin1String("job"), job } });
    m_jobPoll->start();
}

void AgentServer::pollJobs()
{
    bool any = false;
    const QList<qint64> ids = m_commands.keys();
    for (const qint64 id : ids) {
        Command *command = m_commands.value(id);
        if (command->jobDir.isEmpty())
            continue;
        any = true;
        const bool ended = QFileInfo::exists(command->jobDir + QStringLiteral("/status"));
        const auto drain = [&](const QString &name, qint64 *offset, QByteArray *pending, const QString &stream) {
            QFile file(command->jobDir + QLatin1Char('/') + name);
            if (!file.open(QIODevice::ReadOnly) || !file.seek(*offset))
                return;
            const QByteArray data = file.readAll();
            *offset += data.size();
            forward(id, stream, pending, data, ended);
        };
        drain(QStringLiteral("stdout"), &command->outOffset, &command->pendingOut, QStringLiteral("out"));
        drain(QStringLiteral("stderr"), &command->errOffset, &command->pendingErr, QStringLiteral("err"));
        if (ended)
            finishCommand(id, readLine(command->jobDir + QStringLiteral("/status")).toInt());
    }
    if (!any)
        m_jobPoll->stop();
}

void AgentServer::listJobs(qint64 id)
{
    QJsonArray jobs;
    const QStringList names = QDir(m_jobsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : names) {
        const QString dir = m_jobsDir + QLatin1Char('/') + name;
        const QJsonObject meta = readJson(dir + QStringLiteral("/job.json"));
        if (meta.isEmpty())
            continue;
        QJsonObject job { { QLatin1String("job"), name },
            { QLatin1String("started"), meta.value(QLatin1String("started")) } };
        QStringList argv;
        const QJsonObject names = meta.value(QLatin1String("replacements")).toObject();
        for (const QJsonValue &v : meta.value(QLatin1String("argv")).toArray()) {
            QString a = v.toString();
            for (auto it = names.begin(); it != names.end(); ++it)
                a.replace(it.key(), it.value().toString());
            argv << a;
        }
        job.insert(QLatin1String("command"),
            meta.contains(QLatin1String("command")) ? meta.value(QLatin1String("command")).toString()
                                                    : argv.join(QLatin1Char(' ')));
        const QString status = readLine(dir + QStringLiteral("/status"));
        if (!status.isEmpty()) {
            job.insert(QLatin1String("state"), QStringLiteral("ended"));
            job.insert(QLatin1String("status"), status.toInt());
        } else {
            const pid_t pid = readLine(dir + QStringLiteral("/pid")).toInt();
            const bool alive = pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
            job.insert(QLatin1String("state"), alive || pid <= 0 ? QStringLiteral("running") : QStringLiteral("lost"));
        }
        jobs.append(job);
    }
    send({ { QLatin1String("type"), QStringLiteral("response") }, { QLatin1String("id"), id },
        { QLatin1String("jobs"), jobs } });
}

void AgentServer::signalTarget(qint64 id, const QJsonObject &request)
{
    const QString name = request.value(QLatin1String("signal")).toString(QStringLiteral("INT"));
    const int sig = name == QLatin1String("INT") ? SIGINT : name == QLatin1String("TERM") ? SIGTERM : 0;
    if (sig == 0) {
        sendError(id, QStringLiteral("signal: INT or TERM, not '%1'").arg(name));
        return;
    }
    pid_t pid = 0;
    const QString job = request.value(QLatin1String("job")).toString();
    if (!job.isEmpty()) {
        if (!validJobId(job) || !QFileInfo::exists(m_jobsDir + QLatin1Char('/') + job + QStringLiteral("/job.json"))) {
            sendError(id, QStringLiteral("no job '%1' on this host").arg(job));
            return;
        }
        if (QFileInfo::exists(m_jobsDir + QLatin1Char('/') + job + QStringLiteral("/status"))) {
            sendError(id, QStringLiteral("job %1 has ended").arg(job));
            return;
        }
        pid = readLine(m_jobsDir + QLatin1Char('/') + job + QStringLiteral("/pid")).toInt();
    } else {
        const Command *command = m_commands.value(request.value(QLatin1String("target")).toInteger());
        if (command && command->process)
            pid = static_cast<pid_t>(command->process->processId());
        else if (command)
            pid = readLine(command->jobDir + QStringLiteral("/pid")).toInt();
    }
    if (pid <= 0 || ::kill(pid, sig) != 0) {
        sendError(id, QStringLiteral("signal: nothing running to signal"));
        return;
    }
    send({ { QLatin1String("type"), QStringLiteral("response") }, { QLatin1String("id"), id } });
}

void AgentServer::forward(qint64 id, const QString &stream, QByteArray *pending, const QByteArray &data, bool flush)
{
    const Command *command = m_commands.value(id);
    if (!command)
        return;
    pending->append(data);
    // Whole lines only, so that the agent's paths can be put back as the user wrote them.
    const qsizetype end = flush ? pending->size() : pending->lastIndexOf('\n') + 1;
    if (end <= 0)
        return;
    QString text = QString::fromUtf8(pending->left(end));
    pending->remove(0, end);
    for (auto it = command->replacements.begin(); it != command->replacements.end(); ++it)
        text.replace(it.key(), it.value());
    send({ { QLatin1String("type"), QStringLiteral("output") }, { QLatin1String("id"), id },
        { QLatin1String("stream"), stream }, { QLatin1String("data"), text } });
}

void AgentServer::finishCommand(qint64 id, int status)
{
    Command *command = m_commands.take(id);
    if (!command)
        return;
    QJsonArray outputs;
    for (const QJsonValue &value : std::as_const(command->files)) {
        const QJsonObject file = value.toObject();
        if (!file.value(QLatin1String("output")).toBool())
            continue;
        QJsonObject out = collectOutput(
            file.value(QLatin1String("remote")).toString(), file.value(QLatin1String("directory")).toBool());
        out.insert(QLatin1String("index"), file.value(QLatin1String("index")));
        out.insert(QLatin1String("path"), file.value(QLatin1String("path")));
        out.insert(QLatin1String("local"), file.value(QLatin1String("local")));
        out.insert(QLatin1String("directory"), file.value(QLatin1String("directory")));
        outputs.append(out);
    }
    QJsonObject exit { { QLatin1String("type"), QStringLiteral("exit") }, { QLatin1String("id"), id },
        { QLatin1String("status"), status }, { QLatin1String("files"), outputs } };
    if (!command->jobDir.isEmpty())
        exit.insert(QLatin1String("job"), QFileInfo(command->jobDir).fileName());
    send(exit);
    if (command->process)
        command->process->deleteLater();
    delete command;
}

} // namespace dmtune
