#include "core/util/printable.h"

namespace dmtune {

namespace {

QString escaped(const QString &text, bool keepLayout)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t code = text.at(i).unicode();
        qsizetype units = 1;
        if (QChar::isHighSurrogate(code) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            code = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            units = 2;
        }
        const QChar::Category category = QChar::category(code);
        // A lone surrogate is no character at all: shown, not passed on.
        const bool hidden = category == QChar::Other_Control || category == QChar::Other_Format
            || (units == 1 && QChar::isSurrogate(code));
        if (keepLayout && (code == '\n' || code == '\t'))
            out += QChar(code);
        else if (!hidden)
            out += text.mid(i, units);
        else if (code < 0x100)
            out += QStringLiteral("\\x%1").arg(uint(code), 2, 16, QLatin1Char('0'));
        else if (code < 0x10000)
            out += QStringLiteral("\\u%1").arg(uint(code), 4, 16, QLatin1Char('0'));
        else
            out += QStringLiteral("\\U%1").arg(uint(code), 8, 16, QLatin1Char('0'));
        i += units - 1;
    }
    return out;
}

} // namespace

QString printable(const QString &text)
{
    return escaped(text, false);
}

QString printableLines(const QString &text)
{
    return escaped(text, true);
}

} // namespace dmtune
