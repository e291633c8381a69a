#include "core/recordings/recordingformat.h"

namespace dmtune::recordingformat {

QByteArray magic()
{
    QByteArray m(Magic, sizeof Magic);
    m.append(Version);
    m.append('\n');
    return m;
}

void putVarint(QByteArray &out, quint64 value)
{
    while (value >= 0x80) {
        out.append(char(value & 0x7f) | char(0x80));
        value >>= 7;
    }
    out.append(char(value));
}

quint64 VarintReader::next()
{
    quint64 value = 0;
    for (int shift = 0; m_ok && shift < 64; shift += 7) {
        if (m_pos >= m_bytes.size())
            break;
        const auto byte = quint8(m_bytes[m_pos++]);
        value |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return value;
    }
    m_ok = false; // ran out of bytes, or more than 10 bytes
    return 0;
}

} // namespace dmtune::recordingformat
