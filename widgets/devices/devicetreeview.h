#pragma once
// The tree view for DeviceTreeModel: sizes columns to their text and opens the rows an admin
// wants open (sections, maps, path groups) as they appear, leaving the rest as the user left it.
//
// A filter (setFilterText, typed into filterEdit()) narrows the tree on a host with hundreds of devices: the rows
// whose text matches (name, kind, size, WWID/model, state, scheduler; case-insensitive), the rows above them
// (section, map, path group: where the device sits) and everything under a matching row (a map's groups and
// paths, a disk's partitions and holders). It hides rows in the view (setRowHidden), so the model's indexes stay
// the view's: selection, drag and the window's lookups need no mapping.
#include <QTreeView>

#include <functional>
#include <vector>

class QLineEdit;
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

    // Empty: every row. Applied at once, and again (coalesced) when the model's rows change.
    void setFilterText(const QString &text);
    QString filterText() const { return m_filter; }
    // The line edit over the tree: typing filters, Return selects the first device shown, Escape clears. Made on
    // the first call, with `parent`; the caller lays it out.
    QLineEdit *filterEdit(QWidget *parent = nullptr);
    // Whether the filter lets the row show (its ancestors may still be collapsed).
    bool isShownByFilter(const QModelIndex &index) const;
    // The first row, in tree order, that matches the filter itself and stands for a device (invalid: none).
    QModelIndex firstMatch() const;

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Expands sections, maps and groups, and spans rows that ask for it, in a new subtree.
    void applyRowDefaults(const QModelIndex &index);
    bool rowMatches(const QModelIndex &index) const;
    struct FilterResult {
        bool shown = false;
        bool matchInside = false; // a row below matched itself (the row is expanded to show it)
    };
    FilterResult applyFilter(const QModelIndex &parent, bool showAll);
    void refilter();
    void scheduleRefilter();

    std::vector<ContextMenuProvider> m_menuProviders;
    QString m_filter;
    bool m_refilterPending = false;
    QLineEdit *m_filterEdit = nullptr;
};

} // namespace dmtune
