#pragma once
// Sampler batches made the way Sampler makes them (counterDeltas + IostatMetrics::fromDeltas), from counters
// the test moves forward itself: recordings of known content without a device.
#include "core/recordings/recordingreader.h"
#include "core/stats/samplebatch.h"
#include "tests/common/mustsucceed.h"

#include <QHash>
#include <QRandomGenerator>

namespace dmtune::test {

class SyntheticBatches {
public:
    explicit SyntheticBatches(double intervalSeconds = 1.0)
        : m_interval(intervalSeconds)
    {
    }

    // Counters of a device before its first interval.
    void setCounters(const QString &name, const DiskCounters &counters) { m_counters[name] = counters; }
    DiskCounters &counters(const QString &name)
    {
        DiskCounters &c = m_counters[name];
        c.name = name;
        if (c.fieldCount == 0)
            c.fieldCount = 17;
        return c;
    }

    // Advances every named device by what `step` does to its counters; devices not named are left out of
    // the batch (as vanished ones are).
    template<typename Step>
    SampleBatch next(const QStringList &names, Step &&step, quint32 inflightWrites = 0)
    {
        ++m_sequence;
        m_monotonicNs += qint64(m_interval * 1e9);
        m_wallMs += qint64(m_interval * 1000);
        SampleBatch batch;
        batch.wallMs = m_wallMs;
        batch.monotonicNs = m_monotonicNs;
        batch.elapsedSeconds = m_interval;
        batch.sequence = m_sequence;
        for (const QString &name : names) {
            DiskCounters &c = counters(name);
            const DiskCounters prev = c;
            step(name, c);
            DeviceSample s;
            s.counters = c;
            counterDeltas(prev, c, &s.deltas);
            s.inflight = { 0, quint32(inflightWrites) };
            batch.devices.append(s);
        }
        return batch;
    }

    // A busy interval of sequential 4K writes, part of them merged: what a loaded path looks like.
    static void busyWrites(DiskCounters &c, QRandomGenerator &rng, quint64 iops)
    {
        const quint64 writes = iops + rng.bounded(quint32(iops / 10 + 1));
        const quint64 merges = writes * 7 / 8;
        c[DiskField::WriteIos] += writes - merges;
        c[DiskField::WriteMerges] += merges;
        c[DiskField::WriteSectors] += writes * 8;
        c[DiskField::WriteTicks] += writes / 4 + rng.bounded(1000u);
        c[DiskField::InFlight] = rng.bounded(32u);
        c[DiskField::IoTicks] += 990 + rng.bounded(10u);
        c[DiskField::TimeInQueue] += writes / 3 + rng.bounded(5000u);
    }

    qint64 wallMs() const { return m_wallMs; }

private:
    double m_interval;
    QHash<QString, DiskCounters> m_counters;
    quint64 m_sequence = 0;
    qint64 m_monotonicNs = 5'000'000'000;
    qint64 m_wallMs = 1'790'000'000'000;
};

// A finished recording file: 5 idle intervals, "fio start", 10 busy intervals of 1000 writes per second with
// mergesPerInterval merges (x1 and x2 alternating), "fio end", 5 idle intervals; read back.
inline Recording writeSyntheticRecording(const QString &path, const QString &title, const QStringList &devices,
    quint64 mergesPerInterval, const QJsonObject &configuration = {})
{
    SyntheticBatches gen;
    RecordingMeta meta;
    meta.title = title;
    meta.host = QStringLiteral("lab");
    meta.kernel = QStringLiteral("6.1.0-27-amd64");
    meta.devices = devices;
    meta.configuration = configuration;
    auto writer = RecordingWriter::create(path, meta);
    if (!writer)
        qFatal("%s", qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();
    const auto idle = [](const QString &, DiskCounters &) {};
    for (int i = 0; i < 5; ++i)
        test::mustSucceed(w.addBatch(gen.next(devices, idle)));
    test::mustSucceed(w.addMarker(double(gen.wallMs()) / 1000.0, RecordingWriter::fioStartLabel()));
    int n = 0;
    for (int i = 0; i < 10; ++i) {
        test::mustSucceed(w.addBatch(gen.next(devices, [&](const QString &, DiskCounters &c) {
            c[DiskField::WriteIos] += 1000 - mergesPerInterval;
            c[DiskField::WriteMerges] += mergesPerInterval * quint64(1 + (n++ % 2));
            c[DiskField::WriteSectors] += 8000;
            c[DiskField::WriteTicks] += 500;
            c[DiskField::IoTicks] += 900;
        })));
    }
    test::mustSucceed(w.addMarker(double(gen.wallMs()) / 1000.0, RecordingWriter::fioEndLabel()));
    for (int i = 0; i < 5; ++i)
        test::mustSucceed(w.addBatch(gen.next(devices, idle)));
    test::mustSucceed(w.finish());
    Result<Recording> rec = readRecording(path);
    if (!rec)
        qFatal("%s", qPrintable(rec.errorMessage()));
    return rec.value();
}

} // namespace dmtune::test
