#include "widgets/experiments/sweepresultsmodel.h"

namespace dmtune {

namespace {

// The table's metric columns: what the CLI prints per point.
QList<const SweepMetric *> tableMetrics()
{
    QList<const SweepMetric *> metrics;
    for (const char *key :
        { "read_iops", "write_iops", "read_bytes_per_second", "write_bytes_per_second", "clat_p50_us", "clat_p99_us",
            "r/s", "w/s", "rrqm", "wrqm", "rareq-sz", "wareq-sz", "r_await", "w_await", "aqu-sz", "util" })
        metrics << sweepMetric(QString::fromLatin1(key));
    return metrics;
}

} // namespace

void SweepResultsModel::setResults(const SweepRequest &request, const QList<SweepPointResult> &results)
{
    beginResetModel();
    m_request = request;
    m_results = results;
    m_metrics = tableMetrics();
    const QStringList devices = sweepDevices(request.device, results);
    if (!devices.contains(m_device))
        m_device = devices.value(0);
    endResetModel();
}

void SweepResultsModel::setDevice(const QString &device)
{
    if (device == m_device)
        return;
    m_device = device;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, fixedColumns()), index(rowCount() - 1, columnCount() - 1));
    Q_EMIT headerDataChanged(Qt::Horizontal, fixedColumns(), columnCount() - 1);
}

int SweepResultsModel::fixedColumns() const
{
    return 3 + int(m_request.parameters.size());
}

const SweepMetric *SweepResultsModel::metricOf(int column) const
{
    const int i = column - fixedColumns();
    return i >= 0 && i < m_metrics.size() ? m_metrics.at(i) : nullptr;
}

bool SweepResultsModel::isZeroColumn(int column) const
{
    const SweepMetric *m = metricOf(column);
    return m && sweepMetricIsZero(m_results, *m, m_device);
}

int SweepResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_results.size());
}

int SweepResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_request.parameters.isEmpty() ? 0 : fixedColumns() + int(m_metrics.size());
}

QVariant SweepResultsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_results.size())
        return {};
    const SweepPointResult &r = m_results.at(index.row());
    const int column = index.column();
    const int parameters = int(m_request.parameters.size());
    if (const SweepMetric *m = metricOf(column)) {
        const SweepValue v = sweepValue(r, *m, m_device);
        if (role == Qt::UserRole)
            return v.present ? QVariant(v.mean) : QVariant();
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (role != Qt::DisplayRole || !v.present)
            return {};
        return sweepValueText(v, *m);
    }
    if (role != Qt::DisplayRole && role != Qt::UserRole)
        return {};
    if (column == 0)
        return r.point.index + 1;
    if (column <= parameters)
        return r.point.settings.value(column - 1).value;
    if (column == parameters + 1)
        return sweepWorkloadName(m_request.workloads.value(r.point.workload));
    return r.repeats;
}

QVariant SweepResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const int parameters = int(m_request.parameters.size());
    if (const SweepMetric *m = metricOf(section)) {
        const QString unit = m->unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m->unit);
        return m->label + unit;
    }
    if (section == 0)
        return tr("Point");
    if (section <= parameters)
        return sweepParameterName(m_request.parameters.at(section - 1).attribute);
    if (section == parameters + 1)
        return tr("Workload");
    return tr("Runs");
}

} // namespace dmtune
