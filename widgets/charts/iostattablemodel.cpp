#include "charts/iostattablemodel.h"

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
    for (Row &r : m_rows) {
        const DeviceSample *s = batch.find(r.device);
        r.present = s != nullptr;
        r.metrics = s ? s->metrics(batch.elapsedSeconds) : IostatMetrics {};
    }
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(
            index(0, 0), index(rowCount() - 1, columnCount() - 1), { Qt::DisplayRole, SortRole, Qt::ToolTipRole });
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
            return row.present ? row.device : row.device + QStringLiteral(": no sample in the newest interval");
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
        return section == 0 ? QStringLiteral("Kernel name (and label) of the device")
                            : MetricCatalog::tooltip(metricAt(section));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(section == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace dmtune
