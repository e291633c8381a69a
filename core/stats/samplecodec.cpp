#include "core/stats/samplecodec.h"

namespace dmtune {

namespace {

void appendVarint(quint64 value, std::vector<quint8> *out)
{
    while (value >= 0x80) {
        out->push_back(quint8(value | 0x80));
        value >>= 7;
    }
    out->push_back(quint8(value));
}

const quint8 *getVarint(const quint8 *p, const quint8 *end, quint64 *value)
{
    quint64 v = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
        const quint8 byte = *p++;
        v |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = v;
            return p;
        }
    }
    return nullptr;
}

// Differences taken modulo 2^64 and read as signed: small steps either way give small numbers.
quint64 zigzag(quint64 difference)
{
    const auto d = qint64(difference);
    return (quint64(d) << 1) ^ quint64(d >> 63);
}

quint64 unzigzag(quint64 z)
{
    return (z >> 1) ^ (~(z & 1) + 1);
}

} // namespace

HistoryValues toHistoryValues(const CounterDeltas &deltas, const std::array<quint32, 2> &inflight, quint64 dtMicros)
{
    HistoryValues values;
    values.v[HistoryValues::DtMicros] = dtMicros;
    values.v[HistoryValues::InflightReads] = inflight[0];
    values.v[HistoryValues::InflightWrites] = inflight[1];
    for (std::size_t i = 0; i < std::size(historyFields); ++i)
        values.v[HistoryValues::FirstCounter + i] = deltas[historyFields[i]];
    return values;
}

CounterDeltas deltasOf(const HistoryValues &values)
{
    CounterDeltas d;
    for (std::size_t i = 0; i < std::size(historyFields); ++i)
        d[historyFields[i]] = values.v[HistoryValues::FirstCounter + i];
    return d;
}

void SampleEncoder::encode(const HistoryValues &values, std::vector<quint8> *out)
{
    quint64 changed = 0;
    for (int i = 0; i < HistoryValues::Count; ++i) {
        if (values.v[std::size_t(i)] != m_previous.v[std::size_t(i)])
            changed |= quint64(1) << i;
    }
    appendVarint(changed, out);
    for (int i = 0; i < HistoryValues::Count; ++i) {
        if (changed & (quint64(1) << i))
            appendVarint(zigzag(values.v[std::size_t(i)] - m_previous.v[std::size_t(i)]), out);
    }
    m_previous = values;
}

const quint8 *SampleDecoder::decode(const quint8 *p, const quint8 *end, HistoryValues *values)
{
    quint64 changed = 0;
    p = getVarint(p, end, &changed);
    if (!p || changed >> HistoryValues::Count)
        return nullptr;
    HistoryValues next = m_previous;
    for (int i = 0; i < HistoryValues::Count; ++i) {
        if (!(changed & (quint64(1) << i)))
            continue;
        quint64 z = 0;
        p = getVarint(p, end, &z);
        if (!p)
            return nullptr;
        next.v[std::size_t(i)] += unzigzag(z);
    }
    m_previous = next;
    *values = next;
    return p;
}

} // namespace dmtune
