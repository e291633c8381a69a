#include "anywherewrapdelegate.h"

#include <QApplication>
#include <QPainter>
#include <QTextLayout>

namespace dmtune {

namespace {

// Lays the text out in lines no wider than width; returns the height used.
qreal layOut(QTextLayout &layout, qreal width)
{
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.beginLayout();
    qreal height = 0;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        line.setPosition(QPointF(0, height));
        height += line.height();
    }
    layout.endLayout();
    return height;
}

int textMargin(const QStyleOptionViewItem &option)
{
    const QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    return style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, option.widget) + 1;
}

} // namespace

void AnywhereWrapDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, focus

    const int margin = textMargin(opt);
    const QRect rect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(margin, 0, -margin, 0);
    QTextLayout layout(text, opt.font);
    const qreal height = layOut(layout, rect.width());
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled) ? QPalette::Disabled
        : (opt.state & QStyle::State_Active)                                ? QPalette::Normal
                                                                            : QPalette::Inactive;
    painter->save();
    painter->setPen(
        opt.palette.color(group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
    painter->setClipRect(rect);
    // Placed as the stock delegate places its text (whole pixels), so cells of a row line up.
    const QRect placed
        = QStyle::alignedRect(opt.direction, opt.displayAlignment, QSizeF(rect.width(), height).toSize(), rect);
    layout.draw(painter, QPointF(rect.left(), qMax(rect.top(), placed.top())));
    painter->restore();
}

QSize AnywhereWrapDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (option.rect.width() <= 0)
        return size;
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const int margin = textMargin(opt);
    QTextLayout layout(opt.text, opt.font);
    const qreal height = layOut(layout, option.rect.width() - 2 * margin);
    size.setHeight(qMax(size.height(), qCeil(height) + 2));
    return size;
}

} // namespace dmtune
