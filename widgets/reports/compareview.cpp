#include "widgets/reports/compareview.h"

#include "core/recordings/recordingreplay.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/latencydistribution.h"
#include "widgets/messagebanner.h"
#include "widgets/reports/recordingcharts.h"
#include "widgets/reports/reportdialog.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace dmtune {

namespace {

QTableWidgetItem *cell(const QString &text, bool number = false)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
{
    setWindowTitle(tr("Compare recordings"));
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *exportButton = new QPushButton(tr("Export report…"), this);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        exportReportWithDialog(this, m_recordings, [this](const QString &path, const QString &error) {
            // Said in this window, where the user asked (the main window may be behind it).
            m_exportMessage->showMessage(error.isEmpty() ? MessageTone::Positive : MessageTone::Error,
                error.isEmpty() ? tr("Report written to %1").arg(path) : error);
            Q_EMIT reportExported(path, error);
        });
    });
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(exportButton, 0, Qt::AlignTop);

    m_tabs = new QTabWidget(this);
    auto *chartsPage = new QWidget;
    auto *grid = new QGridLayout(chartsPage);
    for (ChartPanelKind kind : ChartPanelSpec::kinds()) {
        auto *panel = new ChartPanel(kind, chartsPage);
        panel->setMinimumHeight(ChartPanel::MinimumHeight + 40);
        grid->addWidget(panel, int(m_panels.size()) / 2, int(m_panels.size()) % 2);
        m_panels.append(panel);
    }
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(chartsPage);
    m_tabs->addTab(scroll, tr("Charts"));

    m_stats = new QTableWidget(this);
    m_stats->verticalHeader()->hide();
    m_stats->setAlternatingRowColors(true);
    m_tabs->addTab(m_stats, tr("Statistics"));
    m_diff = new QTableWidget(this);
    m_diff->verticalHeader()->hide();
    m_diff->setWordWrap(true);
    m_tabs->addTab(m_diff, tr("Configuration diff"));

    // Latency: the table on the left (as wide as its columns), the distributions one above the other on the
    // right; a tab only while a recording has latency.
    m_latency = new QTableWidget(this);
    m_latency->verticalHeader()->hide();
    m_latency->setAlternatingRowColors(true);
    m_latencyChartBox = new QWidget;
    new QVBoxLayout(m_latencyChartBox);
    auto *chartScroll = new QScrollArea;
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    chartScroll->setWidget(m_latencyChartBox);
    auto *splitter = new QSplitter(Qt::Horizontal, this); // a tab's page from the first recording with latency
    splitter->addWidget(m_latency);
    splitter->addWidget(chartScroll);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    m_latencyPage = splitter;
    m_latencyPage->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    m_exportMessage = new MessageBanner(this);
    m_exportMessage->setObjectName(QStringLiteral("exportMessage"));
    m_exportMessage->setCloseButtonVisible(true);
    m_exportMessage->hide();
    layout->addWidget(m_exportMessage);
    layout->addWidget(m_tabs, 1);
}

void CompareView::setRecordings(const QList<Recording> &recordings)
{
    m_recordings = recordings;
    QList<QHash<QString, QList<TimedMetrics>>> histories;
    for (const Recording &r : recordings)
        histories.append(replayHistories(r));
    m_comparison = compareRecordings(recordings, histories);
    const AlignedCharts aligned = alignRecordings(recordings, histories);
    for (ChartPanel *panel : m_panels) {
        showAligned(*panel, aligned);
        panel->replotQueued();
    }
    // Two recordings of one template are told apart by their start times (distinctRecordingNames).
    const QStringList names = distinctRecordingNames(recordings);
    setWindowTitle(tr("Compare: %1").arg(names.join(tr(" vs "))));
    QStringList lines;
    for (qsizetype i = 0; i < recordings.size(); ++i) {
        const Recording &r = recordings[i];
        lines.append(tr("<b>#%1</b> %2 — %3, kernel %4, %5 UTC, devices %6")
                         .arg(i + 1)
                         .arg(names[i].toHtmlEscaped(), r.meta.host.toHtmlEscaped(), r.meta.kernel.toHtmlEscaped(),
                             QDateTime::fromMSecsSinceEpoch(qint64(r.startSeconds() * 1000), Qt::UTC)
                                 .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")),
                             r.deviceNames().join(QStringLiteral(", ")).toHtmlEscaped()));
    }
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    fillStats();
    fillDiff(configurationDiff(recordings));
    fillLatency();
}

void CompareView::fillStats()
{
    const Comparison &c = m_comparison;
    // p50 and p95 are the notation of percentiles, as the report writes them: only the words are translated.
    const QStringList statNames { tr("mean"), QStringLiteral("p50"), QStringLiteral("p95"), tr("max") };
    QStringList headers { tr("device"), tr("metric") };
    for (qsizetype r = 0; r < c.recordings.size(); ++r) {
        for (const QString &s : statNames)
            headers.append(QStringLiteral("#%1 %2").arg(r + 1).arg(s));
        if (r > 0) {
            headers.append(tr("Δ mean"));
            headers.append(QStringLiteral("Δ p95"));
        }
    }
    m_stats->clear();
    m_stats->setColumnCount(int(headers.size()));
    m_stats->setHorizontalHeaderLabels(headers);
    m_stats->setRowCount(int(c.rows.size()));
    for (int row = 0; row < c.rows.size(); ++row) {
        const ComparisonRow &cr = c.rows[row];
        int col = 0;
        m_stats->setItem(row, col++, cell(cr.slot));
        auto *metric
            = cell(QStringLiteral("%1 (%2)").arg(MetricCatalog::column(cr.metric), MetricCatalog::unit(cr.metric)));
        metric->setToolTip(MetricCatalog::tooltip(cr.metric));
        m_stats->setItem(row, col++, metric);
        const std::optional<MetricStats> &ref = cr.stats.value(0);
        for (qsizetype r = 0; r < cr.stats.size(); ++r) {
            const std::optional<MetricStats> &s = cr.stats[r];
            for (double v : { s ? s->mean : 0, s ? s->p50 : 0, s ? s->p95 : 0, s ? s->max : 0 })
                m_stats->setItem(row, col++, cell(s ? statText(v) : QStringLiteral("—"), true));
            if (r > 0) {
                m_stats->setItem(
                    row, col++, cell(s && ref ? deltaText(s->mean, ref->mean) : QStringLiteral("—"), true));
                m_stats->setItem(row, col++, cell(s && ref ? deltaText(s->p95, ref->p95) : QStringLiteral("—"), true));
            }
        }
    }
    m_stats->resizeColumnsToContents();
}

void CompareView::fillDiff(const ConfigDiff &diff)
{
    QStringList headers { tr("setting") };
    for (qsizetype i = 0; i < diff.recordings.size(); ++i)
        headers.append(QStringLiteral("#%1 %2").arg(i + 1).arg(diff.recordings[i]));
    m_diff->clear();
    m_diff->setColumnCount(int(headers.size()));
    m_diff->setHorizontalHeaderLabels(headers);
    m_diff->setRowCount(int(diff.rows.size()));
    for (int row = 0; row < diff.rows.size(); ++row) {
        m_diff->setItem(row, 0, cell(diff.rows[row].key));
        for (int i = 0; i < diff.rows[row].values.size(); ++i) {
            const QString &v = diff.rows[row].values[i];
            m_diff->setItem(row, i + 1, cell(v.isNull() ? QStringLiteral("—") : v));
        }
    }
    m_diff->resizeColumnsToContents();
    m_diff->setToolTip(tr("%1 of %2 settings differ").arg(diff.rows.size()).arg(diff.comparedKeys));
}

void CompareView::fillLatency()
{
    m_latencyRows = compareLatency(m_recordings);
    const int index = m_tabs->indexOf(m_latencyPage);
    if (m_latencyRows.isEmpty()) {
        if (index >= 0)
            m_tabs->removeTab(index);
        m_latencyPage->hide();
    } else if (index < 0) {
        m_tabs->addTab(m_latencyPage, tr("Latency"));
    }

    // A row per slot and statistic: each recording's value, then per later recording its change against #1.
    const qsizetype count = m_recordings.size();
    QStringList headers { tr("device"), tr("statistic") };
    for (qsizetype r = 0; r < count; ++r)
        headers.append(QStringLiteral("#%1").arg(r + 1));
    for (qsizetype r = 1; r < count; ++r) {
        headers.append(tr("Δ #%1").arg(r + 1));
        headers.append(tr("Δ #%1 (%)").arg(r + 1));
    }
    const QStringList statistics = latencyStatisticNames();
    m_latency->clear();
    m_latency->setColumnCount(int(headers.size()));
    m_latency->setHorizontalHeaderLabels(headers);
    m_latency->setRowCount(int(m_latencyRows.size() * statistics.size()));
    int row = 0;
    for (const LatencyComparisonRow &slot : std::as_const(m_latencyRows)) {
        QList<QList<LatencyStatistic>> values;
        for (const std::optional<DeviceLatency> &l : slot.latency)
            values.append(l ? latencyStatistics(l->device) : QList<LatencyStatistic> {});
        for (qsizetype s = 0; s < statistics.size(); ++s, ++row) {
            int col = 0;
            m_latency->setItem(row, col++, cell(s == 0 ? slot.slot : QString()));
            m_latency->setItem(row, col++, cell(statistics[s]));
            const auto value
                = [&](qsizetype r) { return values.value(r).isEmpty() ? std::nan("") : values[r][s].value; };
            for (qsizetype r = 0; r < count; ++r)
                m_latency->setItem(row, col++, cell(latencyValueText(value(r)), true));
            for (qsizetype r = 1; r < count; ++r) {
                m_latency->setItem(row, col++, cell(latencyDeltaText(value(r), value(0)), true));
                m_latency->setItem(row, col++, cell(latencyDeltaPercentText(value(r), value(0)), true));
            }
        }
    }
    m_latency->resizeColumnsToContents();

    // A chart per slot, two per row.
    qDeleteAll(m_latencyCharts);
    m_latencyCharts.clear();
    auto *column = static_cast<QVBoxLayout *>(m_latencyChartBox->layout());
    const QStringList names = distinctRecordingNames(m_recordings);
    for (const LatencyComparisonRow &slot : std::as_const(m_latencyRows)) {
        auto *chart = new LatencyDistributionChart(m_latencyChartBox);
        chart->setTitle(slot.slot);
        QList<LatencyDistributionChart::Series> series;
        for (qsizetype r = 0; r < slot.latency.size(); ++r) {
            if (slot.latency[r])
                series.append({ QStringLiteral("#%1 %2").arg(r + 1).arg(names[r]), slot.latency[r]->device });
        }
        chart->setSeries(series);
        chart->setMinimumHeight(280);
        column->addWidget(chart);
        m_latencyCharts.append(chart);
    }
    // The table whole in width: the splitter's first part as wide as its columns.
    if (auto *splitter = qobject_cast<QSplitter *>(m_latencyPage)) {
        int width = 2 * m_latency->frameWidth() + m_latency->verticalScrollBar()->sizeHint().width();
        for (int c = 0; c < m_latency->columnCount(); ++c)
            width += m_latency->columnWidth(c);
        m_latency->setMinimumWidth(std::min(width, 640));
        splitter->setSizes({ width, std::max(400, splitter->width() - width) });
    }
}

} // namespace dmtune
