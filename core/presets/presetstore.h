#pragma once
// Where presets live: built-in ones embedded in the core (resources/presets, also installed to
// share/dmtune/presets), user ones as JSON files under the XDG config dir (dmtune/presets/).
#include "presets/preset.h"
#include "util/result.h"

namespace dmtune {

struct PresetEntry {
    QString path; // ":/presets/x.json" for built-ins, a file path otherwise
    bool builtIn = false;
    Result<Preset> preset; // a file that does not load is listed with its error
};

// $XDG_CONFIG_HOME/dmtune/presets (shared by dmtune and dmtunectl).
QString userPresetDir();
// Built-ins first, then the user's *.json files, each group sorted by file name.
QList<PresetEntry> listPresets();
// A file path, or the name (or file base name) of a stored or built-in preset.
Result<Preset> findPreset(const QString &pathOrName);
// Saves into the user dir as <slug>.json; returns the path.
Result<QString> storeUserPreset(const Preset &preset);

} // namespace dmtune
