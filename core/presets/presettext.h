#pragma once
// A preset's resolution as the lines and JSON dmtunectl prints and the plan of preset.apply previews, so the
// CLI, the GUI's plan dialog and a remote agent show the same text.
#include "core/presets/presetresolution.h"

#include <QJsonArray>
#include <QStringList>

namespace dmtune {

// "  sdb queue/nomerges: 0 -> 2  [differs, rule 1 (x)] (note) RISK: ..." per item.
QStringList presetItemLines(const Preset &preset, const QList<PresetItem> &items);
// "  map mpatha (dm-0) multipath: selector round-robin 0 -> service-time 0  [differs]" per map.
QStringList presetMapLines(const QList<PresetMapItem> &maps);
// {"device", "attribute", "current", "preset", "rule", "rule_label", "state", "note"[, "risk"]} per item.
QJsonArray presetItemsJson(const Preset &preset, const QList<PresetItem> &items);

} // namespace dmtune
