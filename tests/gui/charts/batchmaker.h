#pragma once
// SampleBatches built by hand, as a Sampler would emit them: consecutive sequence numbers, one interval
// apart on both clocks, deltas derived from a few knobs per device, metrics computed by the iostat math.
#include "core/stats/samplebatch.h"

#include <QStringList>

#include <algorithm>

namespace dmtune::test {

class BatchMaker {
public:
    qint64 wallStartMs = 1'700'000'000'000; // 2023-11-14 22:13:20 UTC
    qint64 monotonicStartNs = 5'000'000'000'000;
    double intervalSeconds = 1.0;

    // The next batch for these devices. Device i does (i + 1) * 100 reads and (i + 1) * 50 writes per
    // interval, plus `ramp` * sequence more reads, so values differ per device and over time.
    SampleBatch next(const QStringList &devices, double ramp = 1.0)
    {
        ++m_sequence;
        SampleBatch b;
        b.sequence = m_sequence;
        b.elapsedSeconds = intervalSeconds;
        m_elapsedNs += qint64(intervalSeconds * 1e9);
        b.wallMs = wallStartMs + m_elapsedNs / 1'000'000;
        b.monotonicNs = monotonicStartNs + m_elapsedNs;
        for (qsizetype i = 0; i < devices.size(); ++i) {
            const quint64 k = quint64(i + 1);
            const auto perInterval = [this](double perSecond) { return quint64(perSecond * intervalSeconds); };
            CounterDeltas d;
            d[DiskField::ReadIos] = perInterval(double(100 * k) + ramp * double(m_sequence));
            d[DiskField::ReadMerges] = perInterval(double(10 * k * k));
            d[DiskField::ReadSectors] = d[DiskField::ReadIos] * 8 * k; // 4, 8, 12 kB reads
            d[DiskField::ReadTicks] = d[DiskField::ReadIos] * k / 2; // 0.5, 1, 1.5 ms
            d[DiskField::WriteIos] = perInterval(double(50 * k));
            d[DiskField::WriteMerges] = perInterval(double(50 * k * k)); // k / (k + 1) merged: 50, 67, 75 %
            d[DiskField::WriteSectors] = d[DiskField::WriteIos] * 32 * (k + 1); // 32, 48, 64 kB writes
            d[DiskField::WriteTicks] = d[DiskField::WriteIos] * 2 * k; // 2, 4, 6 ms
            d[DiskField::IoTicks] = perInterval(std::min(1000.0, 200.0 * double(k)));
            d[DiskField::TimeInQueue] = perInterval(1500.0 * double(k));
            DeviceSample s;
            s.counters.name = devices[i];
            s.counters.fieldCount = 17;
            s.deltas = d;
            s.inflight = { quint32(2 * k), quint32(k) };
            b.devices.append(s);
        }
        return b;
    }
    quint64 sequence() const { return m_sequence; }
    // A restarted sampler: the next batch is sequence 1 again.
    void restart() { m_sequence = 0; }

private:
    quint64 m_sequence = 0;
    qint64 m_elapsedNs = 0;
};

} // namespace dmtune::test
