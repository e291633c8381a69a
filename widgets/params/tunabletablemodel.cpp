#include "widgets/params/tunabletablemodel.h"

#include "core/params/catalog.h"
#include "widgets/messagestyle.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QHash>
#include <QPalette>

#include <algorithm>

namespace dmtune {

namespace {

// Pending edits: the cells tinted in the warning tone, from the palette (light and dark alike).
QColor pendingBackground()
{
    return messagestyle::viewTint(MessageTone::Warning);
}

QString writableText(const Tunable &t)
{
    if (!t.known)
        return QCoreApplication::translate("TunableTableModel", "no (raw)");
    if (t.ignored)
        return QCoreApplication::translate("TunableTableModel", "ignored");
    if (!t.readable)
        return QCoreApplication::translate("TunableTableModel", "unreadable");
    return t.writable ? QCoreApplication::translate("TunableTableModel", "yes")
                      : QCoreApplication::translate("TunableTableModel", "no");
}

} // namespace

TunableTableModel::TunableTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString TunableTableModel::displayName(const QString &attribute)
{
    return attribute.startsWith(QLatin1String("queue/")) ? attribute.mid(6) : attribute;
}

QString TunableTableModel::toolTipFor(const Tunable &t)
{
    QString html = tr("<b>%1</b> of %2").arg(t.attribute.toHtmlEscaped(), t.device.toHtmlEscaped());
    if (t.ignored)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("<b>Ignored by current kernels:</b> %1. Shown for reference; dmtune never writes it.")
                             .arg(t.note.toHtmlEscaped()));
    if (!t.description.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(t.description.toHtmlEscaped());
    if (!t.known)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("Not in dmtune's catalog: shown as the kernel reports it, never written."));
    const QString range = t.limitsText();
    if (!range.isEmpty() && !t.ignored)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("Accepted: %1%2")
                             .arg(range.toHtmlEscaped(),
                                 t.unit.isEmpty() ? QString() : QLatin1Char(' ') + t.unit.toHtmlEscaped()));
    if (!t.ignored && !t.note.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(tr("Note: %1").arg(t.note.toHtmlEscaped()));
    if (t.type == TunableType::Enum && !t.choiceNotes.isEmpty()) {
        const TunableDef *def = catalog::find(t.attribute);
        QStringList items;
        for (int i = 0; def && i < def->choices.size() && i < t.choiceNotes.size(); ++i)
            items << QStringLiteral("<li><tt>%1</tt>: %2</li>")
                         .arg(def->choices[i].toHtmlEscaped(), t.choiceNotes[i].toHtmlEscaped());
        if (!items.isEmpty())
            html += QStringLiteral("<ul>%1</ul>").arg(items.join(QString()));
    }
    if (!t.readable)
        html += QStringLiteral("<p>%1</p>").arg(tr("Cannot be read: %1").arg(t.rawValue.toHtmlEscaped()));
    html += QStringLiteral("<p><small>%1</small></p>").arg(t.path.toHtmlEscaped());
    return html;
}

bool TunableTableModel::isPending(const Tunable &t)
{
    return t.hasPending() && t.pending != t.value;
}

void TunableTableModel::setTunables(const QString &device, const QList<Tunable> &tunables)
{
    bool sameRows = device == m_device && tunables.size() == m_rows.size();
    for (qsizetype i = 0; sameRows && i < tunables.size(); ++i)
        sameRows = tunables[i].attribute == m_rows[i].attribute;

    // Edits survive a re-read of the same device, unless the value they ask for is now in place.
    QHash<QString, QString> pending;
    if (device == m_device) {
        for (const auto &t : std::as_const(m_rows)) {
            if (isPending(t))
                pending.insert(t.attribute, t.pending);
        }
    }
    QList<Tunable> rows = tunables;
    for (auto &t : rows) {
        const auto it = pending.constFind(t.attribute);
        if (it == pending.cend() || !isEditable(t))
            continue;
        const TunableDef *def = catalog::find(t.attribute);
        if (def && !sameValue(*def, *it, t.value))
            t.pending = *it;
    }
    const bool pendingWas = hasPending();
    if (sameRows) {
        m_rows = rows;
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
    } else {
        beginResetModel();
        m_device = device;
        m_rows = rows;
        endResetModel();
    }
    if (pendingWas || hasPending())
        Q_EMIT pendingChanged();
}

int TunableTableModel::rowOf(const QString &attribute) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].attribute == attribute)
            return i;
    }
    return -1;
}

bool TunableTableModel::setPending(const QString &attribute, const QString &value)
{
    const int row = rowOf(attribute);
    if (row < 0) {
        Q_EMIT editRejected(attribute, tr("%1 has no attribute %2").arg(m_device, attribute));
        return false;
    }
    return setPendingAt(row, value);
}

bool TunableTableModel::setPendingAt(int row, const QString &input)
{
    Tunable &t = m_rows[row];
    QString pending;
    if (!input.trimmed().isEmpty()) {
        const auto checked = t.check(input.trimmed());
        if (!checked) {
            Q_EMIT editRejected(t.attribute, checked.errorMessage());
            return false;
        }
        const TunableDef *def = catalog::find(t.attribute);
        if (!def || !sameValue(*def, *checked, t.value))
            pending = *checked;
    }
    if (pending == t.pending && pending.isNull() == t.pending.isNull())
        return true;
    t.pending = pending; // null: no edit
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    Q_EMIT pendingChanged();
    return true;
}

void TunableTableModel::clearPending()
{
    bool any = false;
    for (int row = 0; row < m_rows.size(); ++row) {
        if (!m_rows[row].hasPending())
            continue;
        m_rows[row].pending = QString();
        any = true;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
    if (any)
        Q_EMIT pendingChanged();
}

bool TunableTableModel::hasPending() const
{
    return std::any_of(m_rows.cbegin(), m_rows.cend(), [](const Tunable &t) { return isPending(t); });
}

QList<Assignment> TunableTableModel::pendingAssignments() const
{
    QList<Assignment> out;
    for (const auto &t : m_rows) {
        if (isPending(t))
            out << Assignment { t.attribute, t.pending };
    }
    return out;
}

int TunableTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TunableTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TunableTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Tunable &t = m_rows[index.row()];
    const bool pending = isPending(t);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case AttributeColumn:
            return displayName(t.attribute);
        case ValueColumn:
            return t.readable ? t.value : tr("(unreadable)");
        case NewValueColumn:
            if (role == Qt::EditRole)
                return pending ? t.pending : t.value;
            return pending ? t.pending : QString();
        case UnitColumn:
            return t.unit;
        case RangeColumn:
            return t.ignored ? QStringLiteral("—") : t.limitsText();
        case WritableColumn:
            return writableText(t);
        case NoteColumn:
            return t.note; // for an ignored knob: why (the Writable column says "ignored")
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == ValueColumn && !t.readable)
            return t.rawValue;
        return toolTipFor(t);
    case Qt::ForegroundRole:
        if (t.ignored || !t.known || !t.readable)
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::BackgroundRole:
        if (pending)
            return QBrush(pendingBackground());
        return {};
    case Qt::FontRole:
        if (pending && (index.column() == NewValueColumn || index.column() == AttributeColumn)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        if (t.ignored && index.column() == AttributeColumn) {
            QFont f;
            f.setStrikeOut(true);
            return f;
        }
        return {};
    case AttributeRole:
        return t.attribute;
    case TunableRole:
        return QVariant::fromValue(t);
    case PendingRole:
        return pending;
    case EditableRole:
        return isEditable(t);
    default:
        return {};
    }
}

bool TunableTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !index.isValid()
        || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || index.column() != NewValueColumn || !isEditable(m_rows[index.row()]))
        return false;
    return setPendingAt(index.row(), value.toString());
}

Qt::ItemFlags TunableTableModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (!m_readOnly && index.column() == NewValueColumn && isEditable(m_rows[index.row()]))
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant TunableTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case AttributeColumn:
            return tr("Attribute");
        case ValueColumn:
            return tr("Value");
        case NewValueColumn:
            return tr("New value");
        case UnitColumn:
            return tr("Unit");
        case RangeColumn:
            return tr("Range / choices");
        case WritableColumn:
            return tr("Writable");
        case NoteColumn:
            return tr("Note");
        }
    }
    if (role == Qt::ToolTipRole && section == NewValueColumn)
        return tr("Double-click to edit; empty to drop the edit. Nothing is written before Apply.");
    return {};
}

} // namespace dmtune
