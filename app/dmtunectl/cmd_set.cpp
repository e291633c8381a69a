// dmtunectl set: validate, plan (safe order, stacking warnings) and apply a change set as one
// transaction; on any failure everything written is restored and the command exits 1.
#include "cli.h"

#include "discovery/discovery.h"
#include "params/catalog.h"
#include "params/deviceresolver.h"
#include "params/transaction.h"

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
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print the result as JSON.") });
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    QStringList positional = parser.positionalArguments();
    if (positional.size() < 2)
        return usageError(io, QStringLiteral("set needs a device and at least one ATTR=VALUE"));
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (!sysfs.isLive() && !dryRun)
        return usageError(io, QStringLiteral("a tree given with --sysfs-root is read-only; add --dry-run"));
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
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    const auto device = resolveDeviceSpec(sysfs, snapshot, positional.first());
    if (!device)
        return usageError(io, device.errorMessage());
    const auto devices = scopeDevices(snapshot,
        parser.isSet(QStringLiteral("with-paths")) ? ChangeScope::MapAndPaths : ChangeScope::Device, { *device });
    if (!devices)
        return usageError(io, devices.errorMessage());

    const Plan plan = planChanges(sysfs, makeChangeSet(*devices, assignments));
    const bool json = parser.isSet(QStringLiteral("json"));
    if (!json && plan.ok())
        printPlan(plan, dryRun, io.out);
    if (!json) {
        for (const auto &w : plan.warnings)
            io.out << "warning: " << w.message << '\n';
    }
    const ApplyResult result = executePlan(sysfs, plan, dryRun);
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
