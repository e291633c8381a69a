#include "core/params/applyresult.h"

#include <QJsonArray>

#include <algorithm>

namespace dmtune {

QString ChangeOutcome::summary() const
{
    const QString attr = attribute.startsWith(QLatin1String("queue/")) ? attribute.mid(6) : attribute;
    return QStringLiteral("%1 %2 %3 -> %4").arg(device, attr, oldValue, newValue);
}

QString ApplyError::text() const
{
    QString where = device;
    if (!attribute.isEmpty())
        where += QLatin1Char(' ') + attribute;
    if (!value.isEmpty())
        where += QLatin1Char('=') + value;
    if (stage == Stage::Rollback)
        where += QStringLiteral(" (restoring)");
    return where.isEmpty() ? message : where + QStringLiteral(": ") + message;
}

bool ApplyResult::rejected() const
{
    return std::any_of(
        errors.begin(), errors.end(), [](const ApplyError &e) { return e.stage == ApplyError::Stage::Validate; });
}

bool ApplyResult::anyWritten() const
{
    return std::any_of(changes.begin(), changes.end(), [](const ChangeOutcome &c) { return c.written; });
}

QString ApplyResult::errorMessage() const
{
    QStringList lines;
    for (const auto &e : errors)
        lines << e.text();
    return lines.join(QLatin1Char('\n'));
}

namespace {

const char *const stageNames[] = { "validate", "write", "read-back", "rollback", "helper" };

ApplyError::Stage stageFromName(const QString &name)
{
    for (int i = 0; i < 5; ++i) {
        if (name == QLatin1String(stageNames[i]))
            return ApplyError::Stage(i);
    }
    return ApplyError::Stage::Helper;
}

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

QString stageName(ApplyError::Stage stage)
{
    return QLatin1String(stageNames[int(stage)]);
}

QJsonObject toJson(const ApplyResult &result)
{
    QJsonArray changes;
    for (const auto &c : result.changes) {
        QJsonObject o { { QStringLiteral("device"), c.device }, { QStringLiteral("attribute"), c.attribute },
            { QStringLiteral("old"), c.oldValue }, { QStringLiteral("requested"), c.requested },
            { QStringLiteral("new"), c.newValue }, { QStringLiteral("clamped"), c.clamped },
            { QStringLiteral("written"), c.written }, { QStringLiteral("side_effect"), c.sideEffect },
            { QStringLiteral("error"), c.error }, { QStringLiteral("note"), c.note } };
        changes.append(o);
    }
    QJsonArray errors;
    for (const auto &e : result.errors) {
        errors.append(QJsonObject { { QStringLiteral("stage"), stageName(e.stage) },
            { QStringLiteral("device"), e.device }, { QStringLiteral("attribute"), e.attribute },
            { QStringLiteral("value"), e.value }, { QStringLiteral("error"), e.message } });
    }
    QJsonArray warnings;
    for (const auto &w : result.warnings) {
        warnings.append(QJsonObject { { QStringLiteral("code"), w.code }, { QStringLiteral("device"), w.device },
            { QStringLiteral("attribute"), w.attribute }, { QStringLiteral("value"), double(w.value) },
            { QStringLiteral("limit"), double(w.limit) }, { QStringLiteral("message"), w.message } });
    }
    return QJsonObject { { QStringLiteral("ok"), result.ok() }, { QStringLiteral("dry_run"), result.dryRun },
        { QStringLiteral("rolled_back"), result.rolledBack }, { QStringLiteral("executor"), result.executor },
        { QStringLiteral("changes"), changes }, { QStringLiteral("errors"), errors },
        { QStringLiteral("warnings"), warnings } };
}

Result<ApplyResult> applyResultFromJson(const QJsonObject &object)
{
    if (!object.value(QLatin1String("changes")).isArray() || !object.value(QLatin1String("errors")).isArray())
        return Result<ApplyResult>::failure(QStringLiteral("not an apply result (no changes/errors arrays)"));
    ApplyResult r;
    r.dryRun = object.value(QLatin1String("dry_run")).toBool();
    r.rolledBack = object.value(QLatin1String("rolled_back")).toBool();
    r.executor = str(object, "executor");
    const auto changes = object.value(QLatin1String("changes")).toArray();
    for (const auto &v : changes) {
        const QJsonObject o = v.toObject();
        ChangeOutcome c;
        c.device = str(o, "device");
        c.attribute = str(o, "attribute");
        c.oldValue = str(o, "old");
        c.requested = str(o, "requested");
        c.newValue = str(o, "new");
        c.clamped = o.value(QLatin1String("clamped")).toBool();
        c.written = o.value(QLatin1String("written")).toBool();
        c.sideEffect = o.value(QLatin1String("side_effect")).toBool();
        c.error = str(o, "error");
        c.note = str(o, "note");
        r.changes << c;
    }
    const auto errors = object.value(QLatin1String("errors")).toArray();
    for (const auto &v : errors) {
        const QJsonObject o = v.toObject();
        r.errors << ApplyError { stageFromName(str(o, "stage")), str(o, "device"), str(o, "attribute"), str(o, "value"),
            str(o, "error") };
    }
    const auto warnings = object.value(QLatin1String("warnings")).toArray();
    for (const auto &v : warnings) {
        const QJsonObject o = v.toObject();
        r.warnings << StackingWarning { str(o, "code"), str(o, "device"), str(o, "attribute"),
            qint64(o.value(QLatin1String("value")).toDouble(-1)), qint64(o.value(QLatin1String("limit")).toDouble(-1)),
            str(o, "message") };
    }
    return r;
}

} // namespace dmtune
