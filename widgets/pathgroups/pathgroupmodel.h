#pragma once
// The paths of one priority group of a PathGroupDraft, as a table: the path, its live state and fail
// count, its selector's live info (names from pathselectors.h) and its per-path table arguments
// (editable). A live info word that reports a table argument back (service-time's relative throughput) is
// not a column of its own: the argument's column shows it beside the draft's value when they differ. Paths are dragged
// out as "application/x-dmtune-multipath-path" and dropped into another group's model; the model only reports the drop
// (pathDropped): the editor moves the path in the draft and gives every model its group again. A disk dragged in from
// the device tree is reported as diskDropped.
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"

#include <QAbstractTableModel>
#include <QHash>

namespace dmtune {

// What the editor knows live about a path, by its device word ("8:16").
struct LivePath {
    PathStatus status;
    QString selector; // the selector of the live group the path is in (its info words come from it)
    int group = 0; // 1-based live group
    // multipathd's, where it manages the map (what multipath -ll shows beside the kernel's A/F; the kernel
    // does not know them): -1 / empty otherwise.
    int priority = -1;
    QString checkerState; // "ready", "faulty", "ghost", ...
    QString deviceState; // "running", "offline", ...
};

class PathGroupModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        DeviceRole = Qt::UserRole, // the path's device word, "8:16"
        ColumnKindRole, // int(ColumnKind)
    };
    enum class ColumnKind { Path, State, FailCount, SelectorInfo, PathArg };

    static QString mimeType() { return QStringLiteral("application/x-dmtune-multipath-path"); }
    // The device word a drag carries (empty when the data is not a path of `map`).
    static QString deviceFromMime(const QMimeData *data, const QString &map);
    // A disk dragged in from the device tree (DeviceTreeModel::deviceMimeType()): its name, else empty.
    static QString diskFromMime(const QMimeData *data);

    explicit PathGroupModel(QObject *parent = nullptr);

    // `group` is 0-based in the draft. Updates in place (dataChanged) when only values changed, so
    // selection and an open editor survive a status tick; resets when the paths or columns changed.
    void setGroup(const QString &map, int group, const PathGroupSpec &spec, const QHash<QString, LivePath> &live,
        const QHash<QString, QString> &deviceNames);
    void setEditable(bool editable);
    bool isEditable() const { return m_editable; }
    int group() const { return m_group; }
    const PathGroupSpec &spec() const { return m_spec; }
    QString deviceAt(int row) const;
    int rowOf(const QString &device) const;
    ColumnKind columnKind(int column) const;
    int firstArgColumn() const { return 3 + int(m_infoNames.size()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    Qt::DropActions supportedDragActions() const override;
    Qt::DropActions supportedDropActions() const override;
    bool canDropMimeData(
        const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) const override;
    bool dropMimeData(
        const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent) override;

Q_SIGNALS:
    // A path of this map was dropped on this group before `row` (-1: at the end).
    void pathDropped(const QString &device, int group, int row);
    // A disk that is not a path of this map (from the device tree) was dropped on this group: the editor
    // checks its LUN and asks before it adds it.
    void diskDropped(const QString &name, int group, int row);
    // The user typed a per-path argument; the editor puts it into the draft (or refuses it).
    void pathArgEdited(const QString &device, int argIndex, const QString &value);

private:
    QStringList columnHeaders() const;

    QString m_map;
    int m_group = -1;
    PathGroupSpec m_spec;
    QHash<QString, LivePath> m_live;
    QHash<QString, QString> m_names;
    QStringList m_infoNames; // the selector's status info names shown as columns
    QList<int> m_infoIndexes; // parallel: each one's index in the status's selector info
    QStringList m_argNames;
    QList<int> m_argLiveIndexes; // parallel to m_argNames: the selector info word reporting it back, or -1
    bool m_editable = true;
};

} // namespace dmtune
