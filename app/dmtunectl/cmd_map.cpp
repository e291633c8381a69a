// dmtunectl map show|reload|queueing: one multipath map as the kernel (and multipathd) see it,
// a safe table reload, queue_if_no_path on or off.
#include "cli.h"

#include "core/discovery/nvmemultipath.h"
#include "core/discovery/nvmewarnings.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/snapshotjson.h"
#include "core/discovery/sysfscapture.h"
#include "core/dm/grammar/pathselectors.h"
#include "core/dm/grammar/tablediff.h"
#include "core/dm/multipathchange.h"
#include "core/dm/multipathd/multipathdclient.h"
#include "core/dm/multipathd/multipathdview.h"
#include "core/dm/pathdevice.h"
#include "core/ops/multipathoperations.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace dmtune::cli {

namespace {

QString words(const QStringList &list)
{
    return list.isEmpty() ? QStringLiteral("none") : list.join(QLatin1Char(' '));
}

// multipathd's view of the map beside the kernel's; skipped (running false) when it is not there.
struct MultipathdSide {
    bool captured = false; // a capture's record of it, not the daemon now
    bool recorded = true; // false: a capture that says nothing of it
    bool running = false;
    bool manages = false;
    QString error;
    QStringList differences;
    QStringList notes; // where its numbers are not multipath -ll's (explainMultipathdView)
    MultipathdMapView view; // when it manages the map: priorities and checker states (not in the kernel's status)

    // multipathd's view of group g (0-based) and of the path with that devnum in it; null when unknown.
    const MultipathdGroupView *group(qsizetype g) const
    {
        return manages && g < view.groups.size() ? &view.groups.at(g) : nullptr;
    }
    const MultipathdPathView *path(qsizetype g, const QString &devnum) const
    {
        if (const MultipathdGroupView *gv = group(g)) {
            for (const MultipathdPathView &p : gv->paths) {
                if (p.devT == devnum)
                    return &p;
            }
        }
        return nullptr;
    }
};

MultipathdSide multipathdSide(const QString &map, const MultipathMapState &state, const SysfsRoot &sysfs, bool wanted)
{
    MultipathdSide side;
    if (!wanted)
        return side;
    const MultipathdKnowledge known = multipathdKnowledgeOf(sysfs);
    side.captured = known.captured;
    side.recorded = known.recorded;
    if (!known.running)
        return side;
    side.running = true;
    const auto &maps = known.maps;
    if (!maps) {
        side.error = maps.errorMessage();
        return side;
    }
    const auto view = findMultipathdMap(maps.value(), map);
    if (!view)
        return side;
    side.manages = true;
    side.view = view.value();
    side.differences = compareMultipathdView(view.value(), state.table, state.status);
    side.notes = explainMultipathdView(view.value(), state.status);
    return side;
}

QJsonObject showJson(const QString &map, const MultipathMapState &s, const SysfsRoot &sysfs, const MultipathdSide &mpd)
{
    QJsonArray groups;
    for (qsizetype g = 0; g < s.status.groups.size() && g < s.table.groups.size(); ++g) {
        const GroupStatus &gs = s.status.groups.at(g);
        const PathGroupSpec &spec = s.table.groups.at(g);
        QJsonArray paths;
        for (qsizetype p = 0; p < gs.paths.size() && p < spec.paths.size(); ++p) {
            const PathStatus &ps = gs.paths.at(p);
            const auto device = resolvePathDevice(sysfs, ps.device);
            QJsonObject path { { QStringLiteral("devnum"), ps.device },
                { QStringLiteral("name"), device ? device->name : QString() },
                { QStringLiteral("state"), ps.active ? QStringLiteral("A") : QStringLiteral("F") },
                { QStringLiteral("fail_count"), ps.failCount },
                // the keys of list --json (the man page: "the map's object as in list --json")
                { QStringLiteral("selector_args"), QJsonArray::fromStringList(spec.paths.at(p).args) },
                { QStringLiteral("selector_info"), QJsonArray::fromStringList(ps.selectorInfo) } };
            paths.append(path);
        }
        QJsonObject group { { QStringLiteral("index"), int(g + 1) }, { QStringLiteral("state"), QString(gs.state) },
            { QStringLiteral("selector"), spec.selector },
            { QStringLiteral("selector_args"), QJsonArray::fromStringList(spec.selectorArgs) },
            { QStringLiteral("paths"), paths } };
        groups.append(group);
    }
    QJsonObject multipathd { { QStringLiteral("running"), mpd.running } };
    if (mpd.captured) {
        multipathd.insert(QStringLiteral("captured"), true);
        if (!mpd.recorded)
            multipathd.insert(QStringLiteral("recorded"), false);
    }
    if (mpd.running) {
        multipathd.insert(QStringLiteral("manages"), mpd.manages);
        multipathd.insert(QStringLiteral("differences"), QJsonArray::fromStringList(mpd.differences));
        multipathd.insert(QStringLiteral("notes"), QJsonArray::fromStringList(mpd.notes));
        if (!mpd.error.isEmpty())
            multipathd.insert(QStringLiteral("error"), mpd.error);
    }
    QJsonObject shown { { QStringLiteral("name"), map }, { QStringLiteral("uuid"), s.info.uuid },
        { QStringLiteral("devnum"), QStringLiteral("%1:%2").arg(s.info.major).arg(s.info.minor) },
        { QStringLiteral("suspended"), s.info.suspended }, { QStringLiteral("event_nr"), double(s.info.eventNr) },
        { QStringLiteral("table"), formatTargetLine(s.line) },
        { QStringLiteral("params"), formatMultipathTable(s.table) },
        { QStringLiteral("status"), formatMultipathStatus(s.status) },
        { QStringLiteral("features"), QJsonArray::fromStringList(s.table.features) },
        { QStringLiteral("hw_handler"), // as list --json: "alua", "emc 1" or null
            s.table.hwHandler.isEmpty() ? QJsonValue(QJsonValue::Null)
                                        : QJsonValue(s.table.hwHandler.join(QLatin1Char(' '))) },
        { QStringLiteral("queue_if_no_path"), s.table.queueIfNoPath() },
        { QStringLiteral("queue_io"), s.status.queueIo() }, { QStringLiteral("pg_init_count"), s.status.pgInitCount() },
        { QStringLiteral("initial_group"), s.table.initialGroup }, { QStringLiteral("next_group"), s.status.nextGroup },
        { QStringLiteral("active_group"), s.status.activeGroup() }, { QStringLiteral("groups"), groups },
        { QStringLiteral("multipathd"), multipathd } };
    if (mpd.manages)
        addMultipathdView(&shown, mpd.view); // as list --json has them
    return shown;
}

void showText(
    const QString &map, const MultipathMapState &s, const SysfsRoot &sysfs, const MultipathdSide &mpd, QTextStream &out)
{
    out << map << "  " << s.info.major << ':' << s.info.minor << "  uuid "
        << (s.info.uuid.isEmpty() ? QStringLiteral("-") : s.info.uuid) << (s.info.suspended ? "  SUSPENDED" : "")
        << '\n';
    out << "table:  " << formatTargetLine(s.line) << '\n';
    out << "status: " << formatMultipathStatus(s.status) << '\n';
    out << "features: " << words(s.table.features) << "  hw handler: " << words(s.table.hwHandler)
        << "  queue_if_no_path: " << (s.table.queueIfNoPath() ? "on" : "off") << '\n';
    out << "next group: " << s.status.nextGroup << "  active group: "
        << (s.status.activeGroup() ? QString::number(s.status.activeGroup()) : QStringLiteral("none")) << '\n';
    for (qsizetype g = 0; g < s.status.groups.size() && g < s.table.groups.size(); ++g) {
        const GroupStatus &gs = s.status.groups.at(g);
        const PathGroupSpec &spec = s.table.groups.at(g);
        out << "group " << (g + 1) << " [" << gs.state << "] " << spec.selector;
        if (!spec.selectorArgs.isEmpty())
            out << ' ' << spec.selectorArgs.join(QLatin1Char(' '));
        if (const MultipathdGroupView *mg = mpd.group(g))
            out << "  prio=" << mg->priority;
        out << '\n';
        for (const PathStatus &ps : gs.paths) {
            const auto device = resolvePathDevice(sysfs, ps.device);
            out << "  " << ps.device.leftJustified(8) << ' ' << (device ? device->name : QString()).leftJustified(8)
                << ' ' << (ps.active ? "A" : "F") << "  fail_count " << ps.failCount;
            if (const MultipathdPathView *mp = mpd.path(g, ps.device))
                out << "  prio=" << mp->priority << ' ' << mp->checkerState << ' ' << mp->deviceState;
            if (!ps.selectorInfo.isEmpty())
                out << "  info " << ps.selectorInfo.join(QLatin1Char(' '));
            out << '\n';
        }
    }
    if (mpd.captured && mpd.recorded)
        out << "(multipathd as the capture recorded it)\n";
    if (!mpd.recorded)
        out << "multipathd: the capture did not record it\n";
    else if (!mpd.running)
        out << "multipathd: not running\n";
    else if (!mpd.error.isEmpty())
        out << "multipathd: " << mpd.error << '\n';
    else if (!mpd.manages)
        out << "multipathd: running, does not manage " << map << '\n';
    else {
        for (const QString &line : multipathdComparisonLines(mpd.differences, mpd.notes))
            out << line << '\n';
    }
}

int runShow(const QCommandLineParser &parser, const QString &map, Streams io)
{
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    // A native NVMe multipath head is shown as nvme list-subsys would; its hidden paths are not maps.
    if (const QString nvme = nativeNvmeInsteadOfDm(sysfs, map); !nvme.isEmpty()) {
        const DeviceSnapshot snapshot = buildSnapshot(sysfs, enumerateBlockDirectory(sysfs), nullptr, {});
        const NvmeMultipathHead *head = snapshot.nvmeHead(map);
        if (!head)
            return fail(io, nvme);
        const QList<NvmeWarning> warnings = nvmeWarningsOfHead(nvmeWarnings(sysfs, snapshot), *head);
        if (parser.isSet(QStringLiteral("json"))) {
            QJsonObject doc = nvmeHeadToJson(*head);
            doc.insert(QStringLiteral("nvme_warnings"), nvmeWarningsToJson(warnings));
            io.out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
        } else {
            io.out << nvmeHeadToText(*head);
            for (const NvmeWarning &w : warnings)
                io.out << "warning: " << w.message << '\n';
        }
        io.out.flush();
        return ExitOk;
    }
    const auto dm = deviceMapperFor(sysfs); // a capture's own maps, never this host's of the same name
    if (!dm)
        return fail(io, dm.errorMessage());
    const auto state = readMultipathMapState(*dm.value(), map);
    if (!state)
        return fail(io, state.errorMessage());
    const MultipathdSide mpd
        = multipathdSide(map, state.value(), sysfs, !parser.isSet(QStringLiteral("no-multipathd")));
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(showJson(map, state.value(), sysfs, mpd)).toJson(QJsonDocument::Indented);
    else
        showText(map, state.value(), sysfs, mpd, io.out);
    io.out.flush();
    return ExitOk;
}

// The multipath.reload request the options ask for; core builds the table from it (dm/reloadtable.h). A
// failure here is a usage error.
Result<QJsonObject> reloadRequestFromOptions(const QCommandLineParser &parser, const QString &map)
{
    using R = Result<QJsonObject>;
    if (parser.isSet(QStringLiteral("table")))
        return QJsonObject { { QLatin1String("map"), map },
            { QLatin1String("table"), parser.value(QStringLiteral("table")) } };
    const QString selector = parser.value(QStringLiteral("selector"));
    if (selector.isEmpty() || !parser.isSet(QStringLiteral("group")))
        return R::failure(QStringLiteral("--selector and at least one --group are needed together"));
    if (!findPathSelector(selector))
        return R::failure(QStringLiteral("unknown selector '%1' (round-robin, queue-length, service-time, "
                                         "historical-service-time, io-affinity)")
                              .arg(selector));
    QJsonArray groups;
    for (const QString &groupSpec : parser.values(QStringLiteral("group")))
        groups.append(QJsonArray::fromStringList(groupSpec.split(QLatin1Char(','), Qt::SkipEmptyParts)));
    QJsonObject request { { QLatin1String("map"), map }, { QLatin1String("selector"), selector },
        { QLatin1String("groups"), groups } };
    if (parser.isSet(QStringLiteral("feature"))) { // else the map's features are kept
        QStringList features;
        for (const QString &feature : parser.values(QStringLiteral("feature"))) {
            if (feature != QLatin1String("none"))
                features += feature.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        }
        request.insert(QLatin1String("features"), QJsonArray::fromStringList(features));
    }
    return request;
}

int runReload(const QCommandLineParser &parser, const QString &map, Streams io)
{
    // Usage first: a wrong command line is a usage error even where device-mapper is missing.
    if (parser.isSet(QStringLiteral("table"))
        == (parser.isSet(QStringLiteral("selector")) || parser.isSet(QStringLiteral("group"))))
        return usageError(
            io, QStringLiteral("map reload needs --table LINE, or --selector NAME with --group DEV,DEV..."));
    const auto request = reloadRequestFromOptions(parser, map);
    if (!request)
        return usageError(io, request.errorMessage());
    int code = ExitOk;
    if (refuseCapturedTree(
            parser, QStringLiteral("map reload"), parser.isSet(QStringLiteral("dry-run")), true, io, &code))
        return code;
    const SysfsRoot sysfs = sysfsRootFrom(parser);
    if (const QString nvme = nativeNvmeInsteadOfDm(sysfs, map); !nvme.isEmpty())
        return fail(io, nvme);
    const auto dm = deviceMapperFor(sysfs); // --dry-run on a capture previews against its recorded table
    if (!dm)
        return fail(io, dm.errorMessage());
    DeviceMapper &backend = *dm.value();
    OperationEnvironment env;
    env.sysfs = sysfs;
    env.dm = &backend;
    if (sysfs.isLive()) // multipathd's caveat (it may put multipath.conf's table back), as before --no-multipathd
        env.multipathd = &liveMultipathd;
    const auto plan = planOperation(env, QStringLiteral("multipath.reload"), request.value());
    if (!plan)
        return fail(io, plan.errorMessage());
    const QStringList diff = plan->preview.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    // The consent model (ops/consent.h): a path of another LUN is a data risk, answered only by --destroy-data-on
    // naming the map; the I/O errors a reload can cause are answered by --force.
    const ConsentWays ways;
    const auto given = consentFromCommandLine(parser, sysfs, ways);
    if (!given)
        return usageError(io, QStringLiteral("map reload: ") + given.errorMessage());
    const auto consent = consentFor(plan.value(), given.value(), ways);
    if (parser.isSet(QStringLiteral("dry-run"))) {
        io.out << reloadTargetLineOf(plan.value()) << '\n';
        if (diff.isEmpty())
            io.out << "# no change\n";
        for (const QString &line : diff)
            io.out << "# " << line << '\n';
        for (const OperationRisk &risk : plan->risks)
            io.out << "# risk: " << risk.text << " (" << howToAnswer(risk, ways) << ")\n";
        for (const QString &refusal : plan->refusals) // a captured tree: the preview only
            io.out << "# refused here: " << refusal << '\n';
        io.out.flush();
        if (!plan->refusals.isEmpty())
            return ExitOk;
        // Checked on the state now whatever the answers; then it exits as the run would.
        OperationAnswers answers = consent ? consent.value() : acceptAll(plan.value());
        answers.dryRun = true;
        const OperationResult checked = runOperation(env, plan.value(), answers);
        if (!checked.ok)
            return fail(io, checked.error);
        return consent ? ExitOk : fail(io, QStringLiteral("%1: reload %2").arg(map, consent.errorMessage()));
    }
    if (!plan->refusals.isEmpty())
        return fail(io, plan->refusals.first());
    if (!consent)
        return fail(io, QStringLiteral("%1: reload %2").arg(map, consent.errorMessage()));
    const OperationResult result = runOperation(env, plan.value(), consent.value());
    for (const QString &warning : result.warnings)
        io.err << "dmtunectl: warning: " << warning << '\n';
    io.err.flush();
    if (!result.ok)
        return fail(io, result.error);
    io.out << QStringLiteral("%1: reloaded: %2\n").arg(map, result.details.value(QLatin1String("command")).toString());
    for (const QString &line : diff)
        io.out << "  " << line << '\n';
    io.out.flush();
    return ExitOk;
}

} // namespace

int runMap(const QStringList &args, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "A multipath map.\n"
            "  map show MAP [--json]      table, status, groups and paths; multipathd's view where it differs\n"
            "  map reload MAP (--table LINE | --selector NAME --group DEV,DEV [--group ...] [--feature F ...])\n"
            "             [--dry-run] [--force] [--destroy-data-on MAP]\n"
            "             load, resume (noflush, no lockfs); the old table stays on failure.\n"
            "             Without --feature the current features are kept ('--feature none' drops them); the\n"
            "             hardware handler is kept. --dry-run prints the table line and what changes.\n"
            "--dry-run (every action that changes the map) checks it on the state now and changes nothing.\n"
            "  map queueing MAP on|off    queue_if_no_path (multipathd: restorequeueing/disablequeueing)\n"
            "DEV: sdX, /dev/..., or MAJ:MIN. Operations that can cause I/O errors need --force; a reload that adds\n"
            "a path not reporting the map's LUN (WWID) needs --destroy-data-on MAP (--force does not answer it).\n")
        + consentHelp(ConsentWays()));
    parser.addPositionalArgument(QStringLiteral("ACTION"), QStringLiteral("show, reload or queueing"));
    parser.addPositionalArgument(QStringLiteral("MAP"), QStringLiteral("The map's name (mpatha)."));
    parser.addOption({ QStringLiteral("json"), QStringLiteral("show: print JSON.") });
    parser.addOption({ QStringLiteral("table"), QStringLiteral("reload: the whole table line or its multipath params."),
        QStringLiteral("LINE") });
    parser.addOption({ QStringLiteral("selector"), QStringLiteral("reload: the path selector of every group."),
        QStringLiteral("NAME") });
    parser.addOption({ QStringLiteral("group"), QStringLiteral("reload: one path group, its devices comma-separated."),
        QStringLiteral("DEV,DEV") });
    parser.addOption({ QStringLiteral("feature"),
        QStringLiteral("reload: a feature (repeatable), e.g. queue_if_no_path."), QStringLiteral("F") });
    addOperationOptions(parser);
    addDestroyDataOption(parser, QStringLiteral("reload: the map, when the new table adds a path of another LUN"));
    addCommonOptions(parser);
    int code = ExitOk;
    if (!parseOrUsage(parser, args, io, &code))
        return code;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() < 2)
        return usageError(io, QStringLiteral("map needs ACTION MAP"));
    const QString &action = positional.at(0);
    const QString &map = positional.at(1);
    if (action == QLatin1String("show") && positional.size() == 2)
        return runShow(parser, map, io);
    if (action == QLatin1String("reload") && positional.size() == 2)
        return runReload(parser, map, io);
    if (action == QLatin1String("queueing") && positional.size() == 3) {
        if (positional.at(2) != QLatin1String("on") && positional.at(2) != QLatin1String("off"))
            return usageError(io, QStringLiteral("map queueing takes on or off, not '%1'").arg(positional.at(2)));
        if (refuseCapturedTree(
                parser, QStringLiteral("map queueing"), parser.isSet(QStringLiteral("dry-run")), true, io, &code))
            return code;
        return runMultipathMessageCli(parser, QStringLiteral("multipath.queueing"),
            { { QLatin1String("map"), map },
                { QLatin1String("queue_if_no_path"), positional.at(2) == QLatin1String("on") } },
            io);
    }
    if (action != QLatin1String("show") && action != QLatin1String("reload") && action != QLatin1String("queueing"))
        return usageError(io,
            QStringLiteral("unknown map action '%1'%2")
                .arg(action,
                    nearOrList(
                        action, { QStringLiteral("show"), QStringLiteral("reload"), QStringLiteral("queueing") })));
    return usageError(io, QStringLiteral("wrong number of arguments for 'map %1'").arg(action));
}

} // namespace dmtune::cli
