// dmtunectl group switch|enable|disable MAP N: path group messages (N is 1-based).
#include "cli.h"

#include "dm/multipathmessages.h"

namespace dmtune::cli {

int runGroup(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Switch to, enable or disable a path group of a multipath map (groups count from 1, as in "
        "'dmtunectl map show'). switch goes through multipathd when it runs and manages the map; multipathd "
        "has no enable/disable command, so those are always device-mapper messages. Disabling the active "
        "group needs --force."));
    parser.addPositionalArgument(QStringLiteral("ACTION"), QStringLiteral("switch, enable or disable"));
    parser.addPositionalArgument(QStringLiteral("MAP"), QStringLiteral("The map's name (mpatha)."));
    parser.addPositionalArgument(QStringLiteral("N"), QStringLiteral("The group number, from 1."));
    addOperationOptions(parser);
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 3)
        return usageError(io, QStringLiteral("group needs ACTION MAP N"));
    MultipathMessage message;
    const QString action = positional.at(0);
    if (action == QLatin1String("switch"))
        message.kind = MultipathMessageKind::SwitchGroup;
    else if (action == QLatin1String("enable"))
        message.kind = MultipathMessageKind::EnableGroup;
    else if (action == QLatin1String("disable"))
        message.kind = MultipathMessageKind::DisableGroup;
    else
        return usageError(io, QStringLiteral("unknown group action '%1' (switch, enable, disable)").arg(action));
    bool ok = false;
    message.group = positional.at(2).toInt(&ok);
    if (!ok || message.group < 1)
        return usageError(io, QStringLiteral("'%1' is not a group number (1, 2, ...)").arg(positional.at(2)));
    return runMultipathMessageCli(parser, positional.at(1), message, io);
}

} // namespace dmtune::cli
