#include "widgets/params/changepreviewmodel.h"

#include "widgets/params/tunabletablemodel.h"

#include "core/params/catalog.h"

#include <QApplication>
#include <QCoreApplication>
#include <QPalette>

#include <algorithm>

namespace dmtune {

namespace {

bool unchanged(const PlannedWrite &w)
{
    const TunableDef *def = catalog::find(w.attribute);
    return !w.oldValue.isEmpty() && def && sameValue(*def, w.oldValue, w.value);
}

QString noteOf(const PlannedWrite &w)
{
    if (unchanged(w))
        return QCoreApplication::translate("ChangePreviewModel", "already in place (skipped)");
    if (w.oldValue.isEmpty())
        return QCoreApplication::translate("ChangePreviewModel", "created by the scheduler change");
    if (w.attribute == QLatin1String("queue/scheduler"))
        return QCoreApplication::translate("ChangePreviewModel", "resets nr_requests and the iosched tunables");
    if (w.attribute == QLatin1String("queue/max_sectors_kb") && w.level > 0)
        return QCoreApplication::translate("ChangePreviewModel", "map (stack level %1)").arg(w.level);
    return {};
}

} // namespace

ChangePreviewModel::ChangePreviewModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ChangePreviewModel::setPlan(const Plan &plan)
{
    beginResetModel();
    m_plan = plan;
    endResetModel();
}

QStringList ChangePreviewModel::lines() const
{
    QStringList out;
    for (const auto &w : m_plan.writes)
        out << QStringLiteral("%1 %2 %3 -> %4")
                   .arg(w.device, TunableTableModel::displayName(w.attribute),
                       w.oldValue.isEmpty() ? QStringLiteral("(default)") : w.oldValue, w.value);
    return out;
}

int ChangePreviewModel::unchangedCount() const
{
    return int(std::count_if(m_plan.writes.cbegin(), m_plan.writes.cend(), unchanged));
}

int ChangePreviewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_plan.writes.size());
}

int ChangePreviewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChangePreviewModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlannedWrite &w = m_plan.writes[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case OrderColumn:
            return index.row() + 1;
        case DeviceColumn:
            return w.device;
        case AttributeColumn:
            return TunableTableModel::displayName(w.attribute);
        case OldColumn:
            return w.oldValue.isEmpty() ? tr("(default)") : w.oldValue;
        case NewColumn:
            return w.value;
        case NoteColumn:
            return noteOf(w);
        }
        return {};
    }
    if (role == Qt::ToolTipRole)
        return w.path; // relative to the sysfs root
    if (role == Qt::ForegroundRole && unchanged(w))
        return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
    if (role == Qt::TextAlignmentRole && index.column() == OrderColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ChangePreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case OrderColumn:
        return QStringLiteral("#");
    case DeviceColumn:
        return tr("Device");
    case AttributeColumn:
        return tr("Attribute");
    case OldColumn:
        return tr("Old");
    case NewColumn:
        return tr("New");
    case NoteColumn:
        return tr("Note");
    }
    return {};
}

} // namespace dmtune
