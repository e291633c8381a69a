#pragma once
// The preview of a preset against the live system: one row per device and attribute
// (current -> preset, state, the rule that asks for it), then one row per multipath map.
// Apply shows it before writing; Verify filters it to the drift.
#include "core/presets/presetresolution.h"

#include <QAbstractTableModel>

namespace dmtune {

class PresetPreviewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { DeviceColumn, AttributeColumn, CurrentColumn, PresetColumn, StateColumn, RuleColumn, ColumnCount };
    explicit PresetPreviewModel(QObject *parent = nullptr);

    void setResolution(const Preset &preset, const PresetResolution &resolution);
    // Only rows that differ or are unavailable (verify's view).
    void setDriftOnly(bool driftOnly);
    const PresetResolution &resolution() const { return m_resolution; }
    // "sdb queue/nomerges 0 -> 2 [differs]" per row (tests, logs).
    QStringList lines() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString device, attribute, current, wanted, state, rule, note;
        bool drift = false;
        QString risk; // shown in the state column: "differs, puts data at risk"
    };
    void rebuild();

    Preset m_preset;
    PresetResolution m_resolution;
    QList<Row> m_rows;
    bool m_driftOnly = false;
};

} // namespace dmtune
