#include "widgets/fleet/fleetmodel.h"

#include "widgets/messagestyle.h"

#include <QDateTime>
#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace dmtune {

namespace {

// Host rows carry internal id 0; a device row the host's row + 1.
constexpr quintptr HostId = 0;

QString figure(double value, int decimals)
{
    return std::isfinite(value) ? QLocale().toString(value, 'f', decimals) : QStringLiteral("–");
}

QVariant sortValue(double value)
{
    return std::isfinite(value) ? value : -1.0; // unknown below every real figure
}

QString countOrUnknown(const std::optional<int> &count)
{
    return count ? QString::number(*count) : FleetModel::tr("unknown");
}

} // namespace

FleetModel::FleetModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void FleetModel::setHosts(const QList<FleetHost> &hosts)
{
    beginResetModel();
    m_hosts = hosts;
    m_rows = QList<HostRow>(hosts.size());
    endResetModel();
}

void FleetModel::setSummary(int host, const FleetHostSummary &summary)
{
    HostRow &row = m_rows[host];
    const QModelIndex parent = hostIndex(host);
    const qsizetype before = row.summary ? row.summary->devices.size() : 0;
    bool sameDevices = before == summary.devices.size();
    for (qsizetype i = 0; sameDevices && i < before; ++i)
        sameDevices = row.summary->devices[i].name == summary.devices[i].name;
    if (!sameDevices && before > 0) {
        beginRemoveRows(parent, 0, int(before) - 1);
        row.summary.reset();
        endRemoveRows();
    }
    if (!sameDevices && !summary.devices.isEmpty()) {
        beginInsertRows(parent, 0, int(summary.devices.size()) - 1);
        row.summary = summary;
        endInsertRows();
    } else {
        row.summary = summary;
        if (before > 0)
            Q_EMIT dataChanged(index(0, 0, parent), index(int(before) - 1, ColumnCount - 1, parent));
    }
    row.error.clear();
    Q_EMIT dataChanged(hostIndex(host, 0), hostIndex(host, ColumnCount - 1));
}

void FleetModel::setError(int host, const QString &message)
{
    m_rows[host].error = message;
    Q_EMIT dataChanged(hostIndex(host, 0), hostIndex(host, ColumnCount - 1));
}

void FleetModel::setDescription(int host, const QString &description, const QStringList &limits)
{
    m_rows[host].description = description;
    m_rows[host].limits = limits;
    Q_EMIT dataChanged(hostIndex(host, 0), hostIndex(host, ColumnCount - 1));
}

int FleetModel::hostOf(const QModelIndex &index)
{
    if (!index.isValid())
        return -1;
    return index.internalId() == HostId ? index.row() : int(index.internalId() - 1);
}

QModelIndex FleetModel::hostIndex(int host, int column) const
{
    return createIndex(host, column, HostId);
}

QModelIndex FleetModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, HostId);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex FleetModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == HostId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, HostId);
}

int FleetModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_hosts.size());
    if (parent.column() != 0 || parent.internalId() != HostId)
        return 0;
    const HostRow &row = m_rows[parent.row()];
    return row.summary ? int(row.summary->devices.size()) : 0;
}

int FleetModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant FleetModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == HostId)
        return hostData(index.row(), index.column(), role);
    const HostRow &row = m_rows[int(index.internalId() - 1)];
    if (!row.summary || index.row() >= row.summary->devices.size())
        return {};
    return deviceData(row.summary->devices[index.row()], index.column(), role);
}

QVariant FleetModel::hostData(int host, int column, int role) const
{
    const FleetHost &fleetHost = m_hosts[host];
    const HostRow &row = m_rows[host];
    const FleetHostSummary *summary = row.summary ? &*row.summary : nullptr;
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return fleetHost.displayName();
        case StatusColumn:
            if (!row.error.isEmpty())
                return row.error.section(u'\n', 0, 0); // one line in the table; the whole text in the tip
            if (!summary)
                return row.description.isEmpty() ? tr("connecting…") : tr("waiting for a second sample…");
            return tr("%1 · over %2 s")
                .arg(QDateTime::fromMSecsSinceEpoch(summary->timeNs / 1'000'000).toString(u"HH:mm:ss"_s),
                    QLocale().toString(summary->intervalSeconds, 'f', 1));
        default:
            break;
        }
        if (!summary)
            return {};
        switch (column) {
        case UtilColumn:
            return figure(summary->maxUtilPercent, 1);
        case AwaitColumn:
            return figure(summary->worstAwaitMs, 2);
        case DevicesColumn:
            return tr("%1 (%2 maps)").arg(summary->deviceCount).arg(summary->mapCount);
        case FailedPathsColumn:
            return countOrUnknown(summary->failedPaths);
        case NoRedundancyColumn:
            return countOrUnknown(summary->mapsWithoutRedundancy);
        default:
            return {}; // merged, queue, rates: per device only (a host's sum would count a map and its paths twice)
        }
    }
    if (role == SortRole) {
        switch (column) {
        case NameColumn:
            return fleetHost.displayName();
        case UtilColumn:
            return summary ? sortValue(summary->maxUtilPercent) : QVariant(-2.0);
        case AwaitColumn:
            return summary ? sortValue(summary->worstAwaitMs) : QVariant(-2.0);
        case DevicesColumn:
            return summary ? summary->deviceCount : -1;
        case FailedPathsColumn:
            return summary && summary->failedPaths ? *summary->failedPaths : -1;
        case NoRedundancyColumn:
            return summary && summary->mapsWithoutRedundancy ? *summary->mapsWithoutRedundancy : -1;
        case StatusColumn:
            return row.error.isEmpty() ? 0 : 1;
        default:
            return -1;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case NameColumn:
            return row.description.isEmpty()
                ? fleetHost.identity()
                : row.description + (row.limits.isEmpty() ? QString() : u"\n"_s + row.limits.join(u'\n'));
        case UtilColumn:
            return summary ? tr("Highest %util: %1").arg(summary->busiestDevice) : QVariant();
        case AwaitColumn:
            return summary ? tr("Highest await: %1").arg(summary->worstAwaitDevice) : QVariant();
        case FailedPathsColumn:
        case NoRedundancyColumn:
            return summary ? tr("Unknown: %1.").arg(summary->pathsUnknownReason) : QVariant();
        case StatusColumn:
            return row.error.isEmpty() ? QVariant() : row.error;
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && column == StatusColumn && !row.error.isEmpty())
        return messagestyle::viewText(MessageTone::Error);
    if (role == Qt::TextAlignmentRole && column != NameColumn && column != StatusColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant FleetModel::deviceData(const FleetDeviceFigures &device, int column, int role) const
{
    const auto value = [&device](int c) -> double {
        switch (c) {
        case UtilColumn:
            return device.utilPercent;
        case AwaitColumn:
            return device.awaitMs;
        case MergedColumn:
            return device.mergedPercent;
        case QueueColumn:
            return device.queueSize;
        case ReadsColumn:
            return device.readsPerSec;
        case WritesColumn:
            return device.writesPerSec;
        default:
            return std::nan("");
        }
    };
    if (role == DeviceRole)
        return device.name;
    if (role == Qt::DisplayRole) {
        switch (column) {
        case NameColumn:
            return device.displayName();
        case UtilColumn:
        case MergedColumn:
            return figure(value(column), 1);
        case AwaitColumn:
        case QueueColumn:
            return figure(value(column), 2);
        case ReadsColumn:
        case WritesColumn:
            return figure(value(column), 1);
        case DevicesColumn:
            if (!device.isMap)
                return {};
            return device.paths ? tr("map, %n path(s)", nullptr, int(device.paths->size())) : tr("map");
        case FailedPathsColumn:
            return device.isMap ? tr("unknown") : QVariant();
        case NoRedundancyColumn:
            if (!device.isMap)
                return {};
            return device.paths ? (device.paths->size() < 2 ? tr("yes") : tr("no")) : tr("unknown");
        default:
            return {};
        }
    }
    if (role == SortRole) {
        if (column == NameColumn)
            return device.displayName();
        if (column == DevicesColumn)
            return device.paths ? int(device.paths->size()) : -1;
        return sortValue(value(column));
    }
    if (role == Qt::ToolTipRole && device.isMap) {
        if (column == DevicesColumn && device.paths)
            return tr("Paths: %1").arg(device.paths->join(u", "_s));
        if (column == FailedPathsColumn || (column == NoRedundancyColumn && !device.paths))
            return tr("Unknown: %1.").arg(fleetPathStateUnknownReason());
    }
    if (role == Qt::TextAlignmentRole && column != NameColumn && column != StatusColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Host / device");
        case UtilColumn:
            return tr("%util");
        case AwaitColumn:
            return tr("await (ms)");
        case MergedColumn:
            return tr("%merged");
        case QueueColumn:
            return tr("aqu-sz");
        case ReadsColumn:
            return tr("r/s");
        case WritesColumn:
            return tr("w/s");
        case DevicesColumn:
            return tr("Devices");
        case FailedPathsColumn:
            return tr("Failed paths");
        case NoRedundancyColumn:
            return tr("No redundancy");
        case StatusColumn:
            return tr("Status");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case UtilColumn:
            return tr("Time the device was busy (iostat %util); on a host row the highest of its devices.");
        case AwaitColumn:
            return tr("Mean time a read or write took, queue included (iostat await); on a host row the highest.");
        case MergedColumn:
            return tr("Reads and writes merged into others, of all requests.");
        case QueueColumn:
            return tr("Average queue size (iostat aqu-sz).");
        case FailedPathsColumn:
            return tr("Failed multipath paths, where the source gives path states: %1.")
                .arg(fleetPathStateUnknownReason());
        case NoRedundancyColumn:
            return tr("Maps with fewer than two paths, counted only where the source gives every map's paths.");
        default:
            return {};
        }
    }
    return {};
}

} // namespace dmtune
