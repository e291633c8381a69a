#include "core/latency/latencyhistogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dmtune {

namespace latencybuckets {

// In half microseconds, bucket i >= 1 starts at 2^k (even i - 1) or 3 * 2^(k - 1), k = (i + 1) / 2.
double lowerUs(int bucket)
{
    if (bucket <= 0)
        return 0;
    if (bucket >= Count)
        return std::numeric_limits<double>::infinity();
    const int k = (bucket + 1) / 2;
    const bool half = (bucket + 1) % 2 != 0;
    const double halfMicros = half ? 3.0 * std::ldexp(1.0, k - 1) : std::ldexp(1.0, k);
    return halfMicros / 2;
}

double upperUs(int bucket)
{
    return bucket + 1 >= Count ? std::numeric_limits<double>::infinity() : lowerUs(bucket + 1);
}

int bucketOf(quint64 ns)
{
    const quint64 v = ns / 500;
    if (v < 2)
        return 0;
    int k = 63;
    while (!(v >> k))
        --k;
    const int half = int((v >> (k - 1)) & 1);
    const int i = 2 * (k - 1) + 1 + half;
    return i < Count ? i : Count - 1;
}

QList<double> lowerBoundsUs()
{
    QList<double> bounds;
    bounds.reserve(Count);
    for (int i = 0; i < Count; ++i)
        bounds.append(lowerUs(i));
    return bounds;
}

} // namespace latencybuckets

quint64 LatencyHistogram::total() const
{
    quint64 n = 0;
    for (quint64 c : counts)
        n += c;
    return n;
}

double LatencyHistogram::meanUs() const
{
    const quint64 n = total();
    return n == 0 ? std::numeric_limits<double>::quiet_NaN() : double(sumNs) / 1000.0 / double(n);
}

double LatencyHistogram::percentileUs(double fraction) const
{
    const quint64 n = total();
    if (n == 0)
        return std::numeric_limits<double>::quiet_NaN();
    const double rank = std::clamp(fraction, 0.0, 1.0) * double(n);
    double below = 0;
    for (int i = 0; i < latencybuckets::Count; ++i) {
        const auto c = double(counts[size_t(i)]);
        if (c > 0 && below + c >= rank) {
            if (i + 1 == latencybuckets::Count)
                return latencybuckets::lowerUs(i);
            const double lo = latencybuckets::lowerUs(i);
            const double hi = latencybuckets::upperUs(i);
            return lo + (hi - lo) * std::clamp((rank - below) / c, 0.0, 1.0);
        }
        below += c;
    }
    return latencybuckets::lowerUs(latencybuckets::Count - 1);
}

LatencyHistogram LatencyHistogram::since(const LatencyHistogram &earlier) const
{
    LatencyHistogram d;
    bool wentBack = sumNs < earlier.sumNs;
    for (size_t i = 0; i < counts.size(); ++i)
        wentBack = wentBack || counts[i] < earlier.counts[i];
    if (wentBack)
        return *this;
    for (size_t i = 0; i < counts.size(); ++i)
        d.counts[i] = counts[i] - earlier.counts[i];
    d.sumNs = sumNs - earlier.sumNs;
    return d;
}

LatencyHistogram &LatencyHistogram::operator+=(const LatencyHistogram &other)
{
    for (size_t i = 0; i < counts.size(); ++i)
        counts[i] += other.counts[i];
    sumNs += other.sumNs;
    return *this;
}

} // namespace dmtune
