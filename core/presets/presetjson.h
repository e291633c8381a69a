#pragma once
// The preset file format (docs/presets.md): JSON with a schema version, human-editable.
// The loader is a pure function over text; any problem is one error naming the rule and the field
// ("rule 2, field \"settings.queue/nomerges\": '7' is not one of: 0, 1, 2"), and nothing of a bad
// file is used.
#include "core/presets/preset.h"
#include "core/util/result.h"

#include "core/util/atomicfile.h"
#include <QByteArray>

#include <QJsonObject>

namespace dmtune {

Result<Preset> parsePreset(const QByteArray &json);
QJsonObject presetToJsonObject(const Preset &preset);
// Indented JSON, keys in a stable order; parsePreset(presetToJson(p)) == p for a valid preset.
QByteArray presetToJson(const Preset &preset);

Result<Preset> loadPresetFile(const QString &path);
// Written whole or not at all (AtomicFile), never through a symbolic link; an existing file is replaced only
// with ExistingFile::Replace (`preset save --replace`).
Status savePresetFile(const QString &path, const Preset &preset, ExistingFile existing = ExistingFile::Refuse);

} // namespace dmtune
