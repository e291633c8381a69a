#pragma once
// Filters the tunable table: by attribute text, and (unless asked) without the raw read-only
// attributes that are not in the catalog (the Details tab lists those). Rows with a pending edit
// always stay visible.
#include <QSortFilterProxyModel>

namespace dmtune {

class TunableFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setShowRaw(bool show);
    bool showRaw() const { return m_showRaw; }
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool m_showRaw = false;
    QString m_text;
};

} // namespace dmtune
