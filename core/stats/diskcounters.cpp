#include "core/stats/diskcounters.h"

#include <cstring>

#include <sys/sysmacros.h>

#include <limits>

namespace dmtune {

namespace {

char16_t unit(QChar c)
{
    return c.unicode();
}
char16_t unit(char c)
{
    return char16_t(static_cast<unsigned char>(c));
}

// Sampling thousands of devices ten times a second parses megabytes per second: a hand-rolled tokenizer over
// QStringView or raw bytes (procfs text is ASCII) avoids the allocations of split() and toULongLong().
template<typename View>
class Tokens {
public:
    explicit Tokens(View text)
        : m_text(text)
    {
    }
    // The next whitespace-separated token; empty at the end.
    View next()
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
    template<typename Char>
    static bool isSpace(Char c)
    {
        const char16_t u = unit(c);
        return u == u' ' || u == u'\t' || u == u'\n' || u == u'\r';
    }
    View m_text;
    qsizetype m_pos = 0;
};

template<typename View>
bool toU64(View token, quint64 *out)
{
    const qsizetype n = token.size();
    if (n == 0 || n > 20)
        return false;
    quint64 value = 0;
    // Up to 19 digits cannot overflow 64 bits: check only the 20th (the hot loop has no division).
    const qsizetype safe = n < 20 ? n : 19;
    for (qsizetype i = 0; i < safe; ++i) {
        const unsigned digit = unsigned(unit(token[i])) - u'0';
        if (digit > 9)
            return false;
        value = value * 10 + digit;
    }
    if (n == 20) {
        const unsigned digit = unsigned(unit(token[19])) - u'0';
        if (digit > 9 || value > (std::numeric_limits<quint64>::max() - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    *out = value;
    return true;
}

QString text(QStringView v)
{
    return v.toString();
}
QString text(QByteArrayView v)
{
    return QString::fromLatin1(v);
}

bool validCounterCount(int n)
{
    return n == 11 || n == 15 || n == 17;
}

// Parses the counters that follow; a token that is not a number, or an 18th counter, is an error. How many
// there were is left in c->fieldCount for the caller to judge (its message counts differently).
template<typename View>
QString parseCounters(Tokens<View> &tokens, DiskCounters *c)
{
    int n = 0;
    for (View t = tokens.next(); !t.isEmpty(); t = tokens.next()) {
        if (n == int(DiskFieldCount))
            return QStringLiteral("more than %1 counters").arg(DiskFieldCount);
        if (!toU64(t, &c->fields[std::size_t(n)]))
            return QStringLiteral("counter %1 '%2' is not an unsigned integer").arg(n + 1).arg(text(t));
        ++n;
    }
    for (int i = n; i < int(DiskFieldCount); ++i)
        c->fields[std::size_t(i)] = 0; // *c may be reused from an earlier line
    c->fieldCount = n;
    return {};
}

template<typename View>
QString parseLine(View line, DiskCounters *c, View *name)
{
    Tokens<View> tokens(line);
    const View majorText = tokens.next();
    const View minorText = tokens.next();
    *name = tokens.next();
    quint64 major = 0, minor = 0;
    if (name->isEmpty())
        return QStringLiteral("expected 'major minor name counters...'");
    if (!toU64(majorText, &major) || !toU64(minorText, &minor) || major > 0xfff || minor > 0xfffff)
        return QStringLiteral("bad device number '%1 %2'").arg(text(majorText), text(minorText));
    const QString error = parseCounters(tokens, c);
    if (!error.isEmpty())
        return QStringLiteral("%1: %2").arg(text(*name), error);
    if (!validCounterCount(c->fieldCount)) // counted as the kernel documentation counts: with major minor name
        return QStringLiteral("%1: %2 fields, expected 14, 18 or 20").arg(text(*name)).arg(c->fieldCount + 3);
    c->devnum = DiskCounters::makeDevnum(unsigned(major), unsigned(minor));
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
    DiskCounters c;
    QStringView name;
    const QString error = parseLine(line, &c, &name);
    if (!error.isEmpty())
        return Result<DiskCounters>::failure(error);
    c.name = name.toString();
    return c;
}

namespace {

// SWAR: whether the 8 bytes (little-endian load) are all ASCII digits, and their value.
constexpr bool eightDigits(quint64 chunk)
{
    return (chunk & 0xF0F0F0F0F0F0F0F0ULL) == 0x3030303030303030ULL
        && ((chunk + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) == 0x3030303030303030ULL;
}

constexpr quint64 eightDigitValue(quint64 chunk)
{
    chunk -= 0x3030303030303030ULL;
    chunk = chunk * 10 + (chunk >> 8); // pairs of digits
    return (((chunk & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32)))
               + (((chunk >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32))))
        >> 32;
}
static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "eightDigitValue reads digits little-endian");
static_assert(eightDigitValue(0x3837363534333231ULL) == 12345678ULL);
static_assert(eightDigits(0x3837363534333231ULL) && !eightDigits(0x2037363534333231ULL));

// The common case in one pass over the bytes: up to 17 counters of at most 19 digits separated by blanks.
// Anything else (a stray character, a 20-digit number, too many fields) returns false and goes to the
// general parser, which accepts what is valid and words the error for what is not.
bool parseLineFast(QByteArrayView line, DiskCounters *c, QByteArrayView *name)
{
    const char *p = line.data();
    const char *const end = p + line.size();
    auto blank = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; };
    auto number = [&](quint64 *v) {
        const char *start = p;
        quint64 value = 0;
        // Counters of a host up for weeks have 8 to 12 digits: take them 8 at a time.
        quint64 chunk = 0;
        while (end - p >= 8 && (std::memcpy(&chunk, p, 8), eightDigits(chunk))) {
            value = value * 100000000ULL + eightDigitValue(chunk);
            p += 8;
        }
        while (p < end && unsigned(*p - '0') <= 9)
            value = value * 10 + unsigned(*p++ - '0');
        *v = value;
        return p > start && p - start <= 19 && (p == end || blank(*p));
    };
    quint64 major = 0, minor = 0;
    while (p < end && blank(*p))
        ++p;
    if (!number(&major))
        return false;
    while (p < end && blank(*p))
        ++p;
    if (!number(&minor))
        return false;
    while (p < end && blank(*p))
        ++p;
    const char *nameStart = p;
    while (p < end && !blank(*p))
        ++p;
    if (p == nameStart || major > 0xfff || minor > 0xfffff)
        return false;
    *name = QByteArrayView(nameStart, p - nameStart);
    int n = 0;
    for (;;) {
        while (p < end && blank(*p))
            ++p;
        if (p == end)
            break;
        if (n == int(DiskFieldCount) || !number(&c->fields[std::size_t(n)]))
            return false;
        ++n;
    }
    if (!validCounterCount(n))
        return false;
    for (int i = n; i < int(DiskFieldCount); ++i)
        c->fields[std::size_t(i)] = 0;
    c->fieldCount = n;
    c->devnum = DiskCounters::makeDevnum(unsigned(major), unsigned(minor));
    return true;
}

} // namespace

QString parseDiskstatsLineInto(QByteArrayView line, DiskCounters *out, QByteArrayView *name)
{
    if (parseLineFast(line, out, name))
        return {};
    return parseLine(line, out, name);
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
    Tokens<QStringView> tokens(text);
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

namespace {

template<typename View>
Result<std::array<quint32, 2>> parseInflightText(View content)
{
    const auto failure = [&] {
        return Result<std::array<quint32, 2>>::failure(
            QStringLiteral("inflight: '%1' is not 'reads writes'").arg(text(content.trimmed())));
    };
    Tokens<View> tokens(content);
    std::array<quint32, 2> v {};
    for (auto &slot : v) {
        quint64 n = 0;
        if (!toU64<View>(tokens.next(), &n) || n > std::numeric_limits<quint32>::max())
            return failure();
        slot = quint32(n);
    }
    if (!tokens.next().isEmpty())
        return failure();
    return v;
}

} // namespace

Result<std::array<quint32, 2>> parseInflight(QStringView text)
{
    return parseInflightText(text);
}

Result<std::array<quint32, 2>> parseInflight(QByteArrayView text)
{
    return parseInflightText(text);
}

Result<quint64> parseDevnum(QStringView text)
{
    const QStringView t = text.trimmed();
    const qsizetype colon = t.indexOf(u':');
    quint64 major = 0, minor = 0;
    if (colon < 0 || !toU64<QStringView>(t.first(colon), &major) || !toU64<QStringView>(t.sliced(colon + 1), &minor)
        || major > 0xfff || minor > 0xfffff)
        return Result<quint64>::failure(QStringLiteral("dev: '%1' is not 'major:minor'").arg(t.toString()));
    return DiskCounters::makeDevnum(unsigned(major), unsigned(minor));
}

CounterDeltas counterDeltas(const DiskCounters &prev, const DiskCounters &cur)
{
    CounterDeltas d;
    counterDeltas(prev, cur, &d);
    return d;
}

void counterDeltas(const DiskCounters &prev, const DiskCounters &cur, CounterDeltas *out)
{
    static constexpr DiskField requestCounts[]
        = { DiskField::ReadIos, DiskField::WriteIos, DiskField::DiscardIos, DiskField::FlushIos };
    static constexpr DiskField u32Fields[] = { DiskField::ReadTicks, DiskField::WriteTicks, DiskField::IoTicks,
        DiskField::TimeInQueue, DiskField::DiscardTicks, DiskField::FlushTicks };
    bool countsWentBack = false;
    for (DiskField f : requestCounts)
        countsWentBack |= cur[f] < prev[f];

    CounterDeltas &d = *out;
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
}

} // namespace dmtune
