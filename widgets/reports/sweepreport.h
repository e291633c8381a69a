#pragma once
// A sweep's report (docs/experiments.md): the sweep's section (what was swept, on what, the results per point
// with their spread, fio's and every device's, the charts of the main metrics against the swept value, what was
// restored), then the report of each point's first recording: the configuration of every point and how the
// points differ, their charts aligned at the workload start, their statistics. HTML or PDF, as writeReport().
#include "widgets/reports/report.h"

namespace dmtune {

// DIR's sweep.json and the first recording of each measured point (a sweep without recordings: its section
// only). Needs a QApplication (the charts are widgets). The error names the file.
Result<Report> buildSweepReport(const QString &dir, QSize chartSize = QSize(960, 360));

// The metrics a sweep's report charts: the device's merges and request size and fio's IOPS and p99 latency, in
// the direction the workloads moved most.
QList<const SweepMetric *> sweepReportMetrics(const QList<SweepPointResult> &results);

} // namespace dmtune
