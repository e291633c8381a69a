#include "devices/devicetreeview.h"

#include "devices/devicetreemodel.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>

#include <algorithm>

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
    // A disk can be dragged into the path-group editor (which checks its LUN and asks).
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setDefaultDropAction(Qt::CopyAction);
    header()->setStretchLastSection(true);
    // Names, WWIDs and states are short but must never be elided: an admin copies them into commands.
    header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    header()->setSectionsMovable(false);
    // The stretched last column never gets narrower than this: keep it near "mq-deadline", not 100 px.
    header()->setDefaultSectionSize(fontMetrics().averageCharWidth() * 8);
}

void DeviceTreeView::setModel(QAbstractItemModel *model)
{
    QTreeView::setModel(model);
    if (!model)
        return;
    connect(
        model, &QAbstractItemModel::rowsInserted, this, [this, model](const QModelIndex &parent, int first, int last) {
            for (int row = first; row <= last; ++row)
                applyRowDefaults(model->index(row, 0, parent));
        });
    for (int row = 0; row < model->rowCount(); ++row)
        applyRowDefaults(model->index(row, 0));
}

void DeviceTreeView::applyRowDefaults(const QModelIndex &index)
{
    if (index.data(DeviceTreeModel::SpansRowRole).toBool())
        setFirstColumnSpanned(index.row(), index.parent(), true);
    const auto type = DeviceRowType(index.data(DeviceTreeModel::RowTypeRole).toInt());
    if (type == DeviceRowType::Section || type == DeviceRowType::Map || type == DeviceRowType::PathGroup)
        expand(index);
    for (int row = 0; row < model()->rowCount(index); ++row)
        applyRowDefaults(model()->index(row, 0, index));
}

int DeviceTreeView::contentsWidthHint() const
{
    int width = 0;
    const int last = header()->count() - 1;
    for (int column = 0; column < last; ++column)
        width += header()->sectionSize(column); // already fitted to the text: ResizeToContents
    // The last section is stretched, so its size says nothing; and it never gets narrower than the
    // default section size.
    width += std::max({ header()->sectionSizeHint(last), sizeHintForColumn(last), header()->defaultSectionSize() });
    return width + 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
}

void DeviceTreeView::addContextMenuProvider(ContextMenuProvider provider)
{
    if (provider)
        m_menuProviders.push_back(std::move(provider));
}

void DeviceTreeView::fillContextMenu(QMenu *menu, const QModelIndex &index) const
{
    for (const ContextMenuProvider &provider : m_menuProviders)
        provider(menu, index);
}

void DeviceTreeView::contextMenuEvent(QContextMenuEvent *event)
{
    // A right click reaches the view through its viewport (viewport coordinates); the menu key uses the current row.
    const QModelIndex index = event->reason() == QContextMenuEvent::Keyboard ? currentIndex() : indexAt(event->pos());
    if (!index.isValid())
        return QTreeView::contextMenuEvent(event);
    // popup(), not exec(): no nested event loop while discovery and the path-group poll go on.
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    fillContextMenu(menu, index);
    if (menu->isEmpty())
        delete menu;
    else
        menu->popup(event->globalPos());
    event->accept();
}

} // namespace dmtune
