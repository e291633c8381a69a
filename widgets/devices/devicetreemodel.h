#pragma once
// The device tree over a DeviceSnapshot: multipath maps (groups, paths, hardware) and every other
// block device (partitions, holders).
#include "widgets/devices/devicetreenode.h"

#include "core/discovery/devicesnapshot.h"

#include <QAbstractItemModel>

namespace dmtune {

class DeviceTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Role {
        DeviceNameRole = Qt::UserRole, // "deviceName": the block device the row stands for
        RowTypeRole, // "rowType": int(DeviceRowType)
        RowKeyRole, // "rowKey": stable identity of the row across snapshots
        SpansRowRole, // "spansRow": bool, the name column's text is meant to span the whole row
    };
    Q_ENUM(Role)

    explicit DeviceTreeModel(QObject *parent = nullptr);
    ~DeviceTreeModel() override;

    // Patches the rows in place (inserts, removes, dataChanged) so that expansion, selection and
    // persistent indexes survive a refresh.
    void setSnapshot(const DeviceSnapshot &snapshot);

    QModelIndex indexForKey(const QString &key) const;
    // The row that best stands for a device: its map row, else its row under "Other devices",
    // else the first row that shows it (a path, a partition, a holder).
    QModelIndex indexForDevice(const QString &name) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Rows that stand for a block device can be dragged (e.g. into the path-group editor): the data
    // carries the device's name under this type.
    static QString deviceMimeType() { return QStringLiteral("application/x-dmtune-block-device"); }
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }

private:
    DeviceTreeNode *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(const DeviceTreeNode *node, int column = 0) const;
    void syncChildren(DeviceTreeNode &current, DeviceTreeNode &fresh, const QModelIndex &parentIndex);
    void syncNode(DeviceTreeNode &current, DeviceTreeNode &fresh, const QModelIndex &index);

    std::unique_ptr<DeviceTreeNode> m_root;
};

} // namespace dmtune
