#include "widgets/devices/queueattributemodel.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace dmtune {

QueueAttributeModel::QueueAttributeModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void QueueAttributeModel::setAttributes(const QList<QueueAttribute> &attributes)
{
    bool sameNames = attributes.size() == m_attributes.size();
    for (qsizetype i = 0; sameNames && i < attributes.size(); ++i)
        sameNames = attributes[i].name == m_attributes[i].name;
    if (!sameNames) {
        beginResetModel();
        m_attributes = attributes;
        endResetModel();
        return;
    }
    for (qsizetype i = 0; i < attributes.size(); ++i) {
        const auto &next = attributes[i];
        auto &current = m_attributes[i];
        if (current.value == next.value && current.readable == next.readable && current.writable == next.writable)
            continue;
        current = next;
        Q_EMIT dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

int QueueAttributeModel::rowOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_attributes.size(); ++i) {
        if (m_attributes[i].name == name)
            return int(i);
    }
    return -1;
}

int QueueAttributeModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_attributes.size());
}

int QueueAttributeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant QueueAttributeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_attributes.size())
        return {};
    const auto &attribute = m_attributes[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case AttributeColumn:
            return attribute.name;
        case ValueColumn:
            return attribute.value;
        case WritableColumn:
            return attribute.writable ? tr("yes") : tr("no");
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == WritableColumn)
            return attribute.writable
                ? tr("The file's mode lets its owner write it (the kernel still checks the value).")
                : tr("Read-only: the kernel reports this value.");
        if (index.column() == ValueColumn)
            return attribute.value;
        return QStringLiteral("queue/") + attribute.name;
    case Qt::FontRole:
        // Writable attributes are the knobs: they should catch the eye before the read-only facts.
        if (attribute.writable && index.column() != ValueColumn) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (!attribute.readable && index.column() == ValueColumn)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    case WritableRole:
        return attribute.writable;
    default:
        return {};
    }
}

QVariant QueueAttributeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AttributeColumn:
        return tr("Attribute");
    case ValueColumn:
        return tr("Value");
    case WritableColumn:
        return tr("Writable");
    default:
        return {};
    }
}

} // namespace dmtune
