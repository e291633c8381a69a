#include "widgets/params/tunablevaluedelegate.h"

#include "widgets/params/tunabletablemodel.h"

#include "core/params/catalog.h"

#include <QComboBox>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>

#include <limits>

namespace dmtune {

TunableValueDelegate::EditorKind TunableValueDelegate::editorKind(const Tunable &t)
{
    switch (t.type) {
    case TunableType::Enum:
    case TunableType::Bool:
        return EditorKind::ComboBox;
    case TunableType::Int:
        if (t.limits.minimum >= std::numeric_limits<int>::min() && t.limits.maximum <= std::numeric_limits<int>::max()
            && t.limits.minimum <= t.limits.maximum)
            return EditorKind::SpinBox;
        return EditorKind::LineEdit;
    case TunableType::String:
        return EditorKind::LineEdit;
    }
    return EditorKind::LineEdit;
}

QList<std::pair<QString, QString>> TunableValueDelegate::choices(const Tunable &t)
{
    QList<std::pair<QString, QString>> out;
    const TunableDef *def = catalog::find(t.attribute);
    if (t.type == TunableType::Bool) {
        const bool yesNo = def && def->boolStyle == BoolStyle::YesNo;
        out.append({ yesNo ? QStringLiteral("N") : QStringLiteral("0"), tr("off") });
        out.append({ yesNo ? QStringLiteral("Y") : QStringLiteral("1"), tr("on") });
    } else {
        for (const auto &choice : t.limits.choices) {
            const qsizetype at = def ? def->choices.indexOf(choice) : -1;
            out.append({ choice, at >= 0 ? t.choiceNotes.value(at) : QString() });
        }
    }
    return out;
}

QWidget *TunableValueDelegate::createEditor(
    QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &index) const
{
    const auto t = index.data(TunableTableModel::TunableRole).value<Tunable>();
    switch (editorKind(t)) {
    case EditorKind::SpinBox: {
        auto *spin = new QSpinBox(parent);
        spin->setRange(int(t.limits.minimum), int(t.limits.maximum));
        spin->setSingleStep(int(qBound(qint64(1), t.limits.step, qint64(std::numeric_limits<int>::max()))));
        spin->setAccelerated(true);
        spin->setFrame(false);
        if (!t.unit.isEmpty())
            spin->setSuffix(QLatin1Char(' ') + t.unit);
        return spin;
    }
    case EditorKind::ComboBox: {
        auto *combo = new QComboBox(parent);
        for (const auto &[value, label] : choices(t))
            combo->addItem(label.isEmpty() ? value : QStringLiteral("%1 — %2").arg(value, label), value);
        combo->setFrame(false);
        return combo;
    }
    case EditorKind::LineEdit:
        break;
    }
    auto *line = new QLineEdit(parent);
    line->setFrame(false);
    if (t.type == TunableType::Int)
        line->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("-?[0-9]*")), line));
    return line;
}

void TunableValueDelegate::setEditorData(QWidget *editor, const QModelIndex &index) const
{
    const QString value = index.data(Qt::EditRole).toString();
    if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
        bool ok = false;
        const int v = value.toInt(&ok);
        spin->setValue(ok ? v : spin->minimum());
    } else if (auto *combo = qobject_cast<QComboBox *>(editor)) {
        const int at = combo->findData(value);
        combo->setCurrentIndex(at >= 0 ? at : 0);
    } else if (auto *line = qobject_cast<QLineEdit *>(editor)) {
        line->setText(value);
        line->selectAll();
    }
}

void TunableValueDelegate::setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const
{
    QString value;
    if (auto *spin = qobject_cast<QSpinBox *>(editor)) {
        spin->interpretText();
        value = QString::number(spin->value());
    } else if (auto *combo = qobject_cast<QComboBox *>(editor)) {
        value = combo->currentData().toString();
    } else if (auto *line = qobject_cast<QLineEdit *>(editor)) {
        value = line->text();
    }
    model->setData(index, value, Qt::EditRole);
}

void TunableValueDelegate::updateEditorGeometry(
    QWidget *editor, const QStyleOptionViewItem &option, const QModelIndex &) const
{
    // A combo box with "2 — no merging" wants more than the cell: never narrower than its hint.
    QRect r = option.rect;
    r.setWidth(qMax(r.width(), editor->sizeHint().width()));
    editor->setGeometry(r);
}

} // namespace dmtune
