#include "widgets/charts/latencyview.h"

#include "core/host/hostsession.h"
#include "core/jobs/jobtracker.h"
#include "core/latency/blocklatencyprobe.h"
#include "core/latency/dmstatslatency.h"
#include "core/latency/helperlatencystream.h"
#include "core/latency/latencysource.h"
#include "core/latency/timeabovepaths.h"
#include "core/ops/hostcontext.h"
#include "core/stats/samplebatch.h"
#include "widgets/charts/latencyheatmap.h"

#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace dmtune {

namespace {
struct Opened {
    std::shared_ptr<BlockLatencyProbe> probe;
    QString error;
};
} // namespace

LatencyView::LatencyView(QWidget *parent)
    : QWidget(parent)
    , m_jobs(new JobTracker(this))
    , m_status(new QLabel(this))
    , m_above(new QLabel(this))
    , m_helperButton(new QPushButton(tr("Read through pkexec…"), this))
    , m_dmStatsButton(new QPushButton(tr("Count with dm-stats…"), this))
    , m_grid(new QGridLayout)
{
    m_helperButton->setToolTip(tr("Not root: load the probe in dmtune-helper, started through pkexec (polkit asks "
                                  "for an administrator's password), and read it at every tick."));
    m_helperButton->hide();
    connect(m_helperButton, &QPushButton::clicked, this, &LatencyView::readThroughHelper);
    m_dmStatsButton->setToolTip(tr("A bio-based map (linear, striped) has no requests for the block-layer probe: "
                                   "count its I/O with a dm-stats region while it is shown. Shows the plan first."));
    m_dmStatsButton->hide();
    connect(m_dmStatsButton, &QPushButton::clicked, this, &LatencyView::planDmStats);
    connect(this, &LatencyView::dmStatsPlanned, this, &LatencyView::askDmStats);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_above->setTextFormat(Qt::PlainText);
    m_above->setWordWrap(true);
    m_above->setToolTip(tr("%1. share(path) = the path's completed I/O / all paths' completed I/O. Each clone "
                           "lives inside its map request: the difference is dm's own time, like esxtop's KAVG "
                           "beside DAVG.")
                            .arg(timeAbovePathsFormula()));
    auto *charts = new QWidget;
    charts->setLayout(m_grid);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(charts);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_helperButton, 0, Qt::AlignLeft);
    layout->addWidget(m_dmStatsButton, 0, Qt::AlignLeft);
    layout->addWidget(m_above);
    layout->addWidget(scroll, 1);
    m_status->setText(tr("Latency distributions appear here when the tab is shown (a BPF probe on the block "
                         "layer; it needs root)."));
    m_above->hide();
}

LatencyView::~LatencyView()
{
    m_jobs->cancelAll();
}

void LatencyView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    loadProbe();
}

void LatencyView::setHost(HostSession *host)
{
    setSysfsRoot(host->sysfs()); // a captured tree's maps are never given dm-stats regions
    if (auto makeSource = host->latencySourceMaker())
        setRemoteSource(std::move(makeSource), host->name());
}

void LatencyView::setRemoteSource(std::function<LatencySource *()> makeSource, const QString &host)
{
    m_makeRemoteSource = std::move(makeSource);
    m_remoteHost = host;
    m_status->setText(tr("Latency distributions of %1 appear here when the tab is shown (the block-layer probe of "
                         "its agent; root there).")
                          .arg(host));
}

void LatencyView::loadProbe()
{
    if (m_makeRemoteSource) { // the host's probe, never this machine's
        m_remoteWanted = true;
        if (!m_source && m_reason.isEmpty())
            startSource(m_makeRemoteSource(), tr("Loading the latency probe on %1…").arg(m_remoteHost));
        return;
    }
    if (m_probe || m_source || m_loading || !m_reason.isEmpty())
        return;
    m_loading = true;
    m_status->setText(tr("Loading the block-layer latency probe…"));
    // Loading verifies and attaches BPF programs: tens of milliseconds of system calls, never on this thread.
    m_jobs->start(
        QStringLiteral("latency probe"),
        [](JobContext &) {
            Opened opened;
            auto probe = BlockLatencyProbe::open();
            if (probe)
                opened.probe = std::shared_ptr<BlockLatencyProbe>(std::move(probe.value()));
            else
                opened.error = probe.errorMessage();
            return opened;
        },
        [this](const Opened &opened) {
            m_loading = false;
            m_probe = opened.probe;
            m_reason = opened.error;
            // Not root: the one privileged path can load it (BTF and lockdown are the helper's to report).
            m_helperButton->setVisible(!m_probe && !processIsRoot());
            watchShown();
            Q_EMIT probeReady(m_probe != nullptr);
        });
}

QString LatencyView::statusText() const
{
    return m_status->text();
}

LatencyHeatMap *LatencyView::heatMap(const QString &name) const
{
    return m_charts.value(name);
}

void LatencyView::setDevices(const QList<Device> &devices)
{
    m_devices = devices;
    m_before.clear();
    m_sawIo = false;
    stopDmStats(); // its regions were for the devices shown before
    rebuildCharts();
    watchShown();
    updateDmStatsButton();
}

QStringList LatencyView::dmStatsCandidates() const
{
    QStringList names;
    if (!m_root.isLive())
        return names;
    for (const Device &d : std::as_const(m_devices)) {
        if (isBioBasedDmDevice(m_root, d.name))
            names.append(d.name);
    }
    return names;
}

void LatencyView::updateDmStatsButton()
{
    m_dmStatsButton->setVisible(!m_dmStats && !m_dmStatsBusy && !dmStatsCandidates().isEmpty());
}

void LatencyView::planDmStats()
{
    const QStringList names = dmStatsCandidates();
    if (names.isEmpty() || m_dmStatsBusy)
        return;
    m_dmStatsBusy = true;
    updateDmStatsButton();
    // Listing the maps' regions is a device-mapper ioctl: on a job.
    m_jobs->start(
        QStringLiteral("dm-stats plan"),
        [root = m_root, names](JobContext &) { return planDmStatsLatency(root, names); },
        [this](const OperationPlan &plan) {
            m_dmStatsBusy = false;
            Q_EMIT dmStatsPlanned(plan);
        });
}

void LatencyView::askDmStats(const OperationPlan &plan)
{
    if (!plan.runnable()) {
        m_status->setText(tr("dm-stats: %1").arg(plan.refusals.value(0)));
        updateDmStatsButton();
        return;
    }
    // A window-modal question (no nested event loop): what will be created, deleted and left, and the cost.
    auto *box = new QMessageBox(
        QMessageBox::Question, tr("Count with dm-stats"), plan.summary, QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setInformativeText(QStringLiteral("• ") + (plan.steps + plan.notes).join(QStringLiteral("\n• ")));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, plan](int result) {
        if (result == QMessageBox::Yes)
            startDmStats(plan);
        else
            updateDmStatsButton();
    });
    box->open();
}

void LatencyView::startDmStats(const OperationPlan &plan)
{
    if (m_dmStats || m_dmStatsBusy)
        return;
    m_dmStatsBusy = true;
    updateDmStatsButton();
    struct Started {
        std::shared_ptr<DmStatsLatency> latency;
        QString error;
    };
    m_jobs->start(
        QStringLiteral("dm-stats start"),
        [root = m_root, plan](JobContext &) {
            auto started = DmStatsLatency::start(root, plan);
            return started ? Started { std::shared_ptr<DmStatsLatency>(std::move(started.value())), QString() }
                           : Started { nullptr, started.errorMessage() };
        },
        [this, plan](const Started &started) {
            m_dmStatsBusy = false;
            // The selection changed while it started: the regions are not for what is shown (they go, on a job).
            const bool stillShown = started.latency
                && plan.request.value(QStringLiteral("devices")).toVariant().toStringList() == dmStatsCandidates();
            if (started.latency && stillShown) {
                m_dmStats = started.latency;
                m_dmStatsDevices = m_dmStats->watched();
                for (const QString &name : std::as_const(m_dmStatsDevices))
                    m_before.remove(name);
                m_status->setText(tr("Counting %1 with dm-stats: %2.")
                                      .arg(m_dmStatsDevices.join(QStringLiteral(", ")),
                                          m_dmStats->created().join(QStringLiteral(", "))));
            } else {
                if (started.latency)
                    m_jobs->start(
                        QStringLiteral("dm-stats stop"),
                        [latency = started.latency](JobContext &) mutable {
                            latency.reset();
                            return true;
                        },
                        [](bool) {});
                if (!started.error.isEmpty())
                    m_status->setText(tr("dm-stats: %1").arg(started.error));
            }
            updateDmStatsButton();
            Q_EMIT dmStatsStarted(m_dmStats != nullptr);
        });
}

void LatencyView::stopDmStats()
{
    if (!m_dmStats)
        return;
    // Deleting the regions is a device-mapper ioctl too: on a job, which holds the last reference.
    m_jobs->start(
        QStringLiteral("dm-stats stop"),
        [latency = std::move(m_dmStats)](JobContext &) mutable {
            latency.reset();
            return true;
        },
        [](bool) {});
    m_dmStats.reset();
    m_dmStatsDevices.clear();
}

void LatencyView::readDmStats(qint64 wallMs)
{
    struct Read {
        QHash<QString, DeviceLatency> readings;
        QString error;
    };
    // One read per tick (two ioctls per map); a read still running when the next tick comes is superseded.
    m_jobs->startLatest(
        QStringLiteral("dm-stats read"), QStringLiteral("dm-stats read"),
        [latency = m_dmStats](JobContext &) {
            Read read;
            for (const QString &name : latency->watched()) {
                const auto r = latency->read(name);
                if (!r) {
                    read.error = r.errorMessage();
                    break;
                }
                read.readings.insert(name, r.value());
            }
            return read;
        },
        [this, wallMs](const Read &read) {
            if (!m_dmStats)
                return;
            if (!read.error.isEmpty()) {
                m_status->setText(tr("dm-stats stopped: %1").arg(read.error));
                stopDmStats();
                updateDmStatsButton();
                return;
            }
            chartReadings(wallMs, read.readings);
        });
}

void LatencyView::rebuildCharts()
{
    for (LatencyHeatMap *chart : std::as_const(m_charts))
        chart->deleteLater();
    m_charts.clear();
    // The map on the first row across, its paths two per row below it.
    for (qsizetype i = 0; i < m_devices.size(); ++i) {
        auto *chart = new LatencyHeatMap;
        chart->setTitle(m_devices[i].label.isEmpty() ? m_devices[i].name : m_devices[i].label);
        if (i == 0)
            m_grid->addWidget(chart, 0, 0, 1, 2);
        else
            m_grid->addWidget(chart, 1 + int(i - 1) / 2, int(i - 1) % 2);
        chart->setMarkers(m_markers);
        m_charts.insert(m_devices[i].name, chart);
    }
    m_above->hide();
}

void LatencyView::readThroughHelper()
{
    if (m_source || m_probe || m_makeRemoteSource)
        return;
    m_helperButton->hide();
    startSource(new HelperLatencyStream(m_helperCommand, this),
        tr("Starting dmtune-helper through pkexec (it may ask for a password)…"));
}

void LatencyView::startSource(LatencySource *source, const QString &startingText)
{
    source->setParent(this);
    m_source = source;
    connect(source, &LatencySource::readingAvailable, this, &LatencyView::onSourceReading);
    connect(source, &LatencySource::failed, this, [this, source](const QString &message) {
        if (source != m_source)
            return;
        m_source = nullptr;
        source->deleteLater();
        m_before.clear();
        if (m_remoteHost.isEmpty()) {
            m_status->setText(tr("Latency through dmtune-helper stopped: %1").arg(message));
            m_helperButton->show(); // try again (pkexec refused, the dialog was dismissed)
            return;
        }
        // A lost connection: asked again at the first tick after the reconnect; a probe that cannot run there: not.
        if (!source->mayRetry())
            m_reason = message;
        m_status->setText(tr("Latency on %1 stopped: %2").arg(m_remoteHost, message));
    });
    m_reason.clear();
    m_before.clear();
    m_status->setText(startingText);
}

QList<BlockDeviceNumber> LatencyView::shownNumbers() const
{
    QList<BlockDeviceNumber> numbers;
    for (const Device &d : std::as_const(m_devices)) {
        if (m_numbers.contains(d.name))
            numbers.append({ m_numbers.value(d.name).first, m_numbers.value(d.name).second });
    }
    return numbers;
}

void LatencyView::watchShown()
{
    if (m_source || m_makeRemoteSource)
        return; // the next request carries the shown devices
    if (!m_probe) {
        if (!m_reason.isEmpty())
            m_status->setText(tr("The latency probe is not available: %1").arg(m_reason));
        return;
    }
    const QList<BlockDeviceNumber> numbers = shownNumbers();
    if (const Status s = m_probe->setWatched(numbers); !s) {
        m_status->setText(tr("The latency probe cannot watch these devices: %1").arg(s.errorMessage()));
        return;
    }
    showProbeState();
}

void LatencyView::showProbeState()
{
    if (m_devices.isEmpty()) {
        m_status->setText(tr("The latency probe is running. Select a device or a map in the tree to chart it."));
        return;
    }
    QStringList names;
    for (const Device &d : std::as_const(m_devices))
        names << d.name;
    m_status->setText(m_sawIo
            ? tr("The latency probe is running. Device time (issue to complete) of every I/O, whoever issued it: "
                 "colour is the share of each interval's I/O in a latency bucket, the lines its percentiles.")
            : tr("The latency probe is running and waiting for I/O on %1: nothing has completed there since "
                 "it was shown.")
                  .arg(names.join(QStringLiteral(", "))));
}

void LatencyView::addMarker(const ChartMarker &marker)
{
    m_markers.append(marker);
    for (LatencyHeatMap *chart : std::as_const(m_charts)) {
        chart->setMarkers(m_markers);
        chart->replot();
    }
}

void LatencyView::removeMarker(int id)
{
    m_markers.removeIf([id](const ChartMarker &m) { return m.id == id; });
    for (LatencyHeatMap *chart : std::as_const(m_charts)) {
        chart->setMarkers(m_markers);
        chart->replot();
    }
}

void LatencyView::clearMarkers()
{
    m_markers.clear();
    for (LatencyHeatMap *chart : std::as_const(m_charts)) {
        chart->setMarkers({});
        chart->replot();
    }
}

void LatencyView::onBatch(const SampleBatch &batch)
{
    bool learnt = false;
    for (const Device &d : std::as_const(m_devices)) {
        if (const DeviceSample *s = batch.find(d.name); s && !m_numbers.contains(d.name)) {
            m_numbers.insert(d.name, { s->counters.majorNumber(), s->counters.minorNumber() });
            learnt = true;
        }
    }
    if (m_dmStats)
        readDmStats(batch.wallMs);
    if (!m_source && m_remoteWanted && m_reason.isEmpty()) // again after a lost connection: the host's ticks are back
        startSource(m_makeRemoteSource(), tr("Loading the latency probe on %1 again…").arg(m_remoteHost));
    if (m_source) {
        // Answered asynchronously; a tick while the source has not answered the previous one is skipped.
        if (m_source->request(shownNumbers()))
            m_sourceWallMs = batch.wallMs;
        return;
    }
    if (!m_probe)
        return;
    if (learnt)
        watchShown(); // the device numbers come with the first batch that has the device
    QHash<QString, DeviceLatency> now;
    for (const Device &d : std::as_const(m_devices)) {
        const auto number = m_numbers.value(d.name);
        const BlockDeviceNumber device { number.first, number.second };
        if (m_numbers.contains(d.name) && m_probe->isWatched(device) && !m_dmStatsDevices.contains(d.name))
            now.insert(d.name, m_probe->read(device));
    }
    chartReadings(batch.wallMs, now);
}

void LatencyView::onSourceReading(const LatencyReading &reading)
{
    if (m_before.isEmpty())
        m_status->setText(m_remoteHost.isEmpty()
                ? tr("Device time (issue to complete) of every I/O, whoever issued it, read through "
                     "dmtune-helper: colour is the share of each interval's I/O in a latency bucket, the "
                     "lines its percentiles.")
                : tr("Device time (issue to complete) of every I/O on %1, whoever issued it, read by its agent's "
                     "probe: colour is the share of each interval's I/O in a latency bucket, the lines its "
                     "percentiles.")
                      .arg(m_remoteHost));
    QHash<QString, DeviceLatency> now;
    for (const Device &d : std::as_const(m_devices)) {
        const auto number = m_numbers.value(d.name);
        const BlockDeviceNumber device { number.first, number.second };
        if (m_numbers.contains(d.name) && reading.devices.contains(device) && !m_dmStatsDevices.contains(d.name))
            now.insert(d.name, reading.devices.value(device));
    }
    chartReadings(m_sourceWallMs, now);
}

void LatencyView::chartReadings(qint64 wallMs, const QHash<QString, DeviceLatency> &readings)
{
    QHash<QString, DeviceLatency> interval;
    for (const Device &d : std::as_const(m_devices)) {
        if (!readings.contains(d.name))
            continue;
        const DeviceLatency now = readings.value(d.name);
        if (m_before.contains(d.name)) {
            interval.insert(d.name, now.since(m_before.value(d.name)));
            if (!m_sawIo && interval.value(d.name).device.total() > 0) {
                m_sawIo = true;
                if (m_probe && !m_dmStats)
                    showProbeState(); // "waiting for I/O" no longer
            }
            if (LatencyHeatMap *chart = m_charts.value(d.name)) {
                chart->appendInterval(wallMs, interval.value(d.name));
                chart->replot();
            }
        }
        m_before.insert(d.name, now);
    }
    if (m_devices.size() > 1 && interval.contains(m_devices.first().name)) {
        QList<LatencyHistogram> paths;
        for (qsizetype i = 1; i < m_devices.size(); ++i) {
            if (interval.contains(m_devices[i].name))
                paths.append(interval.value(m_devices[i].name).device);
        }
        if (const auto t = timeAbovePaths(interval.value(m_devices.first().name).device, paths)) {
            m_above->setText(tr("Above the paths over the last interval: %1 µs (map %2 µs, paths' share-weighted "
                                "mean %3 µs, %4 I/Os).")
                                 .arg(t->aboveUs, 0, 'f', 1)
                                 .arg(t->mapMeanUs, 0, 'f', 1)
                                 .arg(t->pathsMeanUs, 0, 'f', 1)
                                 .arg(t->mapIos));
            m_above->show();
        }
    }
}

} // namespace dmtune
