// The Statistics tab of the main window: the host's sample source (this machine's Sampler, or a remote host's
// agent's stream), history and charts of the selected device.
#include "mainwindow.h"

#include "core/discovery/discovery.h"
#include "core/params/externalchanges.h"
#include "core/params/tuningsession.h"
#include "core/stats/samplesource.h"
#include "core/stats/seriesstore.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/params/parametereditor.h"
#include "widgets/params/tunabletablemodel.h"
#include "widgets/workloads/workloadpanel.h"

#include <QDateTime>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace dmtune {

void MainWindow::setupStatistics()
{
    // Interval and history kept are the user's choices, remembered between runs.
    QSettings settings;
    m_samples->setInterval(
        settings.value(QStringLiteral("statistics/intervalMs"), SampleSource::DefaultIntervalMs).toInt());
    m_store = new SeriesStore; // deleted by ~MainWindow, after the view that reads it
    connect(
        m_samples, &SampleSource::samplesAvailable, this, [this](const SampleBatch &batch) { m_store->append(batch); });
    connect(m_samples, &SampleSource::deviceVanished, this, [this](const QString &name) { m_store->endSeries(name); });
    connect(m_samples, &SampleSource::samplingFailed, this,
        [this](const QString &message) { statusBar()->showMessage(message, 10000); });
    m_stats = new LiveStatsView(m_samples, m_store);
    m_stats->setTitlePrefix(hostName());
    m_stats->setWindowSeconds(60); // a tuning session is about the last minute; up to 1 h in the combo
    const int keep = settings.value(QStringLiteral("statistics/retentionSeconds"), 3600).toInt();
    m_store->setRetention(qint64(std::max(keep, 60)) * 1000);
    m_stats->setRetentionSeconds(int(m_store->retention() / 1000));
    connect(m_stats, &LiveStatsView::intervalChosen, this,
        [](int ms) { QSettings().setValue(QStringLiteral("statistics/intervalMs"), ms); });
    connect(m_stats, &LiveStatsView::retentionChosen, this, [this](int seconds) {
        m_store->setRetention(qint64(seconds) * 1000);
        QSettings().setValue(QStringLiteral("statistics/retentionSeconds"), seconds);
    });
    // What Statistics > Export wrote (or why not), also in the status bar, as File > Export report says it.
    connect(m_stats, &LiveStatsView::exported, this,
        [this](const QString &, const QStringList &, const QString &text) { statusBar()->showMessage(text); });
    connect(
        m_stats, &LiveStatsView::exportFailed, this, [this](const QString &text) { statusBar()->showMessage(text); });
    m_tabs->addTab(m_stats, tr("&Statistics"));
    m_tabs->setTabToolTip(
        m_tabs->indexOf(m_stats), tr("iostat -x metrics of the selected device (a map with each of its paths), live"));
    connect(m_stats, &LiveStatsView::noteActionTriggered, this, &MainWindow::offerHeadStatistics);
    connect(this, &MainWindow::parameterChanged, m_stats, [this](double epochSeconds, const QString &label) {
        m_stats->addMarker(epochSeconds, label, MarkerKind::ParameterChange);
    });
    // What others change on the charted devices becomes a marker too: the live tree's values read
    // again every 2 s, told apart by the host's change log. A captured tree (a remote host's window) does not change.
    if (m_sysfs.isLive()) {
        m_externalChanges = new ExternalChangeWatcher(m_sysfs, this);
        connect(m_externalChanges, &ExternalChangeWatcher::changed, m_stats,
            [this](double epochSeconds, const QString &label) {
                m_stats->addMarker(epochSeconds, label, MarkerKind::ParameterChange);
            });
    }
}

void MainWindow::chartSelectedDevice()
{
    if (!m_samples || m_selectedDevice.isEmpty())
        return;
    // While fio runs, the sampler records its target: the charts stay on it until the run ends.
    if (m_workloadPanel && m_workloadPanel->isRunning() && !m_stats->devices().isEmpty()
        && !m_stats->devices().contains(m_selectedDevice)) {
        statusBar()->showMessage(tr("Statistics stay on the workload's devices until it ends"), 5000);
        return;
    }
    const DeviceSnapshot &snapshot = m_discovery->snapshot();
    QStringList devices { m_selectedDevice };
    QHash<QString, QString> labels;
    // A path charts with its map, so the map and every path are side by side (merges show on the
    // map only under request-based multipath).
    const MultipathMap *map = snapshot.map(m_selectedDevice);
    if (!map)
        map = snapshot.mapOfPath(m_selectedDevice);
    if (map) {
        devices = QStringList { map->device } + map->slaves;
        labels.insert(map->device, QStringLiteral("%1 (%2)").arg(map->name, map->device));
    }
    // A native NVMe head the same way, beside its hidden paths; never one total of both (they count the same I/O
    // where the head counts at all).
    const NvmeMultipathHead *head = snapshot.nvmeHead(m_selectedDevice);
    if (!head)
        head = snapshot.nvmeHeadOfPath(m_selectedDevice);
    showHeadStatisticsNote(head);
    if (head) {
        devices = { head->name };
        const bool counts = nvmeHeadStatisticsNote(*head, snapshot.kernelRelease).isEmpty();
        labels.insert(
            head->name, counts ? tr("%1 (head)").arg(head->name) : tr("%1 (head: counts nothing)").arg(head->name));
        for (const NvmePath &p : head->paths) {
            devices << p.name;
            const QString state = p.state == QLatin1String("live") ? p.anaState : p.state;
            labels.insert(p.name,
                state.isEmpty() ? QStringLiteral("%1 (%2)").arg(p.name, p.controller)
                                : QStringLiteral("%1 (%2, %3)").arg(p.name, p.controller, state));
        }
    }
    if (devices == m_stats->devices()) {
        m_stats->setDeviceLabels(labels); // an ANA state or iostats changed
        return;
    }
    m_samples->setWatched(devices);
    m_stats->setDeviceLabels(labels);
    m_stats->setDevices(devices);
    if (m_externalChanges)
        m_externalChanges->setDevices(devices);
    showLatencyOf(devices, labels);
    if (!m_samples->isRunning())
        m_samples->start(); // a remote host's streams whenever the host is connected
}

void MainWindow::showHeadStatisticsNote(const NvmeMultipathHead *head)
{
    const QString kernel = m_discovery->snapshot().kernelRelease;
    const QString note = head ? nvmeHeadStatisticsNote(*head, kernel) : QString();
    QStringList lines;
    if (!note.isEmpty())
        lines << note;
    // The depth queue-depth compares is each path's I/Os in flight: the Queue depth chart has it per path.
    if (head && head->subsystem.iopolicy == QLatin1String("queue-depth"))
        lines << tr("iopolicy queue-depth: each I/O goes to the path with the fewest I/Os in flight; the Queue depth "
                    "chart shows each path's in-flight count and aqu-sz.");
    // The offer leads to the Tune tab with the edit pending: planned, previewed and applied there like any change.
    const bool canTurnOn
        = head && !note.isEmpty() && nvmeHeadStatisticsCanBeTurnedOn(kernel) && !m_session->isReadOnly();
    m_stats->setNote(lines.join(QLatin1Char('\n')), canTurnOn ? tr("Turn on the head's statistics…") : QString());
    m_noteHead = canTurnOn ? head->name : QString();
}

void MainWindow::offerHeadStatistics()
{
    if (m_noteHead.isEmpty() || !selectDevice(m_noteHead))
        return;
    showTab(QStringLiteral("tune"));
    const QString head = m_noteHead;
    auto edit = [this, head] {
        if (m_editor->shownDevice() != head
            || !m_editor->model()->setPending(QStringLiteral("queue/iostats"), QStringLiteral("1")))
            return;
        m_editor->setScope(ChangeScope::Device);
        m_editor->updatePreview();
        statusBar()->showMessage(
            tr("%1: iostats 0 -> 1 is pending: Apply makes the kernel count the head's I/O").arg(head), 10000);
    };
    // The editor reads the head's tunables on a job: the edit waits for them.
    if (m_editor->isReading() || m_editor->shownDevice() != head)
        connect(m_editor, &ParameterEditor::tunablesRead, this, edit, Qt::SingleShotConnection);
    else
        edit();
}

} // namespace dmtune
