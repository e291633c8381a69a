#include "core/dm/grammar/multipathtable.h"

#include "core/dm/grammar/tokenreader.h"

namespace dmtune {

namespace {
// Ranges from drivers/md/dm-mpath.c (dm_arg tables of multipath_ctr and its helpers).
constexpr quint32 maxFeatureWords = 8;
constexpr quint32 maxPgInitRetries = 50;
constexpr quint32 maxPgInitDelayMsecs = 60000;
constexpr quint64 maxUnsigned = 0xffffffffu;
// service-time's ST_MAX_RELATIVE_THROUGHPUT, historical-service-time's HST_FIXED_1.
constexpr quint64 maxRelativeThroughput = 100;
constexpr quint64 maxHstBaseWeight = 1023;

bool isUnsigned(QStringView word, quint64 max = maxUnsigned)
{
    quint64 value = 0;
    return parseDecimal(word, max, value);
}

bool isSelectorName(QStringView word)
{
    if (word.isEmpty() || !word.front().isLetter())
        return false;
    for (const QChar c : word) {
        if (!(c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_')))
            return false;
    }
    return true;
}

// io-affinity takes a cpumask as the kernel prints it (%*pb): 32-bit hex chunks separated by commas.
bool isCpuMask(QStringView word)
{
    bool anyBit = false;
    for (const QChar c : word) {
        if (c == QLatin1Char(','))
            continue;
        const bool hex = (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
            || (c >= QLatin1Char('a') && c <= QLatin1Char('f')) || (c >= QLatin1Char('A') && c <= QLatin1Char('F'));
        if (!hex)
            return false;
        anyBit = anyBit || c != QLatin1Char('0');
    }
    return anyBit;
}

// The feature words as parse_features() reads them. `first` is the word number of features[0].
bool checkFeatures(TokenReader &reader, const QStringList &features, qsizetype first)
{
    for (qsizetype i = 0; i < features.size(); ++i) {
        const QString name = features.at(i).toLower();
        if (name == QLatin1String("queue_if_no_path") || name == QLatin1String("retain_attached_hw_handler"))
            continue;
        const bool withValue = name == QLatin1String("pg_init_retries") || name == QLatin1String("pg_init_delay_msecs")
            || name == QLatin1String("queue_mode");
        if (!withValue)
            return reader.failAt(first + i, QStringLiteral("unknown multipath feature"));
        if (i + 1 >= features.size())
            return reader.failAt(
                first + i, QStringLiteral("feature %1 needs a value within the feature count").arg(name));
        const QString &value = features.at(++i);
        if (name == QLatin1String("pg_init_retries") && !(isUnsigned(value, maxPgInitRetries) && value.toUInt() >= 1))
            return reader.failAt(
                first + i, QStringLiteral("pg_init_retries must be between 1 and %1").arg(maxPgInitRetries));
        if (name == QLatin1String("pg_init_delay_msecs") && !isUnsigned(value, maxPgInitDelayMsecs))
            return reader.failAt(
                first + i, QStringLiteral("pg_init_delay_msecs must be between 0 and %1").arg(maxPgInitDelayMsecs));
        if (name == QLatin1String("queue_mode")) {
            // "nvme" was accepted by kernels 4.16 to 5.x; "rq" and "mq" mean the same on blk-mq-only kernels.
            static const QStringList modes
                = { QStringLiteral("bio"), QStringLiteral("rq"), QStringLiteral("mq"), QStringLiteral("nvme") };
            if (!modes.contains(value.toLower()))
                return reader.failAt(first + i, QStringLiteral("queue_mode must be bio, rq or mq"));
        }
    }
    return true;
}

// Group-level selector arguments; only historical-service-time reads them (the others ignore them).
bool checkSelectorArgs(TokenReader &reader, const QString &selector, const QStringList &args, qsizetype first)
{
    if (selector != QLatin1String("historical-service-time"))
        return true;
    if (args.size() > 2)
        return reader.failAt(first - 1, QStringLiteral("historical-service-time takes at most 2 selector arguments"));
    if (!args.isEmpty() && !isUnsigned(args.at(0), maxHstBaseWeight))
        return reader.failAt(
            first, QStringLiteral("historical-service-time base weight must be 0-%1").arg(maxHstBaseWeight));
    if (args.size() > 1 && !isUnsigned(args.at(1)))
        return reader.failAt(first + 1, QStringLiteral("historical-service-time threshold must be a number"));
    return true;
}

// Per-path arguments as the known selectors' add_path() functions check them. `first` is the word
// number of args[0]; `device` the one of the path.
bool checkPathArgs(TokenReader &reader, const QString &selector, const QStringList &args, qsizetype device)
{
    const qsizetype first = device + 1;
    const auto tooMany = [&](int max) {
        return reader.failAt(device,
            QStringLiteral("%1 takes at most %2 argument(s) per path, got %3").arg(selector).arg(max).arg(args.size()));
    };
    const auto numeric = [&](qsizetype index, quint64 max, const QString &what) {
        if (isUnsigned(args.at(index), max))
            return true;
        return reader.failAt(first + index, QStringLiteral("%1: invalid %2").arg(selector, what));
    };
    if (selector == QLatin1String("round-robin") || selector == QLatin1String("queue-length")
        || selector == QLatin1String("historical-service-time")) {
        if (args.size() > 1)
            return tooMany(1);
        return args.isEmpty() || numeric(0, maxUnsigned, QStringLiteral("repeat count"));
    }
    if (selector == QLatin1String("service-time")) {
        if (args.size() > 2)
            return tooMany(2);
        if (!args.isEmpty() && !numeric(0, maxUnsigned, QStringLiteral("repeat count")))
            return false;
        return args.size() < 2 || numeric(1, maxRelativeThroughput, QStringLiteral("relative throughput (0-100)"));
    }
    if (selector == QLatin1String("io-affinity")) {
        if (args.size() != 1)
            return reader.failAt(
                device, QStringLiteral("io-affinity takes exactly one argument per path (a CPU mask)"));
        if (!isCpuMask(args.at(0)))
            return reader.failAt(first, QStringLiteral("io-affinity: invalid CPU mask (hex, with at least one CPU)"));
    }
    return true;
}

bool parseGroup(TokenReader &reader, int number, PathGroupSpec &group)
{
    const QString where = QStringLiteral(" of priority group %1").arg(number);
    if (!reader.readWord(QStringLiteral("the path selector") + where, group.selector))
        return false;
    if (!isSelectorName(group.selector))
        return reader.failLast(QStringLiteral("expected a path selector name") + where);

    quint32 count = 0;
    if (!reader.readNumber(QStringLiteral("the number of selector arguments") + where, 0, multipathMaxCount, count))
        return false;
    const qsizetype argsStart = reader.position();
    if (!reader.readWords(QStringLiteral("the selector arguments") + where, count, group.selectorArgs))
        return false;
    if (!checkSelectorArgs(reader, group.selector, group.selectorArgs, argsStart))
        return false;

    quint32 pathCount = 0;
    quint32 perPath = 0;
    if (!reader.readNumber(QStringLiteral("the number of paths") + where, 1, multipathMaxCount, pathCount))
        return false;
    if (!reader.readNumber(QStringLiteral("the number of per-path arguments") + where, 0, multipathMaxCount, perPath))
        return false;
    group.perPathArgCount = int(perPath);

    for (quint32 p = 1; p <= pathCount; ++p) {
        const QString pathWhere = QStringLiteral(" of path %1 in priority group %2").arg(p).arg(number);
        PathSpec path;
        const qsizetype devicePosition = reader.position();
        if (!reader.readWord(QStringLiteral("the device") + pathWhere, path.device))
            return false;
        if (!isDeviceToken(path.device))
            return reader.failLast(QStringLiteral("expected a device (major:minor or /dev/...)") + pathWhere);
        if (!reader.readWords(QStringLiteral("the arguments") + pathWhere, perPath, path.args))
            return false;
        if (!checkPathArgs(reader, group.selector, path.args, devicePosition))
            return false;
        group.paths.append(std::move(path));
    }
    return true;
}

} // namespace

void appendCounted(QStringList &words, const QStringList &items)
{
    words.append(QString::number(items.size()));
    words.append(items);
}

bool MultipathTable::queueIfNoPath() const
{
    return features.contains(QLatin1String("queue_if_no_path"), Qt::CaseInsensitive);
}

QStringList MultipathTable::devices() const
{
    QStringList out;
    for (const PathGroupSpec &group : groups) {
        for (const PathSpec &path : group.paths)
            out.append(path.device);
    }
    return out;
}

QString MultipathTable::featureValue(QStringView name) const
{
    for (qsizetype i = 0; i + 1 < features.size(); ++i) {
        if (features.at(i).compare(name, Qt::CaseInsensitive) == 0)
            return features.at(i + 1);
    }
    return {};
}

Result<MultipathTable> parseMultipathTable(QStringView params)
{
    using R = Result<MultipathTable>;
    if (params.size() > maxDmParamsLength)
        return R::failure(QStringLiteral("multipath table longer than %1 characters").arg(maxDmParamsLength));
    TokenReader reader(params);
    MultipathTable table;
    const auto failed = [&] { return R::failure(reader.error()); };
    const auto failAt = [&](qsizetype position, const QString &message) {
        reader.failAt(position, message);
        return failed();
    };

    quint32 count = 0;
    if (!reader.readNumber(QStringLiteral("the number of feature words"), 0, maxFeatureWords, count))
        return failed();
    const qsizetype featuresStart = reader.position();
    if (!reader.readWords(QStringLiteral("the features"), count, table.features)
        || !checkFeatures(reader, table.features, featuresStart))
        return failed();

    if (!reader.readNumber(QStringLiteral("the number of hardware handler words"), 0, multipathMaxCount, count)
        || !reader.readWords(QStringLiteral("the hardware handler"), count, table.hwHandler))
        return failed();

    quint32 groupCount = 0;
    quint32 initial = 0;
    if (!reader.readNumber(QStringLiteral("the number of priority groups"), 0, multipathMaxCount, groupCount)
        || !reader.readNumber(QStringLiteral("the initial priority group"), 0, multipathMaxCount, initial))
        return failed();
    const qsizetype initialPosition = reader.position() - 1;
    if ((groupCount == 0) != (initial == 0))
        return failAt(
            initialPosition, QStringLiteral("the initial priority group must be 0 exactly when there are no groups"));
    if (initial > groupCount)
        return failAt(initialPosition,
            QStringLiteral("the initial priority group is larger than the number of groups (%1)").arg(groupCount));
    table.initialGroup = int(initial);

    for (quint32 g = 1; g <= groupCount; ++g) {
        PathGroupSpec group;
        if (!parseGroup(reader, int(g), group))
            return failed();
        table.groups.append(std::move(group));
    }
    if (!reader.atEnd())
        return failAt(reader.position(),
            QStringLiteral("unexpected word after the last of %1 priority group(s)").arg(groupCount));
    return table;
}

QString formatMultipathTable(const MultipathTable &table)
{
    QStringList words;
    appendCounted(words, table.features);
    appendCounted(words, table.hwHandler);
    words.append(QString::number(table.groups.size()));
    words.append(QString::number(table.initialGroup));
    for (const PathGroupSpec &group : table.groups) {
        words.append(group.selector);
        appendCounted(words, group.selectorArgs);
        words.append(QString::number(group.paths.size()));
        words.append(QString::number(group.perPathArgCount));
        for (const PathSpec &path : group.paths) {
            words.append(path.device);
            words.append(path.args);
        }
    }
    return words.join(QLatin1Char(' '));
}

Status checkMultipathTable(const MultipathTable &table)
{
    const auto reparsed = parseMultipathTable(formatMultipathTable(table));
    if (!reparsed)
        return Status::failure(reparsed.errorMessage());
    if (!(reparsed.value() == table))
        return Status::failure(QStringLiteral("the table has empty or blank-containing words, or paths whose argument "
                                              "count differs from the group's per-path count"));
    return Status::success();
}

Result<MultipathTable> multipathTableOf(const QList<DmTargetLine> &lines)
{
    using R = Result<MultipathTable>;
    const auto params = multipathTargetParams(lines);
    if (!params)
        return R::failure(params.errorMessage());
    auto table = parseMultipathTable(params.value());
    if (!table)
        return R::failure(QStringLiteral("multipath table: ") + table.errorMessage());
    return table;
}

} // namespace dmtune
