#include "widgets/diagnosis/explainpane.h"

#include "core/diagnosis/diagnosisreader.h"
#include "core/diagnosis/recordeddiagnosis.h"
#include "core/jobs/jobtracker.h"
#include "core/recordings/recordingreader.h"
#include "core/workloads/workloadsession.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace dmtune {

namespace {

QString number(double value, int decimals = 1)
{
    return std::isfinite(value) ? QLocale().toString(value, 'f', decimals) : QStringLiteral("–");
}

QString numberText(const FindingNumber &n)
{
    const QString value = number(n.value, n.value == std::floor(n.value) ? 0 : 2);
    return n.unit.isEmpty() ? QStringLiteral("%1 = %2").arg(n.name, value)
                            : QStringLiteral("%1 = %2 %3").arg(n.name, value, n.unit);
}

QString severityText(FindingSeverity severity)
{
    switch (severity) {
    case FindingSeverity::Problem:
        return ExplainPane::tr("Problem");
    case FindingSeverity::Warning:
        return ExplainPane::tr("Warning");
    case FindingSeverity::Info:
        break;
    }
    return ExplainPane::tr("Info");
}

} // namespace

ExplainPane::ExplainPane(const SysfsRoot &root, QWidget *parent)
    : QWidget(parent)
    , m_root(root)
    , m_jobs(new JobTracker(this))
{
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_live = new QPushButton(tr("&Live"));
    m_live->setToolTip(tr("Explain the selected map again, over the numbers sampled now"));
    m_live->setVisible(false);
    connect(m_live, &QPushButton::clicked, this, [this] {
        m_showingRecording = false;
        m_live->setVisible(false);
        explainNow();
    });
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText); // a recording's host, kernel and file name are untrusted text
    m_text = new QTextBrowser;
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        bool ok = false;
        const int index = url.path().toInt(&ok);
        if (url.scheme() == QLatin1String("experiment") && ok && index >= 0 && index < m_findings.size()
            && m_findings.at(index).experiment)
            Q_EMIT experimentProposed(*m_findings.at(index).experiment);
    });
    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_live);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_text, 1);
    // Nothing explained yet: the hint above and no empty box under it.
    layout->addStretch(0);
    m_text->hide();

    // Live numbers change every interval: explained again while the pane is in view.
    m_refresh = new QTimer(this);
    m_refresh->setInterval(int(WindowSeconds * 1000));
    connect(m_refresh, &QTimer::timeout, this, [this] {
        if (!m_showingRecording)
            explainNow();
    });
    m_status->setText(tr("Select a multipath map, one of its paths or an NVMe head to explain it."));
}

ExplainPane::~ExplainPane()
{
    m_jobs->waitForDone();
}

void ExplainPane::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    const QString map = resolveMap(m_device);
    if (map != m_map) {
        m_map = map;
        if (!m_showingRecording)
            explainNow();
    }
}

void ExplainPane::setDevice(const QString &name)
{
    m_device = name;
    const QString map = resolveMap(name);
    if (map == m_map && !m_findings.isEmpty())
        return;
    m_map = map;
    m_showingRecording = false;
    m_live->setVisible(false);
    explainNow();
}

QString ExplainPane::resolveMap(const QString &device) const
{
    if (device.isEmpty())
        return {};
    if (const MultipathMap *map = m_snapshot.map(device))
        return map->name;
    if (const MultipathMap *map = m_snapshot.mapOfPath(device))
        return map->name;
    if (const NvmeMultipathHead *head = m_snapshot.nvmeHead(device))
        return head->name;
    if (const NvmeMultipathHead *head = m_snapshot.nvmeHeadOfPath(device))
        return head->name;
    return {};
}

void ExplainPane::addBatch(const SampleBatch &batch)
{
    m_batches.append(batch);
    double seconds = 0;
    for (const SampleBatch &b : std::as_const(m_batches))
        seconds += b.elapsedSeconds;
    while (m_batches.size() > 1 && seconds - m_batches.first().elapsedSeconds >= WindowSeconds) {
        seconds -= m_batches.first().elapsedSeconds;
        m_batches.removeFirst();
    }
    // The first numbers are worth showing at once, not at the next refresh.
    if (m_shownWithoutNumbers && !m_showingRecording && !m_busy && isVisible())
        explainNow();
}

QHash<QString, IostatMetrics> ExplainPane::windowMetrics(double *seconds) const
{
    // Counters added up over the window, then iostat's arithmetic once: as `dmtunectl diagnose -i 5` measures.
    DeviceRunTotals totals;
    for (const SampleBatch &b : m_batches)
        totals.add(b);
    QHash<QString, IostatMetrics> metrics;
    for (const QString &device : totals.devices())
        metrics.insert(device, totals.metrics(device));
    *seconds = metrics.isEmpty() ? 0 : totals.seconds();
    return metrics;
}

void ExplainPane::explainNow()
{
    if (m_map.isEmpty()) {
        m_jobs->cancelAll();
        m_findings.clear();
        m_title->clear();
        m_text->clear();
        m_text->hide();
        m_status->setText(tr("Select a multipath map, one of its paths or an NVMe head to explain it."));
        return;
    }
    // Hidden, nothing is read: the next showEvent explains what is selected then.
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    double seconds = 0;
    const QHash<QString, IostatMetrics> metrics = windowMetrics(&seconds);
    const SysfsRoot root = m_root;
    const DeviceSnapshot snapshot = m_snapshot;
    const QString map = m_map;
    m_busy = true;
    m_jobs->startLatest(
        QStringLiteral("explain"), QStringLiteral("explain %1").arg(map),
        [root, snapshot, map, metrics, seconds](JobContext &) {
            Shown shown;
            shown.input = readDiagnosisInput(root, snapshot, { map });
            attachMetrics(&shown.input, metrics, seconds);
            shown.findings = diagnose(shown.input);
            shown.source = seconds > 0 ? tr("over the last %1 s").arg(number(seconds))
                                       : tr("configuration only: no numbers sampled yet");
            return shown;
        },
        [this](const Shown &shown) { present(shown); });
}

void ExplainPane::explainRecording(const QString &file)
{
    m_showingRecording = true;
    m_live->setVisible(true);
    m_busy = true;
    m_status->setText(tr("Reading %1…").arg(file));
    m_jobs->startLatest(
        QStringLiteral("explain"), QStringLiteral("explain %1").arg(file),
        [file](JobContext &) {
            Shown shown;
            const Result<Recording> recording = readRecording(file);
            if (!recording) {
                shown.error = recording.errorMessage();
                return shown;
            }
            const Result<RecordedDiagnosisInput> recorded = recordedDiagnosisInput(*recording, {});
            if (!recorded) {
                shown.error = recorded.errorMessage();
                return shown;
            }
            shown.input = recorded->input;
            shown.findings = diagnose(shown.input);
            const auto time = [](double epoch) {
                return QDateTime::fromMSecsSinceEpoch(qint64(epoch * 1000))
                    .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
            };
            shown.source = tr("recorded in %1 (host %2, kernel %3), %4, %5 to %6")
                               .arg(QFileInfo(file).fileName(), recording->meta.host, recording->meta.kernel,
                                   recorded->window, time(recorded->from), time(recorded->to));
            return shown;
        },
        [this](const Shown &shown) { present(shown); });
}

void ExplainPane::present(const Shown &shown)
{
    m_busy = false;
    if (!shown.error.isEmpty()) {
        m_status->setText(shown.error);
        Q_EMIT explained();
        return;
    }
    m_findings = shown.findings;
    m_shownWithoutNumbers = !m_showingRecording && shown.input.seconds <= 0;
    QStringList names;
    for (const DiagnosedMap &map : shown.input.maps)
        names << map.name;
    for (const HeadWithoutStatistics &head : shown.input.nvmeHeads)
        names << head.head;
    m_title->setText(
        tr("<b>Explain %1</b>").arg((names.isEmpty() ? m_map : names.join(QLatin1String(", "))).toHtmlEscaped()));
    m_status->setText(shown.source);

    QString html;
    for (const DiagnosedMap &map : shown.input.maps) {
        html += QStringLiteral("<p><b>%1</b> (%2), %3")
                    .arg(map.name.toHtmlEscaped(), map.device.toHtmlEscaped(),
                        map.requestBased ? tr("request-based") : tr("bio-based"));
        if (map.metrics) {
            const IostatMetrics &m = *map.metrics;
            html += QStringLiteral(": ")
                + tr("%1 requests/s, %2 % merged, areq-sz %3 kB, await %4 ms")
                      .arg(number(iopsOf(m)), number(mergePercentOf(m)), number(requestSizeKbOf(m)),
                          number(awaitOf(m), 2));
        }
        html += QStringLiteral("</p>");
    }
    if (m_findings.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(tr("No findings: the rules see nothing to explain here."));
    for (int i = 0; i < m_findings.size(); ++i) {
        const Finding &f = m_findings.at(i);
        QStringList numbers;
        for (const FindingNumber &n : f.numbers)
            numbers << numberText(n).toHtmlEscaped();
        html += QStringLiteral("<hr><p><b>%1</b>: <tt>%2</tt></p><p>%3</p>")
                    .arg(severityText(f.severity), f.code.toHtmlEscaped(), f.message.toHtmlEscaped());
        if (!numbers.isEmpty())
            html += QStringLiteral("<p><small>%1</small></p>").arg(numbers.join(QLatin1String("<br>")));
        html += QStringLiteral("<p><small>%1 %2</small></p>").arg(tr("Source:"), f.source.toHtmlEscaped());
        if (f.experiment) {
            html += QStringLiteral("<p>%1 %2<br><tt>%3</tt><br><a href=\"experiment:%4\">%5</a></p>")
                        .arg(tr("Experiment:"), describeSweep(*f.experiment).toHtmlEscaped(),
                            sweepCommand(*f.experiment).toHtmlEscaped())
                        .arg(i)
                        .arg(tr("Set up this sweep in the Experiment tab"));
        }
    }
    const int scroll = m_text->verticalScrollBar() ? m_text->verticalScrollBar()->value() : 0;
    m_text->setHtml(html);
    m_text->show();
    m_text->verticalScrollBar()->setValue(scroll); // a refresh keeps the reader's place
    Q_EMIT explained();
}

QString ExplainPane::statusText() const
{
    return m_status->text();
}

QString ExplainPane::plainText() const
{
    return m_text->toPlainText();
}

void ExplainPane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_refresh->start();
    if (m_stale && !m_showingRecording)
        explainNow();
}

void ExplainPane::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_refresh->stop();
}

} // namespace dmtune
