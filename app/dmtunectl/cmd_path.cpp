// dmtunectl path fail|reinstate MAP DEV, and the plumbing every multipath operation shares:
// prepare (resolve, check, risks), refuse risky operations without --force, run, print.
#include "cli.h"

#include "dm/libdevmapperbackend.h"
#include "dm/multipathoperation.h"

namespace dmtune::cli {

void addOperationOptions(QCommandLineParser &parser)
{
    parser.addOption({ QStringLiteral("force"), QStringLiteral("Run an operation that can cause I/O errors.") });
    parser.addOption(
        { QStringLiteral("no-multipathd"), QStringLiteral("Send device-mapper messages even when multipathd runs.") });
}

int runMultipathMessageCli(
    const QCommandLineParser &parser, const QString &map, const MultipathMessage &message, Streams io)
{
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    LibDevmapperBackend backend(sysfs);
    if (const DmAvailability available = backend.availability(); !available.available)
        return fail(io, available.reason);
    const auto prepared = prepareMultipathOperation(backend, sysfs, map, message);
    if (!prepared)
        return fail(io, prepared.errorMessage());
    const QString operation = formatMultipathMessage(prepared->message).value();
    if (!prepared->risks.isEmpty() && !parser.isSet(QStringLiteral("force")))
        return fail(io,
            QStringLiteral("%1: %2 refused without --force: %3")
                .arg(map, operation, prepared->risks.join(QStringLiteral("; "))));
    const MultipathdCommand multipathd
        = parser.isSet(QStringLiteral("no-multipathd")) ? MultipathdCommand() : liveMultipathd();
    const MultipathOperationResult result = executeMultipathOperation(backend, prepared.value(), multipathd);
    for (const QString &risk : prepared->risks)
        io.err << "dmtunectl: warning: " << risk << '\n';
    for (const QString &warning : result.warnings)
        io.err << "dmtunectl: warning: " << warning << '\n';
    io.err.flush();
    if (!result.ok)
        return fail(io, result.error);
    io.out << QStringLiteral("%1: %2 done via %3 (%4)\n").arg(map, result.operation, result.via, result.command);
    io.out.flush();
    return ExitOk;
}

int runPath(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Fail or reinstate a path of a multipath map. Through multipathd when it runs and manages the map "
        "(its checker then leaves a failed path alone until it is reinstated), else as a device-mapper "
        "message. Failing the last active path (or the last of a group while queue_if_no_path is off) "
        "needs --force.\nDEV: sdX, /dev/..., or MAJ:MIN."));
    parser.addPositionalArgument(QStringLiteral("ACTION"), QStringLiteral("fail or reinstate"));
    parser.addPositionalArgument(QStringLiteral("MAP"), QStringLiteral("The map's name (mpatha)."));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("The path device."));
    addOperationOptions(parser);
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 3)
        return usageError(io, QStringLiteral("path needs ACTION MAP DEV"));
    MultipathMessage message;
    if (positional.at(0) == QLatin1String("fail"))
        message.kind = MultipathMessageKind::FailPath;
    else if (positional.at(0) == QLatin1String("reinstate"))
        message.kind = MultipathMessageKind::ReinstatePath;
    else
        return usageError(io, QStringLiteral("unknown path action '%1' (fail, reinstate)").arg(positional.at(0)));
    message.device = positional.at(2);
    return runMultipathMessageCli(parser, positional.at(1), message, io);
}

} // namespace dmtune::cli
