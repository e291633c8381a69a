// dmtunectl set: the tuning.apply operation (ops/tuningoperations.h): validate, plan (safe order, stacking
// warnings) and apply a change set as one transaction; on any failure everything written is restored and the
// command exits 1.
#include "cli.h"

#include "core/discovery/discovery.h"
#include "core/ops/operationregistry.h"
#include "core/ops/tuningoperations.h"
#include "core/params/catalog.h"
#include "core/params/valueparsers.h"

#include <QHash>
#include <QJsonDocument>

namespace dmtune::cli {

namespace {

// A planned write of the value the file has already (the transaction skips it).
bool unchanged(const PlannedWrite &w)
{
    const TunableDef *def = catalog::find(w.attribute);
    return def && !w.oldValue.isEmpty() && sameValue(*def, w.oldValue, w.value);
}

// "already set: queue/scheduler=none on dm-0, sda, sdb" for the writes that change nothing: one line, not a step each.
QString alreadySet(const QList<std::pair<QString, QString>> &settings)
{
    QStringList order; // "attribute=value" in plan order
    QHash<QString, QStringList> devices;
    for (const auto &[device, setting] : settings) {
        if (!devices.contains(setting))
            order.append(setting);
        devices[setting].append(device);
    }
    QStringList parts;
    for (const QString &setting : std::as_const(order))
        parts.append(QStringLiteral("%1 on %2").arg(setting, devices.value(setting).join(QStringLiteral(", "))));
    return QStringLiteral("already set: ") + parts.join(QStringLiteral("; "));
}

void printPlan(const Plan &plan, bool dryRun, QTextStream &out)
{
    QList<std::pair<QString, QString>> same;
    QStringList steps;
    for (const auto &w : plan.writes) {
        if (unchanged(w)) {
            same.append({ w.device, QStringLiteral("%1=%2").arg(w.attribute, w.value) });
            continue;
        }
        steps << QStringLiteral("  %1. %2 %3: %4 -> %5")
                     .arg(steps.size() + 1)
                     .arg(w.device, w.attribute,
                         w.oldValue.isEmpty() ? QStringLiteral("(new scheduler's default)") : w.oldValue, w.value);
    }
    if (steps.isEmpty()) {
        out << (dryRun ? "plan (dry run): nothing to write\n" : "nothing to write\n");
    } else {
        out << (dryRun ? "plan (dry run, nothing written):\n" : "plan:\n");
        for (const QString &step : std::as_const(steps))
            out << step << '\n';
    }
    if (!same.isEmpty())
        out << alreadySet(same) << '\n';
}

void printResult(const ApplyResult &r, QTextStream &out, QTextStream &err)
{
    // Only what changed; the plan said what was set already.
    QList<ChangeOutcome> shown;
    for (const auto &c : r.changes) {
        if (c.written || c.sideEffect || !c.error.isEmpty() || (r.rolledBack && c.note == QLatin1String("not written")))
            shown << c;
    }
    if (!r.dryRun && !r.rejected() && !shown.isEmpty()) { // rejected: nothing was written, the errors say why
        out << (r.rolledBack ? "rolled back (every value written was restored):\n" : "applied:\n");
        for (const auto &c : std::as_const(shown)) {
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
        QStringLiteral(
            "Set tunables as one transaction: safe order, read back, rollback on any error.\n"
            "exit status: 0 applied (or nothing to change: a device's current value is never refused), 1 refused,\n"
            "or failed and rolled back, or a device this host does not have, 2 bad usage or invalid value.\n")
        + consentHelp(ConsentWays()));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("sdX, dm-N, a map name, /dev/..., MAJ:MIN."));
    parser.addPositionalArgument(QStringLiteral("ATTR=VALUE"),
        QStringLiteral("e.g. nomerges=2 queue/scheduler=none queue_depth=8 (any last part of a name that names one "
                       "attribute alone)"),
        QStringLiteral("ATTR=VALUE..."));
    parser.addOption({ QStringLiteral("with-paths"), QStringLiteral("Apply to the map and every path below it.") });
    parser.addOption({ QStringLiteral("dry-run"), QStringLiteral("Validate and plan; write nothing.") });
    addDestroyDataOption(parser,
        QStringLiteral("a device on which a value puts data at risk (queue/write_cache=write through on a volatile "
                       "cache: no more flushes)"));
    addForceOption(parser, QStringLiteral("none of set's values has one today"));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print the result as JSON.") });
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    QStringList positional = parser.positionalArguments();
    if (positional.size() < 2)
        return usageError(io, QStringLiteral("set needs a device and at least one ATTR=VALUE"));
    QList<Assignment> assignments;
    for (const auto &text : positional.mid(1)) {
        if (!text.contains(QLatin1Char('=')) || text.startsWith(QLatin1Char('=')))
            return usageError(io, QStringLiteral("set: '%1' is not ATTR=VALUE").arg(text));
        // Any last part of a name that names one attribute alone; read-only ones are called that.
        const auto a = parseAssignment(text);
        if (!a) {
            // Nothing like the name is known, or several (not a read-only one, no near miss named): where the names
            // are.
            return usageError(io,
                QStringLiteral("set: ") + a.errorMessage()
                    + (a.errorCode() == ErrorCode::NotFound || a.errorCode() == ErrorCode::Ambiguous
                            ? QStringLiteral(" (dmtunectl get DEV lists a device's attributes)")
                            : QString()));
        }
        assignments << *a;
    }
    // The command line is well-formed (a malformed one is 2 whatever the tree): what follows fails with 1.
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (refuseCapturedTree(parser, QStringLiteral("set"), dryRun, true, io, &code))
        return code;
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (!sysfs.isDir(QStringLiteral("block")))
        return fail(io, QStringLiteral("%1: no block/ directory (not a sysfs tree)").arg(sysfs.root()));
    // A device this host does not have, before any plan.
    if (!deviceOnThisHost(sysfs, Discovery::scan(sysfs), positional.first(), io, &code))
        return code;
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
    // The operation found the risks; the consent model answers them (ops/consent.h) before anything is written or
    // printed: a data risk only by --destroy-data-on naming its device. One line, exit 1: nothing was written.
    const ConsentWays ways;
    const auto given = consentFromCommandLine(parser, sysfs, ways);
    if (!given)
        return usageError(io, QStringLiteral("set: ") + given.errorMessage());
    const auto consent = consentFor(operation.value(), given.value(), ways);
    if (!dryRun && operation->refusals.isEmpty() && !consent)
        return fail(io, QStringLiteral("set: ") + consent.errorMessage());
    const bool json = parser.isSet(QStringLiteral("json"));
    if (!json && plan.ok())
        printPlan(plan, dryRun, io.out);
    if (!json) {
        for (const auto &w : plan.warnings)
            io.out << "warning: " << w.message << '\n';
        for (const OperationRisk &r : operation->risks)
            io.out << "risk: " << r.text << (consent ? QString() : QStringLiteral(" (%1)").arg(howToAnswer(r, ways)))
                   << '\n';
    }
    // A dry run writes nothing: it checks the rest of the plan whatever the answers, and exits as the run would.
    OperationAnswers answers = consent ? consent.value() : acceptAll(operation.value());
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
    if (dryRun && result.ok() && !consent)
        return fail(io, QStringLiteral("set: ") + consent.errorMessage());
    return result.ok() ? ExitOk : ExitFailure;
}

} // namespace dmtune::cli
