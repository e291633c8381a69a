#include "core/ops/presetoperations.h"

#include "core/discovery/discovery.h"
#include "core/dm/backend/devicemapper.h"
#include "core/ops/operationregistry.h"
#include "core/params/deviceresolver.h"
#include "core/params/transaction.h"
#include "core/presets/presetjson.h"
#include "core/presets/presetmultipath.h"
#include "core/presets/presetresolution.h"
#include "core/presets/presetstore.h"
#include "core/presets/presettext.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace dmtune {

namespace {

const QString applyKind = QStringLiteral("preset.apply");
const QString verifyKind = QStringLiteral("preset.verify");

QString digest(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex().left(16));
}

Result<Preset> presetOf(const QString &kind, const QJsonObject &request)
{
    const QJsonValue value = request.value(QLatin1String("preset"));
    if (value.isString() && !value.toString().isEmpty())
        return findPreset(value.toString());
    if (value.isObject())
        return parsePreset(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    return Result<Preset>::failure(
        QStringLiteral("%1 needs \"preset\": a preset's name or file, or the preset itself (JSON)").arg(kind));
}

// The request read and laid over the live system, with the refusals found on the way (bad targets).
struct Resolved {
    Preset preset;
    DeviceSnapshot snapshot;
    PresetResolution resolution;
    QStringList devices; // the targets by kernel name; empty: all
    QStringList refusals;

    bool targeted(const QString &device) const { return devices.isEmpty() || devices.contains(device); }
    QList<PresetItem> items() const
    {
        QList<PresetItem> out;
        for (const PresetItem &i : resolution.items) {
            if (targeted(i.device))
                out.append(i);
        }
        return out;
    }
    QList<PresetMapItem> maps() const
    {
        QList<PresetMapItem> out;
        for (const PresetMapItem &m : resolution.maps) {
            if (targeted(m.device))
                out.append(m);
        }
        return out;
    }
};

Result<Resolved> resolveRequest(const QString &kind, const OperationEnvironment &env, const QJsonObject &request)
{
    auto preset = presetOf(kind, request);
    if (!preset)
        return Result<Resolved>::failure(preset.errorMessage());
    Resolved r;
    r.preset = preset.value();
    r.snapshot = Discovery::scan(env.sysfs);
    r.resolution = resolvePreset(env.sysfs, r.snapshot, r.preset);
    const QJsonValue devices = request.value(QLatin1String("devices"));
    if (!devices.isUndefined() && !devices.isArray())
        return Result<Resolved>::failure(QStringLiteral("%1: \"devices\" is a list of device names").arg(kind));
    for (const QJsonValue &spec : devices.toArray()) {
        const auto device = resolveDeviceSpec(env.sysfs, r.snapshot, spec.toString());
        if (!device) {
            r.refusals.append(device.errorMessage());
            continue;
        }
        const QString &name = device.value();
        const bool covered = std::any_of(r.resolution.items.cbegin(), r.resolution.items.cend(),
                                 [&name](const PresetItem &i) { return i.device == name; })
            || std::any_of(r.resolution.maps.cbegin(), r.resolution.maps.cend(),
                [&name](const PresetMapItem &m) { return m.device == name; });
        if (!covered)
            r.refusals.append(QStringLiteral("%1: the preset \"%2\" has no setting for it").arg(name, r.preset.name));
        r.devices.append(name);
    }
    return r;
}

// What plan() prepared for run() in the same process.
struct PreparedPresetApply {
    Resolved resolved;
    QList<PresetMapReload> reloads;
    bool dataRisks = false;
};

Result<OperationPlan> planApply(const OperationEnvironment &env, const QJsonObject &request)
{
    auto resolved = resolveRequest(applyKind, env, request);
    if (!resolved)
        return Result<OperationPlan>::failure(resolved.errorMessage());
    auto prepared = std::make_shared<PreparedPresetApply>();
    prepared->resolved = std::move(resolved.value());
    const Resolved &r = prepared->resolved;
    OperationPlan plan;
    plan.request = request;
    plan.target = r.preset.name;
    plan.refusals = r.refusals;

    QList<PresetMapItem> differing;
    for (const PresetMapItem &m : r.maps()) {
        if (m.differs)
            differing.append(m);
    }
    if (!differing.isEmpty()) {
        if (!env.dm) {
            plan.refusals.append(QStringLiteral("multipath settings: reloading map tables needs device-mapper (root "
                                                "on this machine); nothing applied"));
        } else {
            const auto reloads = prepareMapReloads(*env.dm, differing, env.sysfs);
            if (!reloads)
                plan.refusals.append(QStringLiteral("multipath settings: %1").arg(reloads.errorMessage()));
            else
                prepared->reloads = reloads.value();
        }
    }
    const ChangeSet changes = r.resolution.changes(r.devices);
    // Checked now, before any table is touched: a value the planner rejects refuses the whole preset.
    const Plan early = planChanges(env.sysfs, changes, RiskConsent::Given);
    for (const ApplyError &e : early.errors)
        plan.refusals.append(e.text());
    for (const DataRisk &risk : early.risks) {
        plan.risks.append(dataRisk(
            QLatin1String(presetDataRiskPrefix) + risk.device + QLatin1Char(':') + risk.attribute,
            QStringLiteral("%1 %2=%3 puts data at risk: %4").arg(risk.device, risk.attribute, risk.value, risk.note),
            risk.device));
    }
    prepared->dataRisks = !early.risks.isEmpty();

    // The preview lists what changes (and what cannot be applied); what already has the preset's value is counted.
    QList<PresetItem> changing;
    qsizetype same = 0;
    for (const PresetItem &i : r.items()) {
        if (i.state == PresetItemState::Same)
            ++same;
        else
            changing.append(i);
    }
    QList<PresetMapItem> differingMaps;
    for (const PresetMapItem &m : r.maps()) {
        if (m.differs || !m.note.isEmpty())
            differingMaps.append(m);
    }
    QStringList preview = presetItemLines(r.preset, changing) + presetMapLines(differingMaps);
    if (same > 0)
        preview.append(same == 1 ? QStringLiteral("  1 setting has the preset's value already")
                                 : QStringLiteral("  %1 settings have the preset's values already").arg(same));
    if (const qsizetype sameMaps = r.maps().size() - differingMaps.size(); sameMaps > 0)
        preview.append(sameMaps == 1
                ? QStringLiteral("  1 map has the preset's multipath settings already")
                : QStringLiteral("  %1 maps have the preset's multipath settings already").arg(sameMaps));
    QJsonObject basis { { QStringLiteral("preset"), digest(presetToJson(r.preset)) } };
    for (const PresetItem &i : r.items())
        basis.insert(QStringLiteral("%1 %2").arg(i.device, i.attribute), i.current);
    for (const PresetMapReload &reload : std::as_const(prepared->reloads)) {
        basis.insert(QStringLiteral("table %1").arg(reload.map), formatMultipathTable(reload.before));
        plan.steps.append(QStringLiteral("reload the table of %1 (load, resume without flush or lockfs): %2")
                              .arg(reload.map, reload.diff.join(QStringLiteral("; "))));
        for (const QString &line : reload.diff)
            preview.append(QStringLiteral("  %1 table: %2").arg(reload.map, line));
        for (qsizetype i = 0; i < reload.risks.size(); ++i) {
            const QString &text = reload.risks.at(i);
            preview.append(QStringLiteral("  %1 risk: %2").arg(reload.map, text));
            const QString id
                = QLatin1String(presetReloadRiskPrefix) + reload.map + QLatin1Char(':') + digest(text.toUtf8()).left(8);
            const QString said = QStringLiteral("%1: %2").arg(reload.map, text);
            // A path of another LUN puts the map's data at stake: answered by naming the map, not by --force.
            plan.risks.append(i < reload.dataRiskCount ? dataRisk(id, said, reload.map) : availabilityRisk(id, said));
        }
    }
    for (const PlannedWrite &w : early.writes)
        plan.steps.append(
            QStringLiteral("write %1 %2 %3 -> %4")
                .arg(w.device, w.attribute, w.oldValue.isEmpty() ? QStringLiteral("-") : w.oldValue, w.value));
    if (!plan.steps.isEmpty())
        plan.steps.append(QStringLiteral("read every value back; on any failure put back the values written and the "
                                         "old tables"));
    plan.notes = r.resolution.unmatched;
    if (!prepared->reloads.isEmpty() && env.multipathd && env.multipathd())
        plan.notes.append(QStringLiteral("multipathd runs: it may put the table of multipath.conf back"));
    if (early.writes.isEmpty() && prepared->reloads.isEmpty() && plan.refusals.isEmpty())
        plan.notes.append(QStringLiteral("nothing to write: the live values are the preset's"));
    plan.summary = QStringLiteral("apply preset \"%1\": %2 writes, %3 map reloads")
                       .arg(r.preset.name)
                       .arg(early.writes.size())
                       .arg(prepared->reloads.size());
    plan.preview = preview.join(QLatin1Char('\n'));
    plan.basis = basis;
    plan.prepared = prepared;
    return plan;
}

QJsonObject applyDetails(const Resolved &r, const ApplyResult &apply, const QStringList &reloaded)
{
    QJsonObject details = toJson(apply);
    details.insert(QStringLiteral("preview"), presetItemsJson(r.preset, r.items()));
    details.insert(QStringLiteral("reloaded"), QJsonArray::fromStringList(reloaded));
    details.insert(QStringLiteral("rejected"), apply.rejected());
    return details;
}

OperationResult runApply(const OperationEnvironment &env, const OperationPlan &fresh, bool dryRun)
{
    const auto *prepared = fresh.prepared.get<PreparedPresetApply>();
    const Resolved &r = prepared->resolved;
    const RiskConsent consent = prepared->dataRisks ? RiskConsent::Given : RiskConsent::None; // all were accepted
    OperationResult result;
    if (env.isCancelled()) {
        result.error = QStringLiteral("cancelled; nothing changed");
        return result;
    }
    QStringList reloaded;
    const bool reload = !dryRun && !prepared->reloads.isEmpty();
    if (reload) {
        const bool multipathdRunning = env.multipathd && env.multipathd();
        const MapReloadOutcome outcome = executeMapReloads(*env.dm, prepared->reloads, multipathdRunning);
        result.warnings.append(outcome.warnings);
        if (!outcome.ok()) {
            result.error = QStringLiteral("multipath settings not applied (maps restored): %1")
                               .arg(outcome.status.errorMessage());
            result.details = { { QStringLiteral("stage"), QStringLiteral("reload") } };
            return result;
        }
        reloaded = outcome.done;
        result.changes.append(outcome.done);
        // Between steps: a run asked to stop here gets the old tables back (all or nothing).
        if (env.isCancelled()) {
            const QStringList errors = restoreMapReloads(*env.dm, prepared->reloads);
            result.changes.clear();
            result.error = errors.isEmpty()
                ? QStringLiteral("cancelled; multipath tables restored")
                : QStringLiteral("cancelled; restoring tables: ") + errors.join(QStringLiteral("; "));
            return result;
        }
    }
    // After a reload the map's limits are the stacked ones again: resolve afresh.
    const PresetResolution now = reload ? resolvePreset(env.sysfs, r.snapshot, r.preset) : r.resolution;
    const Plan plan = planChanges(env.sysfs, now.changes(r.devices), consent);
    for (const StackingWarning &w : plan.warnings)
        result.warnings.append(w.message);
    const ApplyResult apply = env.executeTransaction(plan, dryRun); // in-process as root, else the helper
    result.ok = apply.ok();
    for (const ChangeOutcome &c : apply.changes) {
        if (dryRun)
            result.changes.append(
                QStringLiteral("would: %1 %2 %3 -> %4").arg(c.device, c.attribute, c.oldValue, c.requested));
        else if ((c.written || c.sideEffect) && !apply.rolledBack && c.oldValue != c.newValue)
            result.changes.append(c.summary());
    }
    QStringList errors;
    if (!apply.ok())
        errors.append(apply.errorMessage());
    if (!apply.ok() && reload) {
        const QStringList failed = restoreMapReloads(*env.dm, prepared->reloads);
        errors.append(failed.isEmpty() ? QStringLiteral("multipath tables restored")
                                       : QStringLiteral("restoring tables: ") + failed.join(QStringLiteral("; ")));
        result.changes.clear();
    }
    result.error = errors.join(QLatin1Char('\n'));
    result.details = applyDetails(r, apply, reloaded);
    return result;
}

Result<OperationPlan> planVerify(const OperationEnvironment &env, const QJsonObject &request)
{
    auto resolved = resolveRequest(verifyKind, env, request);
    if (!resolved)
        return Result<OperationPlan>::failure(resolved.errorMessage());
    OperationPlan plan;
    plan.request = request;
    plan.target = resolved->preset.name;
    plan.refusals = resolved->refusals;
    plan.summary = QStringLiteral("verify preset \"%1\" against the live system").arg(resolved->preset.name);
    plan.steps
        = { QStringLiteral("read every setting and map table the preset names and compare (nothing is written)") };
    plan.notes = resolved->resolution.unmatched;
    plan.prepared = std::make_shared<Resolved>(resolved.value());
    return plan;
}

OperationResult runVerify(const OperationEnvironment &, const OperationPlan &fresh, bool)
{
    const auto *r = fresh.prepared.get<Resolved>();
    QList<PresetItem> drift;
    for (const PresetItem &i : r->resolution.drift()) {
        if (r->targeted(i.device))
            drift.append(i);
    }
    const QList<PresetMapItem> maps = r->maps();
    const bool mapsDiffer = std::any_of(maps.cbegin(), maps.cend(), [](const PresetMapItem &m) { return m.differs; });
    const QList<PresetItem> items = r->items();
    QJsonArray mapsJson;
    for (const PresetMapItem &m : maps)
        mapsJson.append(QJsonObject { { QStringLiteral("map"), m.map }, { QStringLiteral("differs"), m.differs },
            { QStringLiteral("selector"), m.currentSelector }, { QStringLiteral("note"), m.note } });
    QStringList lines { QStringLiteral("preset \"%1\": %2 settings checked, %3 drifted")
                            .arg(r->preset.name)
                            .arg(items.size())
                            .arg(drift.size()) };
    lines += presetItemLines(r->preset, drift) + presetMapLines(maps);
    for (const QString &u : r->resolution.unmatched)
        lines.append(QStringLiteral("note: ") + u);
    OperationResult result;
    result.ok = true;
    result.details
        = { { QStringLiteral("preset"), r->preset.name }, { QStringLiteral("drift"), !drift.isEmpty() || mapsDiffer },
              { QStringLiteral("items"), presetItemsJson(r->preset, items) }, { QStringLiteral("maps"), mapsJson },
              { QStringLiteral("unmatched"), QJsonArray::fromStringList(r->resolution.unmatched) },
              { QStringLiteral("lines"), QJsonArray::fromStringList(lines) } };
    return result;
}

} // namespace

QJsonObject presetRequest(const QString &nameOrFile, const QStringList &devices)
{
    QJsonObject request { { QStringLiteral("preset"), nameOrFile } };
    if (!devices.isEmpty())
        request.insert(QStringLiteral("devices"), QJsonArray::fromStringList(devices));
    return request;
}

QJsonObject presetRequest(const Preset &preset, const QStringList &devices)
{
    QJsonObject request { { QStringLiteral("preset"), presetToJsonObject(preset) } };
    if (!devices.isEmpty())
        request.insert(QStringLiteral("devices"), QJsonArray::fromStringList(devices));
    return request;
}

void registerPresetOperations()
{
    registerOperation({ applyKind,
        QStringLiteral("apply a preset: map reloads, then the attribute writes as one transaction (all or nothing)"),
        planApply, runApply });
    registerOperation(
        { verifyKind, QStringLiteral("report the drift between a preset and the live system"), planVerify, runVerify });
}

} // namespace dmtune
