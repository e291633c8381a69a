#include "widgets/pathgroups/pathgroupmodel.h"
#include "widgets/messagestyle.h"

#include "widgets/devices/devicetreemodel.h"

#include "core/dm/grammar/pathgroupdraft.h"

#include "core/dm/grammar/pathselectors.h"

#include <QBrush>
#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QMimeData>

namespace dmtune {

namespace {

QStringList devicesOf(const PathGroupSpec &spec)
{
    QStringList devices;
    for (const PathSpec &path : spec.paths)
        devices << path.device;
    return devices;
}

// "service time (fixed point, 1024 = 1)" -> "service time": the header keeps the gist, the tooltip the rest.
QString shortName(const QString &name)
{
    const qsizetype paren = name.indexOf(QLatin1String(" ("));
    return paren > 0 ? name.left(paren) : name;
}

// The table arguments keep the kernel's words ("relative_throughput"): the live info columns use plain
// words. An info word that names an argument ("relative throughput") reports the argument back: one column.
QString argLabel(const QString &name)
{
    return name;
}

bool reportsArgument(const QString &infoName, const QString &argName)
{
    return shortName(infoName).replace(QLatin1Char(' '), QLatin1Char('_')) == argName;
}

QString argToolTip(const QString &selector, const QString &name)
{
    if (name == QLatin1String("repeat_count"))
        return QCoreApplication::translate("PathGroupModel",
            "%1 repeat_count (table argument): I/Os sent down a path before the selector "
            "picks again. Current kernels use 1 whatever is set.")
            .arg(selector);
    if (name == QLatin1String("relative_throughput"))
        return QCoreApplication::translate("PathGroupModel",
            "service-time relative throughput (table argument), 0-100: the path's share of "
            "the load against the other paths; 0 uses it only when no other path is usable.");
    if (name == QLatin1String("cpu_mask"))
        return QCoreApplication::translate("PathGroupModel",
            "io-affinity CPU mask (table argument), hex: I/O submitted on these CPUs goes "
            "down this path.");
    return QCoreApplication::translate("PathGroupModel", "%1 per-path table argument").arg(selector);
}

} // namespace

QString PathGroupModel::deviceFromMime(const QMimeData *data, const QString &map)
{
    if (!data || !data->hasFormat(mimeType()))
        return {};
    const QStringList parts = QString::fromUtf8(data->data(mimeType())).split(QLatin1Char('\n'));
    if (parts.size() != 2 || parts.at(0) != map)
        return {};
    return parts.at(1);
}

PathGroupModel::PathGroupModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PathGroupModel::setGroup(const QString &map, int group, const PathGroupSpec &spec,
    const QHash<QString, LivePath> &live, const QHash<QString, QString> &deviceNames)
{
    const PathSelectorInfo *info = findPathSelector(spec.selector);
    QStringList infoNames = info ? QStringList(info->statusInfoNames) : QStringList();
    QStringList argNames = PathGroupDraft::pathArgNames(spec.selector);
    // The table says how many words a path has; name the ones this program does not know by number.
    while (argNames.size() < spec.perPathArgCount)
        argNames << tr("argument %1").arg(argNames.size() + 1);
    argNames = argNames.mid(0, spec.perPathArgCount);
    QList<int> argLiveIndexes(argNames.size(), -1);
    QStringList shownInfo;
    QList<int> infoIndexes;
    for (int i = 0; i < infoNames.size(); ++i) {
        bool reported = false;
        for (int a = 0; a < argNames.size(); ++a) {
            if (reportsArgument(infoNames.at(i), argNames.at(a))) {
                argLiveIndexes[a] = i;
                reported = true;
            }
        }
        if (!reported) {
            shownInfo << infoNames.at(i);
            infoIndexes << i;
        }
    }
    infoNames = shownInfo;

    const bool sameShape = map == m_map && group == m_group && infoNames == m_infoNames && argNames == m_argNames
        && devicesOf(spec) == devicesOf(m_spec);
    if (!sameShape)
        beginResetModel();
    m_map = map;
    m_group = group;
    m_spec = spec;
    m_live = live;
    m_names = deviceNames;
    m_infoNames = infoNames;
    m_infoIndexes = infoIndexes;
    m_argNames = argNames;
    m_argLiveIndexes = argLiveIndexes;
    if (!sameShape) {
        endResetModel();
    } else if (rowCount() > 0) {
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
}

void PathGroupModel::setEditable(bool editable)
{
    if (m_editable == editable)
        return;
    m_editable = editable;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

QString PathGroupModel::deviceAt(int row) const
{
    return row >= 0 && row < m_spec.paths.size() ? m_spec.paths.at(row).device : QString();
}

int PathGroupModel::rowOf(const QString &device) const
{
    for (int row = 0; row < m_spec.paths.size(); ++row) {
        if (m_spec.paths.at(row).device == device)
            return row;
    }
    return -1;
}

PathGroupModel::ColumnKind PathGroupModel::columnKind(int column) const
{
    if (column == 0)
        return ColumnKind::Path;
    if (column == 1)
        return ColumnKind::State;
    if (column == 2)
        return ColumnKind::FailCount;
    return column < firstArgColumn() ? ColumnKind::SelectorInfo : ColumnKind::PathArg;
}

int PathGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_spec.paths.size());
}

int PathGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : 3 + int(m_infoNames.size() + m_argNames.size());
}

QStringList PathGroupModel::columnHeaders() const
{
    QStringList headers { tr("Path"), tr("State"), tr("Fails") };
    // Two lines ("in-flight" over "bytes"): a group's card has the width of half the tab.
    for (const QString &name : m_infoNames)
        headers << shortName(name).replace(QLatin1Char(' '), QLatin1Char('\n'));
    for (const QString &name : m_argNames)
        headers << argLabel(name);
    return headers;
}

QVariant PathGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return columnHeaders().value(section);
    if (role == Qt::ToolTipRole) {
        switch (columnKind(section)) {
        case ColumnKind::Path:
            return tr("The path device; drag it to another group or to \"New group\".");
        case ColumnKind::State:
            return tr("Live path state: active, or failed (by the kernel on an I/O error, by multipathd's "
                      "checker, or by a fail_path message).");
        case ColumnKind::FailCount:
            return tr("How often the path failed since the table was loaded.");
        case ColumnKind::SelectorInfo:
            return tr("%1: %2 (live, from the selector's status)").arg(m_spec.selector, m_infoNames.value(section - 3));
        case ColumnKind::PathArg:
            return argToolTip(m_spec.selector, m_argNames.value(section - firstArgColumn()));
        }
    }
    return {};
}

QVariant PathGroupModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PathSpec &path = m_spec.paths.at(index.row());
    const auto liveIt = m_live.constFind(path.device);
    const LivePath *live = liveIt == m_live.constEnd() ? nullptr : &liveIt.value();
    const ColumnKind kind = columnKind(index.column());
    if (role == DeviceRole)
        return path.device;
    if (role == ColumnKindRole)
        return int(kind);

    switch (kind) {
    case ColumnKind::Path: {
        const QString name = m_names.value(path.device);
        if (role == Qt::DisplayRole)
            return name.isEmpty() ? path.device : QStringLiteral("%1 (%2)").arg(name, path.device);
        if (role == Qt::ToolTipRole) {
            QString tip
                = name.isEmpty() ? tr("Path %1").arg(path.device) : tr("Path %1, device %2").arg(name, path.device);
            if (live && live->group != m_group + 1)
                tip += tr("; live in group %1").arg(live->group);
            return tip;
        }
        break;
    }
    case ColumnKind::State:
        if (role == Qt::DisplayRole) {
            if (!live)
                return QStringLiteral("–");
            const QString state = live->status.active ? QStringLiteral("active") : QStringLiteral("failed");
            if (live->priority < 0)
                return state;
            // As multipath -ll: the kernel's state, then multipathd's priority and checker state.
            return QStringLiteral("%1 · prio %2 · %3").arg(state).arg(live->priority).arg(live->checkerState);
        }
        if (role == Qt::ToolTipRole && live && live->priority >= 0)
            return tr("Kernel: %1. multipathd: priority %2, checker %3, device %4.")
                .arg(live->status.active ? QStringLiteral("active") : QStringLiteral("failed"))
                .arg(live->priority)
                .arg(live->checkerState, live->deviceState);
        if (role == Qt::ForegroundRole && live && !live->status.active)
            return QBrush(messagestyle::viewText(MessageTone::Error));
        if (role == Qt::FontRole && live && !live->status.active) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (role == Qt::ToolTipRole && !live)
            return tr("No live status for this path");
        break;
    case ColumnKind::FailCount:
        if (role == Qt::DisplayRole)
            return live ? QString::number(live->status.failCount) : QStringLiteral("–");
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case ColumnKind::SelectorInfo: {
        const int column = index.column() - 3;
        const int i = m_infoIndexes.value(column, column);
        const bool fromThisSelector = live && live->selector == m_spec.selector && i < live->status.selectorInfo.size();
        if (role == Qt::DisplayRole)
            return fromThisSelector ? live->status.selectorInfo.at(i) : QStringLiteral("–");
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ToolTipRole) {
            if (fromThisSelector)
                return QStringLiteral("%1: %2").arg(m_infoNames.value(column), live->status.selectorInfo.at(i));
            if (live)
                return tr("The path runs under %1 now; %2 reports this after Apply.")
                    .arg(live->selector, m_spec.selector);
            return tr("No live status for this path");
        }
        break;
    }
    case ColumnKind::PathArg: {
        const int i = index.column() - firstArgColumn();
        // What the selector reports back for this argument, when the path runs under it now.
        const int liveIndex = m_argLiveIndexes.value(i, -1);
        const QString liveValue = liveIndex >= 0 && live && live->selector == m_spec.selector
                && liveIndex < live->status.selectorInfo.size()
            ? live->status.selectorInfo.at(liveIndex)
            : QString();
        const QString value = path.args.value(i);
        if (role == Qt::EditRole)
            return value;
        if (role == Qt::DisplayRole)
            return liveValue.isEmpty() || liveValue == value ? value : tr("%1 (live %2)").arg(value, liveValue);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::BackgroundRole && m_editable)
            return QBrush(messagestyle::viewTint(MessageTone::Warning)); // reads as an input: double-click to edit
        if (role == Qt::ToolTipRole) {
            QString tip = argToolTip(m_spec.selector, m_argNames.value(i));
            if (!liveValue.isEmpty())
                tip += QLatin1Char(' ') + tr("The selector reports %1 now.").arg(liveValue);
            return tip + QLatin1Char(' ') + tr("Double-click to edit.");
        }
        break;
    }
    }
    return {};
}

Qt::ItemFlags PathGroupModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return m_editable ? Qt::ItemIsDropEnabled : Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (m_editable) {
        f |= Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
        if (columnKind(index.column()) == ColumnKind::PathArg)
            f |= Qt::ItemIsEditable;
    }
    return f;
}

bool PathGroupModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !m_editable || !checkIndex(index, CheckIndexOption::IndexIsValid)
        || columnKind(index.column()) != ColumnKind::PathArg)
        return false;
    const QString text = value.toString().trimmed();
    const int i = index.column() - firstArgColumn();
    if (text == m_spec.paths.at(index.row()).args.value(i))
        return true;
    Q_EMIT pathArgEdited(m_spec.paths.at(index.row()).device, i, text);
    return true;
}

QStringList PathGroupModel::mimeTypes() const
{
    return { mimeType() };
}

QMimeData *PathGroupModel::mimeData(const QModelIndexList &indexes) const
{
    // One path at a time: the views select single rows.
    for (const QModelIndex &index : indexes) {
        if (!index.isValid())
            continue;
        auto *data = new QMimeData;
        const QString device = deviceAt(index.row());
        data->setData(mimeType(), QStringLiteral("%1\n%2").arg(m_map, device).toUtf8());
        data->setText(device);
        return data;
    }
    return nullptr;
}

Qt::DropActions PathGroupModel::supportedDragActions() const
{
    return Qt::MoveAction;
}

Qt::DropActions PathGroupModel::supportedDropActions() const
{
    return Qt::MoveAction | Qt::CopyAction; // a move within the map, a disk copied in from the tree
}

QString PathGroupModel::diskFromMime(const QMimeData *data)
{
    if (!data || !data->hasFormat(DeviceTreeModel::deviceMimeType()))
        return {};
    const QString name = QString::fromUtf8(data->data(DeviceTreeModel::deviceMimeType())).trimmed();
    return name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\n')) ? QString() : name;
}

bool PathGroupModel::canDropMimeData(const QMimeData *data, Qt::DropAction action, int, int, const QModelIndex &) const
{
    if (!m_editable)
        return false;
    if (action == Qt::MoveAction && !deviceFromMime(data, m_map).isEmpty())
        return true;
    return (action == Qt::CopyAction || action == Qt::MoveAction) && !diskFromMime(data).isEmpty();
}

bool PathGroupModel::dropMimeData(
    const QMimeData *data, Qt::DropAction action, int row, int column, const QModelIndex &parent)
{
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    if (row < 0 && parent.isValid())
        row = parent.row();
    // The view that started the drag removes nothing (removeRows is not implemented): the editor moves
    // the path in the draft and hands every model its group again.
    if (const QString device = deviceFromMime(data, m_map); !device.isEmpty() && action == Qt::MoveAction)
        Q_EMIT pathDropped(device, m_group, row);
    else
        Q_EMIT diskDropped(diskFromMime(data), m_group, row);
    return true;
}

} // namespace dmtune
