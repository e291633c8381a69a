#include "core/params/transaction.h"

#include "core/params/catalog.h"
#include "core/params/changelog.h"
#include "core/params/devicecontext.h"

#include <QDateTime>
#include <QFileInfo>

namespace dmtune {

namespace {

struct Saved {
    QString path;
    QString value;
};

// What a write changed, so it can be undone.
struct Done {
    qsizetype outcome; // index into result.changes
    QString path;
    QString before; // normalized, read just before the write
    QList<Saved> companions; // scheduler writes: nr_requests and iosched/* as they were
};

QString withoutPath(const QString &message)
{
    // SysfsRoot errors are "PATH: strerror"; the path is already in the error's device/attribute.
    const qsizetype at = message.lastIndexOf(QStringLiteral(": "));
    return at < 0 ? message : message.mid(at + 2);
}

const TunableDef &defOf(const QString &attribute)
{
    static const TunableDef raw;
    const TunableDef *def = catalog::find(attribute);
    return def ? *def : raw;
}

// Files a scheduler change resets: nr_requests and the current scheduler's writable tunables.
QList<Saved> saveSchedulerCompanions(const SysfsRoot &sysfs, const QString &device)
{
    QList<Saved> out;
    const QString base = QStringLiteral("block/%1/queue/").arg(device);
    QStringList files { base + QStringLiteral("nr_requests") };
    const auto iosched = sysfs.list(base + QStringLiteral("iosched"));
    for (const auto &f : iosched)
        files << base + QStringLiteral("iosched/") + f;
    for (const auto &f : files) {
        if (!QFileInfo(sysfs.path(f)).isFile() || !sysfs.isWritable(f))
            continue;
        if (const auto v = sysfs.read(f))
            out << Saved { f, *v };
    }
    return out;
}

class Transaction {
public:
    Transaction(const SysfsRoot &sysfs, const Plan &plan)
        : m_sysfs(sysfs)
        , m_plan(plan)
    {
    }

    ApplyResult run()
    {
        m_result.executor = QStringLiteral("in-process");
        m_result.warnings = m_plan.warnings;
        for (const auto &w : m_plan.writes) {
            ChangeOutcome o;
            o.device = w.device;
            o.attribute = w.attribute;
            o.oldValue = w.oldValue;
            o.requested = w.value;
            o.newValue = w.oldValue;
            m_result.changes << o;
        }
        for (qsizetype i = 0; i < m_plan.writes.size(); ++i) {
            if (!step(i)) {
                rollback();
                for (qsizetype j = i + 1; j < m_plan.writes.size(); ++j)
                    m_result.changes[indexOf(j)].note = QStringLiteral("not written");
                return m_result;
            }
        }
        return m_result;
    }

private:
    // Outcomes of side effects are inserted after their cause: map plan index -> outcome index.
    qsizetype indexOf(qsizetype planIndex) const { return planIndex + m_inserted.value(planIndex, m_insertedTotal); }

    bool fail(qsizetype outcome, ApplyError::Stage stage, const QString &message)
    {
        ChangeOutcome &o = m_result.changes[outcome];
        o.error = message;
        m_result.errors << ApplyError { stage, o.device, o.attribute, o.requested, message };
        return false;
    }

    bool step(qsizetype i)
    {
        const PlannedWrite &w = m_plan.writes[i];
        m_inserted.insert(i, m_insertedTotal);
        const qsizetype at = indexOf(i);
        const TunableDef &def = defOf(w.attribute);

        // Re-resolve at write time: the device may be gone, an iosched file may only exist now.
        if (const Status s = checkDeviceName(m_sysfs, w.device); !s)
            return fail(at, ApplyError::Stage::Write, s.errorMessage());
        const auto path = attributePath(m_sysfs, readDeviceContext(m_sysfs, w.device), def);
        if (!path)
            return fail(at, ApplyError::Stage::Write, path.errorMessage());
        if (*path != w.path)
            return fail(
                at, ApplyError::Stage::Write, QStringLiteral("resolves elsewhere than planned (%1)").arg(*path));
        const auto current = m_sysfs.read(w.path);
        if (!current)
            return fail(at, ApplyError::Stage::Write, withoutPath(current.errorMessage()));
        const QString before = normalizeValue(def, *current);
        ChangeOutcome &o = m_result.changes[at];
        if (o.oldValue.isEmpty())
            o.oldValue = before;
        if (sameValue(def, before, w.value)) {
            // Writing the current scheduler again is a no-op anyway; others need no write either.
            o.newValue = before;
            o.note = QStringLiteral("unchanged");
            return true;
        }
        Done done { at, w.path, before, {} };
        const bool scheduler = w.attribute == QLatin1String("queue/scheduler");
        if (scheduler)
            done.companions = saveSchedulerCompanions(m_sysfs, w.device);

        if (const Status s = m_sysfs.write(w.path, w.value); !s)
            return fail(at, ApplyError::Stage::Write, withoutPath(s.errorMessage()));
        m_done << done;
        m_result.changes[at].written = true;
        const auto after = m_sysfs.read(w.path);
        if (!after)
            return fail(at, ApplyError::Stage::ReadBack, withoutPath(after.errorMessage()));
        ChangeOutcome &written = m_result.changes[at];
        written.newValue = normalizeValue(def, *after);
        written.clamped = !sameValue(def, written.newValue, w.value);
        if (written.clamped && w.attribute == QLatin1String("queue/wbt_lat_usec")
            && w.value.trimmed() == QLatin1String("-1")) {
            // -1 asks for the kernel's default (2000 or 75000 us): what it stores is the answer, not a clamp.
            written.clamped = false;
            written.note = QStringLiteral("the kernel's default");
        } else if (written.clamped)
            written.note = QStringLiteral("the kernel stored %1").arg(written.newValue);
        if (scheduler)
            reportSchedulerSideEffect(i, done);
        return true;
    }

    // A scheduler change resets nr_requests: say so when the change set does not set it itself.
    void reportSchedulerSideEffect(qsizetype i, const Done &done)
    {
        const PlannedWrite &w = m_plan.writes[i];
        for (const auto &other : m_plan.writes) {
            if (other.device == w.device && other.attribute == QLatin1String("queue/nr_requests"))
                return;
        }
        for (const auto &saved : done.companions) {
            if (!saved.path.endsWith(QLatin1String("/nr_requests")))
                continue;
            const QString now = m_sysfs.readOr(saved.path);
            if (now == saved.value)
                return;
            ChangeOutcome side;
            side.device = w.device;
            side.attribute = QStringLiteral("queue/nr_requests");
            side.oldValue = saved.value;
            side.newValue = now;
            side.sideEffect = true;
            side.note = QStringLiteral("reset by the scheduler change");
            m_result.changes.insert(done.outcome + 1, side);
            ++m_insertedTotal;
        }
    }

    void restore(const QString &device, const QString &attribute, const QString &path, const QString &value)
    {
        const TunableDef &def = defOf(attribute);
        const Status s = m_sysfs.write(path, value);
        const auto back = m_sysfs.read(path);
        QString problem;
        if (!s)
            problem = withoutPath(s.errorMessage());
        else if (!back)
            problem = withoutPath(back.errorMessage());
        else if (!sameValue(def, *back, value))
            problem = QStringLiteral("reads back %1").arg(normalizeValue(def, *back));
        if (!problem.isEmpty())
            m_result.errors << ApplyError { ApplyError::Stage::Rollback, device, attribute, value, problem };
    }

    void rollback()
    {
        m_result.rolledBack = true;
        for (auto it = m_done.crbegin(); it != m_done.crend(); ++it) {
            ChangeOutcome &o = m_result.changes[it->outcome];
            restore(o.device, o.attribute, it->path, it->before);
            // The old scheduler is back with its defaults: put its tunables and nr_requests back too.
            for (const auto &saved : it->companions) {
                const QString attribute = saved.path.section(QLatin1Char('/'), 2);
                restore(o.device, attribute, saved.path, saved.value);
            }
            o.newValue = normalizeValue(defOf(o.attribute), m_sysfs.readOr(it->path));
            o.written = false;
            o.clamped = false;
            o.note = QStringLiteral("rolled back");
        }
        // Side effects were undone with their scheduler.
        for (auto &o : m_result.changes) {
            if (o.sideEffect) {
                o.newValue = m_sysfs.readOr(QStringLiteral("block/%1/%2").arg(o.device, o.attribute));
                o.note = QStringLiteral("rolled back");
            }
        }
    }

    const SysfsRoot &m_sysfs;
    const Plan &m_plan;
    ApplyResult m_result;
    QList<Done> m_done;
    QHash<qsizetype, qsizetype> m_inserted; // plan index -> side-effect outcomes inserted before it
    qsizetype m_insertedTotal = 0;
};

} // namespace

ApplyResult executePlan(const SysfsRoot &sysfs, const Plan &plan, bool dryRun)
{
    // A captured tree is never written (and through it, nothing of this system): the plan is rejected whole.
    if (const Status writable = sysfs.checkWritable(); !writable && !dryRun && plan.ok()) {
        Plan rejected = plan;
        rejected.errors << ApplyError { ApplyError::Stage::Validate, {}, {}, {}, writable.errorMessage() };
        return executePlan(sysfs, rejected, false);
    }
    // The one place that decides: a risky write without consent is refused here, whoever asked.
    const bool refused = !dryRun && plan.needsConsent();
    if (!plan.ok() || dryRun || refused) {
        ApplyResult r;
        r.executor = QStringLiteral("in-process");
        r.dryRun = dryRun;
        r.errors = plan.errors;
        if (refused) {
            for (const DataRisk &risk : plan.risks)
                r.errors << consentError(risk);
        }
        r.warnings = plan.warnings;
        for (const auto &w : plan.writes) {
            ChangeOutcome o;
            o.device = w.device;
            o.attribute = w.attribute;
            o.oldValue = w.oldValue;
            o.requested = w.value;
            o.newValue = w.oldValue;
            o.note = plan.ok() && !refused ? QStringLiteral("dry run") : QStringLiteral("not written");
            if (const QString risk = dataRiskNote(w.attribute, w.oldValue, w.value); !risk.isEmpty() && dryRun)
                o.note = QStringLiteral("dry run; puts data at risk: ") + risk;
            r.changes << o;
        }
        return r;
    }
    const ApplyResult result = Transaction(sysfs, plan).run();
    // What was written to this system goes into the host's change log, so that a window charting the device can say
    // who changed it (params/changelog.h). A log that cannot be written loses nothing written: it is not an error.
    if (sysfs.isLive() && result.anyWritten())
        (void)appendChangeLog(
            changeLogPath(), changeLogEntries(result, double(QDateTime::currentMSecsSinceEpoch()) / 1000.0));
    return result;
}

ApplyResult applyChanges(const SysfsRoot &sysfs, const ChangeSet &changes, bool dryRun, RiskConsent consent)
{
    return executePlan(sysfs, planChanges(sysfs, changes, consent), dryRun);
}

} // namespace dmtune
