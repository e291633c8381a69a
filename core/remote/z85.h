#pragma once
// Z85 (ZeroMQ RFC 32): binary as printable text, 5 characters per 4 bytes (base64 takes 5.33), none of them a
// quote or a backslash, so a JSON string carries it unescaped. The counter stream's bytes go this way: at 1,000
// busy devices a tick the difference is 3 kB/s. Bytes are padded with zeros to a multiple of 4; the caller sends
// the real length. Pure.
#include "core/util/result.h"

#include <QByteArray>

namespace dmtune {

QByteArray z85Encode(const QByteArray &bytes);
// The decoded bytes cut to `size`: an error for a length not a multiple of 5, a character outside the alphabet,
// a group over 2^32 - 1, or a size beyond the decoded bytes or short of them by 4 or more.
Result<QByteArray> z85Decode(const QByteArray &text, qsizetype size);

} // namespace dmtune
