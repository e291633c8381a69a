// dmtunectl path fail|reinstate MAP DEV, and the plumbing every multipath operation shares: plan the core
// operation (ops/multipathoperations.h), refuse a risky plan without --force, run it (re-validated), print.
#include "cli.h"

#include "core/discovery/nvmemultipath.h"

#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/devicemapper.h"
#include "core/dm/multipathchange.h"
#include "core/dm/pathdevice.h"
#include "core/ops/multipathoperations.h"

namespace dmtune::cli {

void addOperationOptions(QCommandLineParser &parser)
{
    addForceOption(parser, QStringLiteral("an operation that can cause I/O errors or hangs"));
    parser.addOption(
        { QStringLiteral("no-multipathd"), QStringLiteral("Send device-mapper messages even when multipathd runs.") });
    parser.addOption({ QStringLiteral("dry-run"),
        QStringLiteral("Check the operation on the state now and print what it would do; change nothing.") });
}

Result<MultipathCliOperation> planMultipathCli(
    const QCommandLineParser &parser, const QString &kind, const QJsonObject &request, bool useMultipathd)
{
    using R = Result<MultipathCliOperation>;
    MultipathCliOperation op;
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    // Said before device-mapper's absence: a native NVMe head needs no dm_mod, and dm would not help it.
    if (const QString nvme = nativeNvmeInsteadOfDm(sysfs, request.value(QLatin1String("map")).toString());
        !nvme.isEmpty())
        return R::failure(nvme);
    const auto dm = deviceMapperFor(sysfs);
    if (!dm)
        return R::failure(dm.errorMessage());
    op.dm = dm.value();
    op.env.sysfs = sysfs;
    op.env.dm = op.dm.get();
    if (useMultipathd && sysfs.isLive())
        op.env.multipathd = &liveMultipathd;
    auto plan = planOperation(op.env, kind, request);
    if (!plan)
        return R::failure(plan.errorMessage());
    op.plan = plan.value();
    return op;
}

OperationResult runMultipathCli(const MultipathCliOperation &op, bool dryRun)
{
    // The caller's consentFor() answered every risk (or there are none); a dry run accepts them to see the rest.
    OperationAnswers answers = acceptAll(op.plan);
    answers.dryRun = dryRun;
    return runOperation(op.env, op.plan, answers);
}

QString riskTexts(const OperationPlan &plan)
{
    QStringList texts;
    for (const OperationRisk &risk : plan.risks)
        texts.append(risk.text);
    return texts.join(QStringLiteral("; "));
}

int runMultipathMessageCli(
    const QCommandLineParser &parser, const QString &kind, const QJsonObject &request, Streams io)
{
    const auto op = planMultipathCli(parser, kind, request, !parser.isSet(QStringLiteral("no-multipathd")));
    if (!op) // no such map, path of it or group: the host's, not the command line's (1)
        return fail(io, op.errorMessage());
    const OperationPlan &plan = op->plan;
    const QString map = plan.target;
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (dryRun) {
        for (const QString &step : plan.steps)
            io.out << "# " << step << '\n';
        for (const OperationRisk &risk : plan.risks)
            io.out << "# risk: " << risk.text << '\n';
        for (const QString &refusal : plan.refusals) // a captured tree: the preview only
            io.out << "# refused here: " << refusal << '\n';
        if (!plan.refusals.isEmpty()) {
            io.out << QStringLiteral("%1: would %2\n").arg(map, multipathOperationOf(plan));
            io.out.flush();
            return ExitOk;
        }
    } else if (!plan.refusals.isEmpty()) {
        return fail(io, plan.refusals.first());
    }
    // The consent model (ops/consent.h): these operations risk availability only (I/O errors or hangs): --force.
    const ConsentWays ways { QString(), QStringLiteral("--force"), QString() };
    ConsentGiven given;
    given.force = parser.isSet(QStringLiteral("force"));
    const auto consent = consentFor(plan, given, ways);
    if (!dryRun && !consent)
        return fail(io, QStringLiteral("%1: %2 %3").arg(map, multipathOperationOf(plan), consent.errorMessage()));
    const OperationResult result = runMultipathCli(op.value(), dryRun);
    if (!dryRun) {
        for (const QString &warning : result.warnings)
            io.err << "dmtunectl: warning: " << warning << '\n';
    }
    io.err.flush();
    if (!result.ok)
        return fail(io, result.error);
    if (dryRun) {
        io.out << QStringLiteral("%1: would %2\n").arg(map, multipathOperationOf(plan));
        io.out.flush();
        if (!consent) // as the run would decide
            return fail(io, QStringLiteral("%1: %2 %3").arg(map, multipathOperationOf(plan), consent.errorMessage()));
    } else {
        const QJsonObject &d = result.details;
        io.out << QStringLiteral("%1: %2 done via %3 (%4)\n")
                      .arg(map, d.value(QLatin1String("operation")).toString(),
                          d.value(QLatin1String("via")).toString(), d.value(QLatin1String("command")).toString());
    }
    io.out.flush();
    return ExitOk;
}

int runPath(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "Fail or reinstate a path of a multipath map. Through multipathd when it runs and manages the map "
            "(its checker then leaves a failed path alone until it is reinstated), else as a device-mapper "
            "message. Failing the last active path (or the last of a group while queue_if_no_path is off) "
            "needs --force.\nDEV: sdX, /dev/..., or MAJ:MIN.\n")
        + consentHelp({ QString(), QStringLiteral("--force"), QString() }));
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
    QString kind;
    if (positional.at(0) == QLatin1String("fail"))
        kind = QStringLiteral("multipath.fail-path");
    else if (positional.at(0) == QLatin1String("reinstate"))
        kind = QStringLiteral("multipath.reinstate-path");
    else
        return usageError(io,
            QStringLiteral("unknown path action '%1'%2")
                .arg(positional.at(0),
                    nearOrList(positional.at(0), { QStringLiteral("fail"), QStringLiteral("reinstate") })));
    if (refuseCapturedTree(parser, QStringLiteral("path ") + positional.at(0), parser.isSet(QStringLiteral("dry-run")),
            true, io, &code))
        return code;
    return runMultipathMessageCli(
        parser, kind, { { QLatin1String("map"), positional.at(1) }, { QLatin1String("path"), positional.at(2) } }, io);
}

} // namespace dmtune::cli
