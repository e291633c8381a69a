#pragma once
// This machine's counters as a MetricsSource: what the Sampler reads (one /proc/diskstats read or per-device
// stat files under one SysfsRoot), with the in-flight split, timed by the wall clock. The fleet's "this host"
// and the reference the engines' numbers are checked against.
#include "core/metrics/metricssource.h"
#include "core/stats/counterreader.h"

namespace dmtune {

class LocalMetricsSource final : public MetricsSource {
public:
    explicit LocalMetricsSource(SysfsRoot root = SysfsRoot());

    QString description() const override;
    QStringList limits() const override { return {}; }
    Result<CounterFrame> fetch() override;
    SourceHost host() const override;

private:
    CounterReader m_reader;
};

} // namespace dmtune
