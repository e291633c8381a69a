#pragma once
// A preset as the files that make settings survive a reboot without dmtune: udev rules, a tuned
// profile, a multipath.conf snippet. Pure text out; each export lists what it could not express
// (and repeats the list as comments at the end of the text).
#include "core/presets/preset.h"
#include "core/util/result.h"

namespace dmtune {

enum class PresetExportFormat { Udev, Tuned, Multipath };

struct PresetExport {
    QString text;
    QStringList unexpressed; // "rule 2: module/dm_mod/swap_bios: a module parameter (modprobe.d)"
    int expressed = 0; // the settings written: 0 means the text sets nothing (only its header and comments)
};

Result<PresetExportFormat> parsePresetExportFormat(const QString &name); // udev | tuned | multipath
// A file name to suggest: "99-dmtune-NAME.rules", "tuned.conf", "dmtune-NAME.conf".
QString presetExportFileName(const Preset &preset, PresetExportFormat format);

PresetExport exportPreset(const Preset &preset, PresetExportFormat format);
PresetExport exportUdevRules(const Preset &preset);
PresetExport exportTunedProfile(const Preset &preset);
PresetExport exportMultipathConf(const Preset &preset);

} // namespace dmtune
