// dmtunectl preset: save / apply / verify / diff / export / list tuning presets (docs/presets.md).
// apply is one transaction (planner order, read back, rollback on any failure), like `set`.
#include "cli.h"

#include "discovery/discovery.h"
#include "dm/libdevmapperbackend.h"
#include "dm/multipathdclient.h"
#include "params/deviceresolver.h"
#include "params/transaction.h"
#include "presets/presetcapture.h"
#include "presets/presetexport.h"
#include "presets/presetjson.h"
#include "presets/presetmultipath.h"
#include "presets/presetresolution.h"
#include "presets/presetstore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace dmtune::cli {

namespace {

QString subUsage()
{
    return QStringLiteral("preset needs a subcommand: save FILE [DEV...] | apply FILE [--dry-run] | verify FILE | "
                          "diff A B | export FILE --format udev|tuned|multipath | list");
}

// Parses the subcommand's options; args[0] is the subcommand's name.
bool parseSub(QCommandLineParser &parser, const QStringList &args, const QString &description, Streams io, int *code)
{
    parser.setApplicationDescription(description);
    addCommonOptions(parser);
    return parseOrUsage(parser, args, io, code);
}

QJsonArray itemsJson(const Preset &preset, const QList<PresetItem> &items)
{
    QJsonArray out;
    for (const auto &i : items)
        out.append(QJsonObject { { QStringLiteral("device"), i.device }, { QStringLiteral("attribute"), i.attribute },
            { QStringLiteral("current"), i.current }, { QStringLiteral("preset"), i.wanted },
            { QStringLiteral("rule"), i.rule + 1 }, { QStringLiteral("rule_label"), presetRuleLabel(preset, i.rule) },
            { QStringLiteral("state"), presetItemStateName(i.state) }, { QStringLiteral("note"), i.note } });
    return out;
}

void printItems(const Preset &preset, const QList<PresetItem> &items, QTextStream &out)
{
    for (const auto &i : items) {
        out << "  " << i.device << ' ' << i.attribute << ": " << (i.current.isEmpty() ? QStringLiteral("-") : i.current)
            << " -> " << i.wanted << "  [" << presetItemStateName(i.state) << ", " << presetRuleLabel(preset, i.rule) << ']';
        if (!i.note.isEmpty())
            out << " (" << i.note << ')';
        out << '\n';
    }
}

void printMaps(const PresetResolution &res, QTextStream &out)
{
    for (const auto &m : res.maps) {
        out << "  map " << m.map << " (" << m.device << ") multipath:";
        if (!m.wanted.selector.isEmpty())
            out << " selector " << (m.currentSelector.isEmpty() ? QStringLiteral("?") : m.currentSelector) << " -> "
                << m.wanted.selector;
        if (!m.wanted.grouping.isEmpty())
            out << " grouping " << (m.currentGrouping.isEmpty() ? QStringLiteral("?") : m.currentGrouping) << " -> "
                << m.wanted.grouping;
        if (!m.wanted.features.isEmpty())
            out << " features [" << m.currentFeatures.join(QLatin1Char(' ')) << "] -> +" << m.wanted.features.join(QLatin1Char(' '));
        out << (m.differs ? "  [differs]" : "  [same]");
        if (!m.note.isEmpty())
            out << " (" << m.note << ')';
        out << '\n';
    }
}

int runSave(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Where to write the preset (JSON)."));
    parser.addPositionalArgument(QStringLiteral("DEV"), QStringLiteral("Devices to save (sdX, dm-N, map name, ...)."), QStringLiteral("[DEV...]"));
    parser.addOption({ QStringLiteral("attr"), QStringLiteral("Only this attribute (repeatable; default: every writable one)."), QStringLiteral("ATTR") });
    parser.addOption({ QStringLiteral("name"), QStringLiteral("The preset's name (default: the file's base name)."), QStringLiteral("NAME") });
    int code = ExitOk;
    if (!parseSub(parser, args, QStringLiteral("Save the current tunables of devices as a preset, keyed by WWID / DM UUID."), io, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() < 2)
        return usageError(io, QStringLiteral("preset save needs a FILE and at least one DEV"));
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    QStringList devices;
    for (const auto &spec : pos.mid(1)) {
        const auto d = resolveDeviceSpec(sysfs, snapshot, spec);
        if (!d)
            return usageError(io, d.errorMessage());
        devices << *d;
    }
    const QString name = parser.isSet(QStringLiteral("name")) ? parser.value(QStringLiteral("name"))
                                                               : QFileInfo(pos.first()).completeBaseName();
    const auto preset = presetFromDevices(sysfs, snapshot, devices, parser.values(QStringLiteral("attr")), name);
    if (!preset)
        return usageError(io, preset.errorMessage());
    if (const Status s = savePresetFile(pos.first(), *preset); !s)
        return fail(io, s.errorMessage);
    int settings = 0;
    for (const auto &r : preset->rules)
        settings += int(r.settings.size());
    io.out << "saved " << settings << " settings of " << devices.join(QStringLiteral(", ")) << " to " << pos.first() << '\n';
    return ExitOk;
}

int runApplyOrVerify(const QStringList &args, Streams io, bool verify)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A preset file, or a stored or built-in preset's name."));
    if (!verify) {
        parser.addOption({ QStringLiteral("dry-run"), QStringLiteral("Resolve, plan and preview; write nothing.") });
        parser.addOption({ QStringLiteral("force"), QStringLiteral("Reload multipath maps even when the reload risks I/O errors.") });
    }
    parser.addOption({ QStringLiteral("json"), QStringLiteral("Print JSON.") });
    int code = ExitOk;
    const QString description = verify
        ? QStringLiteral("Report drift between a preset and the live system.\nexit status: 0 no drift, 1 drift, 2 bad usage or bad preset.")
        : QStringLiteral("Apply a preset as one transaction (rollback on any failure).\nexit status: 0 applied, 1 failed and rolled back, 2 bad usage or bad preset.");
    if (!parseSub(parser, args, description, io, &code))
        return code;
    if (parser.positionalArguments().size() != 1)
        return usageError(io, QStringLiteral("preset %1 needs one FILE").arg(verify ? QStringLiteral("verify") : QStringLiteral("apply")));
    const auto preset = findPreset(parser.positionalArguments().first());
    if (!preset)
        return usageError(io, preset.errorMessage());
    const bool dryRun = !verify && parser.isSet(QStringLiteral("dry-run"));
    const bool json = parser.isSet(QStringLiteral("json"));
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (!verify && !sysfs.isLive() && !dryRun)
        return usageError(io, QStringLiteral("a tree given with --sysfs-root is read-only; add --dry-run"));
    const DeviceSnapshot snapshot = Discovery::scan(sysfs);
    const PresetResolution res = resolvePreset(sysfs, snapshot, *preset);

    if (verify) {
        const QList<PresetItem> drift = res.drift();
        if (json) {
            QJsonArray maps;
            for (const auto &m : res.maps)
                maps.append(QJsonObject { { QStringLiteral("map"), m.map }, { QStringLiteral("differs"), m.differs },
                    { QStringLiteral("selector"), m.currentSelector }, { QStringLiteral("note"), m.note } });
            io.out << QJsonDocument(QJsonObject { { QStringLiteral("preset"), preset->name },
                                        { QStringLiteral("drift"), res.hasDrift() },
                                        { QStringLiteral("items"), itemsJson(*preset, res.items) },
                                        { QStringLiteral("maps"), maps },
                                        { QStringLiteral("unmatched"), QJsonArray::fromStringList(res.unmatched) } })
                          .toJson(QJsonDocument::Indented);
        } else {
            io.out << "preset \"" << preset->name << "\": " << res.items.size() << " settings checked, "
                   << drift.size() << " drifted\n";
            printItems(*preset, drift, io.out);
            printMaps(res, io.out);
            for (const auto &u : res.unmatched)
                io.out << "note: " << u << '\n';
        }
        io.out.flush();
        return res.hasDrift() ? ExitFailure : ExitOk;
    }

    // Multipath settings first: a table reload re-stacks the map's queue limits, which the
    // attribute writes after it then set.
    QList<PresetMapReload> reloads;
    std::unique_ptr<LibDevmapperBackend> dm;
    const bool mapsDiffer = std::any_of(res.maps.cbegin(), res.maps.cend(), [](const PresetMapItem &m) { return m.differs; });
    if (mapsDiffer) {
        dm = std::make_unique<LibDevmapperBackend>(sysfs);
        if (const DmAvailability available = dm->availability(); !available.available)
            return fail(io, QStringLiteral("multipath settings: %1").arg(available.reason));
        const auto prepared = prepareMapReloads(*dm, res.maps);
        if (!prepared)
            return fail(io, QStringLiteral("multipath settings: %1").arg(prepared.errorMessage()));
        reloads = *prepared;
    }
    if (!json) {
        io.out << "preset \"" << preset->name << "\"" << (dryRun ? " (dry run, nothing written)" : "") << ":\n";
        printItems(*preset, res.items, io.out);
        printMaps(res, io.out);
        for (const auto &r : reloads) {
            for (const auto &line : r.diff)
                io.out << "  " << r.map << " table: " << line << '\n';
            for (const auto &risk : r.risks)
                io.out << "  " << r.map << " risk: " << risk << '\n';
        }
        for (const auto &u : res.unmatched)
            io.out << "note: " << u << '\n';
    }
    for (const auto &r : reloads) {
        if (!r.risks.isEmpty() && !dryRun && !parser.isSet(QStringLiteral("force")))
            return fail(io, QStringLiteral("%1: reload refused without --force: %2").arg(r.map, r.risks.join(QStringLiteral("; "))));
    }
    // A bad attribute value rejects the whole preset before any table is touched.
    if (const Plan early = planChanges(sysfs, res.changes()); !early.ok())
        reloads.clear();
    if (!dryRun && !reloads.isEmpty()) {
        const MapReloadOutcome outcome = executeMapReloads(*dm, reloads, MultipathdClient::isRunning());
        for (const auto &w : outcome.warnings)
            io.err << "dmtunectl: warning: " << w << '\n';
        if (!outcome.ok())
            return fail(io, QStringLiteral("multipath settings not applied (maps restored): %1").arg(outcome.error));
        if (!json) {
            for (const auto &d : outcome.done)
                io.out << d << '\n';
        }
    }
    // After a reload the map's limits are the stacked ones again: resolve afresh.
    const bool reloaded = !dryRun && !reloads.isEmpty();
    const Plan plan = planChanges(sysfs, (reloaded ? resolvePreset(sysfs, snapshot, *preset) : res).changes());
    if (!json) {
        for (const auto &w : plan.warnings)
            io.out << "warning: " << w.message << '\n';
    }
    const ApplyResult result = executePlan(sysfs, plan, dryRun);
    if (json) {
        QJsonObject o = toJson(result);
        o.insert(QStringLiteral("preview"), itemsJson(*preset, res.items));
        io.out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else if (!dryRun) {
        if (result.rolledBack)
            io.out << "rolled back (every value written was restored)\n";
        else
            io.out << "applied " << std::count_if(result.changes.cbegin(), result.changes.cend(), [](const ChangeOutcome &c) {
                return c.written && !c.sideEffect;
            }) << " writes\n";
    }
    for (const auto &e : result.errors)
        io.err << "dmtunectl: " << e.text() << '\n';
    if (!result.ok() && reloaded) {
        const QStringList errors = restoreMapReloads(*dm, reloads);
        io.err << "dmtunectl: " << (errors.isEmpty() ? QStringLiteral("multipath tables restored")
                                                     : QStringLiteral("restoring tables: ") + errors.join(QStringLiteral("; "))) << '\n';
    }
    io.out.flush();
    io.err.flush();
    if (result.rejected())
        return ExitUsage;
    return result.ok() ? ExitOk : ExitFailure;
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
    if (!parseSub(parser, args, QStringLiteral("Compare two presets, match by match.\nexit status: 0 same settings, 1 different."), io, &code))
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
    parser.addOption({ QStringLiteral("format"), QStringLiteral("udev, tuned or multipath."), QStringLiteral("FORMAT") });
    parser.addOption({ { QStringLiteral("o"), QStringLiteral("output") }, QStringLiteral("Write here instead of stdout."), QStringLiteral("PATH") });
    int code = ExitOk;
    if (!parseSub(parser, args, QStringLiteral("Export a preset as udev rules, a tuned profile or a multipath.conf snippet.\n"
                                               "What the format cannot express is listed on stderr and as comments."), io, &code))
        return code;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(QStringLiteral("format")))
        return usageError(io, QStringLiteral("preset export needs FILE and --format udev|tuned|multipath"));
    const auto format = parsePresetExportFormat(parser.value(QStringLiteral("format")));
    if (!format)
        return usageError(io, format.errorMessage());
    const auto preset = findPreset(parser.positionalArguments().first());
    if (!preset)
        return usageError(io, preset.errorMessage());
    const PresetExport e = exportPreset(*preset, *format);
    if (parser.isSet(QStringLiteral("output"))) {
        QFile f(parser.value(QStringLiteral("output")));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(e.text.toUtf8()) < 0)
            return fail(io, QStringLiteral("%1: %2").arg(f.fileName(), f.errorString()));
    } else {
        io.out << e.text;
    }
    for (const auto &u : e.unexpressed)
        io.err << "not expressed: " << u << '\n';
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
            io.out << e.preset->name << " (" << e.preset->rules.size() << " rules)\n";
        else
            io.out << "ERROR " << e.preset.errorMessage() << '\n';
    }
    io.out << "user presets: " << userPresetDir() << '\n';
    return ExitOk;
}

} // namespace

int runPreset(const QStringList &args, Streams io)
{
    if (args.size() < 2)
        return usageError(io, subUsage());
    const QString sub = args.at(1);
    const QStringList rest = args.mid(1);
    if (sub == QLatin1String("save"))
        return runSave(rest, io);
    if (sub == QLatin1String("apply"))
        return runApplyOrVerify(rest, io, false);
    if (sub == QLatin1String("verify"))
        return runApplyOrVerify(rest, io, true);
    if (sub == QLatin1String("diff"))
        return runDiff(rest, io);
    if (sub == QLatin1String("export"))
        return runExport(rest, io);
    if (sub == QLatin1String("list"))
        return runPresetList(rest, io);
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        io.out << subUsage() << '\n';
        return ExitOk;
    }
    return usageError(io, subUsage());
}

} // namespace dmtune::cli
