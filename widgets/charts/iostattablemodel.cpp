#include "widgets/charts/iostattablemodel.h"

#include <QFont>

#include <cmath>

namespace dmtune {

IostatTableModel::IostatTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

const QList<Metric> &IostatTableModel::columnMetrics()
{
    return MetricCatalog::all(); // iostat -x text order, then inflight_r, inflight_w
}

namespace {

const QList<Metric> readColumns { Metric::ReadsPerSec, Metric::ReadKBPerSec, Metric::ReadMergesPerSec,
    Metric::ReadMergedPercent, Metric::ReadAwait, Metric::ReadRequestSize };
const QList<Metric> writeColumns { Metric::WritesPerSec, Metric::WriteKBPerSec, Metric::WriteMergesPerSec,
    Metric::WriteMergedPercent, Metric::WriteAwait, Metric::WriteRequestSize };
const QList<Metric> discardColumns { Metric::DiscardsPerSec, Metric::DiscardKBPerSec, Metric::DiscardMergesPerSec,
    Metric::DiscardMergedPercent, Metric::DiscardAwait, Metric::DiscardRequestSize };
const QList<Metric> flushColumns { Metric::FlushesPerSec, Metric::FlushAwait };
const QList<Metric> queueColumns { Metric::AverageQueueSize, Metric::Utilization };
const QList<Metric> inflightColumns { Metric::InflightReads, Metric::InflightWrites };

} // namespace

const QList<IostatTableModel::ColumnSet> &IostatTableModel::columnSets()
{
    static const QList<ColumnSet> sets { ColumnSet::FollowLoad, ColumnSet::Writes, ColumnSet::Reads, ColumnSet::Merges,
        ColumnSet::Latency, ColumnSet::All };
    return sets;
}

QList<Metric> IostatTableModel::columnsOf(ColumnSet set, Load load)
{
    switch (set) {
    case ColumnSet::FollowLoad:
        // Every column; the load's six, then the queue (what a tuning run watches), then the rest in iostat's order.
        switch (load) {
        case Load::Idle:
            return MetricCatalog::all();
        case Load::Reads:
            return readColumns + queueColumns + writeColumns + discardColumns + flushColumns + inflightColumns;
        case Load::Writes:
            return writeColumns + queueColumns + readColumns + discardColumns + flushColumns + inflightColumns;
        case Load::Discards:
            return discardColumns + queueColumns + writeColumns + readColumns + flushColumns + inflightColumns;
        }
        return MetricCatalog::all();
    case ColumnSet::Reads:
        return readColumns + queueColumns + QList<Metric> { Metric::InflightReads };
    case ColumnSet::Writes:
        return writeColumns + queueColumns + QList<Metric> { Metric::InflightWrites };
    case ColumnSet::Merges:
        // What a merge experiment is about: requests, merges, the share merged, the size issued.
        return { Metric::WritesPerSec, Metric::WriteMergesPerSec, Metric::WriteMergedPercent, Metric::WriteRequestSize,
            Metric::ReadsPerSec, Metric::ReadMergesPerSec, Metric::ReadMergedPercent, Metric::ReadRequestSize,
            Metric::AverageQueueSize };
    case ColumnSet::Latency:
        return { Metric::ReadAwait, Metric::WriteAwait, Metric::DiscardAwait, Metric::FlushAwait,
            Metric::AverageQueueSize, Metric::Utilization, Metric::InflightReads, Metric::InflightWrites };
    case ColumnSet::All:
        return MetricCatalog::all();
    }
    return MetricCatalog::all();
}

QString IostatTableModel::columnSetName(ColumnSet set)
{
    switch (set) {
    case ColumnSet::FollowLoad:
        return tr("Follow the load");
    case ColumnSet::Reads:
        return tr("Reads");
    case ColumnSet::Writes:
        return tr("Writes");
    case ColumnSet::Merges:
        return tr("Merges");
    case ColumnSet::Latency:
        return tr("Latency and queue");
    case ColumnSet::All:
        return tr("All (iostat -x order)");
    }
    return {};
}

QString IostatTableModel::columnSetToolTip(ColumnSet set)
{
    switch (set) {
    case ColumnSet::FollowLoad:
        return tr("Every column; those of what the devices mostly do (writes and their merges on a write "
                  "load, reads on a read load) first, then aqu-sz and %util");
    case ColumnSet::Reads:
        return QStringLiteral("r/s, rkB/s, rrqm/s, %rrqm, r_await, rareq-sz, aqu-sz, %util, inflight_r");
    case ColumnSet::Writes:
        return QStringLiteral("w/s, wkB/s, wrqm/s, %wrqm, w_await, wareq-sz, aqu-sz, %util, inflight_w");
    case ColumnSet::Merges:
        return tr("Requests, merges, share merged and request size, writes then reads");
    case ColumnSet::Latency:
        return tr("r_await, w_await, d_await, f_await, aqu-sz, %util and the requests in flight");
    case ColumnSet::All:
        return tr("Every column in iostat -x's order, then dmtune's in-flight pair");
    }
    return {};
}

IostatTableModel::Load IostatTableModel::nextLoad(
    Load shown, double readsPerSec, double writesPerSec, double discardsPerSec)
{
    const auto opsOf = [&](Load load) {
        switch (load) {
        case Load::Reads:
            return readsPerSec;
        case Load::Writes:
            return writesPerSec;
        case Load::Discards:
            return discardsPerSec;
        case Load::Idle:
            break;
        }
        return 0.0;
    };
    Load busiest = Load::Reads;
    for (Load load : { Load::Writes, Load::Discards }) {
        if (opsOf(load) > opsOf(busiest))
            busiest = load;
    }
    if (!(opsOf(busiest) > 0))
        return shown; // idle: the order stays as the last load left it
    if (shown == Load::Idle || busiest == shown)
        return busiest;
    // A mixed load near 50/50 does not flip the columns every interval.
    return opsOf(busiest) > 1.5 * opsOf(shown) ? busiest : shown;
}

void IostatTableModel::setColumnSet(ColumnSet set)
{
    if (set == m_columnSet)
        return;
    m_columnSet = set;
    Q_EMIT shownColumnsChanged();
}

void IostatTableModel::setRows(const QStringList &names)
{
    QStringList current;
    current.reserve(m_rows.size());
    for (const Row &r : std::as_const(m_rows))
        current.append(r.device);
    if (current == names)
        return;
    beginResetModel();
    QList<Row> rows;
    rows.reserve(names.size());
    for (const QString &name : names) {
        const qsizetype old = current.indexOf(name);
        rows.append(old >= 0 ? m_rows[old] : Row { name, {}, false });
    }
    m_rows = std::move(rows);
    endResetModel();
}

void IostatTableModel::setDevices(const QStringList &devices)
{
    m_fixed = devices;
    m_fixed.removeDuplicates();
    if (!m_fixed.isEmpty())
        setRows(m_fixed);
}

QStringList IostatTableModel::devices() const
{
    QStringList names;
    for (const Row &r : m_rows)
        names.append(r.device);
    return names;
}

void IostatTableModel::setDeviceLabels(const QHash<QString, QString> &labels)
{
    m_labels = labels;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, 0));
}

void IostatTableModel::setDeviceColors(const QHash<QString, QColor> &colors)
{
    m_colors = colors;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, 0), { Qt::DecorationRole });
}

QString IostatTableModel::labelOf(const QString &device) const
{
    return m_labels.value(device, device);
}

void IostatTableModel::setBatch(const SampleBatch &batch)
{
    if (m_fixed.isEmpty()) {
        QStringList names;
        names.reserve(batch.devices.size());
        for (const DeviceSample &d : batch.devices)
            names.append(d.name());
        setRows(names);
    }
    double reads = 0;
    double writes = 0;
    double discards = 0;
    for (Row &r : m_rows) {
        const DeviceSample *s = batch.find(r.device);
        r.present = s != nullptr;
        r.metrics = s ? s->metrics(batch.elapsedSeconds) : IostatMetrics {};
        if (r.present) {
            reads += r.metrics[Metric::ReadsPerSec];
            writes += r.metrics[Metric::WritesPerSec];
            discards += r.metrics[Metric::DiscardsPerSec];
        }
    }
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(
            index(0, 0), index(rowCount() - 1, columnCount() - 1), { Qt::DisplayRole, SortRole, Qt::ToolTipRole });
    const Load load = nextLoad(m_load, reads, writes, discards);
    if (load != m_load) {
        const QList<Metric> before = shownColumns();
        m_load = load;
        if (shownColumns() != before)
            Q_EMIT shownColumnsChanged();
    }
}

int IostatTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int IostatTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(columnMetrics().size()) + 1;
}

QVariant IostatTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[index.row()];
    if (role == DeviceRole)
        return row.device;
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            return labelOf(row.device);
        case Qt::DecorationRole: {
            const auto it = m_colors.constFind(row.device);
            return it == m_colors.constEnd() ? QVariant() : QVariant(*it);
        }
        case Qt::ToolTipRole:
            return row.present ? row.device : tr("%1: no sample in the newest interval").arg(row.device);
        default:
            return {};
        }
    }
    const Metric metric = metricAt(index.column());
    const double value = row.metrics[metric];
    const bool inflight = metric == Metric::InflightReads || metric == Metric::InflightWrites;
    switch (role) {
    case Qt::DisplayRole:
        if (!row.present)
            return {};
        if (inflight && std::isnan(value))
            return QStringLiteral("–"); // the split was not read
        return inflight ? QString::number(qint64(value)) : QString::number(value, 'f', 2);
    case SortRole:
        return row.present && !std::isnan(value) ? value : -1.0;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return MetricCatalog::tooltip(metric);
    default:
        return {};
    }
}

QVariant IostatTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (role) {
    case Qt::DisplayRole:
        return section == 0 ? QStringLiteral("Device") : MetricCatalog::column(metricAt(section));
    case Qt::ToolTipRole:
        return section == 0 ? tr("Kernel name (and label) of the device") : MetricCatalog::tooltip(metricAt(section));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(section == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace dmtune
