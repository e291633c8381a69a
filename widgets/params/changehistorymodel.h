#pragma once
// The undo history as a table, newest first: when, what changed (old -> new), how it was applied.
#include <QAbstractTableModel>
#include <QPointer>

namespace dmtune {

class ChangeHistory;

class ChangeHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, ChangesColumn, ExecutorColumn, ColumnCount };

    explicit ChangeHistoryModel(ChangeHistory *history, QObject *parent = nullptr);

    // Row 0 is the newest entry, the one Undo puts back.
    int entryIndex(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void reload();

    QPointer<ChangeHistory> m_history;
    int m_rows = 0;
};

} // namespace dmtune
