// dmtunectl agent: the far side of `dmtunectl --host` and the GUI's hosts (core/remote/agentserver.h).
#include "cli.h"
#include "remote/agentserver.h"

#include <unistd.h>

namespace dmtune::cli {

int runAgent(const QStringList &args, Streams io)
{
    if (args.size() > 1) {
        if (args.at(1) == QLatin1String("--help") || args.at(1) == QLatin1String("-h")) {
            io.out << "usage: dmtunectl agent\n\nSpeaks dmtune's agent protocol (JSON lines, docs/remote.md) on stdin "
                      "and stdout for one client:\nwhat `dmtunectl --host` and the GUI's hosts start over ssh. It "
                      "never listens on a socket.\n";
            return ExitOk;
        }
        return usageError(io, QStringLiteral("agent takes no arguments (it speaks on stdin and stdout)"));
    }
    if (::isatty(0) && ::isatty(1))
        io.err << "dmtunectl agent: speaking the agent protocol (JSON lines) on this terminal; Ctrl-D ends it\n";
    io.err.flush();
    AgentServer server(QCoreApplication::applicationFilePath(), AgentServer::defaultJobsDir());
    QObject::connect(
        &server, &AgentServer::finished, QCoreApplication::instance(), &QCoreApplication::quit, Qt::QueuedConnection);
    server.start();
    return QCoreApplication::exec() == 0 ? ExitOk : ExitFailure;
}

} // namespace dmtune::cli
