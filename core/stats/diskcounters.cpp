#include "diskcounters.h"

#include <sys/sysmacros.h>

#include <limits>

namespace dmtune {

namespace {

// Sampling thousands of devices ten times a second parses megabytes per second: a hand-rolled tokenizer
// avoids the allocations of QString::split and of QString::toULongLong.
class Tokens
{
public:
    explicit Tokens(QStringView text)
        : m_text(text)
    {
    }
    // The next whitespace-separated token; empty at the end.
    QStringView next()
    {
        const qsizetype n = m_text.size();
        while (m_pos < n && isSpace(m_text[m_pos]))
            ++m_pos;
        const qsizetype start = m_pos;
        while (m_pos < n && !isSpace(m_text[m_pos]))
            ++m_pos;
        return m_text.sliced(start, m_pos - start);
    }

private:
    static bool isSpace(QChar c) { return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r'; }
    QStringView m_text;
    qsizetype m_pos = 0;
};

bool toU64(QStringView token, quint64 *out)
{
    if (token.isEmpty() || token.size() > 20)
        return false;
    quint64 value = 0;
    for (QChar c : token) {
        const char16_t u = c.unicode();
        if (u < u'0' || u > u'9')
            return false;
        const quint64 digit = u - u'0';
        if (value > (std::numeric_limits<quint64>::max() - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    *out = value;
    return true;
}

bool validCounterCount(int n)
{
    return n == 11 || n == 15 || n == 17;
}

// Parses the counters that follow; a token that is not a number, or an 18th counter, is an error. How many
// there were is left in c->fieldCount for the caller to judge (its message counts differently).
QString parseCounters(Tokens &tokens, DiskCounters *c)
{
    int n = 0;
    for (QStringView t = tokens.next(); !t.isEmpty(); t = tokens.next()) {
        if (n == int(DiskFieldCount))
            return QStringLiteral("more than %1 counters").arg(DiskFieldCount);
        if (!toU64(t, &c->fields[std::size_t(n)]))
            return QStringLiteral("counter %1 '%2' is not an unsigned integer").arg(n + 1).arg(t.toString());
        ++n;
    }
    c->fieldCount = n;
    return {};
}

} // namespace

unsigned DiskCounters::majorNumber() const
{
    return ::gnu_dev_major(dev_t(devnum));
}

unsigned DiskCounters::minorNumber() const
{
    return ::gnu_dev_minor(dev_t(devnum));
}

quint64 DiskCounters::makeDevnum(unsigned major, unsigned minor)
{
    return quint64(::gnu_dev_makedev(major, minor));
}

Result<DiskCounters> parseDiskstatsLine(QStringView line)
{
    Tokens tokens(line);
    const QStringView majorText = tokens.next();
    const QStringView minorText = tokens.next();
    const QStringView name = tokens.next();
    quint64 major = 0, minor = 0;
    if (name.isEmpty())
        return Result<DiskCounters>::failure(QStringLiteral("expected 'major minor name counters...'"));
    if (!toU64(majorText, &major) || !toU64(minorText, &minor) || major > 0xfff || minor > 0xfffff)
        return Result<DiskCounters>::failure(
            QStringLiteral("bad device number '%1 %2'").arg(majorText.toString(), minorText.toString()));
    DiskCounters c;
    const QString error = parseCounters(tokens, &c);
    if (!error.isEmpty())
        return Result<DiskCounters>::failure(QStringLiteral("%1: %2").arg(name.toString(), error));
    if (!validCounterCount(c.fieldCount)) // counted as the kernel documentation counts: with major minor name
        return Result<DiskCounters>::failure(QStringLiteral("%1: %2 fields, expected 14, 18 or 20")
                                                 .arg(name.toString())
                                                 .arg(c.fieldCount + 3));
    c.name = name.toString();
    c.devnum = DiskCounters::makeDevnum(unsigned(major), unsigned(minor));
    return c;
}

Result<QList<DiskCounters>> parseDiskstats(QStringView text)
{
    QList<DiskCounters> devices;
    devices.reserve(text.count(u'\n') + 1);
    qsizetype start = 0;
    int lineNumber = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf(u'\n', start);
        if (end < 0)
            end = text.size();
        const QStringView line = text.sliced(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        auto parsed = parseDiskstatsLine(line);
        if (!parsed)
            return Result<QList<DiskCounters>>::failure(
                QStringLiteral("diskstats line %1: %2").arg(lineNumber).arg(parsed.errorMessage()));
        devices.append(std::move(parsed.value()));
    }
    return devices;
}

Result<DiskCounters> parseBlockStat(QStringView text, const QString &name, quint64 devnum)
{
    Tokens tokens(text);
    DiskCounters c;
    const QString error = parseCounters(tokens, &c);
    if (!error.isEmpty())
        return Result<DiskCounters>::failure(QStringLiteral("%1/stat: %2").arg(name, error));
    if (!validCounterCount(c.fieldCount))
        return Result<DiskCounters>::failure(
            QStringLiteral("%1/stat: %2 counters, expected 11, 15 or 17").arg(name).arg(c.fieldCount));
    c.name = name;
    c.devnum = devnum;
    return c;
}

Result<std::array<quint32, 2>> parseInflight(QStringView text)
{
    Tokens tokens(text);
    std::array<quint32, 2> v {};
    for (auto &slot : v) {
        quint64 n = 0;
        const QStringView t = tokens.next();
        if (!toU64(t, &n) || n > std::numeric_limits<quint32>::max())
            return Result<std::array<quint32, 2>>::failure(
                QStringLiteral("inflight: '%1' is not 'reads writes'").arg(text.trimmed().toString()));
        slot = quint32(n);
    }
    if (!tokens.next().isEmpty())
        return Result<std::array<quint32, 2>>::failure(
            QStringLiteral("inflight: '%1' is not 'reads writes'").arg(text.trimmed().toString()));
    return v;
}

Result<quint64> parseDevnum(QStringView text)
{
    const QStringView t = text.trimmed();
    const qsizetype colon = t.indexOf(u':');
    quint64 major = 0, minor = 0;
    if (colon < 0 || !toU64(t.first(colon), &major) || !toU64(t.sliced(colon + 1), &minor) || major > 0xfff
        || minor > 0xfffff)
        return Result<quint64>::failure(QStringLiteral("dev: '%1' is not 'major:minor'").arg(t.toString()));
    return DiskCounters::makeDevnum(unsigned(major), unsigned(minor));
}

CounterDeltas counterDeltas(const DiskCounters &prev, const DiskCounters &cur)
{
    static constexpr DiskField requestCounts[] = {DiskField::ReadIos, DiskField::WriteIos, DiskField::DiscardIos,
                                                  DiskField::FlushIos};
    static constexpr DiskField u32Fields[] = {DiskField::ReadTicks, DiskField::WriteTicks, DiskField::IoTicks,
                                              DiskField::TimeInQueue, DiskField::DiscardTicks, DiskField::FlushTicks};
    bool countsWentBack = false;
    for (DiskField f : requestCounts)
        countsWentBack |= cur[f] < prev[f];

    CounterDeltas d;
    for (std::size_t i = 0; i < DiskFieldCount; ++i)
        d.fields[i] = cur.fields[i] >= prev.fields[i] ? cur.fields[i] - prev.fields[i] : 0;
    d[DiskField::InFlight] = 0;
    if (!countsWentBack) {
        for (DiskField f : u32Fields) {
            // A wrap drops by more than half the range; a small step back is a glitch and stays clamped.
            if (cur[f] < prev[f] && prev[f] <= 0xffffffffULL && prev[f] - cur[f] > 0x80000000ULL)
                d[f] = (cur[f] - prev[f]) & 0xffffffffULL;
        }
    }
    return d;
}

} // namespace dmtune
