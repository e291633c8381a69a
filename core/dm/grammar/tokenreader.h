#pragma once
// Walks the blank-separated words of a device-mapper parameter string (table, status, message)
// and builds error messages that name the word and its column. Internal to core/dm.
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace dmtune {

// Longest parameter string the parsers accept: real multipath tables are a few kB; the bound keeps
// hostile input (a fuzzer, a corrupted capture) cheap.
constexpr qsizetype maxDmParamsLength = 1 << 20;

class TokenReader {
public:
    explicit TokenReader(QStringView text);

    bool atEnd() const { return m_pos >= m_tokens.size(); }
    qsizetype remaining() const { return m_tokens.size() - m_pos; }
    // 1-based number of the next word (for messages and for remembering where a section began).
    qsizetype position() const { return m_pos + 1; }

    // Each read returns false and records an error naming `what` when the word is missing or bad.
    bool readWord(const QString &what, QString &out);
    bool readWords(const QString &what, qsizetype count, QStringList &out);
    // A plain decimal number within [min, max] (no sign, no blanks; leading zeros are tolerated).
    bool readNumber(const QString &what, quint32 min, quint32 max, quint32 &out);

    // Records an error about the word at `position` (1-based), or about the end of the text.
    bool failAt(qsizetype position, const QString &message);
    // Records an error about the word just read.
    bool failLast(const QString &message) { return failAt(m_pos, message); }

    const QString &error() const { return m_error; }

private:
    struct Token {
        QStringView text;
        qsizetype column; // 1-based
    };
    QString describe(qsizetype position) const;

    QList<Token> m_tokens;
    qsizetype m_pos = 0;
    QString m_error;
};

// Plain decimal digits only, value <= max. Returns false on anything else (never overflows).
bool parseDecimal(QStringView text, quint64 max, quint64 &out);

// A path device as the kernel accepts it in tables and messages: "major:minor" (major < 4096,
// minor < 2^20) or an absolute path ("/dev/sdb").
bool isDeviceToken(QStringView text);

} // namespace dmtune
