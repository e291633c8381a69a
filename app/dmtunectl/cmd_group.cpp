// dmtunectl group switch|enable|disable MAP N: path group messages (N is 1-based).
#include "cli.h"

#include <QHash>
#include <QJsonObject>

namespace dmtune::cli {

int runGroup(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "Switch to, enable or disable a path group of a multipath map (groups count from 1, as in "
            "'dmtunectl map show'). switch goes through multipathd when it runs and manages the map; multipathd "
            "has no enable/disable command, so those are always device-mapper messages. Disabling the active "
            "group needs --force.\n")
        + consentHelp({ QString(), QStringLiteral("--force"), QString() }));
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
    const QString &action = positional.at(0);
    static const QHash<QString, QString> kinds { { QStringLiteral("switch"), QStringLiteral("multipath.switch-group") },
        { QStringLiteral("enable"), QStringLiteral("multipath.enable-group") },
        { QStringLiteral("disable"), QStringLiteral("multipath.disable-group") } };
    if (!kinds.contains(action))
        return usageError(io,
            QStringLiteral("unknown group action '%1'%2")
                .arg(action,
                    nearOrList(
                        action, { QStringLiteral("switch"), QStringLiteral("enable"), QStringLiteral("disable") })));
    bool ok = false;
    const int group = positional.at(2).toInt(&ok);
    if (!ok || group < 1)
        return usageError(io, QStringLiteral("'%1' is not a group number (1, 2, ...)").arg(positional.at(2)));
    if (refuseCapturedTree(
            parser, QStringLiteral("group ") + action, parser.isSet(QStringLiteral("dry-run")), true, io, &code))
        return code;
    return runMultipathMessageCli(parser, kinds.value(action),
        { { QLatin1String("map"), positional.at(1) }, { QLatin1String("group"), group } }, io);
}

} // namespace dmtune::cli
