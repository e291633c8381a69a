#include "widgets/pathgroups/pathgroupspanel.h"

#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/selectorchart.h"

#include "core/discovery/nvmewarnings.h"
#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/dmavailability.h"
#include "core/dm/backend/dmeventwatcher.h"
#include "core/host/hostsession.h"
#include "core/host/mapstream.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"

#include <QDateTime>
#include <QGroupBox>
#include <QMessageBox>
#include <QResizeEvent>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace dmtune {

PathGroupsPanel::PathGroupsPanel(std::shared_ptr<const HostContext> host, QWidget *parent)
    : QWidget(parent)
    , m_host(std::move(host))
    , m_warningsRoot(m_host->sysfs())
{
    setUpLive({});
}

PathGroupsPanel::PathGroupsPanel(HostSession *host, QWidget *parent)
    : QWidget(parent)
    , m_host(host->context())
    , m_warningsRoot(host->sysfs())
{
    // A host's live tree is read through its device-mapper and its events (a captured tree opened to inspect has
    // none: read-only, with the reason); a capture the host fetches (a remote host's) from the capture, again with
    // every snapshot, the operations through the host's service.
    if (!host->fetchesCaptures()) {
        setUpLive([this, host] { return host->newOperationService(this); });
    } else {
        m_capture = host->sysfs();
        m_remote = true;
        init();
        useCapture(host->newOperationService(this), true);
        // The shown map as the host reports it: each second and at each of its events there, between fetches.
        m_mapStream = host->newMapStream(this);
        if (m_mapStream) {
            connect(m_mapStream, &MapStream::changed, this, [this](const QString &map) {
                if (map == m_map)
                    readNow();
            });
            connect(m_mapStream, &MapStream::failed, this, [this](const QString &map, const QString &message) {
                if (map == m_map)
                    onStateRead(map, Result<MultipathMapState>::failure(message));
            });
        }
    }
    const auto followConnection = [this, host] {
        setConnectionProblem(
            host->state() == HostSession::State::Connected ? QString() : tr("not connected to %1").arg(host->name()));
    };
    connect(host, &HostSession::stateChanged, this, followConnection);
    followConnection();
}

void PathGroupsPanel::setUpLive(const std::function<OperationService *()> &makeService)
{
    // Reads here and operations on the runner's job share the host's backend (libdevmapper under its one lock).
    m_readDm = m_host->deviceMapper().get();
    if (!m_readDm)
        m_unavailable = m_host->deviceMapperProblem();
    init();
    if (m_readDm) {
        makeRunner(makeService ? makeService() : nullptr);
        m_multipathdQuery = liveMultipathdMaps();
        m_watcher = new DmEventWatcher([host = m_host] { return host->newDeviceMapper(); }, this);
        connect(m_watcher, &DmEventWatcher::mapEvent, this, [this](const QString &map, quint32) { onMapEvent(map); });
    }
    m_actions->setUnavailableReason(m_unavailable);
}

PathGroupsPanel::PathGroupsPanel(DeviceMapper *dm, QWidget *parent)
    : QWidget(parent)
    , m_host(HostContext::withDeviceMapper(dm)) // tests and demos never talk to a multipathd of the machine
    , m_readDm(dm)
{
    init();
    if (m_readDm) {
        makeRunner(nullptr);
    } else {
        m_unavailable = tr("no device-mapper");
        m_actions->setUnavailableReason(m_unavailable);
    }
}

PathGroupsPanel::PathGroupsPanel(const SysfsRoot &capture, OperationService *remote, QWidget *parent)
    : QWidget(parent)
    , m_capture(capture)
    , m_remote(true)
    , m_warningsRoot(capture)
{
    init();
    useCapture(remote, false);
}

void PathGroupsPanel::useCapture(OperationService *service, bool owned)
{
    m_runner = service;
    m_ownsRunner = owned;
    m_actions->setRunner(m_runner);
    m_editor->setRunner(m_runner);
    connect(m_runner, &OperationService::finished, this,
        [this](const OperationResult &result) { onOperationFinished(result); });
    m_unavailable = tr("the host's devices are not read yet");
    m_actions->setUnavailableReason(m_unavailable);
    m_multipathdQuery = [capture = m_capture] { return capturedMultipathdMaps(capture); };
}

void PathGroupsPanel::setConnectionProblem(const QString &problem)
{
    m_connectionProblem = problem;
    m_actions->setUnavailableReason(problem.isEmpty() ? m_unavailable : problem);
}

PathGroupsPanel::~PathGroupsPanel()
{
    // The runner finishes its operation, the reads are joined, the watcher stops its threads: all before the
    // backends go (a read stuck on a suspended map is waited for here, not on every tick).
    delete m_watcher;
    m_watcher = nullptr;
    if (m_ownsRunner)
        delete m_runner;
    m_runner = nullptr;
    delete m_jobs;
    m_jobs = nullptr;
}

void PathGroupsPanel::makeRunner(OperationService *service)
{
    if (!service) {
        auto *runner = new OperationRunner(this);
        runner->setEnvironment(m_host->environment()); // multipathd asked per operation, on the runner's job
        service = runner;
    }
    m_runner = service;
    m_ownsRunner = true;
    m_actions->setRunner(m_runner);
    m_editor->setRunner(m_runner);
    connect(m_runner, &OperationService::finished, this,
        [this](const OperationResult &result) { onOperationFinished(result); });
}

QString PathGroupsPanel::resultText(const OperationResult &result)
{
    if (result.ok)
        return result.changes.value(0, tr("%1: done").arg(result.target));
    const QString operation = result.details.value(QLatin1String("operation")).toString();
    return tr("%1: %2 failed: %3").arg(result.target, operation.isEmpty() ? result.kind : operation, result.error);
}

void PathGroupsPanel::init()
{
    setObjectName(QStringLiteral("pathGroupsPanel"));
    m_jobs = new JobTracker(this, JobTracker::Order::Parallel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *splitter = m_splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("pathGroupsSplitter"));
    splitter->setChildrenCollapsible(false);
    m_editor = new PathGroupEditor;
    m_chart = new SelectorChart;
    auto *chartBox = new QGroupBox(tr("Path selectors over time (one status read a second)"));
    m_chartBox = chartBox;
    auto *chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(4, 4, 4, 4);
    chartLayout->addWidget(m_chart);
    splitter->addWidget(m_editor);
    splitter->addWidget(chartBox);
    // The editor's group cards (their path tables) need the height: at 1400x900 an even split cut them
    // off under the selector line while the chart had room to spare; at 1280x720 even 3:1 left the
    // cards 50 px (fitSplitter).
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(1, true); // fitSplitter folds the chart away when the cards need the room
    connect(splitter, &QSplitter::splitterMoved, this, [this] { m_splitterMoved = true; });
    layout->addWidget(splitter);

    m_actions = new MultipathActions(nullptr, this, this);
    connect(m_actions, &MultipathActions::operationStarted, this,
        [this](const QString &text) { Q_EMIT statusMessage(text, 0); });
    connect(m_actions, &MultipathActions::operationRefused, this,
        [this](const QString &text) { Q_EMIT statusMessage(text, 10000); });
    connect(m_actions, &MultipathActions::editPathGroupsRequested, this, &PathGroupsPanel::showMap);
    connect(m_editor, &PathGroupEditor::applyStarted, this,
        [this](const QString &map) { Q_EMIT statusMessage(tr("Reloading %1…").arg(map), 0); });

    m_readTimer = new QTimer(this);
    m_readTimer->setInterval(1000);
    connect(m_readTimer, &QTimer::timeout, this, [this] {
        // A remote host's map is read when its host reports it (m_mapStream) or a fetch replaced the capture.
        if (isVisible() && !m_remote)
            readNow();
    });
    m_readTimer->start();
    // Events come in bursts (a path fails in every map on the same HBA): one rescan per burst.
    m_refreshDebounce = new QTimer(this);
    m_refreshDebounce->setSingleShot(true);
    m_refreshDebounce->setInterval(150);
    connect(m_refreshDebounce, &QTimer::timeout, this, &PathGroupsPanel::refreshRequested);
}

void PathGroupsPanel::setReadInterval(int milliseconds)
{
    m_readTimer->setInterval(std::max(100, milliseconds));
}

void PathGroupsPanel::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    m_haveSnapshot = true;
    if (m_remote) {
        ++m_captureGeneration;
        // The fetch replaced the capture: its maps as they are now (a read in flight keeps the old ones).
        const Result<std::shared_ptr<DeviceMapper>> dm = deviceMapperFor(m_capture);
        m_capturedDm = dm ? dm.value() : nullptr;
        m_readDm = m_capturedDm.get();
        m_unavailable = dm ? QString() : dm.errorMessage();
        if (m_readDm && !snapshot.deviceMapper.available)
            m_unavailable = snapshot.deviceMapper.reason;
        m_actions->setUnavailableReason(m_connectionProblem.isEmpty() ? m_unavailable : m_connectionProblem);
    }
    m_actions->setSnapshot(snapshot);
    m_chart->setDeviceNames(deviceNames());
    if (m_watcher) {
        QStringList maps;
        for (const MultipathMap &map : snapshot.maps)
            maps << map.name;
        m_watcher->watch(maps);
    }
    if (!m_map.isEmpty() && !snapshot.map(m_map) && !m_readDm) {
        showMap(QString());
        return;
    }
    if (m_map.isEmpty() && !m_nvmeHead.isEmpty()) {
        // The head's warnings follow its paths (an ANA change or a lost controller comes with a rescan).
        if (!snapshot.nvmeHead(m_nvmeHead))
            m_nvmeHead.clear();
        showMap(QString());
        return;
    }
    if (m_readDm)
        readNow();
    else if (!m_map.isEmpty())
        showUnavailable();
}

bool PathGroupsPanel::showDevice(const QString &nameOrDevice)
{
    const MultipathMap *map = m_snapshot.map(nameOrDevice);
    if (!map)
        map = m_snapshot.mapOfPath(nameOrDevice);
    m_nvmeHead.clear();
    if (!map) {
        // A native NVMe head has no dm path groups: the tab says where its paths and policy are instead.
        const NvmeMultipathHead *head = m_snapshot.nvmeHead(nameOrDevice);
        if (!head)
            head = m_snapshot.nvmeHeadOfPath(nameOrDevice);
        if (head)
            m_nvmeHead = head->name;
    }
    showMap(map ? map->name : QString());
    return map != nullptr;
}

void PathGroupsPanel::showMap(const QString &map)
{
    if (map != m_map) {
        m_map = map;
        m_chart->clear();
        m_chart->setDeviceNames(deviceNames());
    }
    if (m_mapStream)
        m_mapStream->follow(m_map);
    if (m_map.isEmpty() && !m_nvmeHead.isEmpty()) {
        QString text = tr("%1 is a native NVMe multipath head: the kernel has no path groups for it. Its paths, their "
                          "controllers' states and ANA states are in the tree; the subsystem's iopolicy, which picks "
                          "the path, is in the Tune tab.")
                           .arg(m_nvmeHead);
        if (const NvmeMultipathHead *head = m_snapshot.nvmeHead(m_nvmeHead)) {
            const QList<NvmeWarning> all
                = m_warningsRoot ? nvmeWarnings(*m_warningsRoot, m_snapshot) : nvmeWarnings(m_snapshot, QString());
            // The warnings stay as core words them (dmtunectl prints the same lines).
            for (const NvmeWarning &w : nvmeWarningsOfHead(all, *head))
                text += QLatin1Char('\n') + tr("Warning: %1").arg(w.message);
        }
        m_editor->setUnavailable(QString(), text);
        m_chart->setUnavailable(tr("No dm-multipath map selected."));
        return;
    }
    if (m_map.isEmpty()) {
        m_editor->setUnavailable(QString(),
            m_haveSnapshot && m_snapshot.maps.isEmpty()
                ? (m_unavailable.isEmpty() ? tr("No multipath maps on this machine.")
                                           : tr("No multipath maps on this machine (%1).").arg(m_unavailable))
                : tr("Select a multipath map (or one of its groups or paths) in the tree "
                     "to see and edit its path groups."));
        m_chart->setUnavailable(tr("No map selected."));
        return;
    }
    if (!m_readDm) {
        showUnavailable();
        return;
    }
    readNow(); // fitSplitter() when the read has built this map's cards
}

void PathGroupsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSplitter();
}

void PathGroupsPanel::fitSplitter()
{
    if (m_splitterMoved || m_splitter->height() <= 0)
        return;
    const int total = m_splitter->height() - m_splitter->handleWidth();
    const int editorWants = m_editor->sizeHint().height();
    // The cards (their path tables) come first: where the chart would get less than its minimum, it is
    // folded away (a handle at the bottom brings it back).
    const int chart = total - editorWants >= m_chartBox->minimumSizeHint().height() ? total - editorWants : 0;
    if (m_splitter->sizes() != QList<int> { total - chart, chart })
        m_splitter->setSizes({ total - chart, chart });
}

void PathGroupsPanel::showUnavailable()
{
    const MultipathMap *map = m_snapshot.map(m_map);
    QString reason = map && !map->groupsUnknownReason.isEmpty() ? map->groupsUnknownReason : m_unavailable;
    if (reason.isEmpty())
        reason = tr("device-mapper is not available");
    m_editor->setUnavailable(m_map, reason, map ? map->slaves : QStringList());
    m_chart->setUnavailable(tr("No selector state for %1: %2.").arg(m_map, reason));
}

QHash<QString, QString> PathGroupsPanel::deviceNames() const
{
    QHash<QString, QString> names;
    for (const BlockDevice &device : m_snapshot.devices) {
        if (!device.devnum.isEmpty())
            names.insert(device.devnum, device.name);
    }
    return names;
}

MapIdentity PathGroupsPanel::identityOf(const QString &uuid) const
{
    // From the last discovery (the wwid sysfs or udev gave each disk): no I/O on the GUI thread.
    MapIdentity identity;
    identity.map = m_map;
    identity.uuid = uuid;
    for (const BlockDevice &device : m_snapshot.devices) {
        if (!device.devnum.isEmpty() && !device.isDeviceMapper())
            identity.paths.append(
                { device.devnum, device.name, device.wwid.isEmpty() ? QStringList() : QStringList { device.wwid } });
    }
    return identity;
}

void PathGroupsPanel::readNow()
{
    if (!m_readDm || m_map.isEmpty())
        return;
    if (m_readJob && m_readJobMap == m_map) {
        m_readAgain = true; // the read in flight is of this map: one more after it, not one per tick
        return;
    }
    m_readAgain = false;
    m_readJobMap = m_map;
    DeviceMapper *dm = m_readDm; // outlives the jobs: the destructor joins them first
    // Remote: the map as the host last reported it, else as this capture has it (kept while the read runs).
    std::shared_ptr<DeviceMapper> reported
        = m_mapStream && m_mapStream->followed() == m_map ? m_mapStream->reader() : nullptr;
    std::shared_ptr<DeviceMapper> captured = reported ? reported : m_capturedDm;
    const QString map = m_map;
    m_readJob = m_jobs->startLatest(
        QStringLiteral("read"), QStringLiteral("read %1").arg(map),
        [dm, captured, map](JobContext &) { return readMultipathMapState(captured ? *captured : *dm, map); },
        [this, map](const Result<MultipathMapState> &state) {
            m_readJob = 0;
            onStateRead(map, state);
            if (m_readAgain)
                readNow();
        });
}

void PathGroupsPanel::onStateRead(const QString &map, const Result<MultipathMapState> &state)
{
    if (map != m_map)
        return;
    if (!state) {
        m_editor->setUnavailable(m_map, state.errorMessage());
        m_chart->setUnavailable(tr("No selector state for %1: %2.").arg(m_map, state.errorMessage()));
        Q_EMIT stateRead(map, false);
        return;
    }
    const QHash<QString, QString> names = deviceNames();
    m_editor->setMap(m_map, state->table, state->status, names);
    m_editor->setIdentity(identityOf(state->info.uuid));
    fitSplitter(); // the cards of this map (a no-op once the sizes fit or the user moved the splitter)
    fetchMultipathdView();
    m_chart->addStatus(double(QDateTime::currentMSecsSinceEpoch()) / 1000.0, state->table, state->status);
    Q_EMIT stateRead(map, true);
}

void PathGroupsPanel::fetchMultipathdView()
{
    if (!m_multipathdQuery || m_map.isEmpty())
        return;
    if (m_remote) {
        const QString asked = QStringLiteral("%1@%2").arg(m_map).arg(m_captureGeneration);
        if (asked == m_multipathdAsked)
            return;
        m_multipathdAsked = asked;
    }
    const QString map = m_map;
    askMultipathdMapView(
        *m_jobs, map,
        [this, map](const std::optional<MultipathdMapView> &view) {
            if (map == m_map)
                m_editor->setMultipathdView(view);
        },
        m_multipathdQuery);
}

void PathGroupsPanel::onMapEvent(const QString &map)
{
    m_refreshDebounce->start();
    if (map == m_map)
        readNow();
}

void PathGroupsPanel::onOperationFinished(const OperationResult &result)
{
    Q_EMIT statusMessage(resultText(result), result.ok ? 10000 : 20000);
    Q_EMIT operationFinished(result);
    m_refreshDebounce->start();
    if (result.target == m_map)
        readNow();
    // A failure also gets a message the user cannot miss; non-modal, and only in a window on screen. The
    // editor's own reload shows its failure (a stale plan included) in its banner.
    if (!result.ok && window()->isVisible() && result.kind != QLatin1String("multipath.reload")) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("%1: %2 failed").arg(result.target, result.kind),
            result.error, QMessageBox::Ok, this);
        if (!result.warnings.isEmpty())
            box->setInformativeText(result.warnings.join(QLatin1Char('\n')));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
}

} // namespace dmtune
