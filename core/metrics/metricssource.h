#pragma once
// A host's block-device counters from wherever they are collected: this machine's /proc and /sys, a PCP pmcd
// or archive, or a Prometheus server scraping node_exporter. Every source yields the same cumulative
// DiskCounters, so one IostatMetrics computation gives the same iostat -x numbers whatever the source; what a
// source cannot give is listed in its limits, never invented.
#include "core/stats/diskcounters.h"
#include "core/stats/samplebatch.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace dmtune {

// One sample of one host: every device the source reported at one moment.
struct CounterFrame {
    qint64 timeNs = 0; // the source's own timestamp of the sample (PCP's result time, Prometheus' scrape time),
                       // ns since the epoch: the rates' clock
    QList<DiskCounters> devices; // kernel names (sda, dm-0); fields the source lacks read 0
    QHash<QString, QString> dmNames; // dm-N -> map name, where the source knows it
    QHash<QString, QStringList> pathsOf; // dm-N -> its paths' kernel names, where the source knows them
    // Reads, writes in flight per device where the source has the split (none of PCP 6 and node_exporter 1.5
    // do); otherwise InflightUnknown and the inflight columns are null.
    QHash<QString, std::array<quint32, 2>> inflight;
    // The counters this source has (for every device of the frame); metrics built on a missing one are NaN,
    // never a made-up 0 (see withoutMissingFields).
    std::array<bool, DiskFieldCount> hasField {};
    // The counters may have restarted since the previous frame (a PCP archive's <mark> record, a pmlogger or
    // host restart): no interval spans it.
    bool afterGap = false;

    const DiskCounters *find(const QString &name) const;
};

// The metrics whose formula needs a counter the source lacks become NaN (printed null, empty or "-").
void withoutMissingFields(const std::array<bool, DiskFieldCount> &hasField, IostatMetrics *metrics);

// The machine the counters are of, as iostat's banner names it; empty where the source does not say.
struct SourceHost {
    QString nodename;
    QString release;
    QString machine;
    int cpus = 0;
};

class MetricsSource {
public:
    virtual ~MetricsSource() = default;
    // "pcp host h:44321", "pcp archive /p/20261205", "prometheus http://127.0.0.1:9090 instance x": one line.
    virtual QString description() const = 0;
    // What this source cannot give, one sentence each (the in-flight split, a map's paths, ...).
    virtual QStringList limits() const = 0;
    // The next sample: the newest one for a live source, the next record (or interpolated point) for an
    // archive. Blocks on the network or the file: call it from a job or the CLI, never the GUI thread.
    virtual Result<CounterFrame> fetch() = 0;
    // An archive read to its end (or --finish): fetch() has nothing more.
    virtual bool atEnd() const { return false; }
    // The newest sample older than timeNs, where the engine keeps history (Prometheus' range answers): the
    // rates over the last interval at once, without waiting one interval for a second sample.
    virtual Result<CounterFrame> fetchBefore(qint64 timeNs)
    {
        Q_UNUSED(timeNs);
        return Result<CounterFrame>::failure(QStringLiteral("%1 keeps no history").arg(description()));
    }
    virtual SourceHost host() const { return {}; }
};

// The interval between two frames as the sampler would hand it out: per device present in both, the clamped
// deltas and the in-flight split at `cur` (InflightUnknown where the source has none); the rates' denominator
// is the sources' own time between the two samples. devices empty: every device of `cur`, in its order.
SampleBatch batchBetween(const CounterFrame &prev, const CounterFrame &cur, const QStringList &devices = {});

// The frame's devices whose kernel name or map name is in `wanted` (either spelling), as kernel names in
// `wanted`'s order; names not found are returned in *missing.
QStringList resolveFrameDevices(const CounterFrame &frame, const QStringList &wanted, QStringList *missing);

} // namespace dmtune
