#include "core/params/planner.h"

#include "core/params/catalog.h"
#include "core/params/devicecontext.h"
#include "core/params/stacking.h"

#include <QHash>

#include <algorithm>

namespace dmtune {

namespace {

int phase(const QString &attribute)
{
    if (attribute == QLatin1String("queue/scheduler"))
        return 0;
    if (attribute == QLatin1String("queue/nr_requests") || attribute.startsWith(QLatin1String("queue/iosched/")))
        return 1;
    return 2;
}

int levelKey(const PlannedWrite &w)
{
    if (w.attribute != QLatin1String("queue/max_sectors_kb"))
        return 0;
    const auto oldKb = parseInteger(w.oldValue);
    const auto newKb = parseInteger(w.value);
    const bool up = oldKb && newKb && *newKb > *oldKb;
    return up ? w.level : -w.level;
}

ApplyError invalid(const Change &c, const QString &message)
{
    return ApplyError { ApplyError::Stage::Validate, c.device, c.attribute, c.value, message };
}

} // namespace

QString DataRisk::text() const
{
    return QStringLiteral("%1 %2=%3: %4").arg(device, attribute, value, note);
}

QString dataRiskNote(const QString &attribute, const QString &oldValue, const QString &value)
{
    const TunableDef *def = catalog::find(attribute);
    if (!def || !def->riskyValues.contains(value) || oldValue == value)
        return {};
    return def->riskNote;
}

ApplyError consentError(const DataRisk &risk)
{
    return ApplyError { ApplyError::Stage::Validate, risk.device, risk.attribute, risk.value,
        QStringLiteral("puts data at risk (%1); not written without explicit confirmation").arg(risk.note) };
}

void orderWrites(QList<PlannedWrite> &writes)
{
    std::stable_sort(writes.begin(), writes.end(), [](const PlannedWrite &a, const PlannedWrite &b) {
        const int pa = phase(a.attribute), pb = phase(b.attribute);
        if (pa != pb)
            return pa < pb;
        return levelKey(a) < levelKey(b);
    });
}

Plan planChanges(const SysfsRoot &sysfs, const ChangeSet &changes, RiskConsent consent)
{
    Plan plan;
    plan.consent = consent;
    QHash<QString, DeviceContext> contexts;
    QHash<QString, QString> targetScheduler; // device -> scheduler after the change set
    QHash<QString, qsizetype> byPath; // path -> index in plan.writes
    StackLevels levels(sysfs); // one walk for the whole change set

    // The scheduler a device will have decides which iosched files exist and nr_requests' ceiling.
    for (const auto &c : changes) {
        if (c.attribute == QLatin1String("queue/scheduler"))
            targetScheduler.insert(c.device, c.value.trimmed());
    }

    for (const auto &c : changes) {
        if (const Status s = checkDeviceName(sysfs, c.device); !s) {
            plan.errors << invalid(c, s.errorMessage());
            continue;
        }
        const TunableDef *def = catalog::find(c.attribute);
        if (!def) {
            plan.errors << invalid(c,
                catalog::readOnlyAttributes().contains(c.attribute)
                    ? QStringLiteral("read-only: the kernel reports it, nothing can set it")
                    : QStringLiteral("unknown attribute (not in the catalog)"));
            continue;
        }
        if (def->ignored) {
            plan.errors << invalid(c, QStringLiteral("ignored by current kernels: %1").arg(def->ignoredNote));
            continue;
        }
        if (!contexts.contains(c.device))
            contexts.insert(c.device, readDeviceContext(sysfs, c.device));
        const DeviceContext &ctx = contexts[c.device];
        const QString scheduler = targetScheduler.value(c.device, ctx.schedulers.current);
        if (!appliesTo(*def, ctx, scheduler)) {
            plan.errors << invalid(c,
                def->location == TunableLocation::IoScheduler
                    ? QStringLiteral("belongs to %1, the scheduler will be %2")
                          .arg(def->scheduler, scheduler.isEmpty() ? QStringLiteral("unknown") : scheduler)
                    : QStringLiteral("%1 has no %2").arg(c.device, c.attribute));
            continue;
        }
        PlannedWrite w;
        w.device = c.device;
        w.attribute = c.attribute;
        const bool schedulerChanges = scheduler != ctx.schedulers.current;
        if (def->location == TunableLocation::IoScheduler && schedulerChanges) {
            // Created by the scheduler write; resolved and checked again when written.
            w.path = QStringLiteral("block/%1/%2").arg(c.device, c.attribute);
        } else {
            const auto path = attributePath(sysfs, ctx, *def);
            if (!path) {
                plan.errors << invalid(c, path.errorMessage());
                continue;
            }
            w.path = *path;
            if (!sysfs.isWritable(w.path)) {
                plan.errors << invalid(c, QStringLiteral("read-only"));
                continue;
            }
            const auto current = sysfs.read(w.path);
            if (!current) {
                plan.errors << invalid(c, current.errorMessage());
                continue;
            }
            w.oldValue = normalizeValue(*def, *current);
        }
        // The value the file holds is no error even off the grid: it plans as unchanged and is never written.
        const auto value = checkValueFrom(*def, deviceLimits(*def, ctx, scheduler), w.oldValue, c.value);
        if (!value) {
            plan.errors << invalid(c, value.errorMessage());
            continue;
        }
        w.value = *value;
        // The same file twice (a module parameter through two devices): once if they agree.
        if (const auto it = byPath.constFind(w.path); it != byPath.cend()) {
            if (plan.writes[*it].value != w.value)
                plan.errors << invalid(
                    c, QStringLiteral("also set to %1 in the same change set").arg(plan.writes[*it].value));
            continue;
        }
        w.level = levels.level(c.device);
        byPath.insert(w.path, plan.writes.size());
        plan.writes << w;
    }
    orderWrites(plan.writes);
    for (const PlannedWrite &w : std::as_const(plan.writes)) {
        // A write into a file the scheduler change creates has no old value: counted as a change.
        if (const QString note = dataRiskNote(w.attribute, w.oldValue, w.value); !note.isEmpty())
            plan.risks << DataRisk { w.device, w.attribute, w.oldValue, w.value, note };
    }
    plan.warnings = stackingWarnings(sysfs, changes);
    return plan;
}

} // namespace dmtune
