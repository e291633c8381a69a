#pragma once
// The tree view for DeviceTreeModel: sizes columns to their text and opens the rows an admin
// wants open (sections, maps, path groups) as they appear, leaving the rest as the user left it.
#include <QTreeView>

#include <functional>
#include <vector>

class QMenu;

namespace dmtune {

class DeviceTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit DeviceTreeView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    // Width that shows every column without clipping (for the first splitter layout).
    int contentsWidthHint() const;

    // Parts of the window add their actions for a row to its context menu (multipath operations, ...).
    using ContextMenuProvider = std::function<void(QMenu *menu, const QModelIndex &index)>;
    void addContextMenuProvider(ContextMenuProvider provider);
    // The menu a right click on `index` shows (empty: none is shown).
    void fillContextMenu(QMenu *menu, const QModelIndex &index) const;

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    // Expands sections, maps and groups, and spans rows that ask for it, in a new subtree.
    void applyRowDefaults(const QModelIndex &index);

    std::vector<ContextMenuProvider> m_menuProviders;
};

} // namespace dmtune
