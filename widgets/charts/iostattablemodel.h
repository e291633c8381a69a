#pragma once
// The newest interval of every charted device as iostat -x prints it: one row per device, the iostat -x
// columns in iostat's order (then dmtune's in-flight pair), values with two decimals. Sort through a
// QSortFilterProxyModel on SortRole (numbers, not text).
//
// The model's columns never move; which of them a view shows, and in which order, is shownColumns(): a
// chosen column set (ColumnSet), or, by default, the columns of the load the rows carry first (writes and
// their merges on a write load, reads on a read load; the newest batch decides, with hysteresis, and an idle
// interval keeps the order). A view applies it to its header (moveSection, hideSection): sorting and
// selection stay on the model's fixed columns.
#include "core/stats/samplebatch.h"

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

    // What the rows mostly do, by operations per second summed over the rows.
    enum class Load { Idle, Reads, Writes, Discards };
    Q_ENUM(Load)
    // Which columns a view shows. FollowLoad: every column, those of the load first; All: iostat -x order.
    enum class ColumnSet { FollowLoad, Reads, Writes, Merges, Latency, All };
    Q_ENUM(ColumnSet)

    explicit IostatTableModel(QObject *parent = nullptr);

    void setColumnSet(ColumnSet set);
    ColumnSet columnSet() const { return m_columnSet; }
    Load load() const { return m_load; }
    // The metrics a view shows, in display order (the others hidden).
    QList<Metric> shownColumns() const { return columnsOf(m_columnSet, m_load); }
    static QList<Metric> columnsOf(ColumnSet set, Load load);
    static QString columnSetName(ColumnSet set);
    static QString columnSetToolTip(ColumnSet set);
    static const QList<ColumnSet> &columnSets();
    // The load of a batch's rows given the load shown so far: another direction takes over once it does 1.5 times
    // the operations of the one shown; an idle batch changes nothing.
    static Load nextLoad(Load shown, double readsPerSec, double writesPerSec, double discardsPerSec);

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

Q_SIGNALS:
    // shownColumns() changed: the set was chosen, or the load changed while the columns follow it.
    void shownColumnsChanged();

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
    ColumnSet m_columnSet = ColumnSet::FollowLoad;
    Load m_load = Load::Idle;
};

} // namespace dmtune
