// AgentServer's detached jobs: each one a directory under the jobs directory (job.json, the command's stdout,
// stderr, pid and exit status) and a session of its own; `run` and a detached operation started as one, attached,
// polled for output and end, listed.
#include "core/remote/agentserver.h"

#include "core/remote/agentserver_p.h"

#include "core/discovery/sysfscapture.h"
#include "core/ops/workloadoperations.h"
#include "core/remote/operationjob.h"
#include "core/util/atomicfile.h"
#include "core/util/fd.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace agentserver {

bool makePrivateDir(const QString &path)
{
    if (!QDir().mkpath(path))
        return false;
    return QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

QString readLine(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
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

} // namespace agentserver

namespace {

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

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

    const QString jobId = agentserver::newJobId();
    const QString workDir = m_jobsDir + QLatin1Char('/') + jobId;
    if (!agentserver::makePrivateDir(m_jobsDir) || !agentserver::makePrivateDir(workDir)
        || !agentserver::makePrivateDir(workDir + QStringLiteral("/in"))
        || !agentserver::makePrivateDir(workDir + QStringLiteral("/out")))
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
    if (!agentserver::validJobId(job) || meta.isEmpty()) {
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
            finishCommand(id, agentserver::readLine(command->jobDir + QStringLiteral("/status")).toInt());
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
        const QString status = agentserver::readLine(dir + QStringLiteral("/status"));
        if (!status.isEmpty()) {
            job.insert(QLatin1String("state"), QStringLiteral("ended"));
            job.insert(QLatin1String("status"), status.toInt());
        } else {
            const pid_t pid = agentserver::readLine(dir + QStringLiteral("/pid")).toInt();
            const bool alive = pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
            job.insert(QLatin1String("state"), alive || pid <= 0 ? QStringLiteral("running") : QStringLiteral("lost"));
        }
        jobs.append(job);
    }
    send({ { QLatin1String("type"), QStringLiteral("response") }, { QLatin1String("id"), id },
        { QLatin1String("jobs"), jobs } });
}

} // namespace dmtune
