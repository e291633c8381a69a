// dmtunectl agent: the far side of `dmtunectl --host` and the GUI's hosts (core/remote/agentserver.h).
#include "cli.h"
#include "signalguard.h"

#include "core/discovery/sysfscapture.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"
#include "core/remote/agentserver.h"
#include "core/remote/operationjob.h"
#include "core/util/inputfile.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QPointer>

#include <cstdio>

#include <unistd.h>

namespace dmtune::cli {

namespace {

void writeJobLine(const QByteArray &line)
{
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fflush(stdout); // each line as it comes: the agent tails the file for the attached clients
}

// `dmtunectl agent --run-job DIR`: a detached operation the agent started (remote/operationjob.h), in the job's
// session; its stdout (the job's output file) is the operation's events and its result, one JSON line each.
int runOperationJob(const QString &dir, Streams io)
{
    const auto bytes = readInputFile(
        dir + QLatin1Char('/') + QLatin1String(OperationJobFileName), MaxOperationJobBytes, QStringLiteral("the job"));
    if (!bytes)
        return fail(io, QStringLiteral("agent --run-job: ") + bytes.errorMessage());
    const auto job = operationJobFromJson(QJsonDocument::fromJson(bytes.value()).object());
    if (!job)
        return fail(io, QStringLiteral("agent --run-job: ") + job.errorMessage());
    registerBuiltinOperations();
    const HostContext host { SysfsRoot() };
    const OperationEnvironment env = host.environment();
    const auto checked = checkOperationJob(env, job.value());
    if (const auto *refused = std::get_if<OperationResult>(&checked)) {
        writeJobLine(operationJobResultLine(*refused));
        return ExitFailure;
    }
    const auto &start = std::get<CheckedOperationJob>(checked);
    OperationRunner operations;
    operations.setEnvironment(env);
    const QPointer<OperationRun> run = operations.start(
        start.plan, start.answers, &operations,
        [](const QJsonObject &event) { writeJobLine(operationJobEventLine(event)); },
        [](const OperationResult &result) {
            writeJobLine(operationJobResultLine(result));
            QCoreApplication::exit(result.ok ? ExitOk : ExitFailure);
        });
    // The agent's signal op sends SIGINT (the window's Stop): fio is stopped and reports, the result follows.
    SignalGuard signalGuard;
    signalGuard.onSignal(&operations, [&] {
        if (run)
            run->cancel();
    });
    return QCoreApplication::exec();
}

} // namespace

int runAgent(const QStringList &args, Streams io)
{
    if (args.size() == 3 && args.at(1) == QLatin1String("--run-job"))
        return runOperationJob(args.at(2), io);
    QString sysfsRoot;
    if (args.size() > 1) {
        if (args.at(1) == QLatin1String("--help") || args.at(1) == QLatin1String("-h")) {
            io.out << "usage: dmtunectl agent [--sysfs-root DIR]\n\nSpeaks dmtune's agent protocol (JSON lines, "
                      "docs/remote.md) on stdin and stdout for one client:\nwhat `dmtunectl --host` and the GUI's "
                      "hosts start over ssh. It never listens on a socket.\n--sysfs-root DIR: the counter streams "
                      "read a captured or generated tree (tests, benchmarks).\n";
            return ExitOk;
        }
        if (args.size() != 3 || args.at(1) != QLatin1String("--sysfs-root") || args.at(2).isEmpty())
            return usageError(io, QStringLiteral("agent takes only --sysfs-root DIR (it speaks on stdin and stdout)"));
        sysfsRoot = args.at(2);
        if (!QFileInfo(sysfsRoot).isDir())
            return fail(io, QStringLiteral("agent: --sysfs-root %1: not a directory").arg(sysfsRoot));
    }
    if (::isatty(0) && ::isatty(1))
        io.err << "dmtunectl agent: speaking the agent protocol (JSON lines) on this terminal; Ctrl-D ends it\n";
    io.err.flush();
    AgentServer server(QCoreApplication::applicationFilePath(), AgentServer::defaultJobsDir());
    if (!sysfsRoot.isEmpty())
        server.setSysfsRoot(sysfsRootForDirectory(sysfsRoot));
    QObject::connect(
        &server, &AgentServer::finished, QCoreApplication::instance(), &QCoreApplication::quit, Qt::QueuedConnection);
    server.start();
    return QCoreApplication::exec() == 0 ? ExitOk : ExitFailure;
}

} // namespace dmtune::cli
