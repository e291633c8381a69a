#include "widgets/presets/presetpreviewmodel.h"

#include "widgets/messagestyle.h"

#include <QBrush>
#include <QColor>

namespace dmtune {

PresetPreviewModel::PresetPreviewModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PresetPreviewModel::setResolution(const Preset &preset, const PresetResolution &resolution)
{
    m_preset = preset;
    m_resolution = resolution;
    rebuild();
}

void PresetPreviewModel::setDriftOnly(bool driftOnly)
{
    if (driftOnly == m_driftOnly)
        return;
    m_driftOnly = driftOnly;
    rebuild();
}

void PresetPreviewModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    for (const auto &i : m_resolution.items) {
        const bool drift = i.state != PresetItemState::Same;
        if (m_driftOnly && !drift)
            continue;
        const QString state = presetItemStateName(i.state);
        m_rows << Row { i.device, i.attribute, i.current, i.wanted,
            i.risk.isEmpty() ? state : tr("%1, puts data at risk").arg(state), presetRuleLabel(m_preset, i.rule),
            i.risk.isEmpty() ? i.note : tr("Puts data at risk: %1").arg(i.risk), drift, i.risk };
    }
    for (const auto &m : m_resolution.maps) {
        if (m_driftOnly && !m.differs)
            continue;
        QStringList wanted, current;
        if (!m.wanted.selector.isEmpty()) {
            wanted << m.wanted.selector;
            current << m.currentSelector;
        }
        if (!m.wanted.grouping.isEmpty()) {
            wanted << m.wanted.grouping;
            current << m.currentGrouping;
        }
        if (!m.wanted.features.isEmpty()) {
            wanted << m.wanted.features.join(QLatin1Char(' '));
            current << m.currentFeatures.join(QLatin1Char(' '));
        }
        m_rows << Row { QStringLiteral("%1 (%2)").arg(m.map, m.device), tr("multipath table"),
            current.join(QStringLiteral(", ")), wanted.join(QStringLiteral(", ")),
            m.differs ? QStringLiteral("differs") : QStringLiteral("same"), presetRuleLabel(m_preset, m.rule), m.note,
            m.differs };
    }
    endResetModel();
}

QStringList PresetPreviewModel::lines() const
{
    QStringList out;
    for (const auto &r : m_rows)
        out << QStringLiteral("%1 %2 %3 -> %4 [%5]")
                   .arg(
                       r.device, r.attribute, r.current.isEmpty() ? QStringLiteral("-") : r.current, r.wanted, r.state);
    return out;
}

int PresetPreviewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PresetPreviewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PresetPreviewModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &r = m_rows[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case DeviceColumn:
            return r.device;
        case AttributeColumn:
            return r.attribute;
        case CurrentColumn:
            return r.current.isEmpty() ? QStringLiteral("-") : r.current;
        case PresetColumn:
            return r.wanted;
        case StateColumn:
            return r.state;
        case RuleColumn:
            return r.rule;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return r.note.isEmpty() ? QVariant() : QVariant(r.note);
    if (role == Qt::ForegroundRole && index.column() == StateColumn && r.drift)
        return QBrush(messagestyle::viewText(
            r.state == QLatin1String("unavailable") ? MessageTone::Warning : MessageTone::Error));
    return {};
}

QVariant PresetPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DeviceColumn:
        return tr("Device");
    case AttributeColumn:
        return tr("Attribute");
    case CurrentColumn:
        return tr("Current");
    case PresetColumn:
        return tr("Preset");
    case StateColumn:
        return tr("State");
    case RuleColumn:
        return tr("Rule");
    default:
        return {};
    }
}

} // namespace dmtune
