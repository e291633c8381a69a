#include "widgets/reports/recordingview.h"

#include "core/recordings/recordingreplay.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/messagebanner.h"
#include "widgets/reports/recordingcharts.h"
#include "widgets/reports/reportdialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace dmtune {

RecordingView::RecordingView(Recording recording, QWidget *parent)
    : QWidget(parent)
    , m_recording(std::move(recording))
    , m_store(std::make_unique<SeriesStore>())
{
    setWindowTitle(tr("Recording: %1").arg(m_recording.displayName()));
    const QList<SampleBatch> batches = replayBatches(m_recording);
    const double span = m_recording.endSeconds() - m_recording.startSeconds();
    m_store->setRetention(qint64((span + 3600) * 1000));
    for (const SampleBatch &b : batches)
        m_store->append(b);

    m_summary = new QLabel(summaryText(), this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *exportButton = new QPushButton(tr("Export report…"), this);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        exportReportWithDialog(this, { m_recording }, [this](const QString &path, const QString &error) {
            // Said in this window, where the user asked (the main window may be behind it).
            m_exportMessage->showMessage(error.isEmpty() ? MessageTone::Positive : MessageTone::Error,
                error.isEmpty() ? tr("Report written to %1").arg(path) : error);
            Q_EMIT reportExported(path, error);
        });
    });
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(exportButton, 0, Qt::AlignTop);

    m_view = new LiveStatsView(nullptr, m_store.get(), this);
    m_view->setDevices(m_recording.deviceNames());
    for (const RecordedEvent &m : m_recording.markers) {
        const MarkerKind kind = m.text == RecordingWriter::fioStartLabel() ? MarkerKind::WorkloadStart
            : m.text == RecordingWriter::fioEndLabel()                     ? MarkerKind::WorkloadStop
                                                                           : MarkerKind::ParameterChange;
        m_view->addMarker(m.time, m.text, kind);
    }
    for (const RecordedEvent &n : m_recording.notes)
        m_view->addMarker(n.time, n.text, MarkerKind::Note);
    // The newest batch fills the iostat table (the charts already have its points from the store); then the
    // view stands still over the whole recording.
    if (!batches.isEmpty())
        m_view->onBatch(batches.last());
    m_view->setReplay(true); // its range: showTimeWindow(), the whole recording at first

    auto *statistics = new QWidget(this);
    auto *statisticsLayout = new QVBoxLayout(statistics);
    statisticsLayout->setContentsMargins(0, 0, 0, 0);
    statisticsLayout->addLayout(makeTimeSlider());
    statisticsLayout->addWidget(m_view, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    m_exportMessage = new MessageBanner(this);
    m_exportMessage->setObjectName(QStringLiteral("exportMessage"));
    m_exportMessage->setCloseButtonVisible(true);
    m_exportMessage->hide();
    layout->addWidget(m_exportMessage);
    if (latencyDevices(m_recording).isEmpty()) {
        layout->addWidget(statistics, 1);
        return;
    }
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(statistics, tr("Statistics"));
    m_tabs->addTab(makeLatencyPage(), tr("Latency"));
    layout->addWidget(m_tabs, 1);
}

QWidget *RecordingView::makeLatencyPage()
{
    const QStringList devices = latencyDevices(m_recording);
    const QHash<QString, DeviceLatency> sums = workloadLatency(m_recording);
    auto *page = new QWidget;
    auto *intro = new QLabel(tr("Device time (issue to complete) of every I/O the block-layer probe saw. The table: "
                                "over the workload (from \"fio start\" to \"fio end\", else the whole recording). "
                                "The heat maps: colour is the share of each interval's I/O in a latency bucket, the "
                                "lines its percentiles."),
        page);
    intro->setWordWrap(true);

    const QStringList names = latencyStatisticNames();
    m_latencyTable = new QTableWidget(int(devices.size()), int(names.size()) + 1, page);
    m_latencyTable->setHorizontalHeaderLabels(QStringList { tr("device") } + names);
    m_latencyTable->verticalHeader()->hide();
    m_latencyTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int row = 0; row < devices.size(); ++row) {
        m_latencyTable->setItem(row, 0, new QTableWidgetItem(devices[row]));
        const QList<LatencyStatistic> stats = latencyStatistics(sums.value(devices[row]).device);
        for (int col = 0; col < stats.size(); ++col) {
            auto *item = new QTableWidgetItem(latencyValueText(stats[col].value));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_latencyTable->setItem(row, col + 1, item);
        }
    }
    m_latencyTable->resizeColumnsToContents();
    // As tall as its rows (up to six of them; more scroll).
    const int rows = std::min(6, int(devices.size()));
    m_latencyTable->setFixedHeight(m_latencyTable->horizontalHeader()->height() + 2 * m_latencyTable->frameWidth()
        + rows * m_latencyTable->verticalHeader()->defaultSectionSize());

    // The first device (a map) across, the rest two per row: as the Latency tab lays them out.
    auto *charts = new QWidget;
    auto *grid = new QGridLayout(charts);
    grid->setContentsMargins(0, 0, 0, 0);
    for (qsizetype i = 0; i < devices.size(); ++i) {
        auto *map = new LatencyHeatMap(charts);
        showRecordedLatency(*map, m_recording, devices[i]);
        if (i == 0)
            grid->addWidget(map, 0, 0, 1, 2);
        else
            grid->addWidget(map, 1 + int(i - 1) / 2, int(i - 1) % 2);
        m_heatMaps.append(map);
    }
    auto *scroll = new QScrollArea(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(charts);

    auto *layout = new QVBoxLayout(page);
    layout->addWidget(intro);
    layout->addWidget(m_latencyTable);
    layout->addWidget(scroll, 1);
    return page;
}

LatencyHeatMap *RecordingView::latencyHeatMap(const QString &device) const
{
    for (LatencyHeatMap *map : m_heatMaps) {
        if (map->title() == device)
            return map;
    }
    return nullptr;
}

RecordingView::~RecordingView()
{
    delete m_view; // reads the store
    m_view = nullptr;
}

QString RecordingView::summaryText() const
{
    const Recording &r = m_recording;
    QString text = tr("<b>%1</b> — %2, kernel %3, %4 UTC, %5 s at %6 s; %7 device-samples")
                       .arg(r.displayName().toHtmlEscaped(), r.meta.host.toHtmlEscaped(), r.meta.kernel.toHtmlEscaped(),
                           QDateTime::fromMSecsSinceEpoch(qint64(r.startSeconds() * 1000), Qt::UTC)
                               .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")))
                       .arg(QString::number(r.endSeconds() - r.startSeconds(), 'f', 1))
                       .arg(r.meta.intervalSeconds)
                       .arg(r.deviceSamples);
    if (r.truncated)
        text += tr("<br><b>Truncated:</b> %1").arg(r.truncation.toHtmlEscaped());
    return text;
}

QLayout *RecordingView::makeTimeSlider()
{
    // A long recording (a day's PCP archive) is read a window at a time: the width, then where along the span.
    const double span = m_recording.endSeconds() - m_recording.startSeconds();
    m_timeWidth = new QComboBox(this);
    m_timeWidth->setObjectName(QStringLiteral("timeWidth"));
    m_timeWidth->addItem(tr("the whole recording"), 0);
    for (const int seconds : { 10, 60, 300, 900, 3600, 6 * 3600 }) {
        if (seconds < span)
            m_timeWidth->addItem(seconds < 60 ? tr("%1 s").arg(seconds)
                    : seconds < 3600          ? tr("%1 min").arg(seconds / 60)
                                              : tr("%1 h").arg(seconds / 3600),
                seconds);
    }
    m_timeSlider = new QSlider(Qt::Horizontal, this);
    m_timeSlider->setObjectName(QStringLiteral("timeSlider"));
    m_timeSlider->setToolTip(tr("Where the window shows the recording (the charts also pan and zoom)"));
    m_timeLabel = new QLabel(this);
    m_timeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(m_timeWidth, &QComboBox::currentIndexChanged, this, &RecordingView::showTimeWindow);
    connect(m_timeSlider, &QSlider::valueChanged, this, &RecordingView::showTimeWindow);
    auto *row = new QHBoxLayout;
    auto *label = new QLabel(tr("&Show:"), this);
    label->setBuddy(m_timeWidth);
    row->addWidget(label);
    row->addWidget(m_timeWidth);
    row->addWidget(m_timeSlider, 1);
    row->addWidget(m_timeLabel);
    showTimeWindow();
    return row;
}

void RecordingView::showTimeWindow()
{
    const double start = m_recording.startSeconds();
    const double span = m_recording.endSeconds() - start;
    const int width = m_timeWidth->currentData().toInt();
    double lower = start - std::max(1.0, span * 0.02);
    double upper = m_recording.endSeconds() + std::max(1.0, span * 0.02);
    m_timeSlider->setEnabled(width > 0);
    if (width > 0) {
        // One slider step a tenth of the window; the last position ends at the recording's end.
        const int steps = int(std::ceil((span - width) / (width / 10.0)));
        if (m_timeSlider->maximum() != steps) {
            const QSignalBlocker blocker(m_timeSlider);
            m_timeSlider->setRange(0, std::max(0, steps));
        }
        lower = std::min(start + m_timeSlider->value() * (width / 10.0), m_recording.endSeconds() - width);
        upper = lower + width;
    }
    for (ChartPanel *panel : m_view->panels()) {
        panel->showRange(lower, upper);
        panel->replotQueued();
    }
    const auto clock = [](double seconds) {
        return QDateTime::fromMSecsSinceEpoch(qint64(seconds * 1000)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    };
    m_timeLabel->setText(width > 0 ? tr("%1 to %2").arg(clock(lower), clock(upper))
                                   : tr("%1 to %2").arg(clock(start), clock(m_recording.endSeconds())));
}

} // namespace dmtune
