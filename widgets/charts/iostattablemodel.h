#pragma once
// The newest interval of every charted device as iostat -x prints it: one row per device, the iostat -x
// columns in iostat's order (then dmtune's in-flight pair), values with two decimals. Sort through a
// QSortFilterProxyModel on SortRole (numbers, not text).
#include "stats/samplebatch.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QHash>
#include <QStringList>

namespace dmtune {

class IostatTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole + 1, // double (or the device name in column 0); -1 when the device has no sample
        DeviceRole, // the kernel name of the row
    };

    explicit IostatTableModel(QObject *parent = nullptr);

    // The rows, in this order. Empty: every device of each batch, in batch order.
    void setDevices(const QStringList &devices);
    QStringList devices() const;
    // Shown in the Device column instead of the kernel name ("mpatha (dm-0)").
    void setDeviceLabels(const QHash<QString, QString> &labels);
    // The chart colour of each device, as the Device column's decoration.
    void setDeviceColors(const QHash<QString, QColor> &colors);
    // The batch's values for the rows; a listed device missing from the batch shows empty cells.
    void setBatch(const SampleBatch &batch);

    // Column 0 is Device; column c > 0 shows metricAt(c).
    static const QList<Metric> &columnMetrics();
    static Metric metricAt(int column) { return columnMetrics().at(column - 1); }
    static int columnOf(Metric metric) { return int(columnMetrics().indexOf(metric)) + 1; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString device;
        IostatMetrics metrics;
        bool present = false;
    };
    QString labelOf(const QString &device) const;
    void setRows(const QStringList &names);

    QStringList m_fixed; // setDevices()
    QHash<QString, QString> m_labels;
    QHash<QString, QColor> m_colors;
    QList<Row> m_rows;
};

} // namespace dmtune
