#pragma once
// The history's encoding of one device-sample: the interval, the in-flight split and 16 counter deltas,
// each as the zigzag LEB128 varint of its difference from the same value in the previous sample, and only
// the values that changed (a leading bitmap says which). Exact for any 64-bit value. Steady and idle devices
// cost a few bytes per sample, a busy one 20 to 45 (docs/stats.md has the numbers). Pure, no I/O.
#include "core/stats/diskcounters.h"

#include <QtGlobal>

#include <array>
#include <vector>

namespace dmtune {

struct HistoryValues {
    enum : int { DtMicros = 0, InflightReads = 1, InflightWrites = 2, FirstCounter = 3, Count = 19 };
    std::array<quint64, Count> v {}; // FirstCounter + i: the delta of historyFields[i] (stats/seriesstore.cpp)
    bool operator==(const HistoryValues &) const = default;
};

// The counters a HistoryValues keeps, in its order: every field but 9 (in flight, which the in-flight pair at the
// tick replaces).
inline constexpr DiskField historyFields[HistoryValues::Count - HistoryValues::FirstCounter] = {
    DiskField::ReadIos,
    DiskField::ReadMerges,
    DiskField::ReadSectors,
    DiskField::ReadTicks,
    DiskField::WriteIos,
    DiskField::WriteMerges,
    DiskField::WriteSectors,
    DiskField::WriteTicks,
    DiskField::IoTicks,
    DiskField::TimeInQueue,
    DiskField::DiscardIos,
    DiskField::DiscardMerges,
    DiskField::DiscardSectors,
    DiskField::DiscardTicks,
    DiskField::FlushIos,
    DiskField::FlushTicks,
};

HistoryValues toHistoryValues(const CounterDeltas &deltas, const std::array<quint32, 2> &inflight, quint64 dtMicros);
CounterDeltas deltasOf(const HistoryValues &values);

// Both sides keep the previous sample: a decoder reproduces the values of the encoder that wrote the bytes
// when both start from reset() at the same sample.
class SampleEncoder {
public:
    void reset() { m_previous = {}; }
    void encode(const HistoryValues &values, std::vector<quint8> *out);

private:
    HistoryValues m_previous;
};

class SampleDecoder {
public:
    void reset() { m_previous = {}; }
    // Decodes the sample at p into *values and returns the byte after it; nullptr when the bytes end early
    // or a varint is longer than 10 bytes.
    const quint8 *decode(const quint8 *p, const quint8 *end, HistoryValues *values);
    const HistoryValues &previous() const { return m_previous; }

private:
    HistoryValues m_previous;
};

} // namespace dmtune
