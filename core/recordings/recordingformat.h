#pragma once
// The bytes of a recording file (docs/recordings.md): an 8-byte magic with the format version, then frames
// of [type byte][payload length as LEB128 varint][payload]. Frames are only ever appended, so a file cut
// short by a crash is whole up to its last complete frame. Counters travel as zigzag varints of their
// difference from the device's previous sample, behind a bit mask of the values that changed.
#include <QByteArray>
#include <QByteArrayView>

namespace dmtune::recordingformat {

inline constexpr char Magic[6] = { 'D', 'M', 'T', 'R', 'E', 'C' };
inline constexpr char Version = 1; // byte 6; byte 7 is '\n' (so `head -c 8` shows "DMTREC")
inline constexpr int MagicSize = 8;

enum FrameType : char {
    HeaderFrame = 'H', // JSON: format, version, host, kernel, started, interval, devices, title, configuration
    DeviceFrame = 'D', // binary: id, /proc/diskstats field count, devnum, then the kernel name (UTF-8)
    SampleFrame = 'S', // binary: one sampler batch (see recordingwriter.cpp)
    MarkerFrame = 'M', // JSON {t, label}
    NoteFrame = 'N', // JSON {t, text}
    FioProgressFrame = 'P', // JSON {t, status}: one object of fio's --status-interval stream
    FioResultFrame = 'F', // JSON {argv, result}
    LatencyFrame = 'L', // binary: the latency probe's histograms over the interval of the sample frame before it
    EndFrame = 'E', // JSON {ended, batches, device_samples}
};

// Per device entry of a sample frame: the 17 diskstats fields, then in-flight reads and writes.
inline constexpr int ValueCount = 19;
inline constexpr quint32 BaselineFlag = 1u << 19; // the entry starts with baseline values (first sample)

QByteArray magic();

// LEB128 unsigned varints and zigzag-coded signed ones.
void putVarint(QByteArray &out, quint64 value);
inline quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}
inline qint64 unzigzag(quint64 v)
{
    return qint64(v >> 1) ^ -qint64(v & 1);
}

// Reads varints from a payload; after any failure ok() stays false and values read as 0.
class VarintReader {
public:
    explicit VarintReader(QByteArrayView bytes)
        : m_bytes(bytes)
    {
    }
    quint64 next();
    qint64 nextSigned() { return unzigzag(next()); }
    bool ok() const { return m_ok; }
    bool atEnd() const { return m_pos >= m_bytes.size(); }
    qsizetype position() const { return m_pos; }
    QByteArrayView rest() const { return m_bytes.sliced(m_pos); }

private:
    QByteArrayView m_bytes;
    qsizetype m_pos = 0;
    bool m_ok = true;
};

} // namespace dmtune::recordingformat
