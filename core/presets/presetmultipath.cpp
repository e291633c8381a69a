#include "core/presets/presetmultipath.h"

#include "core/dm/grammar/pathselectors.h"
#include "core/dm/grammar/tablediff.h"
#include "core/dm/mapsafety.h"
#include "core/dm/multipathchange.h"

namespace dmtune {

Result<MultipathTable> tableWithSettings(const MultipathTable &current, const MultipathSettings &settings)
{
    using R = Result<MultipathTable>;
    MultipathTable table = current;
    if (!settings.grouping.isEmpty()) {
        QList<PathSpec> paths;
        for (const auto &g : current.groups)
            paths += g.paths;
        if (paths.isEmpty())
            return R::failure(QStringLiteral("the map has no paths to group"));
        const PathGroupSpec model = current.groups.first();
        table.groups.clear();
        if (settings.grouping == QLatin1String("multibus")) {
            PathGroupSpec g = model;
            g.paths = paths;
            table.groups << g;
        } else if (settings.grouping == QLatin1String("failover")) {
            for (const auto &p : paths) {
                PathGroupSpec g = model;
                g.paths = { p };
                table.groups << g;
            }
        } else {
            return R::failure(QStringLiteral("grouping %1 depends on path properties only multipathd knows "
                                             "(use the multipath.conf export)")
                                  .arg(settings.grouping));
        }
        table.initialGroup = 1;
    }
    if (!settings.selector.isEmpty()) {
        const QStringList words = settings.selector.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const QStringList pathArgs = defaultPathArgs(words.first());
        for (auto &g : table.groups) {
            g.selector = words.first();
            g.selectorArgs = words.mid(2); // words[1] is their count (the loader checked it)
            g.perPathArgCount = int(pathArgs.size());
            for (auto &p : g.paths)
                p.args = pathArgs;
        }
    }
    // Features are words; a feature with a value ("pg_init_retries 50") is added whole.
    if (!settings.features.isEmpty() && !table.features.contains(settings.features.first()))
        table.features += settings.features;
    if (const Status s = checkMultipathTable(table); !s)
        return R::failure(s.errorMessage());
    return table;
}

Result<QList<PresetMapReload>> prepareMapReloads(
    DeviceMapper &dm, const QList<PresetMapItem> &maps, const SysfsRoot &sysfs)
{
    using R = Result<QList<PresetMapReload>>;
    QList<PresetMapReload> out;
    for (const auto &m : maps) {
        if (!m.differs)
            continue;
        const auto state = readMultipathMapState(dm, m.map);
        if (!state)
            return R::failure(QStringLiteral("%1: %2").arg(m.map, state.errorMessage()));
        const auto table = tableWithSettings(state->table, m.wanted);
        if (!table)
            return R::failure(QStringLiteral("%1: %2").arg(m.map, table.errorMessage()));
        if (*table == state->table)
            continue;
        const QStringList dataRisks = identityRisks(
            readMapIdentity(sysfs, m.map, state->info.uuid, state->table, *table), state->table, *table);
        out << PresetMapReload { m.map, state->table, *table, tableDiffLines(state->table, *table),
            dataRisks + reloadRisks(state->table, state->status, *table), dataRisks.size() };
    }
    return out;
}

MapReloadOutcome executeMapReloads(DeviceMapper &dm, const QList<PresetMapReload> &reloads, bool multipathdRunning)
{
    MapReloadOutcome outcome;
    QList<PresetMapReload> done;
    for (const auto &r : reloads) {
        const MultipathOperationResult result = runMultipathReload(dm, r.map, r.after, multipathdRunning);
        outcome.warnings += result.warnings;
        if (!result) {
            QString error = QStringLiteral("%1: %2").arg(r.map, result.status.errorMessage());
            for (const auto &e : restoreMapReloads(dm, done))
                error += QStringLiteral("; restoring: ") + e;
            outcome.status = Status::failure(error, result.status.errorCode());
            return outcome;
        }
        done << r;
        outcome.done << QStringLiteral("%1: reloaded: %2").arg(r.map, result.command);
    }
    return outcome;
}

QStringList restoreMapReloads(DeviceMapper &dm, const QList<PresetMapReload> &reloads)
{
    QStringList errors;
    for (auto it = reloads.crbegin(); it != reloads.crend(); ++it) {
        const MultipathOperationResult r = runMultipathReload(dm, it->map, it->before, false);
        if (!r)
            errors << QStringLiteral("%1: %2").arg(it->map, r.status.errorMessage());
    }
    return errors;
}

} // namespace dmtune
