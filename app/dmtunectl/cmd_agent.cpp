// dmtunectl agent: the far side of `dmtunectl --host` and the GUI's hosts (core/remote/agentserver.h).
#include "cli.h"
#include "discovery/sysfscapture.h"
#include "remote/agentserver.h"

#include <QFileInfo>

#include <unistd.h>

namespace dmtune::cli {

int runAgent(const QStringList &args, Streams io)
{
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
