#pragma once
// Draws an item's text wrapped at word boundaries, or anywhere when one word is wider than the
// column: WWIDs, uuids and sysfs paths are single long words that the stock delegate clips.
#include <QStyledItemDelegate>

namespace dmtune {

class AnywhereWrapDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // Height for the column width the view passes in option.rect (QTableView does with word wrap on).
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace dmtune
