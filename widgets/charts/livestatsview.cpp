#include "widgets/charts/livestatsview.h"

#include "core/stats/samplesource.h"
#include "core/stats/seriesstore.h"
#include "widgets/charts/chartpanel.h"
#include "widgets/charts/chartstyle.h"
#include "widgets/charts/iostattablemodel.h"
#include "widgets/charts/samplecsv.h"
#include "widgets/charts/statsexportdialog.h"
#include "widgets/messagebanner.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMetaEnum>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace dmtune {

namespace {

QString windowText(int seconds)
{
    return seconds >= 3600 ? QStringLiteral("%1 h").arg(seconds / 3600) : QStringLiteral("%1 min").arg(seconds / 60);
}

enum EventColumn { EventTime, EventKind, EventLabel };
constexpr int MarkerIdRole = Qt::UserRole + 1;

} // namespace

const QList<int> &LiveStatsView::windowChoices()
{
    static const QList<int> choices { 60, 120, 300, 600, 900, 1800, 3600 };
    return choices;
}

const QList<int> &LiveStatsView::intervalChoicesMs()
{
    static const QList<int> choices { 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000 };
    return choices;
}

const QList<int> &LiveStatsView::retentionChoicesSeconds()
{
    static const QList<int> choices { 600, 3600, 6 * 3600, 24 * 3600 };
    return choices;
}

void LiveStatsView::setRetentionSeconds(int seconds)
{
    int index = m_retentionCombo->findData(seconds);
    if (index < 0) {
        m_retentionCombo->addItem(windowText(seconds), seconds);
        index = m_retentionCombo->count() - 1;
    }
    m_retentionCombo->setCurrentIndex(index);
}

int LiveStatsView::retentionSeconds() const
{
    return m_retentionCombo->currentData().toInt();
}

LiveStatsView::LiveStatsView(SampleSource *samples, const SeriesStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_sampler(samples)
{
    qRegisterMetaType<dmtune::SampleBatch>();
    buildUi();
    if (m_sampler)
        connect(m_sampler, &SampleSource::samplesAvailable, this, &LiveStatsView::onBatch);
    scrollToNow();
    updateStatus();
}

LiveStatsView::~LiveStatsView() = default;

void LiveStatsView::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);

    auto *controls = new QHBoxLayout;
    controls->setSpacing(6);
    auto *windowLabel = new QLabel(tr("&Window:"), this);
    m_windowCombo = new QComboBox(this);
    m_windowCombo->setObjectName(QStringLiteral("windowCombo"));
    windowLabel->setBuddy(m_windowCombo);
    for (int seconds : windowChoices())
        m_windowCombo->addItem(windowText(seconds), seconds);
    m_windowCombo->setCurrentIndex(int(windowChoices().indexOf(m_windowSeconds)));
    m_windowCombo->setToolTip(tr("Time shown by the charts (the history kept is set by Keep)"));
    connect(m_windowCombo, &QComboBox::activated, this,
        [this](int index) { setWindowSeconds(m_windowCombo->itemData(index).toInt()); });

    auto *intervalLabel = new QLabel(tr("E&very:"), this);
    m_intervalCombo = new QComboBox(this);
    m_intervalCombo->setObjectName(QStringLiteral("intervalCombo"));
    intervalLabel->setBuddy(m_intervalCombo);
    for (int ms : intervalChoicesMs())
        m_intervalCombo->addItem(
            ms < 1000 ? QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'g', 2) : QStringLiteral("%1 s").arg(ms / 1000), ms);
    m_intervalCombo->setToolTip(tr("Sampling interval: one read of every watched device per tick; rates "
                                   "divide by the real time between two reads"));
    if (m_sampler)
        m_intervalCombo->setCurrentIndex(std::max(0, m_intervalCombo->findData(m_sampler->interval())));
    m_intervalCombo->setEnabled(m_sampler != nullptr);
    connect(m_intervalCombo, &QComboBox::activated, this, [this](int index) {
        const int ms = m_intervalCombo->itemData(index).toInt();
        if (m_sampler && m_sampler->setInterval(ms)) {
            updateStatus();
            Q_EMIT intervalChosen(ms);
        }
    });

    auto *retentionLabel = new QLabel(tr("&Keep:"), this);
    m_retentionCombo = new QComboBox(this);
    m_retentionCombo->setObjectName(QStringLiteral("retentionCombo"));
    retentionLabel->setBuddy(m_retentionCombo);
    for (int seconds : retentionChoicesSeconds())
        m_retentionCombo->addItem(windowText(seconds), seconds);
    m_retentionCombo->setCurrentIndex(1);
    m_retentionCombo->setToolTip(tr("History kept at full resolution for every sampled device (older "
                                    "samples are dropped); about 3 to 46 bytes per device and interval"));
    connect(m_retentionCombo, &QComboBox::activated, this,
        [this](int index) { Q_EMIT retentionChosen(m_retentionCombo->itemData(index).toInt()); });

    m_pauseButton = new QToolButton(this);
    m_pauseButton->setObjectName(QStringLiteral("pauseButton"));
    m_pauseButton->setCheckable(true);
    m_pauseButton->setText(tr("Pause"));
    m_pauseButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_pauseButton->setToolTip(tr("Freeze the charts and the table; sampling goes on"));
    connect(m_pauseButton, &QToolButton::toggled, this, &LiveStatsView::setPaused);

    m_exportButton = new QToolButton(this);
    m_exportButton->setText(tr("Export…"));
    m_exportButton->setToolTip(
        tr("Choose the formats (each chart as PNG, PDF or SVG; the samples as CSV) and a folder; says what it wrote"));
    connect(m_exportButton, &QToolButton::clicked, this, &LiveStatsView::openExportDialog);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_liveControls = { windowLabel, m_windowCombo, retentionLabel, m_retentionCombo, m_pauseButton };
    // Without a sampler of its own (a fleet's host, fed frames by its poller) there is no interval to choose
    // here: hidden, not a disabled box.
    if (m_sampler)
        m_liveControls << intervalLabel << m_intervalCombo;
    intervalLabel->setVisible(m_sampler != nullptr);
    m_intervalCombo->setVisible(m_sampler != nullptr);
    controls->addWidget(windowLabel);
    controls->addWidget(m_windowCombo);
    controls->addWidget(intervalLabel);
    controls->addWidget(m_intervalCombo);
    controls->addWidget(retentionLabel);
    controls->addWidget(m_retentionCombo);
    controls->addWidget(m_pauseButton);
    controls->addWidget(m_exportButton);
    controls->addSpacing(12);
    controls->addWidget(m_status, 1);
    layout->addLayout(controls);

    m_noteBanner = new MessageBanner(this);
    m_noteBanner->setObjectName(QStringLiteral("noteBanner"));
    m_noteBanner->setTone(MessageTone::Information);
    m_noteBanner->label()->setTextFormat(Qt::PlainText);
    m_noteAction = new QPushButton(m_noteBanner);
    m_noteAction->setObjectName(QStringLiteral("noteAction"));
    m_noteBanner->addButton(m_noteAction);
    connect(m_noteAction, &QPushButton::clicked, this, &LiveStatsView::noteActionTriggered);
    m_noteBanner->hide();
    layout->addWidget(m_noteBanner);

    // Charts: one or two columns (layOutPanels), each at least ChartPanel::MinimumHeight high, in a scroll area.
    auto *grid = new QWidget;
    m_grid = new QGridLayout(grid);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(6);
    for (ChartPanelKind kind : ChartPanelSpec::kinds()) {
        auto *panel = new ChartPanel(kind, grid);
        connect(panel, &ChartPanel::userRangeChanged, this,
            [this, panel](double lower, double upper) { onUserRange(panel, lower, upper); });
        connect(panel, &ChartPanel::resumeRequested, this, [this] { setPaused(false); });
        connect(panel, &ChartPanel::exportFailed, this, &LiveStatsView::exportFailed);
        m_panels.append(panel);
    }
    layOutPanels(2);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidget(grid);
    connect(m_scroll->verticalScrollBar(), &QScrollBar::valueChanged, this, &LiveStatsView::replotExposed);

    // Table and events, below the charts. The table shows a column set (by default the columns of the load first:
    // with 24 columns only the first eight or so fit beside the device tree) and is as tall as its rows.
    m_tableModel = new IostatTableModel(this);
    m_tableProxy = new QSortFilterProxyModel(this);
    m_tableProxy->setSourceModel(m_tableModel);
    m_tableProxy->setSortRole(IostatTableModel::SortRole);
    m_tableProxy->setDynamicSortFilter(true);
    m_tableView = new QTableView(this);
    m_tableView->setObjectName(QStringLiteral("iostatTable"));
    m_tableView->setModel(m_tableProxy);
    m_tableView->setSortingEnabled(true);
    m_tableView->sortByColumn(-1, Qt::AscendingOrder); // the device order of the charts until a header click
    m_tableView->verticalHeader()->hide();
    m_tableView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_tableView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableView->setAlternatingRowColors(true);
    m_tableView->setWordWrap(false);
    m_tableView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // reserved in fitTableHeight()
    m_tableView->horizontalHeader()->setHighlightSections(false);
    m_tableView->horizontalHeader()->setDefaultSectionSize(
        fontMetrics().horizontalAdvance(QStringLiteral("9999999.99")) + 12);
    m_tableView->horizontalHeader()->resizeSection(
        0, fontMetrics().horizontalAdvance(QStringLiteral("mpatha (dm-10)")) + 36);
    connect(m_tableModel, &IostatTableModel::shownColumnsChanged, this, [this] {
        applyTableColumns();
        m_tableView->horizontalScrollBar()->setValue(0); // the columns that now come first
    });
    connect(m_tableModel, &QAbstractItemModel::modelReset, this, &LiveStatsView::fitTableHeight);

    m_columnCombo = new QComboBox(this);
    m_columnCombo->setObjectName(QStringLiteral("iostatColumns"));
    for (IostatTableModel::ColumnSet set : IostatTableModel::columnSets()) {
        m_columnCombo->addItem(IostatTableModel::columnSetName(set), int(set));
        m_columnCombo->setItemData(
            m_columnCombo->count() - 1, IostatTableModel::columnSetToolTip(set), Qt::ToolTipRole);
    }
    m_columnCombo->setToolTip(tr("The iostat -x columns the table shows"));
    m_columnCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The chosen set is the user's habit: kept across starts (by its enum key, so a reordered enum keeps it).
    const QMetaEnum columnSetKeys = QMetaEnum::fromType<IostatTableModel::ColumnSet>();
    bool knownSet = false;
    const int savedSet = columnSetKeys.keyToValue(
        QSettings().value(QStringLiteral("statistics/iostatColumns")).toString().toLatin1().constData(), &knownSet);
    if (knownSet)
        m_tableModel->setColumnSet(IostatTableModel::ColumnSet(savedSet));
    connect(m_columnCombo, &QComboBox::activated, this, [this, columnSetKeys](int index) {
        const auto set = IostatTableModel::ColumnSet(m_columnCombo->itemData(index).toInt());
        m_tableModel->setColumnSet(set);
        QSettings().setValue(
            QStringLiteral("statistics/iostatColumns"), QString::fromLatin1(columnSetKeys.valueToKey(int(set))));
    });
    auto *tableTitle = new QLabel(tr("iostat -x, newest interval"), this);
    auto *columnsLabel = new QLabel(tr("&Columns:"), this);
    columnsLabel->setBuddy(m_columnCombo);
    auto *tableRow = new QHBoxLayout;
    tableRow->setContentsMargins(0, 0, 0, 0);
    tableRow->setSpacing(6);
    tableRow->addWidget(tableTitle);
    tableRow->addStretch(1);
    tableRow->addWidget(columnsLabel);
    tableRow->addWidget(m_columnCombo);
    auto *tableBox = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->setSpacing(2);
    tableLayout->addLayout(tableRow);
    tableLayout->addWidget(m_tableView, 1);
    applyTableColumns();
    fitTableHeight();

    m_events = new QTreeWidget(this);
    m_events->setObjectName(QStringLiteral("eventList"));
    m_events->setColumnCount(3);
    m_events->setHeaderLabels({ tr("Time"), tr("Kind"), tr("Event") });
    m_events->setRootIsDecorated(false);
    m_events->setUniformRowHeights(true);
    m_events->setToolTip(tr("Markers on the charts. Double-click one to show its moment (pauses)."));
    m_events->header()->resizeSection(EventTime, fontMetrics().horizontalAdvance(QStringLiteral("00:00:00.000")) + 16);
    m_events->header()->resizeSection(
        EventKind, fontMetrics().horizontalAdvance(ChartMarker::kindName(MarkerKind::ParameterChange)) + 16);
    connect(m_events, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) { onEventActivated(item); });

    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(tableBox);
    bottom->addWidget(m_events);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_scroll);
    m_splitter->addWidget(bottom);
    m_splitter->setStretchFactor(0, 4);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    connect(m_splitter, &QSplitter::splitterMoved, this, &LiveStatsView::replotExposed);
    layout->addWidget(m_splitter, 1);
}

// ---- devices and window

void LiveStatsView::setNote(const QString &text, const QString &actionText)
{
    m_noteAction->setText(actionText);
    m_noteAction->setVisible(!actionText.isEmpty());
    m_noteBanner->setText(text); // empty hides
}

void LiveStatsView::setDevices(const QStringList &devices)
{
    QStringList names = devices;
    names.removeDuplicates();
    names.removeAll(QString());
    m_colors = chartstyle::assignColors(names, m_devices, m_colors);
    m_devices = names;

    QList<ChartDevice> chartDevices;
    QHash<QString, QColor> colors;
    for (qsizetype i = 0; i < m_devices.size(); ++i) {
        chartDevices.append({ m_devices[i], m_labels.value(m_devices[i]), m_colors[i] });
        colors.insert(m_devices[i], m_colors[i]);
    }
    for (ChartPanel *panel : std::as_const(m_panels))
        panel->setDevices(chartDevices);
    m_tableModel->setDevices(m_devices);
    m_tableModel->setDeviceColors(colors);
    fitTableHeight();
    rebuild();
    updateStatus();
}

void LiveStatsView::setDeviceLabels(const QHash<QString, QString> &labels)
{
    m_labels = labels;
    m_tableModel->setDeviceLabels(labels);
    if (!m_devices.isEmpty())
        setDevices(m_devices); // legends and graph names
}

void LiveStatsView::setTitlePrefix(const QString &prefix)
{
    for (ChartPanel *panel : std::as_const(m_panels))
        panel->setTitlePrefix(prefix);
}

QColor LiveStatsView::deviceColor(const QString &device) const
{
    const qsizetype i = m_devices.indexOf(device);
    return i >= 0 ? m_colors.value(i) : QColor();
}

void LiveStatsView::setWindowSeconds(int seconds)
{
    seconds = std::clamp(seconds, int(MinWindowSeconds), int(MaxWindowSeconds));
    const int index = m_windowCombo->findData(seconds);
    if (index >= 0) {
        m_windowCombo->setCurrentIndex(index);
    } else { // a value between the presets: shown, not added for good
        m_windowCombo->addItem(windowText(seconds), seconds);
        m_windowCombo->setCurrentIndex(m_windowCombo->count() - 1);
    }
    if (seconds == m_windowSeconds)
        return;
    m_windowSeconds = seconds;
    if (m_paused) {
        // Keep the moment in view, at the new width.
        for (ChartPanel *panel : std::as_const(m_panels))
            panel->showRange(panel->visibleUpper() - seconds, panel->visibleUpper());
        replotAll();
    } else {
        rebuild();
    }
    updateStatus();
    Q_EMIT windowSecondsChanged(seconds);
}

double LiveStatsView::currentNow() const
{
    return m_now > 0 ? m_now : double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

double LiveStatsView::newestInStore() const
{
    // Before the first batch "now" is the end of the history the view opens on. Decoding the histories costs
    // a little, once.
    double newest = 0;
    if (m_store) {
        for (const QString &device : m_devices) {
            const QList<TimedMetrics> history = m_store->history(device);
            if (!history.isEmpty())
                newest = std::max(newest, history.constLast().time);
        }
    }
    return newest;
}

double LiveStatsView::trimMargin() const
{
    // One interval more than the window, so that the line enters at the left edge instead of starting inside.
    return std::max(2 * m_lastElapsed, 2.0);
}

void LiveStatsView::rebuild()
{
    if (!m_haveBatch)
        m_now = newestInStore();
    const double now = currentNow();
    // Paused, the whole retained hour is loaded: the user pans over it.
    const double since = now - (m_paused ? MaxWindowSeconds : m_windowSeconds) - trimMargin();
    if (m_store) {
        // One pass over each device's history serves every series of every chart (SeriesStore::series would
        // decode it once per metric).
        QHash<QString, QList<TimedMetrics>> histories;
        for (const QString &device : std::as_const(m_devices))
            histories.insert(device, m_store->history(device, since));
        for (ChartPanel *panel : std::as_const(m_panels))
            panel->rebuild(histories, m_haveBatch ? m_lastSequence : 0, m_now);
    }
    if (m_paused) {
        for (ChartPanel *panel : std::as_const(m_panels))
            panel->showRange(panel->visibleLower(), panel->visibleUpper());
        replotAll();
    } else {
        scrollToNow();
    }
}

void LiveStatsView::scrollToNow()
{
    const double now = currentNow();
    for (ChartPanel *panel : std::as_const(m_panels)) {
        panel->trimBefore(now - m_windowSeconds - trimMargin());
        panel->showLive(now, m_windowSeconds);
    }
    replotAll();
}

// ---- batches

void LiveStatsView::onBatch(const SampleBatch &batch)
{
    m_haveBatch = true;
    m_now = double(batch.wallMs) / 1000.0;
    m_lastElapsed = batch.elapsedSeconds > 0 ? batch.elapsedSeconds : m_lastElapsed;
    m_lastSequence = batch.sequence;
    for (ChartPanel *panel : std::as_const(m_panels))
        panel->appendBatch(batch, m_now);
    if (m_paused) {
        // Keep taking samples in; drop only what the store would have dropped too.
        for (ChartPanel *panel : std::as_const(m_panels))
            panel->trimBefore(m_now - MaxWindowSeconds - trimMargin());
        m_heldBatch = batch;
        updateStatus();
        return;
    }
    m_tableModel->setBatch(batch);
    scrollToNow(); // removeBefore, setRange(now, window, AlignRight), one queued replot per chart
    updateStatus();
}

void LiveStatsView::replotAll()
{
    if (!isVisible()) {
        m_replotPending = true; // a hidden tab draws nothing; showEvent catches up
        return;
    }
    m_replotPending = false;
    // Charts scrolled out of view are drawn when they come back (replotExposed).
    for (ChartPanel *panel : std::as_const(m_panels)) {
        if (scrolledOut(panel)) {
            m_stalePanels.insert(panel);
        } else {
            m_stalePanels.remove(panel);
            panel->replotQueued();
        }
    }
}

bool LiveStatsView::scrolledOut(const ChartPanel *panel) const
{
    // From the layout, not visibleRegion(): that one is empty until the window is exposed.
    const QWidget *viewport = m_scroll->viewport();
    const QRect area(panel->mapTo(viewport, QPoint(0, 0)), panel->size());
    return !viewport->rect().intersects(area);
}

void LiveStatsView::replotExposed()
{
    for (auto it = m_stalePanels.begin(); it != m_stalePanels.end();) {
        if (scrolledOut(*it)) {
            ++it;
            continue;
        }
        (*it)->replotQueued();
        it = m_stalePanels.erase(it);
    }
}

void LiveStatsView::layOutPanels(int columns)
{
    if (columns == m_columns)
        return;
    m_columns = columns;
    for (ChartPanel *panel : std::as_const(m_panels))
        m_grid->removeWidget(panel);
    for (int i = 0; i < m_panels.size(); ++i) {
        const bool lastAlone = columns == 2 && i == m_panels.size() - 1 && m_panels.size() % 2 == 1;
        m_grid->addWidget(m_panels[i], i / columns, i % columns, 1, lastAlone ? 2 : 1);
    }
    const int rows = int((m_panels.size() + columns - 1) / columns);
    for (int row = 0; row < m_grid->rowCount(); ++row)
        m_grid->setRowStretch(row, row < rows ? 1 : 0);
    m_grid->setColumnStretch(0, 1);
    m_grid->setColumnStretch(1, columns == 2 ? 1 : 0);
}

void LiveStatsView::applyTableColumns()
{
    QHeaderView *header = m_tableView->horizontalHeader();
    const QList<Metric> shown = m_tableModel->shownColumns();
    // The Device column stays first (it is never moved); the shown metrics follow it in order.
    for (int i = 0; i < shown.size(); ++i) {
        const int logical = IostatTableModel::columnOf(shown[i]);
        const int from = header->visualIndex(logical);
        if (from != i + 1)
            header->moveSection(from, i + 1);
        header->showSection(logical);
    }
    for (Metric metric : IostatTableModel::columnMetrics()) {
        if (!shown.contains(metric))
            header->hideSection(IostatTableModel::columnOf(metric));
    }
    const int index = m_columnCombo ? m_columnCombo->findData(int(m_tableModel->columnSet())) : -1;
    if (index >= 0)
        m_columnCombo->setCurrentIndex(index);
}

void LiveStatsView::fitTableHeight()
{
    // Every row of a map and its paths without scrolling: the splitter keeps the table at least this tall (its
    // children do not collapse) and gives the charts the rest.
    const int rows = std::clamp(m_tableModel->rowCount(), 2, int(MaxFittedTableRows));
    const int height = m_tableView->horizontalHeader()->sizeHint().height()
        + rows * m_tableView->verticalHeader()->defaultSectionSize()
        + m_tableView->horizontalScrollBar()->sizeHint().height() + 2 * m_tableView->frameWidth();
    m_tableView->setMinimumHeight(height);
}

void LiveStatsView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Below ~1100 px a half-width chart clips the legend of a map with four paths.
    layOutPanels(width() >= 1100 ? 2 : 1);
}

void LiveStatsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_replotPending)
        replotAll();
}

// ---- pause, zoom and pan

void LiveStatsView::setPaused(bool paused)
{
    if (m_replay && !paused)
        return; // a recording has no "now" to scroll to
    if (paused == m_paused)
        return;
    m_paused = paused;
    {
        const QSignalBlocker blocker(m_pauseButton);
        m_pauseButton->setChecked(paused);
    }
    m_pauseButton->setText(paused ? tr("Resume") : tr("Pause"));
    if (paused) {
        rebuild(); // the retained hour, to pan over
    } else {
        if (m_heldBatch) {
            m_tableModel->setBatch(*m_heldBatch);
            m_heldBatch.reset();
        }
        scrollToNow();
    }
    updateStatus();
    Q_EMIT pausedChanged(paused);
}

void LiveStatsView::onUserRange(ChartPanel *source, double lower, double upper)
{
    setPaused(true);
    // All charts show the same moment.
    for (ChartPanel *panel : std::as_const(m_panels)) {
        if (panel != source)
            panel->showRange(lower, upper);
    }
    replotAll();
}

void LiveStatsView::onEventActivated(QTreeWidgetItem *item)
{
    const int id = item->data(EventTime, MarkerIdRole).toInt();
    for (const ChartMarker &m : std::as_const(m_markers)) {
        if (m.id != id)
            continue;
        setPaused(true);
        const double half = m_windowSeconds / 2.0;
        for (ChartPanel *panel : std::as_const(m_panels))
            panel->showRange(m.time - half, m.time + half);
        replotAll();
        return;
    }
}

// ---- markers

int LiveStatsView::addMarker(double epochSeconds, const QString &label, MarkerKind kind)
{
    ChartMarker marker;
    marker.id = m_nextMarkerId++;
    marker.time = epochSeconds;
    marker.label = label;
    marker.kind = kind;
    m_markers.append(marker);
    for (ChartPanel *panel : std::as_const(m_panels))
        panel->addMarker(marker);

    auto *item = new QTreeWidgetItem;
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(epochSeconds * 1000)));
    item->setText(EventTime, at.toString(QStringLiteral("hh:mm:ss.zzz")));
    item->setToolTip(EventTime, at.toString(Qt::ISODateWithMs));
    item->setData(EventTime, MarkerIdRole, marker.id);
    item->setText(EventKind, ChartMarker::kindName(kind));
    item->setForeground(
        EventKind, messagestyle::readableOn(chartstyle::markerColor(kind), palette().color(QPalette::Base)));
    item->setText(EventLabel, label);
    item->setToolTip(EventLabel, label);
    // In time order: a marker may be added for a moment already past.
    int row = m_events->topLevelItemCount();
    while (row > 0) {
        const int previousId = m_events->topLevelItem(row - 1)->data(EventTime, MarkerIdRole).toInt();
        const auto previous = std::find_if(
            m_markers.cbegin(), m_markers.cend(), [previousId](const ChartMarker &m) { return m.id == previousId; });
        if (previous == m_markers.cend() || previous->time <= epochSeconds)
            break;
        --row;
    }
    m_events->insertTopLevelItem(row, item);
    m_events->scrollToItem(item);
    replotAll();
    Q_EMIT markerAdded(marker);
    return marker.id;
}

void LiveStatsView::removeMarker(int id)
{
    m_markers.erase(
        std::remove_if(m_markers.begin(), m_markers.end(), [id](const ChartMarker &m) { return m.id == id; }),
        m_markers.end());
    for (ChartPanel *panel : std::as_const(m_panels))
        panel->removeMarker(id);
    Q_EMIT markerRemoved(id);
    for (int i = 0; i < m_events->topLevelItemCount(); ++i) {
        if (m_events->topLevelItem(i)->data(EventTime, MarkerIdRole).toInt() == id) {
            delete m_events->takeTopLevelItem(i);
            break;
        }
    }
    replotAll();
}

void LiveStatsView::clearMarkers()
{
    m_markers.clear();
    for (ChartPanel *panel : std::as_const(m_panels))
        panel->clearMarkers();
    m_events->clear();
    Q_EMIT markersCleared();
    replotAll();
}

// ---- export

Status LiveStatsView::exportChart(ChartPanelKind kind, const QString &path, int width, int height)
{
    ChartPanel *p = panel(kind);
    if (!p)
        return Status::failure(tr("no such chart"));
    return p->exportTo(path, width, height);
}

Result<QStringList> LiveStatsView::exportAll(const QString &directory, int width, int height)
{
    const statsexport::Outcome outcome
        = exportFiles(directory, statsexport::everyFormat(), ExistingFile::Replace, width, height);
    if (!outcome.ok())
        return Result<QStringList>::failure(outcome.status.errorMessage());
    return outcome.written;
}

QStringList LiveStatsView::chartIds() const
{
    QStringList ids;
    for (const ChartPanel *p : m_panels)
        ids << p->spec().id;
    return ids;
}

statsexport::Outcome LiveStatsView::exportFiles(
    const QString &directory, statsexport::Formats formats, ExistingFile existing, int width, int height)
{
    QHash<QString, ChartPanel *> byId;
    for (ChartPanel *p : std::as_const(m_panels))
        byId.insert(p->spec().id, p);
    const statsexport::Outcome outcome = statsexport::writeFiles(directory, statsexport::fileNames(chartIds(), formats),
        existing, [&](const QString &name, const QString &path) {
            if (name == statsexport::csvFileName())
                return exportCsv(path);
            ChartPanel *p = byId.value(QFileInfo(name).completeBaseName());
            return p ? p->exportTo(path, width, height) : Status::failure(tr("%1: no such chart").arg(name));
        });
    replotAll(); // the exports drew the charts at another size
    return outcome;
}

Status LiveStatsView::exportCsv(const QString &path) const
{
    if (!m_store)
        return Status::failure(tr("%1: no sample history to export").arg(path));
    return samplecsv::write(path, *m_store, m_devices);
}

StatsExportDialog *LiveStatsView::openExportDialog()
{
    QSettings settings;
    QString parent = settings.value(QStringLiteral("statistics/exportParent")).toString();
    if (parent.isEmpty() || !QFileInfo(parent).isDir())
        parent = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (parent.isEmpty() || !QFileInfo(parent).isDir())
        parent = QDir::homePath();
    const auto formats = statsexport::Formats::fromInt(
        settings.value(QStringLiteral("statistics/exportFormats"), statsexport::everyFormat().toInt()).toInt());
    QStringList titles, devices;
    for (const ChartPanel *p : std::as_const(m_panels))
        titles << p->spec().title;
    for (const QString &d : std::as_const(m_devices))
        devices << m_labels.value(d, d);
    auto *dialog = new StatsExportDialog(chartIds(), titles, devices.join(QStringLiteral(", ")),
        StatsExportDialog::freshDirectory(parent), formats ? formats : statsexport::everyFormat(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &StatsExportDialog::exportRequested, this,
        [this](const QString &directory, statsexport::Formats chosen, ExistingFile existing) {
            QSettings remember;
            remember.setValue(QStringLiteral("statistics/exportParent"), QFileInfo(directory).absolutePath());
            remember.setValue(QStringLiteral("statistics/exportFormats"), chosen.toInt());
            const statsexport::Outcome outcome = exportFiles(directory, chosen, existing);
            const QString text = statsexport::describe(outcome, chartIds(), chosen);
            if (!m_exportBanner) {
                // Under the controls, above the charts; it stays until closed or the next export.
                m_exportBanner = new MessageBanner(this);
                m_exportBanner->setObjectName(QStringLiteral("exportBanner"));
                m_exportBanner->label()->setTextFormat(Qt::PlainText);
                m_exportBanner->setCloseButtonVisible(true);
                if (auto *box = qobject_cast<QVBoxLayout *>(layout()))
                    box->insertWidget(1, m_exportBanner);
            }
            m_exportBanner->showMessage(outcome.ok() ? MessageTone::Positive : MessageTone::Error, text);
            if (outcome.ok())
                Q_EMIT exported(outcome.directory, outcome.written, text);
            else
                Q_EMIT exportFailed(text);
        });
    dialog->open();
    return dialog;
}

// ---- status

QString LiveStatsView::statusText() const
{
    return m_status->text();
}

void LiveStatsView::setReplay(bool replay)
{
    m_replay = replay;
    for (QWidget *w : std::as_const(m_liveControls))
        w->setVisible(!replay);
    if (replay)
        setPaused(true);
    updateStatus();
}

void LiveStatsView::updateStatus()
{
    QString text;
    if (m_devices.isEmpty())
        text = tr("No device selected");
    else
        text = m_devices.size() == 1 ? tr("1 device") : tr("%1 devices").arg(m_devices.size());
    if (m_sampler)
        text += QStringLiteral(" · ") + tr("every %1 s").arg(m_sampler->interval() / 1000.0, 0, 'g', 3);
    if (m_replay) {
        text += QStringLiteral(" · ") + tr("Recorded: drag to pan, Ctrl+wheel to zoom");
    } else if (m_paused) {
        text += QStringLiteral(" · ") + tr("Paused, still sampling: drag to pan, Ctrl+wheel to zoom");
    } else {
        text += QStringLiteral(" · ") + tr("Live, last %1").arg(windowText(m_windowSeconds));
        if (m_haveBatch)
            text += QStringLiteral(" · ")
                + QDateTime::fromMSecsSinceEpoch(qint64(m_now * 1000)).toString(QStringLiteral("hh:mm:ss"));
    }
    m_status->setText(text);
}

} // namespace dmtune
