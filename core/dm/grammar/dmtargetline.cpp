#include "core/dm/grammar/dmtargetline.h"

#include "core/dm/grammar/tokenreader.h"

#include <limits>

namespace dmtune {

Result<DmTargetLine> parseTargetLine(QStringView line)
{
    using R = Result<DmTargetLine>;
    if (line.size() > maxDmParamsLength)
        return R::failure(QStringLiteral("table line longer than %1 characters").arg(maxDmParamsLength));

    // The first three words are split by hand so that params keeps its own spacing.
    DmTargetLine result;
    qsizetype i = 0;
    const qsizetype n = line.size();
    auto nextWord = [&](QStringView &word) {
        while (i < n && line.at(i).isSpace())
            ++i;
        const qsizetype start = i;
        while (i < n && !line.at(i).isSpace())
            ++i;
        word = line.mid(start, i - start);
        return !word.isEmpty();
    };
    QStringView start, length, type;
    if (!nextWord(start))
        return R::failure(QStringLiteral("empty table line"));
    constexpr quint64 maxSectors = std::numeric_limits<quint64>::max();
    if (!parseDecimal(start, maxSectors, result.start))
        return R::failure(QStringLiteral("word 1 \"%1\": expected the start sector").arg(start.left(40)));
    if (!nextWord(length))
        return R::failure(QStringLiteral("truncated after word 1: expected the length in sectors"));
    if (!parseDecimal(length, maxSectors, result.length))
        return R::failure(QStringLiteral("word 2 \"%1\": expected the length in sectors").arg(length.left(40)));
    if (!nextWord(type))
        return R::failure(QStringLiteral("truncated after word 2: expected the target type"));
    result.targetType = type.toString();
    result.params = line.mid(i).trimmed().toString();
    return result;
}

QString formatTargetLine(const DmTargetLine &line)
{
    QString text = QStringLiteral("%1 %2 %3").arg(line.start).arg(line.length).arg(line.targetType);
    if (!line.params.isEmpty())
        text += QLatin1Char(' ') + line.params;
    return text;
}

Result<QList<DmTargetLine>> parseTargetLines(QStringView text)
{
    using R = Result<QList<DmTargetLine>>;
    QList<DmTargetLine> lines;
    int number = 0;
    for (const QStringView line : text.split(QLatin1Char('\n'))) {
        ++number;
        if (line.trimmed().isEmpty())
            continue;
        auto parsed = parseTargetLine(line);
        if (!parsed)
            return R::failure(QStringLiteral("line %1: %2").arg(number).arg(parsed.errorMessage()));
        lines.append(parsed.value());
    }
    return lines;
}

QJsonArray targetLinesJson(const QList<DmTargetLine> &lines)
{
    QJsonArray out;
    for (const DmTargetLine &line : lines)
        out.append(formatTargetLine(line));
    return out;
}

Result<QList<DmTargetLine>> targetLinesFromJson(const QJsonValue &value, const QString &where)
{
    if (!value.isArray())
        return Result<QList<DmTargetLine>>::failure(QStringLiteral("%1: not an array of target lines").arg(where));
    QList<DmTargetLine> lines;
    int i = 0;
    for (const QJsonValue &v : value.toArray()) {
        auto parsed = parseTargetLine(v.toString());
        if (!v.isString() || !parsed)
            return Result<QList<DmTargetLine>>::failure(
                QStringLiteral("%1[%2]: %3")
                    .arg(where)
                    .arg(i)
                    .arg(v.isString() ? parsed.errorMessage() : QStringLiteral("not a string")));
        lines.append(parsed.value());
        ++i;
    }
    return lines;
}

Result<QString> multipathTargetParams(const QList<DmTargetLine> &lines)
{
    using R = Result<QString>;
    if (lines.size() != 1)
        return R::failure(QStringLiteral("a multipath map has exactly one target, this one has %1").arg(lines.size()));
    if (lines.first().targetType != QLatin1String("multipath"))
        return R::failure(QStringLiteral("target type is \"%1\", not multipath").arg(lines.first().targetType));
    return lines.first().params;
}

} // namespace dmtune
