#include "mainwindow.h"

#include "core/stats/samplesource.h"
#include "core/stats/seriesstore.h"
#include "widgets/charts/latencyview.h"
#include "widgets/charts/livestatsview.h"

#include "core/discovery/discovery.h"
#include "core/host/localhostsession.h"
#include "core/jobs/jobtracker.h"
#include "core/params/tuningsession.h"
#include "widgets/about/aboutdialog.h"
#include "widgets/devices/devicedetailpane.h"
#include "widgets/devices/devicetreebuilder.h"
#include "widgets/devices/devicetreemodel.h"
#include "widgets/devices/devicetreeview.h"
#include "widgets/experiments/experimentpanel.h"
#include "widgets/filedialogs.h"
#include "widgets/fleet/fleetwindow.h"
#include "widgets/params/applyresulttext.h"
#include "widgets/params/changehistorypanel.h"
#include "widgets/params/parametereditor.h"
#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupspanel.h"
#include "widgets/remote/hostheader.h"
#include "widgets/windowfit.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

#include <functional>

namespace dmtune {

namespace {

// Calls `resized` whenever the watched widget changes size.
class ResizeWatcher : public QObject {
public:
    ResizeWatcher(QObject *parent, std::function<void()> resized)
        : QObject(parent)
        , m_resized(std::move(resized))
    {
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            m_resized();
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void()> m_resized;
};

// The first row selected: a multipath map, an NVMe multipath subsystem or the lab device; else none. A disk is never
// chosen for the user: it may hold the system (vda, mounted on /), and the Workload dock follows the selection.
QString defaultDevice(const DeviceSnapshot &snapshot, const QString &labDevice)
{
    if (!snapshot.maps.isEmpty())
        return snapshot.maps.first().device;
    if (!snapshot.nvmeMultipath.isEmpty())
        return snapshot.nvmeMultipath.first().name;
    if (!labDevice.isEmpty() && snapshot.device(labDevice))
        return labDevice;
    return {};
}

// The status bar has room for the gist; the whole reason goes in the tooltip and the overview.
QString gistOf(const QString &reason)
{
    qsizetype end = reason.size();
    for (const auto &stop : { QStringLiteral(" ("), QStringLiteral(";") }) {
        const qsizetype at = reason.indexOf(stop);
        if (at > 0)
            end = qMin(end, at);
    }
    return reason.left(end);
}

const auto geometryKey = QStringLiteral("mainWindow/geometry");
const auto windowStateKey = QStringLiteral("mainWindow/state");
const auto splitterKey = QStringLiteral("mainWindow/splitter");
} // namespace

MainWindow::MainWindow(SysfsRoot sysfs, QWidget *parent)
    : MainWindow(new LocalHostSession(sysfs), parent)
{
}

MainWindow::MainWindow(HostSession *host, QWidget *parent)
    : QMainWindow(parent)
    , m_hostSession(host)
    , m_sysfs(host->sysfs())
    , m_discovery(host->discovery())
    , m_samples(host->samples())
{
    setObjectName(QStringLiteral("MainWindow"));
    m_hostSession->setParent(this);
    m_jobs = new JobTracker(this);
    setWindowTitle(!hostName().isEmpty() ? tr("dmtune — %1 (remote)").arg(hostName())
            : m_sysfs.isLive()           ? QStringLiteral("dmtune")
                                         : tr("dmtune — %1 (captured tree, read-only)").arg(m_sysfs.root()));
    connect(m_hostSession, &HostSession::message, this,
        [this](const QString &text) { statusBar()->showMessage(text, 15000); });
    m_model = new DeviceTreeModel(this);

    m_tree = new DeviceTreeView;
    m_tree->setModel(m_model);
    setupFirstRun(); // mainwindow_firstrun.cpp: m_firstRunHint and the lab device offer
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(2);
    leftLayout->addWidget(m_firstRunHint);
    leftLayout->addWidget(m_tree->filterEdit(left)); // hundreds of devices: type to narrow
    leftLayout->addWidget(m_tree, 1);

    m_detail = new DeviceDetailPane(m_sysfs);
    m_detail->setMachineName(hostName());
    // One Applier for the window: the Tune tab and the History dock share it (and its busy state). A remote host's
    // plans on its capture and runs through its agent there.
    m_session = m_hostSession->newTuningSession(this);
    m_editor = new ParameterEditor(m_session);
    m_tabs = new QTabWidget;
    // The tallest page (a real map's Path groups cards, the Experiment's results) must not make the window taller
    // than a 720-pixel screen: below this the pages share what is left rather than push the window off the screen.
    m_tabs->setMinimumHeight(TabsMinimumHeight);
    m_tabs->setObjectName(QStringLiteral("deviceTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_detail, tr("&Details"));
    m_tuneTab = tuneTab(m_editor);
    m_tabs->addTab(m_tuneTab, tr("&Tune"));
    m_tabs->setTabToolTip(1, tr("Edit the selected device's queue parameters, preview and apply them"));
    setupPathGroups();
    setupStatistics();

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(1, 1);
    setCentralWidget(withHostHeader(m_splitter));
    // Until the user drags the handle (or settings restore it), the tree is as wide as its columns
    // need, leaving the detail pane room to read: refitted whenever the columns change width.
    m_fitTreeTimer = new QTimer(this);
    m_fitTreeTimer->setSingleShot(true);
    connect(m_fitTreeTimer, &QTimer::timeout, this, &MainWindow::fitSplitterToTree);
    connect(m_tree->header(), &QHeaderView::sectionResized, this, [this] {
        if (m_autoFitTree)
            m_fitTreeTimer->start(0);
    });
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_autoFitTree = false; });
    // The window or a dock beside the tabs (Explain) changes the splitter's width: fitted again.
    m_splitter->installEventFilter(new ResizeWatcher(m_splitter, [this] {
        if (m_autoFitTree)
            m_fitTreeTimer->start(0);
    }));

    m_kernelLabel = new QLabel;
    m_deviceMapperLabel = new QLabel;
    m_countLabel = new QLabel;
    m_hotplugLabel = new QLabel;
    m_tuningLabel = new QLabel;
    for (auto *label : { m_kernelLabel, m_deviceMapperLabel, m_countLabel, m_hotplugLabel, m_tuningLabel })
        statusBar()->addPermanentWidget(label);
    // A message ("Undone: ...", "Report written to ...") needs the room the permanent labels take; the kernel,
    // device-mapper and hotplug labels step aside while it is shown (their text stays in statusText()).
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString &message) {
        for (auto *label : { m_kernelLabel, m_deviceMapperLabel, m_hotplugLabel })
            label->setVisible(message.isEmpty());
    });
    updateTuningLabel();

    m_historyPanel = new ChangeHistoryPanel(m_session);
    m_historyDock = new QDockWidget(tr("History"), this);
    m_historyDock->setObjectName(QStringLiteral("historyDock"));
    m_historyDock->setWidget(m_historyPanel);
    m_historyDock->setAllowedAreas(Qt::BottomDockWidgetArea | Qt::RightDockWidgetArea | Qt::LeftDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, m_historyDock);
    resizeDocks({ m_historyDock }, { 150 }, Qt::Vertical);
    connect(m_session, &TuningSession::parameterChanged, this, &MainWindow::parameterChanged);
    connect(m_session, &TuningSession::finished, this, &MainWindow::onTransactionFinished);
    m_kernelLabel->setText(tr("kernel %1").arg(kernelRelease()));
    statusBar()->showMessage(tr("Scanning block devices…"));

    createMenus();
    connect(m_discovery, &Discovery::snapshotChanged, this, &MainWindow::onSnapshot);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &MainWindow::onCurrentRowChanged);
    // Several rows may be selected (Ctrl+click) for the Tune tab's "selection" scope; the current
    // row still decides what the panes show.
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(
        m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::onTreeSelectionChanged);
    setupPresets(); // mainwindow_presets.cpp: the Presets menu and the preset manager
    setupRecordings(); // mainwindow_recordings.cpp: File menu entries for recordings and reports
    setupWorkloads(); // mainwindow_workloads.cpp: the Workload dock
    setupExperiments(); // mainwindow_experiments.cpp: the Experiment tab
    setupExplain(); // mainwindow_explain.cpp: the Explain dock
    setupLatency(); // mainwindow_latency.cpp: the Latency tab
    setupConnectMenu(); // mainwindow_remote.cpp: File > Connect to host…
    windowfit::resizeOnScreen(this, { 1280, 800 });
    // Last among the children: the widgets, their services and sources go before their host.
    m_hostSession->setParent(nullptr);
    m_hostSession->setParent(this);
}

MainWindow::~MainWindow()
{
    // The host goes after the widgets (it is the last child) and tells this window nothing more.
    m_hostSession->disconnect(this);
    m_discovery->disconnect(this);
    for (const QPointer<MainWindow> &window : std::as_const(m_remoteWindows))
        delete window.data();
    // The charts read the store: they go first, then the store; the sample source stops feeding it.
    m_samples->disconnect(this);
    m_samples->stop();
    delete m_stats;
    delete m_store;
    // A widget re-parented since the constructor (a pane moved into a splitter) is a later child now: the host is
    // made the last again, so every widget, service and source of it goes first.
    m_hostSession->setParent(nullptr);
    m_hostSession->setParent(this);
}

QWidget *MainWindow::openFleet(const QString &hostsFile, QString *errorMessage)
{
    FleetWindow *fleet = FleetWindow::openWindow(hostsFile, this, errorMessage);
    if (fleet) {
        fleet->setAgentOpener([this](const QString &hostName) {
            const Result<HostAddress> address = parseHostAddress(hostName);
            if (!address) {
                statusBar()->showMessage(address.errorMessage());
                return;
            }
            openRemoteWindow(address.value());
        });
    }
    return fleet;
}

void MainWindow::start()
{
    m_hostSession->start();
}

QTreeView *MainWindow::treeView() const
{
    return m_tree;
}

QMenu *MainWindow::menuNamed(const QString &text) const
{
    for (QAction *action : menuBar()->actions()) {
        if (action->menu() && action->text() == text)
            return action->menu();
    }
    return nullptr;
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    // File > Open fleet…: many hosts' figures through PCP or Prometheus, from a hosts file (docs/fleet.md).
    QAction *fleet = file->addAction(tr("Open &fleet…"), this, [this] {
        filedialogs::open(this, { QStringLiteral("fleet"), tr("Open fleet hosts file"), QDir::homePath(), QString() },
            [this](const QStringList &files) {
                QString error;
                if (!openFleet(files.constFirst(), &error))
                    statusBar()->showMessage(error, 15000);
            });
    });
    fleet->setObjectName(QStringLiteral("openFleetAction"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    // Edit > Undo last change: the History dock's action (planned, asked and run as Apply is; disabled with the reason
    // in its tips when there is nothing to undo, read-only or remote). Ctrl+Alt+Z, not Ctrl+Z: Ctrl+Z stays the undo
    // of the text field being typed in, and this one writes to devices.
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_historyPanel->undoAction();
    undo->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Z));
    undo->setShortcutContext(Qt::WindowShortcut);
    edit->addAction(undo);
    addAction(undo); // the shortcut works with the menu closed and the dock hidden
    connect(m_historyPanel, &ChangeHistoryPanel::undoReported, this,
        [this](const QString &text) { statusBar()->showMessage(text, 15000); });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *refresh = view->addAction(tr("&Refresh"), this, [this] {
        statusBar()->showMessage(tr("Rescanning block devices…"));
        m_hostSession->refresh(); // a remote host's capture again: the rescan follows when it is in
    });
    refresh->setShortcut(QKeySequence::Refresh);
    view->addSeparator();
    QAction *find = view->addAction(tr("&Find device"), this, [this] {
        m_tree->filterEdit()->setFocus(Qt::ShortcutFocusReason);
        m_tree->filterEdit()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    view->addAction(tr("&Expand all"), m_tree, &QTreeView::expandAll);
    view->addAction(tr("&Collapse all"), m_tree, &QTreeView::collapseAll);
    view->addSeparator();
    QAction *tune = view->addAction(tr("&Tune selected device"), this, [this] { showTab(QStringLiteral("tune")); });
    tune->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    view->addAction(m_historyDock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About dmtune"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString MainWindow::kernelRelease() const
{
    const auto release = m_sysfs.readProc(QStringLiteral("sys/kernel/osrelease"));
    if (release && !release.value().trimmed().isEmpty())
        return release.value().trimmed();
    return m_sysfs.isLive() ? tr("unknown") : tr("unknown (captured tree)");
}

void MainWindow::onSnapshot(const DeviceSnapshot &snapshot)
{
    // While rows move the selection model shifts the current row on its own; the user's choice
    // (m_selectedKey / m_selectedDevice) is what restoreSelection() brings back afterwards.
    m_applyingSnapshot = true;
    m_model->setSnapshot(snapshot);
    m_detail->setSnapshot(snapshot);
    m_editor->setSnapshot(snapshot);
    m_pathGroups->setSnapshot(snapshot);
    m_applyingSnapshot = false;
    restoreSelection(snapshot);

    updateFirstRunHint(snapshot);
    updateStatusBar(snapshot);
    // Only the scan's own message goes: a result shown meanwhile (the lab device made, a preset applied) stays.
    // (Compared with the same tr() texts showMessage() was given: the window's language either way.)
    if (const QString shown = statusBar()->currentMessage();
        shown == tr("Scanning block devices…") || shown == tr("Rescanning block devices…"))
        statusBar()->clearMessage();
    if (m_autoFitTree)
        m_fitTreeTimer->start(0);
    Q_EMIT snapshotShown();
}

void MainWindow::fitSplitterToTree()
{
    if (!m_autoFitTree)
        return;
    const int total = m_splitter->width() - m_splitter->handleWidth();
    // At most a third of the window: the tabs need the room more than the tree (two path group cards side by side
    // at 1400 px, the iostat table's columns; the filter finds a device among hundreds). The tabs'
    // share would undercut a quarter (below ~610 px): the quarter wins (qBound needs min <= max).
    // Never under 280 px while the splitter has twice that (the Explain dock beside the tabs at 1280 px): the
    // names and kinds of the tree stay readable.
    const int minWidth = qMax(total / 4, qMin(MinimumTreeWidth, total / 2));
    const int maxWidth = qMax(minWidth, qMin(total - 460, total / 3));
    const int treeWidth = qBound(minWidth, m_tree->contentsWidthHint(), maxWidth);
    m_splitter->setSizes({ treeWidth, qMax(1, total - treeWidth) });
}

void MainWindow::restoreSelection(const DeviceSnapshot &snapshot)
{
    QModelIndex wanted = m_model->indexForKey(m_selectedKey);
    if (!wanted.isValid())
        wanted = m_model->indexForDevice(m_selectedDevice);
    if (!wanted.isValid() && m_selectedKey.isEmpty())
        wanted = m_model->indexForDevice(defaultDevice(snapshot, m_labName));
    if (!wanted.isValid()) {
        // The device is gone: the pane says so rather than jumping to a neighbour.
        m_detail->showDevice(m_selectedDevice);
        m_editor->showDevice(m_selectedDevice);
        m_pathGroups->showDevice(m_selectedDevice);
        chartSelectedDevice();
        return;
    }
    if (m_tree->currentIndex() != wanted) {
        m_tree->selectionModel()->setCurrentIndex(
            wanted, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_tree->scrollTo(wanted);
    } else {
        onCurrentRowChanged(wanted);
    }
}

void MainWindow::onCurrentRowChanged(const QModelIndex &current)
{
    if (m_applyingSnapshot || !current.isValid())
        return;
    m_selectedKey = current.data(DeviceTreeModel::RowKeyRole).toString();
    m_selectedDevice = current.data(DeviceTreeModel::DeviceNameRole).toString();
    m_detail->showDevice(m_selectedDevice);
    m_editor->showDevice(m_selectedDevice);
    m_pathGroups->showDevice(m_selectedDevice);
    chartSelectedDevice();
}

void MainWindow::onTreeSelectionChanged()
{
    QStringList devices;
    const QModelIndexList rows = m_tree->selectionModel()->selectedRows();
    for (const QModelIndex &row : rows) {
        const QString name = row.data(DeviceTreeModel::DeviceNameRole).toString();
        if (!name.isEmpty() && !devices.contains(name))
            devices << name;
    }
    m_editor->setSelectedDevices(devices);
}

void MainWindow::onTransactionFinished(const ApplyResult &result, bool wasUndo)
{
    if (!result.anyWritten() && !result.rolledBack)
        return;
    // Values changed (or were put back): the detail pane re-reads the queue now, and a rescan
    // brings the snapshot's scheduler and queue depth up to date.
    m_detail->setSnapshot(m_discovery->snapshot());
    m_hostSession->refresh();
    const QString summary = !result.ok()
        ? tr("Not applied: %1").arg(result.errorMessage().section(QLatin1Char('\n'), 0, 0))
        : wasUndo ? tr("Undone: %1 (%2)").arg(applySummary(result), result.executor)
                  : tr("Applied %1 (%2)").arg(applySummary(result), result.executor);
    statusBar()->showMessage(summary, 10000);
}

void MainWindow::setupPathGroups()
{
    // A remote host's panel reads the maps of the host's capture and has its agent plan and run the operations.
    m_pathGroups = new PathGroupsPanel(m_hostSession);
    m_tabs->addTab(m_pathGroups, tr("&Path groups"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_pathGroups),
        tr("The selected map's path groups: move paths, pick selectors and features, "
           "reload; its path selectors over time"));
    m_tree->addContextMenuProvider(
        [this](QMenu *menu, const QModelIndex &index) { m_pathGroups->actions()->fillMenu(menu, index); });
    connect(m_pathGroups->actions(), &MultipathActions::editPathGroupsRequested, this, [this](const QString &map) {
        if (const MultipathMap *shown = m_discovery->snapshot().map(map))
            selectDevice(shown->device);
        m_tabs->setCurrentWidget(m_pathGroups);
    });
    // An operation's result stays in the status bar (a rescan clears temporary messages); progress and
    // refusals are temporary messages. A device-mapper event or a finished operation rescans at once.
    auto *result = new QLabel;
    result->setObjectName(QStringLiteral("multipathResultLabel"));
    statusBar()->addWidget(result, 1);
    connect(m_pathGroups, &PathGroupsPanel::operationFinished, result, [result](const OperationResult &r) {
        result->setText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss ")) + PathGroupsPanel::resultText(r));
        result->setToolTip(r.warnings.join(QLatin1Char('\n')));
    });
    connect(m_pathGroups, &PathGroupsPanel::statusMessage, statusBar(), &QStatusBar::showMessage);
    // Remote: a new capture (fetches in a burst are one), then the rescan.
    connect(m_pathGroups, &PathGroupsPanel::refreshRequested, m_hostSession, &HostSession::refresh);
}

void MainWindow::updateTuningLabel()
{
    m_tuningLabel->setText(m_session->executorText());
    m_tuningLabel->setToolTip(m_session->executorToolTip());
}

void MainWindow::setTreeWritable(bool writable)
{
    if (m_sysfs.isLive())
        return;
    m_session->setReadOnly(!writable);
    updateTuningLabel();
    m_editor->refresh();
    chartSelectedDevice(); // the offers of the statistics note follow
}

namespace {
// The tabs by the names --tab and tests use.
QWidget *tabByName(
    const QString &name, QWidget *details, QWidget *tune, QWidget *paths, QWidget *stats, QWidget *experiment)
{
    if (name == QLatin1String("experiment"))
        return experiment;
    if (name == QLatin1String("details"))
        return details;
    if (name == QLatin1String("tune"))
        return tune;
    if (name == QLatin1String("paths"))
        return paths;
    if (name == QLatin1String("statistics"))
        return stats;
    return nullptr;
}
} // namespace

bool MainWindow::showTab(const QString &name)
{
    if (name == QLatin1String("latency") && m_latency) {
        m_tabs->setCurrentWidget(m_latency);
        return true;
    }
    QWidget *tab = tabByName(name, m_detail, m_tuneTab, m_pathGroups, m_stats, m_experimentPanel);
    if (!tab)
        return false;
    m_tabs->setCurrentWidget(tab);
    return true;
}

QString MainWindow::currentTabName() const
{
    for (const QString &name : { QStringLiteral("tune"), QStringLiteral("paths"), QStringLiteral("statistics"),
             QStringLiteral("experiment") }) {
        if (m_tabs->currentWidget() == tabByName(name, m_detail, m_tuneTab, m_pathGroups, m_stats, m_experimentPanel))
            return name;
    }
    return QStringLiteral("details");
}

QString MainWindow::tuningStatusText() const
{
    return m_tuningLabel->text();
}

bool MainWindow::selectDevice(const QString &name)
{
    QModelIndex index = m_model->indexForDevice(name);
    if (!index.isValid()) {
        // A map name (mpatha), /dev/mapper/NAME or /dev/X, as dmtunectl takes them.
        QString wanted = name;
        if (wanted.startsWith(QLatin1String("/dev/mapper/")))
            wanted = wanted.mid(12);
        else if (wanted.startsWith(QLatin1String("/dev/")))
            wanted = wanted.mid(5);
        if (const MultipathMap *map = m_discovery->snapshot().map(wanted))
            wanted = map->device;
        index = m_model->indexForDevice(wanted);
    }
    if (!index.isValid())
        return false;
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(index);
    return true;
}

void MainWindow::updateStatusBar(const DeviceSnapshot &snapshot)
{
    const auto &dm = snapshot.deviceMapper;
    if (dm.available) {
        m_deviceMapperLabel->setText(dm.driverVersion.isEmpty()
                ? tr("device-mapper: available")
                : tr("device-mapper: available (driver %1)").arg(dm.driverVersion));
    } else {
        m_deviceMapperLabel->setText(tr("device-mapper: not available (%1)")
                                         .arg(dm.reason.isEmpty() ? tr("unknown reason") : gistOf(dm.reason)));
    }
    m_deviceMapperLabel->setToolTip(dm.available ? m_deviceMapperLabel->text() : dm.reason);
    const auto devices = snapshot.devices.size();
    const auto maps = snapshot.maps.size() + snapshot.nvmeMultipath.size(); // dm maps and native NVMe heads
    m_countLabel->setText(
        QStringLiteral("%1 · %2").arg(devices == 1 ? tr("%1 device").arg(devices) : tr("%1 devices").arg(devices),
            maps == 1 ? tr("%1 multipath map").arg(maps) : tr("%1 multipath maps").arg(maps)));

    m_kernelLabel->setText(tr("kernel %1").arg(kernelRelease())); // the host's own (a capture's /proc)
    switch (m_hostSession->hotplug()) {
    case HostSession::Hotplug::Udev:
        m_hotplugLabel->setText(tr("hotplug: udev"));
        break;
    case HostSession::Hotplug::KernelUevents:
        m_hotplugLabel->setText(tr("hotplug: kernel uevents"));
        break;
    case HostSession::Hotplug::AgentEvents:
        m_hotplugLabel->setText(tr("hotplug: the agent's udev events"));
        break;
    case HostSession::Hotplug::OnRequest:
        m_hotplugLabel->setText(tr("hotplug: off (F5 fetches the host again)"));
        break;
    case HostSession::Hotplug::CapturedTree:
        m_hotplugLabel->setText(tr("hotplug: off (captured tree)"));
        break;
    case HostSession::Hotplug::Off:
        m_hotplugLabel->setText(tr("hotplug: off (press F5 to rescan)"));
        break;
    case HostSession::Hotplug::NotConnected:
        m_hotplugLabel->setText(tr("hotplug: not connected"));
        break;
    }
    m_hotplugLabel->setToolTip(m_discovery->monitorError());
}

QString MainWindow::statusText() const
{
    return QStringList { m_kernelLabel->text(), m_deviceMapperLabel->text(), m_countLabel->text(),
        m_hotplugLabel->text(), m_tuningLabel->text() }
        .join(QStringLiteral(" | "));
}

void MainWindow::showAbout()
{
    // The versions are this machine's (a captured tree describes another one); fio's arrive later.
    const QString note = !hostName().isEmpty() ? tr("Showing the remote host %1; the versions are this "
                                                    "machine's (dmtunectl --host %1 version: the host's).")
                                                     .arg(hostName())
        : m_sysfs.isLive() ? QString()
                           : tr("Inspecting the captured tree %1 (read-only).").arg(m_sysfs.root());
    // The device-mapper driver's version is an ioctl that waits while a reload holds libdevmapper's lock, and the
    // kernel's is a /proc read: a job; the dialog opens with them.
    statusBar()->showMessage(tr("Reading the versions…"), 5000);
    m_jobs->startLatest(
        QStringLiteral("about"), QStringLiteral("component versions"),
        [](JobContext &) { return localComponentVersions(SysfsRoot()); },
        [this, note](const QList<ComponentVersion> &versions) {
            statusBar()->clearMessage();
            auto *about = new AboutDialog(versions, note, this);
            about->setAttribute(Qt::WA_DeleteOnClose);
            about->open();
            Q_EMIT aboutShown(about);
        });
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(geometryKey).toByteArray());
    windowfit::keepOnScreen(this); // saved on a larger screen
    restoreState(settings.value(windowStateKey).toByteArray());
    if (m_splitter->restoreState(settings.value(splitterKey).toByteArray()))
        m_autoFitTree = false;
    m_saveSettings = true;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_saveSettings) {
        QSettings settings;
        settings.setValue(geometryKey, saveGeometry());
        settings.setValue(windowStateKey, saveState());
        settings.setValue(splitterKey, m_splitter->saveState());
    }
    QMainWindow::closeEvent(event);
}

} // namespace dmtune
