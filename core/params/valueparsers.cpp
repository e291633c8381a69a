#include "core/params/valueparsers.h"

#include <QRegularExpression>

#include <limits>

namespace dmtune {

Result<SchedulerList> parseSchedulerList(const QString &text)
{
    SchedulerList list;
    const QStringList tokens = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (tokens.isEmpty())
        return Result<SchedulerList>::failure(QStringLiteral("empty scheduler list"));
    for (const auto &token : tokens) {
        if (token.startsWith(QLatin1Char('[')) && token.endsWith(QLatin1Char(']')) && token.size() > 2) {
            if (!list.current.isEmpty())
                return Result<SchedulerList>::failure(QStringLiteral("two current schedulers in '%1'").arg(text));
            list.current = token.mid(1, token.size() - 2);
            list.available << list.current;
        } else if (token.contains(QLatin1Char('[')) || token.contains(QLatin1Char(']'))) {
            return Result<SchedulerList>::failure(QStringLiteral("malformed scheduler list '%1'").arg(text));
        } else {
            list.available << token;
        }
    }
    // Queues without scheduler support print a lone unbracketed "none".
    if (list.current.isEmpty() && list.available.size() == 1)
        list.current = list.available.first();
    if (list.current.isEmpty())
        return Result<SchedulerList>::failure(QStringLiteral("no current scheduler in '%1'").arg(text));
    return list;
}

Result<qint64> parseInteger(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^[+-]?[0-9]{1,19}$"));
    const QString t = text.trimmed();
    if (!pattern.match(t).hasMatch())
        return Result<qint64>::failure(QStringLiteral("'%1' is not an integer").arg(text));
    bool ok = false;
    const qint64 v = t.toLongLong(&ok);
    if (!ok)
        return Result<qint64>::failure(QStringLiteral("'%1' is out of range").arg(text));
    return v;
}

Result<bool> parseBool(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("1") || t == QLatin1String("y") || t == QLatin1String("yes") || t == QLatin1String("true")
        || t == QLatin1String("on"))
        return true;
    if (t == QLatin1String("0") || t == QLatin1String("n") || t == QLatin1String("no") || t == QLatin1String("false")
        || t == QLatin1String("off"))
        return false;
    return Result<bool>::failure(QStringLiteral("'%1' is not a boolean (0/1)").arg(text));
}

ValueLimits staticLimits(const TunableDef &def)
{
    ValueLimits l;
    l.minimum = def.minimum;
    l.maximum = def.maximum;
    l.choices = def.choices;
    if (def.type == TunableType::Bool) {
        l.minimum = 0;
        l.maximum = 1;
    }
    return l;
}

namespace {
QString boolText(const TunableDef &def, bool v)
{
    if (def.boolStyle == BoolStyle::YesNo)
        return v ? QStringLiteral("Y") : QStringLiteral("N");
    return v ? QStringLiteral("1") : QStringLiteral("0");
}
} // namespace

Result<QString> checkValue(const TunableDef &def, const ValueLimits &limits, const QString &input)
{
    const QString text = input.trimmed();
    switch (def.type) {
    case TunableType::Int: {
        const auto v = parseInteger(text);
        if (!v)
            return Result<QString>::failure(v.errorMessage());
        if (*v < limits.minimum || *v > limits.maximum)
            return Result<QString>::failure(
                QStringLiteral("%1 is outside %2").arg(QString::number(*v), limitsText(def, limits)));
        if (limits.step > 1 && *v % limits.step != 0)
            return Result<QString>::failure(
                QStringLiteral("%1 is not a multiple of %2").arg(QString::number(*v), QString::number(limits.step)));
        return QString::number(*v);
    }
    case TunableType::Bool: {
        const auto v = parseBool(text);
        if (!v)
            return Result<QString>::failure(v.errorMessage());
        return boolText(def, *v);
    }
    case TunableType::Enum:
        if (!limits.choices.contains(text))
            return Result<QString>::failure(
                QStringLiteral("'%1' is not one of: %2").arg(text, limits.choices.join(QStringLiteral(", "))));
        return text;
    case TunableType::String:
        // No catalog entry is a free string; raw attributes are never written.
        return Result<QString>::failure(QStringLiteral("not writable"));
    }
    return Result<QString>::failure(QStringLiteral("unknown type"));
}

Result<QString> checkValueFrom(
    const TunableDef &def, const ValueLimits &limits, const QString &current, const QString &input)
{
    if (!current.trimmed().isEmpty() && sameValue(def, current, input))
        return normalizeValue(def, input);
    return checkValue(def, limits, input);
}

QString normalizeValue(const TunableDef &def, const QString &raw)
{
    const QString t = raw.trimmed();
    if (def.limit == DynamicLimit::SchedulerList) {
        const auto list = parseSchedulerList(t);
        return list ? list->current : t;
    }
    switch (def.type) {
    case TunableType::Int: {
        const auto v = parseInteger(t);
        return v ? QString::number(*v) : t;
    }
    case TunableType::Bool: {
        const auto v = parseBool(t);
        return v ? boolText(def, *v) : t;
    }
    case TunableType::Enum:
    case TunableType::String:
        return t;
    }
    return t;
}

bool sameValue(const TunableDef &def, const QString &a, const QString &b)
{
    return normalizeValue(def, a) == normalizeValue(def, b);
}

QString limitsText(const TunableDef &def, const ValueLimits &limits)
{
    switch (def.type) {
    case TunableType::Int: {
        const auto edge = [](qint64 v, bool low) {
            if (low && v == std::numeric_limits<qint64>::min())
                return QStringLiteral("-inf");
            if (!low && v == std::numeric_limits<qint64>::max())
                return QStringLiteral("inf");
            return QString::number(v);
        };
        QString text = edge(limits.minimum, true) + QStringLiteral("..") + edge(limits.maximum, false);
        if (limits.step > 1)
            text += QStringLiteral(" step ") + QString::number(limits.step);
        return text;
    }
    case TunableType::Bool:
        return def.boolStyle == BoolStyle::YesNo ? QStringLiteral("Y|N") : QStringLiteral("0|1");
    case TunableType::Enum:
        return limits.choices.join(QLatin1Char('|'));
    case TunableType::String:
        return {};
    }
    return {};
}

} // namespace dmtune
