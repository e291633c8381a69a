#include "devicetreeview.h"

#include "devicetreemodel.h"

#include <QHeaderView>
#include <QScrollBar>

namespace dmtune {

DeviceTreeView::DeviceTreeView(QWidget *parent)
    : QTreeView(parent)
{
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAllColumnsShowFocus(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    header()->setStretchLastSection(true);
    // Names, WWIDs and states are short but must never be elided: an admin copies them into commands.
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    header()->setSectionsMovable(false);
}

void DeviceTreeView::setModel(QAbstractItemModel *model)
{
    QTreeView::setModel(model);
    if (!model)
        return;
    connect(model, &QAbstractItemModel::rowsInserted, this, [this, model](const QModelIndex &parent, int first, int last) {
        for (int row = first; row <= last; ++row)
            expandByDefault(model->index(row, 0, parent));
    });
    for (int row = 0; row < model->rowCount(); ++row)
        expandByDefault(model->index(row, 0));
}

void DeviceTreeView::expandByDefault(const QModelIndex &index)
{
    const auto type = DeviceRowType(index.data(DeviceTreeModel::RowTypeRole).toInt());
    if (type != DeviceRowType::Section && type != DeviceRowType::Map && type != DeviceRowType::PathGroup)
        return;
    expand(index);
    for (int row = 0; row < model()->rowCount(index); ++row)
        expandByDefault(model()->index(row, 0, index));
}

int DeviceTreeView::contentsWidthHint() const
{
    int width = 0;
    for (int column = 0; column < header()->count(); ++column)
        width += qMax(header()->sectionSizeHint(column), sizeHintForColumn(column));
    return width + 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
}

} // namespace dmtune
