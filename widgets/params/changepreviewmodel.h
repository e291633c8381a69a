#pragma once
// What Apply would do, before it does it: the planner's writes in execution order (device,
// attribute, old -> new) for the pending edits expanded to the chosen scope.
#include "core/params/planner.h"

#include <QAbstractTableModel>

namespace dmtune {

class ChangePreviewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { OrderColumn, DeviceColumn, AttributeColumn, OldColumn, NewColumn, NoteColumn, ColumnCount };

    explicit ChangePreviewModel(QObject *parent = nullptr);

    void setPlan(const Plan &plan);
    const Plan &plan() const { return m_plan; }
    // "sdb nomerges 0 -> 2" per write, in order (for tests and logs).
    QStringList lines() const;
    // Writes whose value is already in place (the transaction skips them).
    int unchangedCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Plan m_plan;
};

} // namespace dmtune
