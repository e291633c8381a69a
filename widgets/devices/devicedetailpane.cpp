#include "widgets/devices/devicedetailpane.h"

#include "core/jobs/jobtracker.h"
#include "widgets/anywherewrapdelegate.h"
#include "widgets/devices/devicelabels.h"
#include "widgets/devices/deviceproperties.h"
#include "widgets/devices/queueattributemodel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace dmtune {

namespace {

// Admins paste WWIDs and values into commands: Ctrl+C copies the selected cells, tab-separated.
void addCopyAction(QTableView *view)
{
    auto *copy = new QAction(QCoreApplication::translate("DeviceDetailPane", "Copy"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    view->addAction(copy);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    QObject::connect(copy, &QAction::triggered, view, [view] {
        QModelIndexList indexes = view->selectionModel()->selectedIndexes();
        std::sort(indexes.begin(), indexes.end());
        QString text;
        int lastRow = -1;
        for (const auto &index : std::as_const(indexes)) {
            if (lastRow != -1)
                text += index.row() == lastRow ? QLatin1Char('\t') : QLatin1Char('\n');
            text += index.data().toString();
            lastRow = index.row();
        }
        QApplication::clipboard()->setText(text);
    });
}

// Long values (dm table lines, backing file paths) wrap instead of being cut: the label column
// fits its text, the value column takes the rest and rows grow to what they hold.
void setUpWrappingTable(QTableView *view, int stretchColumn)
{
    view->setWordWrap(true);
    view->setTextElideMode(Qt::ElideNone);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    view->setItemDelegateForColumn(stretchColumn, new AnywhereWrapDelegate(view));
    view->horizontalHeader()->setStretchLastSection(false);
    view->horizontalHeader()->setHighlightSections(false);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    addCopyAction(view);
}

QString titleHtml(const QString &name, const QStringList &facts)
{
    QStringList escaped;
    for (const auto &fact : facts) {
        if (!fact.isEmpty())
            escaped.append(fact.toHtmlEscaped());
    }
    return QStringLiteral("<span style=\"font-size:large; font-weight:600\">%1</span>&nbsp;&nbsp;%2")
        .arg(name.toHtmlEscaped(), escaped.join(QStringLiteral(" · ")));
}

} // namespace

DeviceDetailPane::DeviceDetailPane(SysfsRoot sysfs, QWidget *parent)
    : QWidget(parent)
    , m_sysfs(std::move(sysfs))
{
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_properties = new QTableWidget(0, 2, this);
    m_properties->setHorizontalHeaderLabels({ tr("Property"), tr("Value") });
    setUpWrappingTable(m_properties, 1);

    m_queuePanel = new QWidget(this);
    m_queueSummary = new QLabel(m_queuePanel);
    m_queueSummary->setWordWrap(true);
    m_queueSummary->setTextFormat(Qt::RichText);
    m_queueSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_queueFilter = new QLineEdit(m_queuePanel);
    m_queueFilter->setPlaceholderText(tr("Filter attributes"));
    m_queueFilter->setClearButtonEnabled(true);
    m_queueModel = new QueueAttributeModel(this);
    m_queueProxy = new QSortFilterProxyModel(this);
    m_queueProxy->setSourceModel(m_queueModel);
    m_queueProxy->setFilterKeyColumn(QueueAttributeModel::AttributeColumn);
    m_queueProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_queueFilter, &QLineEdit::textChanged, m_queueProxy, &QSortFilterProxyModel::setFilterFixedString);
    m_queueView = new QTableView(m_queuePanel);
    m_queueView->setModel(m_queueProxy);
    setUpWrappingTable(m_queueView, QueueAttributeModel::ValueColumn);
    m_queueView->setSortingEnabled(true);
    m_queueView->sortByColumn(QueueAttributeModel::AttributeColumn, Qt::AscendingOrder);

    auto *queueHeader = new QHBoxLayout;
    queueHeader->addWidget(m_queueSummary, 1);
    queueHeader->addWidget(m_queueFilter);
    auto *queueLayout = new QVBoxLayout(m_queuePanel);
    queueLayout->setContentsMargins(0, 0, 0, 0);
    queueLayout->addLayout(queueHeader);
    queueLayout->addWidget(m_queueView, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_properties);
    m_splitter->addWidget(m_queuePanel);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);

    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSizedSplit = true; });
    m_fitTimer = new QTimer(this);
    m_fitTimer->setSingleShot(true);
    m_fitTimer->setInterval(0);
    connect(m_fitTimer, &QTimer::timeout, this, &DeviceDetailPane::fitSplitToProperties);

    m_jobs = new JobTracker(this, JobTracker::Order::Parallel);
    m_queueRefresh = new QTimer(this);
    m_queueRefresh->setInterval(2000);
    connect(m_queueRefresh, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_queuePanel->isHidden() && !m_queueDevice.isEmpty() && !m_readingQueue)
            showQueue(m_queueDevice, m_queuePartition);
    });
    m_queueRefresh->start();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_splitter, 1);
    rebuild();
}

void DeviceDetailPane::setSnapshot(const DeviceSnapshot &snapshot)
{
    m_snapshot = snapshot;
    rebuild();
}

void DeviceDetailPane::showDevice(const QString &name)
{
    if (name == m_device && !name.isEmpty())
        return;
    m_device = name;
    m_queueFilter->clear();
    rebuild();
}

QString DeviceDetailPane::queueSummary() const
{
    return m_queueSummary->text();
}

// The properties get the height they need (a loop device has ten rows, a multipath map forty),
// the queue table the rest: until the user drags the handle, then their choice stands.
void DeviceDetailPane::fitSplitToProperties()
{
    if (m_userSizedSplit || m_queuePanel->isHidden())
        return;
    m_properties->resizeRowsToContents();
    const int wanted = m_properties->horizontalHeader()->height() + m_properties->verticalHeader()->length()
        + 2 * m_properties->frameWidth();
    const int total = m_splitter->height() - m_splitter->handleWidth();
    if (total <= 0)
        return;
    const int top = qBound(qMin(120, total / 2), wanted, total * 55 / 100);
    m_splitter->setSizes({ top, total - top });
}

void DeviceDetailPane::setMachineName(const QString &name)
{
    m_machineName = name.isEmpty() ? tr("This machine") : name; // a host session names only a remote host
    rebuild();
}

void DeviceDetailPane::rebuild()
{
    if (m_device.isEmpty()) {
        m_title->setText(titleHtml(m_machineName,
            { tr("kernel %1").arg(m_snapshot.kernelRelease.isEmpty() ? tr("unknown") : m_snapshot.kernelRelease) }));
        showProperties(describeSnapshot(m_snapshot, m_machineName));
        m_queuePanel->hide();
        return;
    }
    m_queuePanel->show();
    if (const BlockDevice *device = m_snapshot.device(m_device)) {
        QString name = device->name;
        if (const MultipathMap *map = device->kind == DeviceKind::Multipath ? m_snapshot.map(device->name) : nullptr)
            name = QStringLiteral("%1 (%2)").arg(map->name, device->name);
        m_title->setText(
            titleHtml(name, { deviceKindLabel(device->kind), formatSize(device->sizeBytes), identityText(*device) }));
        showProperties(describeDevice(m_snapshot, m_device));
        showQueue(device->name, QString());
        return;
    }
    if (const BlockDevice *disk = diskOfPartition(m_snapshot, m_device)) {
        m_title->setText(titleHtml(m_device, { tr("partition of %1").arg(disk->name) }));
        showProperties(describeDevice(m_snapshot, m_device));
        showQueue(disk->name, m_device);
        return;
    }
    m_title->setText(titleHtml(m_device, { tr("no longer present") }));
    showProperties({ { tr("Device"), tr("%1 is not in the latest scan (removed?)").arg(m_device), false } });
    m_queuePanel->hide();
}

void DeviceDetailPane::showProperties(const QList<PropertyRow> &rows)
{
    m_properties->clearSpans();
    m_properties->setRowCount(int(rows.size()));
    QFont headingFont = font();
    headingFont.setBold(true);
    const QBrush headingBackground = palette().brush(QPalette::Button);
    for (int row = 0; row < rows.size(); ++row) {
        const PropertyRow &p = rows[row];
        auto *label = new QTableWidgetItem(p.label);
        label->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        if (p.heading) {
            label->setFont(headingFont);
            label->setBackground(headingBackground);
            m_properties->setItem(row, 0, label);
            m_properties->setItem(row, 1, nullptr);
            m_properties->setSpan(row, 0, 1, 2);
            continue;
        }
        auto *value = new QTableWidgetItem(p.value);
        value->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        value->setToolTip(p.value);
        m_properties->setItem(row, 0, label);
        m_properties->setItem(row, 1, value);
    }
    // After layout: row heights depend on the column widths the table gets.
    m_fitTimer->start();
}

void DeviceDetailPane::showQueue(const QString &device, const QString &partition)
{
    const bool another = device != m_queueDevice || partition != m_queuePartition;
    m_queueDevice = device;
    m_queuePartition = partition;
    if (another) {
        // Not the last device's values under this one's name while its queue is read.
        m_queueModel->setAttributes({});
        m_queueSummary->setText(tr("<b>Queue</b> of %1: <i>reading…</i>").arg(device.toHtmlEscaped()));
    }
    m_readingQueue = true;
    // Dozens of files, some computed by the driver on each read: off the UI thread.
    m_jobs->startLatest(
        QStringLiteral("queue"), QStringLiteral("read the queue of %1").arg(device),
        [sysfs = m_sysfs, device](JobContext &) { return readQueueAttributes(sysfs, device); },
        [this, device, partition](const QueueAttributes &queue) {
            m_readingQueue = false;
            if (device != m_queueDevice || partition != m_queuePartition)
                return; // another device is shown now; its own read is on its way
            showQueueAttributes(queue);
            Q_EMIT queueRead();
        });
}

void DeviceDetailPane::showQueueAttributes(const QueueAttributes &queue)
{
    const QString &device = m_queueDevice;
    const QString &partition = m_queuePartition;
    m_queueModel->setAttributes(queue.attributes);
    QString summary;
    if (!partition.isEmpty())
        summary = tr("%1 is a partition and shares the queue of %2.").arg(partition, device) + QLatin1Char(' ');
    if (!queue.present) {
        summary += tr("<b>Queue attributes:</b> %1 has no queue directory (%2 not found).")
                       .arg(device, m_sysfs.path(queue.directory).toHtmlEscaped());
    } else {
        summary += tr("<b>Queue</b> %1: %2 attributes, <b>%3 writable</b>")
                       .arg(queue.directory.toHtmlEscaped())
                       .arg(queue.attributes.size())
                       .arg(queue.writableCount());
        if (!m_sysfs.isLive())
            summary += QStringLiteral(" · ") + tr("captured tree, read-only");
    }
    m_queueSummary->setText(summary);
    m_queueSummary->setToolTip(tr("Writable (bold) comes from each file's mode bits; the kernel still checks "
                                  "every value written, and writing needs root."));
    m_queueView->setVisible(!queue.attributes.isEmpty());
    m_queueFilter->setVisible(!queue.attributes.isEmpty());
}

} // namespace dmtune
