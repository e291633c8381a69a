#include "core/stats/iostatmetrics.h"

#include <cmath>

namespace dmtune {

namespace {

// Written the way sysstat writes them (iostat.c write_ext_stat, rd_stats.c compute_ext_disk_stats) so that
// the floating-point results round the same way: a rate is delta / dt, a ratio is numerator / (double)
// denominator, a size in kB is that ratio / 2 (exact in binary), and a zero denominator gives 0.
// sysstat's S_VALUE(m, n, itv) = (n - m) / itv * 100 with itv in 1/100 s. Dividing by seconds directly is
// the same number mathematically but not always the same double: 141085 / 1000.0 prints 141.09 where
// 141085 / 100000.0 * 100 prints 141.08. Same operations, same order, same digits.
double rate(quint64 delta, double dt)
{
    // 0 / x is 0: an idle counter (most of them, on most devices) costs no division.
    return delta && dt > 0 ? double(delta) / (dt * 100.0) * 100.0 : 0.0;
}

double ratio(quint64 numerator, quint64 denominator)
{
    return denominator ? double(numerator) / double(denominator) : 0.0;
}

double mergedPercent(quint64 merges, quint64 ios)
{
    return merges + ios ? double(merges) / double(merges + ios) * 100 : 0.0;
}

} // namespace

IostatMetrics IostatMetrics::compute(
    const DiskCounters &prev, const DiskCounters &cur, double dtSeconds, quint32 inflightReads, quint32 inflightWrites)
{
    return fromDeltas(counterDeltas(prev, cur), dtSeconds, inflightReads, inflightWrites);
}

IostatMetrics IostatMetrics::fromDeltas(
    const CounterDeltas &d, double dt, quint32 inflightReads, quint32 inflightWrites)
{
    IostatMetrics m;
    m.setFromDeltas(d, dt, inflightReads, inflightWrites);
    return m;
}

void IostatMetrics::setFromDeltas(const CounterDeltas &d, double dt, quint32 inflightReads, quint32 inflightWrites)
{
    using F = DiskField;
    using M = Metric;
    IostatMetrics &m = *this;
    m[M::ReadsPerSec] = rate(d[F::ReadIos], dt);
    m[M::ReadKBPerSec] = rate(d[F::ReadSectors], dt) / 2;
    m[M::ReadMergesPerSec] = rate(d[F::ReadMerges], dt);
    m[M::ReadMergedPercent] = mergedPercent(d[F::ReadMerges], d[F::ReadIos]);
    m[M::ReadAwait] = ratio(d[F::ReadTicks], d[F::ReadIos]);
    m[M::ReadRequestSize] = ratio(d[F::ReadSectors], d[F::ReadIos]) / 2;

    m[M::WritesPerSec] = rate(d[F::WriteIos], dt);
    m[M::WriteKBPerSec] = rate(d[F::WriteSectors], dt) / 2;
    m[M::WriteMergesPerSec] = rate(d[F::WriteMerges], dt);
    m[M::WriteMergedPercent] = mergedPercent(d[F::WriteMerges], d[F::WriteIos]);
    m[M::WriteAwait] = ratio(d[F::WriteTicks], d[F::WriteIos]);
    m[M::WriteRequestSize] = ratio(d[F::WriteSectors], d[F::WriteIos]) / 2;

    m[M::DiscardsPerSec] = rate(d[F::DiscardIos], dt);
    m[M::DiscardKBPerSec] = rate(d[F::DiscardSectors], dt) / 2;
    m[M::DiscardMergesPerSec] = rate(d[F::DiscardMerges], dt);
    m[M::DiscardMergedPercent] = mergedPercent(d[F::DiscardMerges], d[F::DiscardIos]);
    m[M::DiscardAwait] = ratio(d[F::DiscardTicks], d[F::DiscardIos]);
    m[M::DiscardRequestSize] = ratio(d[F::DiscardSectors], d[F::DiscardIos]) / 2;

    m[M::FlushesPerSec] = rate(d[F::FlushIos], dt);
    m[M::FlushAwait] = ratio(d[F::FlushTicks], d[F::FlushIos]);

    // Both from milliseconds: aqu-sz = (weighted ms per second) / 1000, %util = (busy ms per second) / 10.
    m[M::AverageQueueSize] = rate(d[F::TimeInQueue], dt) / 1000.0;
    m[M::Utilization] = rate(d[F::IoTicks], dt) / 10.0;

    const auto count = [](quint32 n) { return n == InflightUnknown ? std::nan("") : double(n); };
    m[M::InflightReads] = count(inflightReads);
    m[M::InflightWrites] = count(inflightWrites);
}

} // namespace dmtune
