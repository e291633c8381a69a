#pragma once
// One timer, one read of the counters of every watched device per tick, rates over the real elapsed time.
#include "core/stats/counterreader.h"
#include "core/stats/samplebatch.h"
#include "core/stats/samplesource.h"

#include <QHash>
#include <QTimer>

namespace dmtune {

// CLOCK_MONOTONIC in nanoseconds: the time base of every sample (local or from an agent).
qint64 monotonicNowNs();

class Sampler : public SampleSource {
    Q_OBJECT
public:
    explicit Sampler(SysfsRoot root = SysfsRoot(), QObject *parent = nullptr);
    ~Sampler() override;

    // Watch exactly these kernel names (whole devices or partitions), reported in this order. Names not
    // present yet are waited for: they start a series when they appear. An empty list is watchAll().
    void setWatched(const QStringList &names) override;
    // Watch every whole device in /sys/block (and every partition when includePartitions).
    void watchAll(bool includePartitions = false);
    QStringList watched() const override { return m_names; }
    bool watchesAll() const { return m_names.isEmpty(); }

    // 100 ms .. 60 s; outside that range nothing changes and false is returned. Takes effect at once while
    // running: the next tick comes one new interval after the call, and its rates use the real elapsed time.
    bool setInterval(int ms) override;
    int interval() const override { return m_timer.interval(); }

    // Where counters come from (default Auto: see CounterReader).
    void setSource(CounterSource source) { m_reader.setSource(source); }
    CounterSource lastSource() const { return m_lastSource; }
    // Read /sys/block/X/inflight for devices with requests in flight (default on). One file read per busy
    // device per tick, about 2 µs each, and iostat's own columns do not need it (docs/stats.md). Off, a busy
    // device's split is InflightUnknown (an idle one's is still {0, 0}: field 9, the total, says so).
    void setReadInflight(bool on) { m_readInflight = on; }
    bool readsInflight() const { return m_readInflight; }

    // start() reads a baseline at once (devices present then "appear"), so the first batch covers the
    // first interval, never the time since boot. stop() ends every series (deviceVanished for each).
    void start() override;
    void stop() override;
    bool isRunning() const override { return m_timer.isActive(); }

    // One read now, outside the timer: the baseline when nothing was read yet, else a batch. For tests and
    // for callers that drive the timing themselves.
    void sampleNow();

    // Its signals: SampleSource's (samplingFailed: the counters could not be read or parsed this tick, the previous
    // snapshot is kept).

private:
    void tick();
    void resetBaseline();

    CounterReader m_reader;
    QTimer m_timer;
    QStringList m_names; // empty: all
    bool m_includePartitions = false;
    bool m_readInflight = true;
    CounterSource m_lastSource = CounterSource::Auto;

    bool m_haveBaseline = false;
    qint64 m_lastMonotonicNs = 0;
    quint64 m_sequence = 0;
    CounterRead m_read; // this tick's read; its storage swaps with m_previous's
    QList<DiskCounters> m_previous; // the last read, in read order
    QList<bool> m_matched;
    SampleBatch m_batch;
    bool m_batchMirrorsPrevious = false; // m_batch.devices[k].counters == m_previous[k] for every k
    QHash<QString, qsizetype> m_previousIndex; // name -> position in m_previous, built on demand
};

} // namespace dmtune
