#include "core/remote/z85.h"

#include <array>

namespace dmtune {

namespace {

constexpr char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
static_assert(sizeof alphabet == 86);

constexpr std::array<qint8, 128> decodeTable()
{
    std::array<qint8, 128> table {};
    for (auto &t : table)
        t = -1;
    for (int i = 0; i < 85; ++i)
        table[std::size_t(alphabet[i])] = qint8(i);
    return table;
}
constexpr std::array<qint8, 128> digitOf = decodeTable();

} // namespace

QByteArray z85Encode(const QByteArray &bytes)
{
    const qsizetype groups = (bytes.size() + 3) / 4;
    QByteArray out(groups * 5, Qt::Uninitialized);
    const auto *in = reinterpret_cast<const unsigned char *>(bytes.constData());
    char *o = out.data();
    for (qsizetype g = 0; g < groups; ++g) {
        quint32 value = 0;
        for (qsizetype k = 0; k < 4; ++k) {
            const qsizetype i = g * 4 + k;
            value = value << 8 | (i < bytes.size() ? in[i] : 0u);
        }
        for (int k = 4; k >= 0; --k) {
            o[k] = alphabet[value % 85];
            value /= 85;
        }
        o += 5;
    }
    return out;
}

Result<QByteArray> z85Decode(const QByteArray &text, qsizetype size)
{
    if (text.size() % 5 != 0)
        return Result<QByteArray>::failure(
            QStringLiteral("Z85 text of %1 characters (not a multiple of 5)").arg(text.size()));
    const qsizetype full = text.size() / 5 * 4;
    if (size < 0 || size > full || full - size >= 4)
        return Result<QByteArray>::failure(
            QStringLiteral("Z85: %1 bytes announced for %2 characters").arg(size).arg(text.size()));
    QByteArray out(full, Qt::Uninitialized);
    char *o = out.data();
    for (qsizetype g = 0; g < text.size(); g += 5) {
        quint64 value = 0;
        for (qsizetype k = 0; k < 5; ++k) {
            const auto c = static_cast<unsigned char>(text.at(g + k));
            const int digit = c < 128 ? digitOf[c] : -1;
            if (digit < 0)
                return Result<QByteArray>::failure(
                    QStringLiteral("Z85: a character outside the alphabet at %1").arg(g + k));
            value = value * 85 + quint64(digit);
        }
        if (value > 0xffffffffULL)
            return Result<QByteArray>::failure(QStringLiteral("Z85: group at %1 over 32 bits").arg(g));
        for (int k = 3; k >= 0; --k) {
            o[k] = char(value & 0xff);
            value >>= 8;
        }
        o += 4;
    }
    out.truncate(size);
    return out;
}

} // namespace dmtune
