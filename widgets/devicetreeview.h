#pragma once
// The tree view for DeviceTreeModel: sizes columns to their text and opens the rows an admin
// wants open (sections, maps, path groups) as they appear, leaving the rest as the user left it.
#include <QTreeView>

namespace dmtune {

class DeviceTreeView : public QTreeView
{
    Q_OBJECT
public:
    explicit DeviceTreeView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    // Width that shows every column without clipping (for the first splitter layout).
    int contentsWidthHint() const;

private:
    // Expands sections, maps and groups, and spans rows that ask for it, in a new subtree.
    void applyRowDefaults(const QModelIndex &index);
};

} // namespace dmtune
