#include "widgets/pathgroups/pathgroupcolumns.h"

#include "core/dm/grammar/pathselectors.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/pathgroupmodel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QDragLeaveEvent>
#include <QDropEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace dmtune {

namespace pathgroupcolumns {

QStringList words(const QString &text)
{
    return text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QFont smaller(QFont font)
{
    font.setPointSizeF(font.pointSizeF() * 0.9);
    return font;
}

} // namespace pathgroupcolumns

namespace {

QString columnStyle(bool active)
{
    return active ? QStringLiteral("QFrame#pathGroupColumn { border: 2px solid #3a78c9; border-radius: 4px; }")
                  : QStringLiteral("QFrame#pathGroupColumn { border: 1px solid #b9b9b9; border-radius: 4px; }");
}

} // namespace

PathGroupColumn::PathGroupColumn(PathGroupEditor *editor)
    : m_editor(editor)
{
    setObjectName(QStringLiteral("pathGroupColumn"));
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);

    auto *top = new QHBoxLayout;
    m_title = new QLabel;
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_left = new QToolButton;
    m_left->setArrowType(Qt::LeftArrow);
    m_left->setAutoRaise(true);
    m_right = new QToolButton;
    m_right->setArrowType(Qt::RightArrow);
    m_right->setAutoRaise(true);
    // The paths' summary on the title's line (one line less: the cards' height is the selector chart's).
    m_subtitle = new QLabel;
    m_subtitle->setFont(pathgroupcolumns::smaller(font()));
    m_subtitle->setWordWrap(true);
    top->addWidget(m_title);
    top->addSpacing(6);
    top->addWidget(m_subtitle, 1);
    top->addWidget(m_left);
    top->addWidget(m_right);
    layout->addLayout(top);

    auto *form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_selector = new QComboBox;
    for (const PathSelectorInfo &info : knownPathSelectors()) {
        m_selector->addItem(info.name);
        m_selector->setItemData(m_selector->count() - 1, info.description, Qt::ToolTipRole);
    }
    form->addRow(QCoreApplication::translate("PathGroupEditor", "Selector"), m_selector);
    m_selectorArgs = new QLineEdit;
    m_selectorArgs->setPlaceholderText(
        QCoreApplication::translate("PathGroupEditor", "base weight, threshold (optional)"));
    m_selectorArgs->setToolTip(QCoreApplication::translate("PathGroupEditor",
        "Selector arguments: historical-service-time reads a base weight "
        "(0-1023) and a threshold; the other selectors take none."));
    m_argsLabel = new QLabel(QCoreApplication::translate("PathGroupEditor", "Arguments"));
    form->addRow(m_argsLabel, m_selectorArgs);
    layout->addLayout(form);
    m_description = new QLabel;
    m_description->setWordWrap(true);
    m_description->setFont(pathgroupcolumns::smaller(font()));
    m_description->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_description);

    m_model = new PathGroupModel(this);
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("pathTable"));
    m_view->setModel(m_model);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8); // the cards' height is the chart's
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setDragEnabled(true);
    m_view->setAcceptDrops(true);
    m_view->setDropIndicatorShown(true);
    m_view->setDragDropMode(QAbstractItemView::DragDrop);
    m_view->setDragDropOverwriteMode(false);
    m_view->setDefaultDropAction(Qt::MoveAction);
    m_view->setEditTriggers(
        QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    // A card narrower than its table (two groups beside the device tree at 1400 px) scrolls the arguments.
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_view->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(m_view);
    layout->addStretch(1);

    connect(m_left, &QToolButton::clicked, this, [this] { m_editor->moveGroup(m_group, m_group - 1); });
    connect(m_right, &QToolButton::clicked, this, [this] { m_editor->moveGroup(m_group, m_group + 1); });
    connect(m_selector, &QComboBox::currentTextChanged, this, [this](const QString &selector) {
        if (!m_updating)
            m_editor->setSelector(m_group, selector);
    });
    connect(m_selectorArgs, &QLineEdit::editingFinished, this, [this] {
        if (!m_updating)
            m_editor->setSelectorArgs(m_group, pathgroupcolumns::words(m_selectorArgs->text()));
    });
    // Queued: the drop and the cell edit come from inside the views, which the editor then updates.
    connect(
        m_model, &PathGroupModel::pathDropped, m_editor,
        [editor = m_editor](const QString &device, int group, int row) { editor->movePath(device, group, row); },
        Qt::QueuedConnection);
    connect(
        m_model, &PathGroupModel::diskDropped, m_editor,
        [editor = m_editor](const QString &name, int group, int row) { editor->addPath(name, group, row); },
        Qt::QueuedConnection);
    connect(
        m_model, &PathGroupModel::pathArgEdited, m_editor,
        [editor = m_editor](
            const QString &device, int index, const QString &value) { editor->setPathArg(device, index, value); },
        Qt::QueuedConnection);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) { showMenu(pos); });
}

void PathGroupColumn::update(const QString &map, int group, const PathGroupSpec &spec, const QString &title,
    const QString &subtitle, bool active, int groupCount, const QHash<QString, LivePath> &live,
    const QHash<QString, QString> &names, bool editable)
{
    m_updating = true;
    m_group = group;
    m_groupCount = groupCount;
    m_title->setText(title);
    m_subtitle->setText(subtitle);
    setStyleSheet(columnStyle(active));
    if (m_selector->findText(spec.selector) < 0)
        m_selector->addItem(spec.selector);
    m_selector->setCurrentText(spec.selector);
    const PathSelectorInfo *info = findPathSelector(spec.selector);
    m_selector->setToolTip(
        info ? info->description : QCoreApplication::translate("PathGroupEditor", "Not an in-tree selector"));
    m_description->setText(
        info ? info->description : QCoreApplication::translate("PathGroupEditor", "Not an in-tree path selector."));
    const bool showArgs = spec.selector == QLatin1String("historical-service-time") || !spec.selectorArgs.isEmpty();
    m_argsLabel->setVisible(showArgs);
    m_selectorArgs->setVisible(showArgs);
    if (!m_selectorArgs->hasFocus())
        m_selectorArgs->setText(spec.selectorArgs.join(QLatin1Char(' ')));
    m_left->setEnabled(editable && group > 0);
    m_right->setEnabled(editable && group + 1 < groupCount);
    m_left->setToolTip(QCoreApplication::translate("PathGroupEditor", "Give group %1 a higher priority (move it left)")
                           .arg(group + 1));
    m_right->setToolTip(QCoreApplication::translate("PathGroupEditor", "Give group %1 a lower priority (move it right)")
                            .arg(group + 1));
    m_selector->setEnabled(editable);
    m_selectorArgs->setEnabled(editable);
    m_model->setEditable(editable);
    m_model->setGroup(map, group, spec, live, names);
    fitView();
    m_updating = false;
}

void PathGroupColumn::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    fitViewHeight();
}

void PathGroupColumn::fitView()
{
    QHeaderView *header = m_view->horizontalHeader();
    header->resizeSections(QHeaderView::ResizeToContents);
    // The card asks for its whole table (AdjustToContents) and gets it where there is room; where there is not
    // (the groups of a map beside the device tree), every card shrinks alike, down to the path, its state and
    // fail count, and the table scrolls the selector's columns.
    int essential = 0;
    for (int column = 0; column < std::min(3, header->count()); ++column)
        essential += header->sectionSize(column);
    m_view->setMinimumWidth(std::min(header->length(), essential) + 2 * m_view->frameWidth());
    fitViewHeight();
}

// Every row (up to six) without scrolling, and the horizontal scroll bar when the card is narrower than the table.
void PathGroupColumn::fitViewHeight()
{
    const int rows = std::clamp(m_model->rowCount(), 2, 6);
    const int rowHeight = m_view->verticalHeader()->defaultSectionSize();
    const bool scrolls = m_view->horizontalHeader()->length() > m_view->width() - 2 * m_view->frameWidth();
    const int height = m_view->horizontalHeader()->sizeHint().height() + rows * rowHeight + 2 * m_view->frameWidth() + 2
        + (scrolls ? m_view->horizontalScrollBar()->sizeHint().height() : 0);
    if (m_view->minimumHeight() != height)
        m_view->setMinimumHeight(height);
}

void PathGroupColumn::showMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid() || !m_model->isEditable())
        return;
    const QString device = m_model->deviceAt(index.row());
    auto *menu = new QMenu(this); // popup(): no nested event loop while the poll updates the draft
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (int g = 0; g < m_groupCount; ++g) {
        if (g == m_group)
            continue;
        menu->addAction(QCoreApplication::translate("PathGroupEditor", "Move %1 to group %2").arg(device).arg(g + 1),
            this, [this, device, g] { m_editor->movePath(device, g); });
    }
    menu->addAction(QCoreApplication::translate("PathGroupEditor", "Move %1 to a new group").arg(device), this,
        [this, device] { m_editor->movePathToNewGroup(device); });
    menu->popup(m_view->viewport()->mapToGlobal(pos));
}

NewGroupDropZone::NewGroupDropZone(PathGroupEditor *editor)
    : m_editor(editor)
{
    setObjectName(QStringLiteral("newGroupDropZone"));
    setAcceptDrops(true);
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(idleStyle());
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    // A strip under the cards, not a column beside them: the width is the groups' (two cards beside the device
    // tree at 1400 px).
    auto *label = new QLabel(
        QCoreApplication::translate("PathGroupEditor", "New group: drop a path here to give it a group of its own"));
    label->setAlignment(Qt::AlignCenter);
    label->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(label);
    setToolTip(QCoreApplication::translate(
        "PathGroupEditor", "A new group, last in priority, with the selector of the path's group"));
}

void NewGroupDropZone::dragEnterEvent(QDragEnterEvent *event)
{
    const bool path = !PathGroupModel::deviceFromMime(event->mimeData(), m_editor->map()).isEmpty();
    if ((path || !PathGroupModel::diskFromMime(event->mimeData()).isEmpty()) && m_editor->isEditable()) {
        event->setDropAction(path ? Qt::MoveAction : Qt::CopyAction);
        event->accept();
        setStyleSheet(QStringLiteral("QFrame#newGroupDropZone { border: 2px dashed #3a78c9; border-radius: 4px; }"));
    }
}

void NewGroupDropZone::dragLeaveEvent(QDragLeaveEvent *)
{
    setStyleSheet(idleStyle());
}

void NewGroupDropZone::dropEvent(QDropEvent *event)
{
    setStyleSheet(idleStyle());
    const QString device = PathGroupModel::deviceFromMime(event->mimeData(), m_editor->map());
    if (device.isEmpty()) {
        const QString disk = PathGroupModel::diskFromMime(event->mimeData());
        if (disk.isEmpty())
            return;
        event->setDropAction(Qt::CopyAction);
        event->accept();
        QTimer::singleShot(
            0, m_editor, [editor = m_editor, disk] { editor->addPath(disk, editor->groupColumnCount()); });
        return;
    }
    event->setDropAction(Qt::MoveAction);
    event->accept();
    // After the drag has finished: the source view is still inside QDrag::exec().
    QTimer::singleShot(0, m_editor, [editor = m_editor, device] { editor->movePathToNewGroup(device); });
}

QString NewGroupDropZone::idleStyle()
{
    return QStringLiteral("QFrame#newGroupDropZone { border: 1px dashed #9a9a9a; border-radius: 4px; }");
}

} // namespace dmtune
