#pragma once
// Two or more recordings side by side: every chart with all recordings' devices overlaid and aligned at the
// workload start, the statistics table (mean / p50 / p95 / max per device and metric, deltas in % against the
// first recording) and the configuration diff. "Export report…" writes the same as `dmtunectl report`.
#include "core/recordings/comparison.h"
#include "core/recordings/configdiff.h"
#include "core/recordings/recordedlatency.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QTabWidget;

namespace dmtune {

class ChartPanel;
class LatencyDistributionChart;
class MessageBanner;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget *parent = nullptr);

    void setRecordings(const QList<Recording> &recordings);
    const QList<Recording> &recordings() const { return m_recordings; }
    const Comparison &comparison() const { return m_comparison; }

    QTabWidget *tabs() const { return m_tabs; }
    const QList<ChartPanel *> &panels() const { return m_panels; }
    QTableWidget *statsTable() const { return m_stats; }
    QTableWidget *diffTable() const { return m_diff; }
    // The Latency tab's (a tab only while a recording has latency): compareLatency()'s rows, their table and charts.
    const QList<LatencyComparisonRow> &latencyRows() const { return m_latencyRows; }
    QTableWidget *latencyTable() const { return m_latency; }
    const QList<LatencyDistributionChart *> &latencyCharts() const { return m_latencyCharts; }

Q_SIGNALS:
    void reportExported(const QString &path, const QString &error);

private:
    void fillStats();
    void fillDiff(const ConfigDiff &diff);
    void fillLatency();

    QList<Recording> m_recordings;
    Comparison m_comparison;
    QLabel *m_summary = nullptr;
    MessageBanner *m_exportMessage = nullptr; // what became of the last export
    QTabWidget *m_tabs = nullptr;
    QList<ChartPanel *> m_panels;
    QTableWidget *m_stats = nullptr;
    QTableWidget *m_diff = nullptr;
    QList<LatencyComparisonRow> m_latencyRows;
    QWidget *m_latencyPage = nullptr;
    QTableWidget *m_latency = nullptr;
    QWidget *m_latencyChartBox = nullptr;
    QList<LatencyDistributionChart *> m_latencyCharts;
};

} // namespace dmtune
