#pragma once
// A sweep's results, one row per point: its values, the workload, the runs measured, fio's numbers and one
// device's iostat numbers (the device chosen with setDevice()), each "mean ±spread". Qt::UserRole is the mean.
#include "core/experiments/sweepseries.h"

#include <QAbstractTableModel>

namespace dmtune {

class SweepResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setResults(const SweepRequest &request, const QList<SweepPointResult> &results);
    void setDevice(const QString &device);
    QString device() const { return m_device; }
    const QList<SweepPointResult> &results() const { return m_results; }
    // A metric column whose every mean is 0 (reads of a write sweep): the view hides it.
    bool isZeroColumn(int column) const;
    // The metric of a column, or null for the point's own columns.
    const SweepMetric *metricOf(int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int fixedColumns() const; // point, one per parameter, workload, runs

    SweepRequest m_request;
    QList<SweepPointResult> m_results;
    QString m_device;
    QList<const SweepMetric *> m_metrics;
};

} // namespace dmtune
