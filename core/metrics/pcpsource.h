#pragma once
// Disk counters from Performance Co-Pilot through libpcp's PMAPI: a pmcd (or a pmproxy speaking its protocol)
// on a host, or a pmlogger archive. disk.dev.* gives the disks (PCP leaves out loop and ram devices),
// disk.dm.* the device-mapper maps, hinv.map.dmname their kernel names, disk.wwid.scsi_paths the SCSI paths
// under one WWID. Metric mapping and units: docs/fleet.md.
#include "core/metrics/metricssource.h"

#include <QDateTime>

#include <array>
#include <memory>
#include <vector>

namespace dmtune {

// Which part of an archive to read, in PCP's own -S/-T syntax ("@ Sat Dec  5 18:00:00 2026", "+30s",
// "-1min", "2026-12-05 18:00:00"; pmParseTimeWindow reads them), and how.
struct PcpArchiveWindow {
    QString start; // empty: the archive's start
    QString finish; // empty: its end
    // 0: the archive's own records, each fetch the next one (pmlogger's timing, as pcp iostat -u). Otherwise
    // values interpolated every intervalMs from the start (PM_MODE_INTERP, as pcp iostat -t does).
    int interpolateMs = 0;
};

class PcpSource final : public MetricsSource {
public:
    // HOST, HOST:PORT, or HOST:PORT@PROXY:PORT: that pmcd through a pmproxy (PCP's host@proxy spelling; pmproxy
    // listens on 44322).
    static Result<std::unique_ptr<PcpSource>> openHost(const QString &hostSpec);
    static Result<std::unique_ptr<PcpSource>> openArchive(const QString &path, const PcpArchiveWindow &window);
    ~PcpSource() override;
    PcpSource(const PcpSource &) = delete;
    PcpSource &operator=(const PcpSource &) = delete;

    QString description() const override;
    QStringList limits() const override;
    Result<CounterFrame> fetch() override;
    bool atEnd() const override { return m_atEnd; }
    SourceHost host() const override { return m_host; }

    // The collection host's name (the archive label's, or pmcd's).
    QString hostName() const { return m_hostName; }
    bool isArchive() const { return m_archive; }
    // The archive's span after --start/--finish, ns since the epoch (0 for a host).
    qint64 windowStartNs() const { return m_startNs; }
    qint64 windowFinishNs() const { return m_finishNs; }
    int interpolateMs() const { return m_interpolateMs; }

private:
    struct Metric;
    PcpSource();
    Status lookUpMetrics();
    void readHost(); // kernel.uname.*, hinv.ncpu: before the archive's read position is set

    int m_context = -1;
    bool m_archive = false;
    bool m_atEnd = false;
    QString m_target;
    QString m_hostName;
    SourceHost m_host;
    qint64 m_startNs = 0;
    qint64 m_finishNs = 0;
    int m_interpolateMs = 0;
    std::vector<Metric> m_metrics;
    std::array<bool, DiskFieldCount> m_hasField {};
    bool m_hasDmNames = false;
    bool m_hasScsiPaths = false;
};

// "sdb sdc" (disk.wwid.scsi_paths' value) -> {"sdb", "sdc"}: the kernel names, nothing else.
QStringList parsePcpScsiPaths(const QString &value);

} // namespace dmtune
