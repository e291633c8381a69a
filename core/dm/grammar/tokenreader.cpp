#include "core/dm/grammar/tokenreader.h"

namespace dmtune {

namespace {
// Long words (fuzzed input) are cut in messages so that an error stays one readable line.
constexpr qsizetype maxQuotedLength = 40;

QString quoted(QStringView text)
{
    if (text.size() <= maxQuotedLength)
        return QLatin1Char('"') + text.toString() + QLatin1Char('"');
    return QLatin1Char('"') + text.left(maxQuotedLength).toString() + QStringLiteral("...\"");
}
} // namespace

TokenReader::TokenReader(QStringView text)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    while (i < n) {
        while (i < n && text.at(i).isSpace())
            ++i;
        const qsizetype start = i;
        while (i < n && !text.at(i).isSpace())
            ++i;
        if (i > start)
            m_tokens.append({ text.mid(start, i - start), start + 1 });
    }
}

QString TokenReader::describe(qsizetype position) const
{
    if (position >= 1 && position <= m_tokens.size()) {
        const Token &t = m_tokens.at(position - 1);
        return QStringLiteral("word %1 %2 (column %3)").arg(position).arg(quoted(t.text)).arg(t.column);
    }
    if (m_tokens.isEmpty())
        return QStringLiteral("empty text");
    return QStringLiteral("truncated after word %1").arg(m_tokens.size());
}

bool TokenReader::failAt(qsizetype position, const QString &message)
{
    if (m_error.isEmpty())
        m_error = describe(position) + QStringLiteral(": ") + message;
    return false;
}

bool TokenReader::readWord(const QString &what, QString &out)
{
    if (atEnd())
        return failAt(m_pos + 1, QStringLiteral("expected %1").arg(what));
    out = m_tokens.at(m_pos++).text.toString();
    return true;
}

bool TokenReader::readWords(const QString &what, qsizetype count, QStringList &out)
{
    out.clear();
    // Counts come from the text itself: check before reserving anything.
    if (count > remaining()) {
        const qsizetype left = remaining();
        m_pos = m_tokens.size();
        return failAt(
            m_pos + 1, QStringLiteral("expected %1 word(s) for %2, only %3 left").arg(count).arg(what).arg(left));
    }
    out.reserve(count);
    for (qsizetype i = 0; i < count; ++i)
        out.append(m_tokens.at(m_pos++).text.toString());
    return true;
}

bool TokenReader::readNumber(const QString &what, quint32 min, quint32 max, quint32 &out)
{
    if (atEnd())
        return failAt(m_pos + 1, QStringLiteral("expected %1 (%2-%3)").arg(what).arg(min).arg(max));
    const QStringView text = m_tokens.at(m_pos++).text;
    quint64 value = 0;
    if (!parseDecimal(text, max, value) || value < min)
        return failLast(QStringLiteral("expected %1 (%2-%3)").arg(what).arg(min).arg(max));
    out = quint32(value);
    return true;
}

bool parseDecimal(QStringView text, quint64 max, quint64 &out)
{
    if (text.isEmpty())
        return false;
    quint64 value = 0;
    for (const QChar c : text) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
        const quint64 digit = quint64(c.unicode() - '0');
        // Checked before multiplying, so no bound (up to 2^64 - 1) can overflow.
        if (digit > max || value > (max - digit) / 10)
            return false;
        value = value * 10 + digit;
    }
    out = value;
    return true;
}

bool isDeviceToken(QStringView text)
{
    if (text.startsWith(QLatin1Char('/'))) {
        for (const QChar c : text) {
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                return false;
        }
        return text.size() > 1;
    }
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    quint64 major = 0;
    quint64 minor = 0;
    // dev_t: 12 bits of major, 20 bits of minor (the kernel rejects larger numbers with EOVERFLOW).
    return parseDecimal(text.left(colon), 4095, major) && parseDecimal(text.mid(colon + 1), (1u << 20) - 1, minor);
}

} // namespace dmtune
