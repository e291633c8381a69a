#include "widgets/devices/devicetreeview.h"

#include "widgets/devices/devicetreemodel.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QTimer>

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
    // A snapshot patches rows one by one: the filter is applied once after the patch.
    for (auto signal : { &QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved })
        connect(model, signal, this, &DeviceTreeView::scheduleRefilter);
    connect(model, &QAbstractItemModel::dataChanged, this, &DeviceTreeView::scheduleRefilter);
    connect(model, &QAbstractItemModel::modelReset, this, &DeviceTreeView::scheduleRefilter);
    connect(model, &QAbstractItemModel::layoutChanged, this, &DeviceTreeView::scheduleRefilter);
    refilter();
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

// ---- filter

void DeviceTreeView::setFilterText(const QString &text)
{
    const QString filter = text.trimmed();
    if (filter == m_filter)
        return;
    m_filter = filter;
    if (m_filterEdit && m_filterEdit->text().trimmed() != filter)
        m_filterEdit->setText(text);
    refilter();
    if (currentIndex().isValid() && isShownByFilter(currentIndex()))
        scrollTo(currentIndex());
}

bool DeviceTreeView::rowMatches(const QModelIndex &index) const
{
    if (m_filter.isEmpty())
        return true;
    const QAbstractItemModel *m = model();
    if (index.data(DeviceTreeModel::DeviceNameRole).toString().contains(m_filter, Qt::CaseInsensitive))
        return true;
    for (int column = 0; column < m->columnCount(index.parent()); ++column) {
        if (m->index(index.row(), column, index.parent()).data().toString().contains(m_filter, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

DeviceTreeView::FilterResult DeviceTreeView::applyFilter(const QModelIndex &parent, bool showAll)
{
    FilterResult result;
    const QAbstractItemModel *m = model();
    for (int row = 0; row < m->rowCount(parent); ++row) {
        const QModelIndex index = m->index(row, 0, parent);
        const bool self = showAll || rowMatches(index);
        // A matching row shows everything under it: a map its groups and paths, a disk its partitions.
        const FilterResult below = applyFilter(index, self);
        const bool shown = self || below.shown;
        if (isRowHidden(row, parent) == shown)
            setRowHidden(row, parent, !shown);
        if (!m_filter.isEmpty() && below.matchInside)
            expand(index); // where the match sits
        result.shown |= shown;
        result.matchInside |= below.matchInside || (!showAll && self && !m_filter.isEmpty());
    }
    return result;
}

void DeviceTreeView::refilter()
{
    m_refilterPending = false;
    if (model())
        applyFilter(QModelIndex(), false);
}

void DeviceTreeView::scheduleRefilter()
{
    if (m_filter.isEmpty() || m_refilterPending)
        return; // new rows are shown anyway; hidden rows are only ever hidden by a filter
    m_refilterPending = true;
    QTimer::singleShot(0, this, &DeviceTreeView::refilter);
}

bool DeviceTreeView::isShownByFilter(const QModelIndex &index) const
{
    for (QModelIndex i = index.siblingAtColumn(0); i.isValid(); i = i.parent()) {
        if (isRowHidden(i.row(), i.parent()))
            return false;
    }
    return index.isValid();
}

QModelIndex DeviceTreeView::firstMatch() const
{
    if (!model())
        return {};
    // Depth first, in the order the tree shows the rows.
    QList<QModelIndex> stack { QModelIndex() };
    while (!stack.isEmpty()) {
        const QModelIndex parent = stack.takeLast();
        const int rows = model()->rowCount(parent);
        for (int row = rows - 1; row >= 0; --row)
            stack.append(model()->index(row, 0, parent));
        if (parent.isValid() && !parent.data(DeviceTreeModel::DeviceNameRole).toString().isEmpty()
            && isShownByFilter(parent) && rowMatches(parent))
            return parent;
    }
    return {};
}

QLineEdit *DeviceTreeView::filterEdit(QWidget *parent)
{
    if (m_filterEdit)
        return m_filterEdit;
    m_filterEdit = new QLineEdit(parent);
    m_filterEdit->setObjectName(QStringLiteral("deviceFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter devices: name, WWID, model, size…"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setToolTip(tr("Shows the devices whose name or any column contains the text, with their "
                                "map and paths. Return selects the first; Escape clears."));
    connect(m_filterEdit, &QLineEdit::textChanged, this, &DeviceTreeView::setFilterText);
    connect(m_filterEdit, &QLineEdit::returnPressed, this, [this] {
        const QModelIndex match = firstMatch();
        if (!match.isValid())
            return;
        selectionModel()->setCurrentIndex(match, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        scrollTo(match);
    });
    m_filterEdit->installEventFilter(this);
    return m_filterEdit;
}

bool DeviceTreeView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filterEdit && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Escape && !m_filterEdit->text().isEmpty()) {
            m_filterEdit->clear();
            return true;
        }
        if (key->key() == Qt::Key_Down) { // on into the rows it left
            setFocus();
            return true;
        }
    }
    return QTreeView::eventFilter(watched, event);
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
