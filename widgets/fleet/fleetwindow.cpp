#include "widgets/fleet/fleetwindow.h"

#include "core/stats/seriesstore.h"
#include "core/util/inputfile.h"
#include "widgets/charts/livestatsview.h"
#include "widgets/fleet/fleetmodel.h"
#include "widgets/windowfit.h"

#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace dmtune {

FleetWindow::FleetWindow(QWidget *parent)
    : QWidget(parent)
    , m_model(new FleetModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_poller(new FleetPoller(this))
{
    setWindowTitle(tr("Fleet — dmtune"));
    m_filter = new QLineEdit;
    m_filter->setObjectName(u"fleetFilter"_s);
    m_filter->setPlaceholderText(tr("Filter hosts and devices"));
    m_filter->setClearButtonEnabled(true);
    m_interval = new QSpinBox;
    m_interval->setObjectName(u"fleetInterval"_s);
    m_interval->setRange(FleetPoller::MinIntervalSeconds, FleetPoller::MaxIntervalSeconds);
    m_interval->setValue(FleetPoller::DefaultIntervalSeconds);
    m_interval->setSuffix(tr(" s"));
    m_interval->setToolTip(tr("How often every host is asked for its counters"));
    m_status = new QLabel;
    m_status->setObjectName(u"fleetStatus"_s);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(new QLabel(tr("Every")));
    bar->addWidget(m_interval);
    bar->addWidget(m_status);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FleetModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(FleetModel::NameColumn);
    m_proxy->setRecursiveFilteringEnabled(true); // a device that matches keeps its host
    m_proxy->setAutoAcceptChildRows(true); // a host that matches keeps its devices
    m_view = new QTreeView;
    m_view->setObjectName(u"fleetView"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(FleetModel::UtilColumn, Qt::DescendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(true);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->setColumnWidth(FleetModel::NameColumn, 220);
    for (int column = FleetModel::UtilColumn; column < FleetModel::StatusColumn; ++column)
        m_view->setColumnWidth(column, column >= FleetModel::DevicesColumn ? 110 : 78);

    m_chartsHint = new QLabel(tr("Select a device to chart it from its host's source."));
    m_chartsHint->setAlignment(Qt::AlignCenter);
    m_chartsHint->setEnabled(false);
    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_chartsHint);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_splitter, 1);

    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &FleetWindow::showContextMenu);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_interval, &QSpinBox::valueChanged, m_poller, &FleetPoller::setIntervalSeconds);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex &current) { onCurrentChanged(current); });
    connect(m_poller, &FleetPoller::hostOpened, this, [this](int host, const QString &text, const QStringList &limits) {
        m_model->setDescription(host, text, limits);
    });
    connect(m_poller, &FleetPoller::summaryReady, this, [this](int host, const FleetHostSummary &summary) {
        m_model->setSummary(host, summary);
        updateStatus();
    });
    connect(m_poller, &FleetPoller::hostFailed, this, [this](int host, const QString &message) {
        m_model->setError(host, message);
        updateStatus();
    });
    connect(m_poller, &FleetPoller::framesFetched, this, &FleetWindow::onFrames);
    windowfit::resizeOnScreen(this, { 1280, 720 });
}

FleetWindow::~FleetWindow() = default;

void FleetWindow::setHosts(const QList<FleetHost> &hosts)
{
    const bool hasTargets = std::any_of(hosts.begin(), hosts.end(), [](const FleetHost &host) {
        return host.kind == FleetHost::Kind::PrometheusTargets || host.kind == FleetHost::Kind::PcpFind;
    });
    if (hasTargets) {
        // The servers' instances are asked on a job; the table fills when they are known.
        m_status->setText(tr("Listing the Prometheus servers' instances and probing for pmcds…"));
        m_jobs.startLatest(
            u"expand"_s, u"list the Prometheus servers' instances"_s,
            [hosts](JobContext &) {
                std::pair<QList<FleetHost>, QHash<QString, QString>> out;
                out.first = expandFleetHosts(hosts, &out.second);
                return out;
            },
            [this](
                const std::pair<QList<FleetHost>, QHash<QString, QString>> &expanded) { showHosts(expanded.first); });
        return;
    }
    showHosts(hosts);
}

void FleetWindow::showHosts(const QList<FleetHost> &hosts)
{
    m_chartHost = -1;
    m_chartDevices.clear();
    delete m_charts;
    m_charts = nullptr;
    m_store.reset();
    m_chartsHint->show();
    m_lastFrames = QList<std::pair<CounterFrame, CounterFrame>>(hosts.size());
    m_model->setHosts(hosts);
    m_poller->setIntervalSeconds(m_interval->value());
    m_poller->setHosts(hosts);
    m_poller->start();
    updateStatus();
}

bool FleetWindow::openHostsFile(const QString &path, QString *errorMessage)
{
    // A hosts file is a small regular file: /dev/zero or a FIFO is one line, not a frozen window.
    const auto bytes = readInputFile(path, TextInputCap, tr("a hosts file"));
    if (!bytes) {
        *errorMessage = bytes.errorMessage();
        return false;
    }
    const Result<QList<FleetHost>> hosts = parseFleetHosts(QString::fromUtf8(bytes.value()));
    if (!hosts) {
        *errorMessage = tr("%1: %2").arg(path, hosts.errorMessage());
        return false;
    }
    setWindowTitle(tr("Fleet %1 — dmtune").arg(path));
    setHosts(hosts.value());
    return true;
}

QString FleetWindow::agentHostName(const FleetHost &host)
{
    // HOST, HOST:PORT, [v6]:PORT, or a URL's instance label (host:9100): the host part.
    QString address = host.kind == FleetHost::Kind::Pcp ? host.address
        : host.kind == FleetHost::Kind::Prometheus      ? host.instance
                                                        : QString();
    if (address.startsWith(u'['))
        return address.mid(1).section(u']', 0, 0);
    if (address.count(u':') == 1)
        address = address.section(u':', 0, 0);
    return address;
}

void FleetWindow::showContextMenu(const QPoint &at)
{
    const QModelIndex index = m_proxy->mapToSource(m_view->indexAt(at));
    const int host = index.isValid() ? FleetModel::hostOf(index) : -1;
    if (host < 0 || host >= m_poller->hosts().size() || !m_agentOpener)
        return;
    const QString name = agentHostName(m_poller->hosts().at(host));
    auto *menu = new QMenu(this); // popped up, not exec'd: no nested event loop
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QAction *open
        = menu->addAction(tr("Open %1 with dmtune's agent (ssh)…").arg(name.isEmpty() ? tr("the host") : name));
    open->setObjectName(u"openWithAgent"_s);
    open->setEnabled(!name.isEmpty());
    if (name.isEmpty())
        open->setToolTip(tr("This machine: its own window is the main window."));
    connect(open, &QAction::triggered, this, [this, name] { m_agentOpener(name); });
    menu->popup(m_view->viewport()->mapToGlobal(at));
}

FleetWindow *FleetWindow::openWindow(const QString &path, QWidget *parent, QString *errorMessage)
{
    auto *window = new FleetWindow(parent);
    window->setWindowFlag(Qt::Window);
    window->setAttribute(Qt::WA_DeleteOnClose);
    if (!window->openHostsFile(path, errorMessage)) {
        delete window;
        return nullptr;
    }
    window->show();
    return window;
}

void FleetWindow::onCurrentChanged(const QModelIndex &current)
{
    const QModelIndex source = m_proxy->mapToSource(current);
    const QString device = source.siblingAtColumn(FleetModel::NameColumn).data(FleetModel::DeviceRole).toString();
    if (!device.isEmpty())
        showDevice(FleetModel::hostOf(source), device);
}

void FleetWindow::showDevice(int host, const QString &device)
{
    if (host < 0 || host >= m_lastFrames.size())
        return;
    const CounterFrame &cur = m_lastFrames[host].second;
    QStringList devices { device };
    const auto paths = cur.pathsOf.constFind(device);
    if (paths != cur.pathsOf.constEnd())
        devices += paths.value();
    if (host == m_chartHost && devices == m_chartDevices)
        return;
    m_chartHost = host;
    m_chartDevices = devices;
    m_chartSequence = 0;
    auto store = std::make_unique<SeriesStore>();
    std::swap(store, m_store); // the old view still reads the old store until it is deleted below
    // The view reads the store only on rebuilds: a fresh view and store per device set.
    delete m_charts;
    m_charts = new LiveStatsView(nullptr, m_store.get());
    m_charts->setObjectName(u"fleetCharts"_s);
    m_splitter->addWidget(m_charts);
    m_chartsHint->hide();
    // The table keeps a good part of the window: the charts' own minimum would otherwise squeeze it to a few rows.
    const int height = m_splitter->height();
    m_splitter->setSizes({ height * 2 / 5, 0, height - height * 2 / 5 });
    m_splitter->setStretchFactor(2, 1);
    m_charts->setTitlePrefix(m_model->hosts()[host].displayName());
    QHash<QString, QString> labels;
    for (const QString &name : std::as_const(devices)) {
        if (const QString map = cur.dmNames.value(name); !map.isEmpty())
            labels.insert(name, u"%1 (%2)"_s.arg(map, name));
    }
    m_charts->setDeviceLabels(labels);
    m_charts->setDevices(devices);
    const bool isMap = device.startsWith("dm-"_L1) || cur.dmNames.contains(device);
    m_charts->setNote(isMap && paths == cur.pathsOf.constEnd()
            ? tr("This source does not say which paths the map has: the map alone is charted.")
            : QString());
    // The newest interval at once, so the charts do not start empty.
    if (m_lastFrames[host].first.timeNs > 0)
        onFrames(host, m_lastFrames[host].first, cur);
}

void FleetWindow::onFrames(int host, const CounterFrame &prev, const CounterFrame &cur)
{
    if (host < 0 || host >= m_lastFrames.size())
        return;
    m_lastFrames[host] = { prev, cur };
    if (host != m_chartHost || !m_charts || prev.timeNs == 0 || cur.timeNs <= prev.timeNs || cur.afterGap)
        return;
    SampleBatch batch = batchBetween(prev, cur, m_chartDevices);
    batch.sequence = ++m_chartSequence;
    m_store->append(batch);
    m_charts->onBatch(batch);
}

void FleetWindow::updateStatus()
{
    int answered = 0;
    int failed = 0;
    for (int host = 0; host < m_model->hosts().size(); ++host) {
        if (m_model->hasError(host))
            ++failed;
        else if (m_model->summary(host))
            ++answered;
    }
    m_status->setText(tr("%n host(s)", nullptr, int(m_model->hosts().size())) + u" · "_s
        + tr("%1 answering, %2 failing").arg(answered).arg(failed));
}

} // namespace dmtune
