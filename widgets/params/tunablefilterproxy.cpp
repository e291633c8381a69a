#include "widgets/params/tunablefilterproxy.h"

#include "widgets/params/tunabletablemodel.h"

namespace dmtune {

void TunableFilterProxy::setShowRaw(bool show)
{
    if (show == m_showRaw)
        return;
    m_showRaw = show;
    invalidateFilter();
}

void TunableFilterProxy::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

bool TunableFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, TunableTableModel::AttributeColumn, sourceParent);
    if (index.data(TunableTableModel::PendingRole).toBool())
        return true;
    const auto t = index.data(TunableTableModel::TunableRole).value<Tunable>();
    if (!m_showRaw && !t.known)
        return false;
    return m_text.isEmpty() || t.attribute.contains(m_text, Qt::CaseInsensitive);
}

} // namespace dmtune
