// AgentServer's `cli` and `signal` requests: a dmtunectl command line run here with the near side's files, a signal to
// a running command or job; and what the client gets of a command or an attached job: its output (the agent's paths
// put back as the user wrote them), its exit status and the files it wrote.
#include "core/remote/agentserver.h"

#include "core/remote/agentserver_p.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <csignal>
#include <memory>
#include <unistd.h>

namespace dmtune {

namespace {

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

} // namespace

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
        jobId = agentserver::newJobId();
        workDir = m_jobsDir + QLatin1Char('/') + jobId;
        if (!agentserver::makePrivateDir(m_jobsDir) || !agentserver::makePrivateDir(workDir)) {
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
        agentserver::makePrivateDir(dir);
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
        if (!agentserver::validJobId(job)
            || !QFileInfo::exists(m_jobsDir + QLatin1Char('/') + job + QStringLiteral("/job.json"))) {
            sendError(id, QStringLiteral("no job '%1' on this host").arg(job));
            return;
        }
        if (QFileInfo::exists(m_jobsDir + QLatin1Char('/') + job + QStringLiteral("/status"))) {
            sendError(id, QStringLiteral("job %1 has ended").arg(job));
            return;
        }
        pid = agentserver::readLine(m_jobsDir + QLatin1Char('/') + job + QStringLiteral("/pid")).toInt();
    } else {
        const Command *command = m_commands.value(request.value(QLatin1String("target")).toInteger());
        if (command && command->process)
            pid = static_cast<pid_t>(command->process->processId());
        else if (command)
            pid = agentserver::readLine(command->jobDir + QStringLiteral("/pid")).toInt();
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
