#pragma once
// Where presets live: built-in ones embedded in the core (resources/presets, also installed to
// share/dmtune/presets), user ones as JSON files under the XDG config dir (dmtune/presets/).
#include "core/presets/preset.h"
#include "core/util/atomicfile.h"
#include "core/util/result.h"

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
// The name (or file base name) of a stored or built-in preset, else a file path. A stored or built-in preset
// wins over a file of the same name in the current directory: a path is named as one ("./x", "dir/x").
Result<Preset> findPreset(const QString &pathOrName);
// Saves into the user dir as <slug>.json; returns the path. A preset already stored under that file name (the
// same preset or another whose name gives the same slug) is replaced only with ExistingFile::Replace.
Result<QString> storeUserPreset(const Preset &preset, ExistingFile existing = ExistingFile::Refuse);
// The path storeUserPreset() would write.
QString userPresetPath(const Preset &preset);

} // namespace dmtune
