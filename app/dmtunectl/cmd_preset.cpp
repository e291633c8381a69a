// dmtunectl preset: save / apply / verify / diff / export / list tuning presets (docs/presets.md).
// apply and verify are the core operations preset.apply / preset.verify (core/ops/presetoperations.h): this
// prints their plan and result; every rule (risks, refusals, order, rollback) is in core.
#include "cmd_preset.h"

#include "core/discovery/discovery.h"
#include "core/discovery/sysfscapture.h"
#include "core/dm/multipathchange.h"
#include "core/ops/operationregistry.h"
#include "core/ops/presetoperations.h"
#include "core/params/deviceresolver.h"
#include "core/presets/presetcapture.h"
#include "core/presets/presetexport.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetstore.h"
#include "core/util/atomicfile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace dmtune::cli {

namespace {

struct Subcommand {
    const char *name;
    const char *synopsis;
    const char *summary;
};

constexpr Subcommand subcommands[] = {
    { "save", "FILE DEV... [--attr A,B,...] [--name NAME] [--replace]",
        "save the devices' tunables as a preset, matched by WWID / DM UUID" },
    { "apply", "PRESET [DEV...] [--dry-run] [--destroy-data-on DEV]... [--force] [--json]",
        "apply a preset as one transaction (map reloads first, rollback on any failure)" },
    { "verify", "PRESET [DEV...] [--json]", "report drift between a preset and the live system (exit 1: drift)" },
    { "diff", "A B", "compare two presets rule by rule (exit 1: they differ)" },
    { "export", "PRESET --format udev|tuned|multipath [-o PATH [--replace]]",
        "udev rules, a tuned profile or a multipath.conf snippet" },
    { "list", "", "the built-in and stored presets" },
};

QString subcommandNames()
{
    QStringList names;
    for (const Subcommand &s : subcommands)
        names.append(QLatin1String(s.name));
    return names.join(QStringLiteral(", "));
}

void printPresetHelp(QTextStream &out)
{
    out << "Usage: dmtunectl preset SUBCOMMAND [options] [ARGS...]\n"
           "Tuning presets: attribute values (and per-map multipath settings) for devices matched by WWID, DM UUID,\n"
           "vendor, model or kind. PRESET is a stored or built-in preset's name, else a preset file.\n\n"
           "Subcommands:\n";
    for (const Subcommand &s : subcommands)
        out << "  " << (QString::fromLatin1(s.name).leftJustified(7) + u' ' + QLatin1String(s.synopsis)).trimmed()
            << "\n          " << s.summary << '\n';
    out << "\n'dmtunectl preset SUBCOMMAND --help' describes a subcommand's options.\n";
    out.flush();
}

// Parses the subcommand's options; args[0] is the subcommand's name.
bool parseSub(QCommandLineParser &parser, const QStringList &args, const QString &description, Streams io, int *code)
{
    parser.setApplicationDescription(description);
    addCommonOptions(parser);
    return parseOrUsage(parser, args, io, code);
}

int runSave(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Where to write the preset (JSON)."));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("Devices to save (sdX, dm-N, map name, ...)."),
        QStringLiteral("[DEV...]"));
    parser.addOption({ QStringLiteral("attr"),
        QStringLiteral("Only these attributes: A,B,... (repeatable; default: every writable one)."),
        QStringLiteral("ATTR") });
    parser.addOption({ QStringLiteral("name"), QStringLiteral("The preset's name (default: the file's base name)."),
        QStringLiteral("NAME") });
    parser.addOption(
        { QStringLiteral("replace"), QStringLiteral("Replace FILE if it exists (else an existing FILE is refused).") });
    int code = ExitOk;
    if (!parseSub(parser, args,
            QStringLiteral("Save the current tunables of devices as a preset, keyed by WWID / DM UUID."), io, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() < 2)
        return usageError(io, QStringLiteral("preset save needs a FILE and at least one DEV"));
    const bool replace = parser.isSet(QStringLiteral("replace"));
    if (const QString refused = outputFileRefusal(pos.first(), replace); !refused.isEmpty())
        return fail(io, QStringLiteral("preset save: ") + refused);
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    QStringList devices;
    for (const auto &spec : pos.mid(1)) {
        const auto d = deviceOnThisHost(sysfs, snapshot, spec, io, &code);
        if (!d)
            return code;
        devices << *d;
    }
    const QString name = parser.isSet(QStringLiteral("name")) ? parser.value(QStringLiteral("name"))
                                                              : QFileInfo(pos.first()).completeBaseName();
    QStringList attributes;
    for (const QString &value : parser.values(QStringLiteral("attr")))
        attributes << value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    attributes.removeDuplicates();
    const auto preset = presetFromDevices(sysfs, snapshot, devices, attributes, name);
    if (!preset)
        return usageError(io, preset.errorMessage());
    if (const Status s = savePresetFile(pos.first(), *preset, existingFileFor(replace)); !s)
        return fail(io,
            QStringLiteral("preset save: %1%2")
                .arg(s.errorMessage(),
                    !replace && outputFileOnlyExists(pos.first()) ? QStringLiteral(" (--replace replaces it)")
                                                                  : QString()));
    int settings = 0;
    for (const auto &r : preset->rules)
        settings += int(r.settings.size());
    io.out << "saved " << counted(settings, QStringLiteral("setting")) << " of " << devices.join(QStringLiteral(", "))
           << " to " << pos.first() << '\n';
    return ExitOk;
}

// The environment of the preset operations: this sysfs root, its device-mapper (a capture's recorded maps for a
// capture, read-only), multipathd when it runs here.
OperationEnvironment presetEnvironment(const SysfsRoot &sysfs, std::shared_ptr<DeviceMapper> *dm)
{
    OperationEnvironment env;
    env.sysfs = sysfs;
    if (const auto found = deviceMapperFor(sysfs)) {
        *dm = found.value();
        env.dm = dm->get();
    }
    if (sysfs.isLive())
        env.multipathd = [] { return liveMultipathd(); };
    return env;
}

void printLines(QTextStream &out, const QString &text)
{
    if (!text.isEmpty())
        out << text << '\n';
}

// The refusals of a preset plan: exit 1 for maps that cannot be reloaded (as before), 2 for bad input.
int refuse(Streams io, const OperationPlan &plan)
{
    bool maps = false;
    for (const QString &r : plan.refusals) {
        io.err << "dmtunectl: " << r << '\n';
        maps = maps || r.startsWith(QLatin1String("multipath settings:"));
    }
    io.err.flush();
    return maps ? ExitFailure : ExitUsage;
}

// The request's DEVs as this host has them: a name it does not have is hostLacks' line (1), as in every command.
bool devicesOnThisHost(const SysfsRoot &sysfs, const QJsonObject &request, Streams io, int *exitCode)
{
    const QJsonArray devices = request.value(QLatin1String("devices")).toArray();
    if (devices.isEmpty())
        return true;
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    for (const QJsonValue &device : devices) {
        if (!deviceOnThisHost(sysfs, snapshot, device.toString(), io, exitCode))
            return false;
    }
    return true;
}

int runVerify(const QCommandLineParser &parser, const QJsonObject &request, Streams io)
{
    std::shared_ptr<DeviceMapper> dm;
    const OperationEnvironment env = presetEnvironment(sysfsRootFrom(parser), &dm);
    const auto plan = planOperation(env, QStringLiteral("preset.verify"), request);
    if (!plan)
        return usageError(io, plan.errorMessage());
    if (int code = ExitOk; !devicesOnThisHost(env.sysfs, request, io, &code))
        return code;
    if (!plan->refusals.isEmpty())
        return refuse(io, *plan);
    const OperationResult result = runOperation(env, *plan, acceptAll(*plan));
    if (!result)
        return fail(io, result.error);
    QJsonObject details = result.details;
    const QJsonArray lines = details.take(QStringLiteral("lines")).toArray();
    if (parser.isSet(QStringLiteral("json"))) {
        io.out << QJsonDocument(details).toJson(QJsonDocument::Indented);
    } else {
        for (const QJsonValue &line : lines)
            io.out << line.toString() << '\n';
    }
    io.out.flush();
    return details.value(QStringLiteral("drift")).toBool() ? ExitFailure : ExitOk;
}

} // namespace

// Plan (core: preset.apply), print the preview, refuse what the consent leaves unanswered, run, print the result.
int runPresetApply(
    const OperationEnvironment &env, const QJsonObject &request, const PresetApplyOptions &options, Streams io)
{
    const bool dryRun = options.dryRun;
    const bool json = options.json;
    const auto plan = planOperation(env, QStringLiteral("preset.apply"), request);
    if (!plan)
        return usageError(io, plan.errorMessage());
    // A preset that does not load is the command line's (2); a DEV this host lacks is the host's (1).
    if (int code = ExitOk; !devicesOnThisHost(env.sysfs, request, io, &code))
        return code;
    if (!json) {
        io.out << "preset \"" << plan->target << "\"" << (dryRun ? " (dry run, nothing written)" : "") << ":\n";
        printLines(io.out, plan->preview);
        for (const QString &note : plan->notes)
            io.out << "note: " << note << '\n';
        io.out.flush();
    }
    if (!plan->refusals.isEmpty())
        return refuse(io, *plan);
    // The consent model (ops/consent.h): a data risk (a write that puts data at risk, a reload that puts a path of
    // another LUN into a map) only by --destroy-data-on naming its device or map, a reload's availability risk by
    // --force. Unanswered: one line, exit 1, nothing written (a dry run previews first, then exits the same way).
    const ConsentWays ways;
    const auto consent = consentFor(*plan, options.consent, ways);
    if (!dryRun && !consent)
        return fail(io, QStringLiteral("preset apply: ") + consent.errorMessage());
    OperationAnswers answers = consent ? consent.value() : acceptAll(*plan);
    answers.dryRun = dryRun;
    const OperationResult result = runOperation(env, *plan, answers);
    const QJsonObject details = result.details;
    if (!json && !dryRun) {
        for (const QJsonValue &done : details.value(QStringLiteral("reloaded")).toArray())
            io.out << done.toString() << '\n';
    }
    if (!json) {
        for (const QString &w : result.warnings)
            io.out << "warning: " << w << '\n';
    }
    const bool transacted = details.contains(QStringLiteral("changes")); // the attribute transaction ran
    if (json && transacted) {
        QJsonObject o = details;
        o.remove(QStringLiteral("reloaded"));
        o.remove(QStringLiteral("rejected"));
        io.out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else if (!dryRun && transacted) {
        if (details.value(QStringLiteral("rolled_back")).toBool())
            io.out << "rolled back (every value written was restored)\n";
        else if (result.ok) {
            const QJsonArray changes = details.value(QStringLiteral("changes")).toArray();
            const auto writes = std::count_if(changes.cbegin(), changes.cend(), [](const QJsonValue &c) {
                return c[QLatin1String("written")].toBool() && !c[QLatin1String("side_effect")].toBool();
            });
            io.out << "applied " << counted(writes, QStringLiteral("write")) << '\n';
        }
    }
    io.out.flush();
    for (const QString &line : result.error.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        io.err << "dmtunectl: " << line << '\n';
    io.err.flush();
    if (result.ok && dryRun && !consent)
        return fail(io, QStringLiteral("preset apply: ") + consent.errorMessage());
    if (result.ok)
        return ExitOk;
    return details.value(QStringLiteral("rejected")).toBool() ? ExitUsage : ExitFailure;
}

namespace {

int runApplyOrVerify(const QStringList &args, Streams io, bool verify)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral(
            "A stored or built-in preset's name, else a preset file (./NAME for a file that has a preset's name)."));
    parser.addPositionalArgument(QStringLiteral("DEV"),
        QStringLiteral("Only these devices (default: every device the preset matches)."), QStringLiteral("[DEV...]"));
    if (!verify) {
        parser.addOption({ QStringLiteral("dry-run"), QStringLiteral("Resolve, plan and preview; write nothing.") });
        addDestroyDataOption(parser,
            QStringLiteral("a device on which a value puts data at risk (queue/write_cache=write through on a "
                           "volatile cache), a map whose reload would add a path of another LUN"));
        addForceOption(parser, QStringLiteral("a map reload that risks I/O errors"));
    }
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print JSON.") });
    int code = ExitOk;
    const QString description = verify
        ? QStringLiteral("Report drift between a preset and the live system.\nexit status: 0 no drift, 1 drift, 2 bad "
                         "usage or bad preset.")
        : QStringLiteral("Apply a preset as one transaction (rollback on any failure).\nexit status: 0 applied, 1 "
                         "refused, or failed and rolled back, 2 bad usage or bad preset.\n")
            + consentHelp(ConsentWays());
    if (!parseSub(parser, args, description, io, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.isEmpty())
        return usageError(io,
            QStringLiteral("preset %1 needs one FILE")
                .arg(verify ? QStringLiteral("verify") : QStringLiteral("apply")));
    const QJsonObject request = presetRequest(pos.first(), pos.mid(1));
    if (verify)
        return runVerify(parser, request, io);
    if (refuseCapturedTree(
            parser, QStringLiteral("preset apply"), parser.isSet(QStringLiteral("dry-run")), true, io, &code))
        return code;
    std::shared_ptr<DeviceMapper> dm;
    const OperationEnvironment env = presetEnvironment(sysfsRootFrom(parser), &dm);
    const auto given = consentFromCommandLine(parser, env.sysfs, ConsentWays());
    if (!given)
        return usageError(io, QStringLiteral("preset apply: ") + given.errorMessage());
    return runPresetApply(env, request,
        { parser.isSet(QStringLiteral("dry-run")), parser.isSet(QStringLiteral("json")), given.value() }, io);
}

// "wwid=... kind=..." -> attribute -> value, for diff.
QMap<QString, QMap<QString, QString>> flatten(const Preset &p)
{
    QMap<QString, QMap<QString, QString>> out;
    for (const auto &r : p.rules) {
        auto &m = out[r.match.describe()];
        for (const auto &a : r.settings)
            m.insert(a.attribute, a.value);
        if (!r.multipath.selector.isEmpty())
            m.insert(QStringLiteral("multipath.selector"), r.multipath.selector);
        if (!r.multipath.grouping.isEmpty())
            m.insert(QStringLiteral("multipath.grouping"), r.multipath.grouping);
        if (!r.multipath.features.isEmpty())
            m.insert(QStringLiteral("multipath.features"), r.multipath.features.join(QLatin1Char(' ')));
    }
    return out;
}

int runDiff(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("A"), QStringLiteral("A preset file or name."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("Another one."));
    int code = ExitOk;
    if (!parseSub(parser, args,
            QStringLiteral("Compare two presets, match by match.\nexit status: 0 same settings, 1 different."), io,
            &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 2)
        return usageError(io, QStringLiteral("preset diff needs two presets"));
    const auto a = findPreset(pos[0]);
    const auto b = findPreset(pos[1]);
    if (!a || !b)
        return usageError(io, !a ? a.errorMessage() : b.errorMessage());
    const auto fa = flatten(*a), fb = flatten(*b);
    QStringList matches = fa.keys() + fb.keys();
    matches.removeDuplicates();
    matches.sort();
    int differences = 0;
    for (const auto &m : std::as_const(matches)) {
        const auto sa = fa.value(m), sb = fb.value(m);
        QStringList attrs = sa.keys() + sb.keys();
        attrs.removeDuplicates();
        attrs.sort();
        QStringList lines;
        for (const auto &attr : std::as_const(attrs)) {
            if (!sb.contains(attr))
                lines << QStringLiteral("  - %1=%2").arg(attr, sa.value(attr));
            else if (!sa.contains(attr))
                lines << QStringLiteral("  + %1=%2").arg(attr, sb.value(attr));
            else if (sa.value(attr) != sb.value(attr))
                lines << QStringLiteral("  ~ %1: %2 -> %3").arg(attr, sa.value(attr), sb.value(attr));
        }
        if (lines.isEmpty())
            continue;
        differences += int(lines.size());
        io.out << "match " << m << ":\n" << lines.join(QLatin1Char('\n')) << '\n';
    }
    if (differences == 0)
        io.out << "same settings\n";
    io.out.flush();
    return differences == 0 ? ExitOk : ExitFailure;
}

int runExport(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A preset file or name."));
    parser.addOption(
        { QStringLiteral("format"), QStringLiteral("udev, tuned or multipath."), QStringLiteral("FORMAT") });
    parser.addOption({ { QStringLiteral("o"), QStringLiteral("output") },
        QStringLiteral("Write here instead of stdout (a new file)."), QStringLiteral("PATH") });
    parser.addOption({ QStringLiteral("replace"),
        QStringLiteral("Replace the -o PATH if it exists (else an existing PATH is refused; a link always is).") });
    int code = ExitOk;
    if (!parseSub(parser, args,
            QStringLiteral("Export a preset as udev rules, a tuned profile or a multipath.conf snippet.\n"
                           "What the format cannot express is listed on stderr and as comments."),
            io, &code))
        return code;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(QStringLiteral("format")))
        return usageError(io, QStringLiteral("preset export needs FILE and --format udev|tuned|multipath"));
    const auto format = parsePresetExportFormat(parser.value(QStringLiteral("format")));
    if (!format)
        return usageError(io, format.errorMessage());
    const bool replace = parser.isSet(QStringLiteral("replace"));
    if (parser.isSet(QStringLiteral("output")))
        if (const QString refused = outputFileRefusal(parser.value(QStringLiteral("output")), replace);
            !refused.isEmpty())
            return fail(io, QStringLiteral("preset export: ") + refused);
    const auto preset = findPreset(parser.positionalArguments().first());
    if (!preset)
        return usageError(io, preset.errorMessage());
    const PresetExport e = exportPreset(*preset, *format);
    const QString formatName = parser.value(QStringLiteral("format"));
    if (e.expressed == 0) {
        // A file that sets nothing is not an export: say so, write nothing.
        for (const auto &u : e.unexpressed)
            io.err << "not expressed: " << u << '\n';
        return fail(io,
            QStringLiteral("preset export: nothing in %1 can be expressed as %2%3")
                .arg(preset->name, formatName,
                    e.unexpressed.isEmpty() ? QStringLiteral(" (it has no settings of that kind)") : QString()));
    }
    const bool toFile = parser.isSet(QStringLiteral("output"));
    if (toFile) {
        // Whole or not at all, never through a symbolic link at the name; an existing file only with --replace.
        if (const Status s
            = writeFileAtomically(parser.value(QStringLiteral("output")), e.text.toUtf8(), existingFileFor(replace));
            !s)
            return fail(io, QStringLiteral("preset export: %1").arg(s.errorMessage()));
        for (const auto &u : e.unexpressed)
            io.err << "not expressed: " << u << '\n';
    } else {
        io.out << e.text; // its last comments list what is not expressed: not again on stderr
        if (!e.unexpressed.isEmpty())
            io.err << "dmtunectl: preset export: " << e.unexpressed.size()
                   << (e.unexpressed.size() == 1 ? " item" : " items") << " of the preset not expressed as "
                   << formatName << " (listed at the end)\n";
    }
    io.out.flush();
    io.err.flush();
    return ExitOk;
}

int runPresetList(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    int code = ExitOk;
    if (!parseSub(parser, args, QStringLiteral("List built-in and stored presets."), io, &code))
        return code;
    for (const auto &e : listPresets()) {
        io.out << (e.builtIn ? "built-in  " : "user      ") << QFileInfo(e.path).completeBaseName() << "  ";
        if (e.preset)
            io.out << e.preset->name << " (" << counted(e.preset->rules.size(), QStringLiteral("rule")) << ")\n";
        else
            io.out << "ERROR " << e.preset.errorMessage() << '\n';
    }
    io.out << "user presets: " << userPresetDir() << '\n';
    return ExitOk;
}

} // namespace

int runPreset(const QStringList &args, Streams io)
{
    io.command = QStringLiteral("preset");
    if (args.size() < 2)
        return usageError(io, QStringLiteral("preset needs a subcommand (%1)").arg(subcommandNames()));
    const QString &sub = args.at(1);
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        printPresetHelp(io.out);
        return ExitOk;
    }
    const QStringList rest = args.mid(1);
    // The subcommand's own help and usage errors: "dmtunectl preset save --help".
    const Streams subIo { io.out, io.err, QStringLiteral("preset ") + sub };
    if (sub == QLatin1String("save"))
        return runSave(rest, subIo);
    if (sub == QLatin1String("apply"))
        return runApplyOrVerify(rest, subIo, false);
    if (sub == QLatin1String("verify"))
        return runApplyOrVerify(rest, subIo, true);
    if (sub == QLatin1String("diff"))
        return runDiff(rest, subIo);
    if (sub == QLatin1String("export"))
        return runExport(rest, subIo);
    if (sub == QLatin1String("list"))
        return runPresetList(rest, subIo);
    return usageError(io,
        QStringLiteral("unknown preset subcommand '%1'%2")
            .arg(sub, nearOrList(sub, subcommandNames().split(QStringLiteral(", ")))));
}

} // namespace dmtune::cli
