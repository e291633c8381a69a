#pragma once
// Table of a device's queue attributes: Attribute, Value, Writable.
#include "widgets/devices/queueattributes.h"

#include <QAbstractTableModel>

namespace dmtune {

class QueueAttributeModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { AttributeColumn, ValueColumn, WritableColumn, ColumnCount };
    enum Role { WritableRole = Qt::UserRole }; // bool

    explicit QueueAttributeModel(QObject *parent = nullptr);

    // Same attribute names as before (a refresh of the same device): values change in place, so
    // the user's scroll position and selection stay. Otherwise the table is reset.
    void setAttributes(const QList<QueueAttribute> &attributes);
    const QList<QueueAttribute> &attributes() const { return m_attributes; }
    // Row of an attribute by name, -1 when absent.
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<QueueAttribute> m_attributes;
};

} // namespace dmtune
