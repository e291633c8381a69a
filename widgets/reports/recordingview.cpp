#include "reports/recordingview.h"

#include "charts/chartpanel.h"
#include "charts/livestatsview.h"
#include "recordings/recordingreplay.h"
#include "reports/reportdialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
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
        exportReportWithDialog(this, { m_recording },
            [this](const QString &path, const QString &error) { Q_EMIT reportExported(path, error); });
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
    m_view->setReplay(true);
    const double margin = std::max(1.0, span * 0.02);
    for (ChartPanel *panel : m_view->panels()) {
        panel->showRange(m_recording.startSeconds() - margin, m_recording.endSeconds() + margin);
        panel->replotQueued();
    }

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
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

} // namespace dmtune
