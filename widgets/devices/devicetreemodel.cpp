#include "widgets/devices/devicetreemodel.h"

#include "widgets/devices/devicetreebuilder.h"
#include "widgets/messagestyle.h"

#include <QColor>
#include <QFont>
#include <QMimeData>

#include <functional>

namespace dmtune {

namespace {

int childWithKey(const DeviceTreeNode &parent, const QString &key, int from)
{
    for (int i = from; i < int(parent.children.size()); ++i) {
        if (parent.children[size_t(i)]->key == key)
            return i;
    }
    return -1;
}

// Depth-first search; the callback returns true to stop.
const DeviceTreeNode *findNode(const DeviceTreeNode &node, const std::function<bool(const DeviceTreeNode &)> &match)
{
    for (const auto &child : node.children) {
        if (match(*child))
            return child.get();
        if (const auto *found = findNode(*child, match))
            return found;
    }
    return nullptr;
}

} // namespace

DeviceTreeModel::DeviceTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<DeviceTreeNode>())
{
}

DeviceTreeModel::~DeviceTreeModel() = default;

void DeviceTreeModel::setSnapshot(const DeviceSnapshot &snapshot)
{
    auto fresh = buildDeviceTree(snapshot);
    syncChildren(*m_root, *fresh, QModelIndex());
}

// Walks the wanted children in order, keeping the invariant that the first i current children
// have the keys of the first i wanted ones: a matching row is updated in place, rows in the way of
// a key found further down are removed, a new key is inserted. Rows left over at the end go.
void DeviceTreeModel::syncChildren(DeviceTreeNode &current, DeviceTreeNode &fresh, const QModelIndex &parentIndex)
{
    auto &have = current.children;
    auto &want = fresh.children;
    for (int i = 0; i < int(want.size()); ++i) {
        const QString &key = want[size_t(i)]->key;
        if (i < int(have.size()) && have[size_t(i)]->key == key) {
            syncNode(*have[size_t(i)], *want[size_t(i)], index(i, 0, parentIndex));
            continue;
        }
        const int found = childWithKey(current, key, i + 1);
        if (found > i) {
            beginRemoveRows(parentIndex, i, found - 1);
            have.erase(have.begin() + i, have.begin() + found);
            current.renumber();
            endRemoveRows();
            syncNode(*have[size_t(i)], *want[size_t(i)], index(i, 0, parentIndex));
        } else {
            beginInsertRows(parentIndex, i, i);
            have.insert(have.begin() + i, std::move(want[size_t(i)]));
            current.renumber();
            endInsertRows();
        }
    }
    if (have.size() > want.size()) {
        beginRemoveRows(parentIndex, int(want.size()), int(have.size()) - 1);
        have.erase(have.begin() + qsizetype(want.size()), have.end());
        endRemoveRows();
    }
}

void DeviceTreeModel::syncNode(DeviceTreeNode &current, DeviceTreeNode &fresh, const QModelIndex &index)
{
    if (!current.sameContent(fresh)) {
        current.copyContent(fresh);
        Q_EMIT dataChanged(index, index.siblingAtColumn(DeviceTreeColumnCount - 1));
    }
    syncChildren(current, fresh, index);
}

DeviceTreeNode *DeviceTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<DeviceTreeNode *>(index.internalPointer()) : m_root.get();
}

QModelIndex DeviceTreeModel::indexOf(const DeviceTreeNode *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row, column, const_cast<DeviceTreeNode *>(node));
}

QModelIndex DeviceTreeModel::indexForKey(const QString &key) const
{
    if (key.isEmpty())
        return {};
    return indexOf(findNode(*m_root, [&](const DeviceTreeNode &n) { return n.key == key; }));
}

QModelIndex DeviceTreeModel::indexForDevice(const QString &name) const
{
    if (name.isEmpty())
        return {};
    for (const DeviceRowType type : { DeviceRowType::Map, DeviceRowType::Device }) {
        if (const auto *node
            = findNode(*m_root, [&](const DeviceTreeNode &n) { return n.type == type && n.deviceName == name; }))
            return indexOf(node);
    }
    return indexOf(findNode(*m_root, [&](const DeviceTreeNode &n) {
        return n.deviceName == name && n.type != DeviceRowType::PathGroup && n.type != DeviceRowType::PathHardware;
    }));
}

QModelIndex DeviceTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= DeviceTreeColumnCount || (parent.isValid() && parent.column() != 0))
        return {};
    const DeviceTreeNode *parentNode = nodeOf(parent);
    if (row >= int(parentNode->children.size()))
        return {};
    return createIndex(row, column, parentNode->children[size_t(row)].get());
}

QModelIndex DeviceTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int DeviceTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int DeviceTreeModel::columnCount(const QModelIndex &) const
{
    return DeviceTreeColumnCount;
}

QVariant DeviceTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const DeviceTreeNode *node = nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        return node->text[size_t(index.column())];
    case Qt::ToolTipRole:
        if (index.column() == NameColumn && !node->toolTip.isEmpty())
            return node->toolTip;
        return node->text[size_t(index.column())].isEmpty() ? QVariant() : QVariant(node->text[size_t(index.column())]);
    case Qt::FontRole:
        // Bold names only: bold WWIDs and states would widen every column for no gain.
        if (index.column() == NameColumn
            && (node->type == DeviceRowType::Section || node->type == DeviceRowType::Map)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        // A failed path must stand out in a list of dozens of healthy ones.
        return node->attention ? QVariant(messagestyle::viewText(MessageTone::Error)) : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case DeviceNameRole:
        return node->deviceName;
    case RowTypeRole:
        return int(node->type);
    case RowKeyRole:
        return node->key;
    case SpansRowRole:
        return node->spansRow;
    default:
        return {};
    }
}

QVariant DeviceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= DeviceTreeColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole && section == SizeColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KindColumn:
        return tr("Kind");
    case SizeColumn:
        return tr("Size");
    case IdentityColumn:
        return tr("Model/Identity");
    case StateColumn:
        return tr("State");
    case SchedulerColumn:
        return tr("Scheduler");
    default:
        return {};
    }
}

QHash<int, QByteArray> DeviceTreeModel::roleNames() const
{
    auto names = QAbstractItemModel::roleNames();
    names.insert(DeviceNameRole, "deviceName");
    names.insert(RowTypeRole, "rowType");
    names.insert(RowKeyRole, "rowKey");
    names.insert(SpansRowRole, "spansRow");
    return names;
}

Qt::ItemFlags DeviceTreeModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = QAbstractItemModel::flags(index);
    if (index.isValid() && !index.data(DeviceNameRole).toString().isEmpty())
        flags |= Qt::ItemIsDragEnabled;
    return flags;
}

QStringList DeviceTreeModel::mimeTypes() const
{
    return { deviceMimeType() };
}

QMimeData *DeviceTreeModel::mimeData(const QModelIndexList &indexes) const
{
    for (const QModelIndex &index : indexes) {
        const QString name = index.data(DeviceNameRole).toString();
        if (name.isEmpty())
            continue;
        auto *data = new QMimeData;
        data->setData(deviceMimeType(), name.toUtf8());
        data->setText(name);
        return data;
    }
    return nullptr;
}

} // namespace dmtune
