#include "core/ops/multipathoperations.h"

#include "core/discovery/nvmemultipath.h"
#include "core/dm/backend/devicemapper.h"
#include "core/dm/grammar/dmtargetline.h"
#include "core/dm/multipathchange.h"
#include "core/dm/reloadtable.h"
#include "core/ops/operationregistry.h"

#include <QCryptographicHash>
#include <QJsonArray>

namespace dmtune {

namespace {

// Risk texts come from mapsafety.h; the id is stable for the same text on the same state. The first
// `dataRiskCount` texts put the map's data at stake (a path of another LUN): answered only by naming `map`; the
// rest are I/O errors or hangs (availability).
QList<OperationRisk> risksOf(
    const QString &prefix, const QStringList &texts, qsizetype dataRiskCount = 0, const QString &map = QString())
{
    QList<OperationRisk> risks;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        const QString &text = texts.at(i);
        const QByteArray digest = QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex().left(8);
        const QString id = prefix + QLatin1Char(':') + QString::fromLatin1(digest);
        risks.append(i < dataRiskCount ? dataRisk(id, text, map) : availabilityRisk(id, text));
    }
    return risks;
}

Result<MultipathMessage> messageOf(const QString &kind, const QJsonObject &request)
{
    using R = Result<MultipathMessage>;
    MultipathMessage m;
    if (kind == QLatin1String("multipath.fail-path") || kind == QLatin1String("multipath.reinstate-path")) {
        m.kind = kind.endsWith(QLatin1String("fail-path")) ? MultipathMessageKind::FailPath
                                                           : MultipathMessageKind::ReinstatePath;
        m.device = request.value(QLatin1String("path")).toString();
        if (m.device.isEmpty())
            return R::failure(QStringLiteral("%1 needs \"path\"").arg(kind));
        return m;
    }
    if (kind == QLatin1String("multipath.queueing")) {
        const QJsonValue on = request.value(QLatin1String("queue_if_no_path"));
        if (!on.isBool())
            return R::failure(QStringLiteral("multipath.queueing needs \"queue_if_no_path\": true or false"));
        m.kind = on.toBool() ? MultipathMessageKind::QueueIfNoPath : MultipathMessageKind::FailIfNoPath;
        return m;
    }
    static const QHash<QString, MultipathMessageKind> groups {
        { QStringLiteral("multipath.switch-group"), MultipathMessageKind::SwitchGroup },
        { QStringLiteral("multipath.enable-group"), MultipathMessageKind::EnableGroup },
        { QStringLiteral("multipath.disable-group"), MultipathMessageKind::DisableGroup },
    };
    m.kind = groups.value(kind);
    const QJsonValue group = request.value(QLatin1String("group"));
    if (!group.isDouble() || group.toDouble() != double(group.toInt()) || group.toInt() < 1)
        return R::failure(QStringLiteral("%1 needs \"group\": a group number from 1").arg(kind));
    m.group = group.toInt();
    return m;
}

QString describe(const PreparedOperation &op)
{
    const QString text = formatMultipathMessage(op.message, int(op.before.table.groups.size())).value();
    if (!op.pathName.isEmpty())
        return QStringLiteral("%1: %2 (%3)").arg(op.map, text, op.pathName);
    return QStringLiteral("%1: %2").arg(op.map, text);
}

OperationResult fromMultipathResult(const MultipathOperationResult &r, const QStringList &risks)
{
    OperationResult result;
    result.ok = r.status.ok();
    result.error = r.status.errorMessage();
    result.warnings = risks + r.warnings;
    if (r)
        result.changes.append(QStringLiteral("%1: %2 done via %3").arg(r.map, r.operation, r.via));
    result.details = { { QLatin1String("map"), r.map }, { QLatin1String("operation"), r.operation },
        { QLatin1String("via"), r.via }, { QLatin1String("command"), r.command } };
    return result;
}

OperationKind messageKind(const QString &kind, const QString &description)
{
    OperationKind op;
    op.kind = kind;
    op.description = description;
    op.plan = [kind](const OperationEnvironment &env, const QJsonObject &request) -> Result<OperationPlan> {
        const QString map = request.value(QLatin1String("map")).toString();
        if (map.isEmpty())
            return Result<OperationPlan>::failure(QStringLiteral("%1 needs \"map\"").arg(kind));
        const auto message = messageOf(kind, request);
        if (!message)
            return Result<OperationPlan>::failure(message.errorMessage());
        if (const QString nvme = nativeNvmeInsteadOfDm(env.sysfs, map); !nvme.isEmpty())
            return Result<OperationPlan>::failure(nvme);
        if (!env.dm)
            return Result<OperationPlan>::failure(QStringLiteral("%1: no device-mapper here").arg(map));
        const auto prepared = prepareMultipathOperation(*env.dm, env.sysfs, map, message.value());
        if (!prepared)
            return Result<OperationPlan>::failure(prepared.errorMessage());
        OperationPlan plan;
        plan.request = request;
        plan.target = map;
        plan.summary = describe(prepared.value());
        const MultipathdCommand multipathd = env.multipathd ? env.multipathd() : MultipathdCommand();
        const QString viaMultipathd
            = multipathd ? multipathdCommandFor(map, prepared->message, prepared->pathName) : QString();
        plan.steps.append(viaMultipathd.isEmpty()
                ? QStringLiteral("send the device-mapper message \"%1\"")
                      .arg(formatMultipathMessage(prepared->message, int(prepared->before.table.groups.size())).value())
                : QStringLiteral("ask multipathd: \"%1\"").arg(viaMultipathd));
        plan.steps.append(QStringLiteral("read the map's status back"));
        plan.risks = risksOf(kind, prepared->risks);
        if (const QString why = env.dm->readOnlyReason(); !why.isEmpty())
            plan.refusals.append(QStringLiteral("%1: %2").arg(map, why));
        plan.basis = multipathBasis(prepared->before);
        plan.prepared = std::make_shared<PreparedOperation>(prepared.value());
        return plan;
    };
    op.run = [](const OperationEnvironment &env, const OperationPlan &fresh, bool dryRun) {
        const auto *prepared = fresh.prepared.get<PreparedOperation>();
        OperationResult result;
        if (dryRun) {
            result.ok = true;
            result.changes.append(QStringLiteral("would: %1").arg(fresh.summary));
            return result;
        }
        const MultipathdCommand multipathd = env.multipathd ? env.multipathd() : MultipathdCommand();
        return fromMultipathResult(executeMultipathOperation(*env.dm, *prepared, multipathd), prepared->risks);
    };
    return op;
}

ReloadGroups reloadGroupsOf(const QJsonObject &request)
{
    const auto words = [](const QJsonArray &array) {
        QStringList out;
        for (const QJsonValue &value : array)
            out.append(value.toString());
        return out;
    };
    ReloadGroups groups;
    groups.selector = request.value(QLatin1String("selector")).toString();
    for (const QJsonValue &group : request.value(QLatin1String("groups")).toArray())
        groups.groups.append(words(group.toArray()));
    if (request.contains(QLatin1String("features")))
        groups.features = words(request.value(QLatin1String("features")).toArray());
    return groups;
}

OperationKind reloadKind()
{
    OperationKind op;
    op.kind = QStringLiteral("multipath.reload");
    op.description = QStringLiteral("load a new multipath table into a map and resume it (no flush, no lockfs)");
    op.plan = [](const OperationEnvironment &env, const QJsonObject &request) -> Result<OperationPlan> {
        using R = Result<OperationPlan>;
        const QString map = request.value(QLatin1String("map")).toString();
        const bool byText = request.contains(QLatin1String("table"));
        if (map.isEmpty() || byText == request.contains(QLatin1String("groups")))
            return R::failure(
                QStringLiteral("multipath.reload needs \"map\" and either \"table\" or \"selector\" with \"groups\""));
        if (const QString nvme = nativeNvmeInsteadOfDm(env.sysfs, map); !nvme.isEmpty())
            return R::failure(nvme);
        if (!env.dm)
            return R::failure(QStringLiteral("%1: no device-mapper here").arg(map));
        const auto current = readMultipathMapState(*env.dm, map);
        if (!current)
            return R::failure(current.errorMessage());
        const auto table = byText ? reloadTableFromText(request.value(QLatin1String("table")).toString(), current->line)
                                  : reloadTableFromGroups(env.sysfs, current->table, reloadGroupsOf(request));
        if (!table)
            return R::failure(QStringLiteral("%1: the new table: %2").arg(map, table.errorMessage()));
        const auto prepared = prepareMultipathReload(*env.dm, map, table.value(), env.sysfs);
        if (!prepared)
            return R::failure(prepared.errorMessage());
        OperationPlan plan;
        plan.request = request;
        plan.target = map;
        plan.summary = QStringLiteral("%1: reload the multipath table").arg(map);
        plan.steps = { QStringLiteral("load the new table into the map's inactive slot"),
            QStringLiteral("resume the map without flush or lockfs (I/O in flight is kept)"),
            QStringLiteral("read the table and status back") };
        plan.preview = prepared->diff;
        plan.risks = risksOf(QStringLiteral("multipath.reload"), prepared->risks, prepared->dataRiskCount, map);
        if (prepared->diff.isEmpty())
            plan.notes.append(QStringLiteral("%1: the new table is the current one").arg(map));
        if (env.multipathd && env.multipathd())
            plan.notes.append(QStringLiteral("multipathd runs: it may put the table of multipath.conf back"));
        if (const QString why = env.dm->readOnlyReason(); !why.isEmpty())
            plan.refusals.append(QStringLiteral("%1: %2").arg(map, why));
        plan.basis = multipathBasis(prepared->before);
        plan.prepared = std::make_shared<PreparedReload>(prepared.value());
        return plan;
    };
    op.run = [](const OperationEnvironment &env, const OperationPlan &fresh, bool dryRun) {
        const auto *prepared = fresh.prepared.get<PreparedReload>();
        OperationResult result;
        if (dryRun) {
            result.ok = true;
            result.changes.append(QStringLiteral("would: %1").arg(fresh.summary));
            return result;
        }
        const bool multipathdRunning = env.multipathd && env.multipathd();
        return fromMultipathResult(executeMultipathReload(*env.dm, *prepared, multipathdRunning), prepared->risks);
    };
    return op;
}

} // namespace

QJsonObject multipathBasis(const MultipathMapState &state)
{
    QStringList paths, disabled;
    for (qsizetype g = 0; g < state.status.groups.size(); ++g) {
        const GroupStatus &group = state.status.groups.at(g);
        if (group.state == QLatin1Char('D'))
            disabled.append(QString::number(g + 1));
        for (const PathStatus &path : group.paths)
            paths.append(path.device + (path.active ? QStringLiteral("=A") : QStringLiteral("=F")));
    }
    return { { QLatin1String("table"), formatMultipathTable(state.table) },
        { QLatin1String("paths"), paths.join(QLatin1Char(' ')) },
        { QLatin1String("disabled_groups"), disabled.join(QLatin1Char(' ')) } };
}

QString multipathOperationOf(const OperationPlan &plan)
{
    const auto *prepared = plan.prepared.get<PreparedOperation>();
    if (!prepared || !plan.kind.startsWith(QLatin1String("multipath."))
        || plan.kind == QLatin1String("multipath.reload"))
        return {};
    return formatMultipathMessage(prepared->message).value();
}

QString reloadTargetLineOf(const OperationPlan &plan)
{
    const auto *prepared = plan.prepared.get<PreparedReload>();
    if (!prepared || plan.kind != QLatin1String("multipath.reload"))
        return {};
    return formatTargetLine(prepared->line);
}

void registerMultipathOperations()
{
    registerOperation(messageKind(QStringLiteral("multipath.fail-path"), QStringLiteral("fail one path of a map")));
    registerOperation(
        messageKind(QStringLiteral("multipath.reinstate-path"), QStringLiteral("reinstate a failed path")));
    registerOperation(
        messageKind(QStringLiteral("multipath.switch-group"), QStringLiteral("make a path group the next one")));
    registerOperation(
        messageKind(QStringLiteral("multipath.enable-group"), QStringLiteral("enable a bypassed path group")));
    registerOperation(messageKind(QStringLiteral("multipath.disable-group"), QStringLiteral("bypass a path group")));
    registerOperation(
        messageKind(QStringLiteral("multipath.queueing"), QStringLiteral("turn queue_if_no_path on or off")));
    registerOperation(reloadKind());
}

} // namespace dmtune
