#include "widgets/params/changehistorymodel.h"

#include "core/params/changehistory.h"

#include <QCoreApplication>
#include <QFont>

namespace dmtune {

namespace {

QStringList linesOf(const ApplyResult &result)
{
    QStringList out;
    for (const auto &c : result.changes) {
        if (!(c.written || c.sideEffect) || c.oldValue == c.newValue)
            continue;
        QString line = c.summary();
        if (c.clamped)
            line += QLatin1Char(' ') + QCoreApplication::translate("ChangeHistoryModel", "(asked %1)").arg(c.requested);
        if (c.sideEffect)
            line += QLatin1Char(' ') + QCoreApplication::translate("ChangeHistoryModel", "(side effect)");
        out << line;
    }
    return out;
}

} // namespace

ChangeHistoryModel::ChangeHistoryModel(ChangeHistory *history, QObject *parent)
    : QAbstractTableModel(parent)
    , m_history(history)
{
    connect(history, &ChangeHistory::changed, this, &ChangeHistoryModel::reload);
    m_rows = int(history->entries().size());
}

void ChangeHistoryModel::reload()
{
    beginResetModel();
    m_rows = m_history ? int(m_history->entries().size()) : 0;
    endResetModel();
}

int ChangeHistoryModel::entryIndex(int row) const
{
    return m_rows - 1 - row;
}

int ChangeHistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int ChangeHistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChangeHistoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)
        || !m_history)
        return {};
    const int at = entryIndex(index.row());
    if (at < 0 || at >= m_history->entries().size())
        return {};
    const HistoryEntry &e = m_history->entries().at(at);
    const QStringList lines = linesOf(e.result);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return e.at.toString(QStringLiteral("HH:mm:ss"));
        case ChangesColumn:
            return lines.join(QLatin1Char('\n'));
        case ExecutorColumn:
            return e.result.executor;
        }
        return {};
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1, %2\n%3")
                          .arg(e.at.toString(Qt::ISODate), e.result.executor, lines.join(QLatin1Char('\n')));
        for (const auto &w : e.result.warnings)
            tip += QLatin1Char('\n') + tr("warning: %1").arg(w.message);
        if (index.row() == 0)
            tip += QStringLiteral("\n\n") + tr("Undo puts these values back.");
        return tip;
    }
    case Qt::FontRole:
        if (index.row() == 0) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignTop);
    default:
        return {};
    }
}

QVariant ChangeHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case ChangesColumn:
        return tr("Changes");
    case ExecutorColumn:
        return tr("Applied");
    }
    return {};
}

} // namespace dmtune
