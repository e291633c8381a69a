// dmtunectl set: the tuning.apply operation (ops/tuningoperations.h): validate, plan (safe order, stacking
// warnings) and apply a change set as one transaction; on any failure everything written is restored and the
// command exits 1.
#include "cli.h"

#include "ops/operationregistry.h"
#include "ops/tuningoperations.h"
#include "params/catalog.h"

#include <QJsonDocument>

namespace dmtune::cli {

namespace {

void printPlan(const Plan &plan, bool dryRun, QTextStream &out)
{
    out << (dryRun ? "plan (dry run, nothing written):\n" : "plan:\n");
    int n = 0;
    for (const auto &w : plan.writes)
        out << "  " << ++n << ". " << w.device << ' ' << w.attribute << ": "
            << (w.oldValue.isEmpty() ? QStringLiteral("(new scheduler's default)") : w.oldValue) << " -> " << w.value
            << '\n';
}

void printResult(const ApplyResult &r, QTextStream &out, QTextStream &err)
{
    if (!r.dryRun && !r.rejected()) { // rejected: nothing was written, the errors say why
        out << (r.rolledBack ? "rolled back (every value written was restored):\n" : "applied:\n");
        for (const auto &c : r.changes) {
            out << "  " << c.device << ' ' << c.attribute << ": " << c.oldValue << " -> " << c.newValue;
            if (c.clamped)
                out << " (requested " << c.requested << ", clamped by the kernel)";
            else if (!c.note.isEmpty() && c.note != QLatin1String("rolled back"))
                out << " (" << c.note << ')';
            out << '\n';
        }
    }
    for (const auto &e : r.errors)
        err << "dmtunectl: " << e.text() << '\n';
}

} // namespace

int runSet(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Set tunables as one transaction: safe order, read back, rollback on any error.\n"
                       "exit status: 0 applied, 1 failed and rolled back, 2 bad usage or invalid value."));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("sdX, dm-N, a map name, /dev/..., MAJ:MIN."));
    parser.addPositionalArgument(QStringLiteral("ATTR=VALUE"), QStringLiteral("e.g. nomerges=2 queue/scheduler=none"),
        QStringLiteral("ATTR=VALUE..."));
    parser.addOption({ QStringLiteral("with-paths"), QStringLiteral("Apply to the map and every path below it.") });
    parser.addOption({ QStringLiteral("dry-run"), QStringLiteral("Validate and plan; write nothing.") });
    parser.addOption({ QStringLiteral("force"),
        QStringLiteral("Write values that put data at risk (queue/write_cache=write through: no more flushes).") });
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print the result as JSON.") });
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    QStringList positional = parser.positionalArguments();
    if (positional.size() < 2)
        return usageError(io, QStringLiteral("set needs a device and at least one ATTR=VALUE"));
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (refuseCapturedTree(parser, QStringLiteral("set"), dryRun, true, io, &code))
        return code;
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (!sysfs.isDir(QStringLiteral("block")))
        return fail(io, QStringLiteral("%1: no block/ directory (not a sysfs tree)").arg(sysfs.root()));

    QList<Assignment> assignments;
    for (const auto &text : positional.mid(1)) {
        const auto a = parseAssignment(text);
        if (!a)
            return usageError(io, a.errorMessage());
        if (!catalog::find(a->attribute))
            return usageError(io, QStringLiteral("unknown attribute '%1'").arg(a->attribute));
        assignments << *a;
    }
    ChangeSet changes;
    for (const Assignment &a : std::as_const(assignments))
        changes << Change { positional.first(), a.attribute, a.value };
    OperationEnvironment env;
    env.sysfs = sysfs;
    const auto operation = planOperation(
        env, QString::fromLatin1(TuningApplyKind), tuningRequest(changes, parser.isSet(QStringLiteral("with-paths"))));
    if (!operation)
        return usageError(io, operation.errorMessage());
    const Plan &plan = *tuningPlanOf(operation.value());
    const bool force = parser.isSet(QStringLiteral("force"));
    // The operation found the risk; the CLI only asks for --force before anything is written or printed.
    // One line, exit 2 as for any rejected change set: nothing was written.
    if (!dryRun && !force && operation->refusals.isEmpty() && !operation->risks.isEmpty()) {
        const QString more = plan.risks.size() > 1
            ? QStringLiteral(" (and %1 more writes like it)").arg(plan.risks.size() - 1)
            : QString();
        fail(io, QStringLiteral("set: %1%2; refused without --force").arg(plan.risks.first().text(), more));
        return ExitUsage;
    }
    const bool json = parser.isSet(QStringLiteral("json"));
    if (!json && plan.ok())
        printPlan(plan, dryRun, io.out);
    if (!json) {
        for (const auto &w : plan.warnings)
            io.out << "warning: " << w.message << '\n';
        for (const auto &r : plan.risks)
            io.out << "risk: " << r.text() << (dryRun && !force ? " (needs --force)" : "") << '\n';
    }
    // --force covers every risk of this plan (each is a write the user named on the command line); a dry run
    // writes nothing, so it shows the plan whatever the risks.
    OperationAnswers answers
        = force || dryRun ? acceptAll(operation.value()) : OperationAnswers { operation->id, {}, false };
    answers.dryRun = dryRun;
    const ApplyResult result = operation->refusals.isEmpty()
        ? applyResultOf(runOperation(env, operation.value(), answers))
        : tuningRefusal(operation.value(), dryRun);
    if (json)
        io.out << QJsonDocument(toJson(result)).toJson(QJsonDocument::Indented);
    else
        printResult(result, io.out, io.err);
    io.out.flush();
    io.err.flush();
    if (result.rejected())
        return ExitUsage;
    return result.ok() ? ExitOk : ExitFailure;
}

} // namespace dmtune::cli
