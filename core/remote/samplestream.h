#pragma once
// The agent's counter stream on the wire: one "samples" message per sampler tick. The names of the devices (and
// their device numbers, "devs": the latency probe's key) go once, when the set changes; each device's values go as the
// history's encoding (stats/samplecodec.h), delta-coded against that device's previous sample in the stream and
// concatenated in name order, Z85 text in "data" (z85.h) and their number in "size". A busy device costs 30 to 40 bytes
// a tick, an idle one a few, not ~300 of JSON numbers (docs/remote.md). Pure, no I/O: both sides keep their state from
// the first message of a stream.
#include "core/stats/samplebatch.h"
#include "core/stats/samplecodec.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QStringList>

#include <vector>

namespace dmtune {

class SampleStreamWriter {
public:
    // The message for one batch ("type":"samples", "id", seq, wall_ms, mono_ns, elapsed_us, [names, devs], size,
    // data).
    QJsonObject encode(qint64 id, const SampleBatch &batch);

private:
    QStringList m_names;
    std::vector<SampleEncoder> m_encoders;
    std::vector<quint8> m_bytes;
};

class SampleStreamReader {
public:
    // The batch of one "samples" message: the devices' deltas and in-flight split (the cumulative counters are not
    // sent: each device's counters carry its name and device number only). An error for data before any names, bytes
    // that end early or run over, text that is not Z85, or fields of the wrong type: the stream cannot go on from such
    // a message.
    Result<SampleBatch> decode(const QJsonObject &message);
    // The devices of the last message, in its order.
    const QStringList &names() const { return m_names; }
    void reset();

private:
    QStringList m_names;
    QList<quint64> m_devnums; // the names' dev_t, 0 where the agent sent none
    std::vector<SampleDecoder> m_decoders;
};

} // namespace dmtune
