#pragma once
// Editors for the "New value" column: a spin box bounded by the device's range for integers, a
// combo box for choices and booleans, a line edit for everything else (and for 64-bit ranges).
#include <QStyledItemDelegate>

namespace dmtune {

struct Tunable;

class TunableValueDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    enum class EditorKind { SpinBox, ComboBox, LineEdit };
    static EditorKind editorKind(const Tunable &t);
    // The values a combo box offers, with their labels ("2 — no merging").
    static QList<std::pair<QString, QString>> choices(const Tunable &t);

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void setEditorData(QWidget *editor, const QModelIndex &index) const override;
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override;
    void updateEditorGeometry(
        QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace dmtune
