#pragma once
// Two or more recordings side by side: every chart with all recordings' devices overlaid and aligned at the
// workload start, the statistics table (mean / p50 / p95 / max per device and metric, deltas in % against the
// first recording) and the configuration diff. "Export report…" writes the same as `dmtunectl report`.
#include "recordings/comparison.h"
#include "recordings/configdiff.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QTabWidget;

namespace dmtune {

class ChartPanel;

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

Q_SIGNALS:
    void reportExported(const QString &path, const QString &error);

private:
    void fillStats();
    void fillDiff(const ConfigDiff &diff);

    QList<Recording> m_recordings;
    Comparison m_comparison;
    QLabel *m_summary = nullptr;
    QTabWidget *m_tabs = nullptr;
    QList<ChartPanel *> m_panels;
    QTableWidget *m_stats = nullptr;
    QTableWidget *m_diff = nullptr;
};

} // namespace dmtune
