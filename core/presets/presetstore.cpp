#include "core/presets/presetstore.h"

#include "core/presets/presetjson.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

namespace dmtune {

QString userPresetDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/dmtune/presets");
}

QList<PresetEntry> listPresets()
{
    QList<PresetEntry> out;
    const auto addDir = [&out](const QString &dir, bool builtIn) {
        const QStringList files = QDir(dir).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
        for (const auto &f : files) {
            const QString path = dir + QLatin1Char('/') + f;
            out << PresetEntry { path, builtIn, loadPresetFile(path) };
        }
    };
    addDir(QStringLiteral(":/presets"), true);
    addDir(userPresetDir(), false);
    return out;
}

Result<Preset> findPreset(const QString &pathOrName)
{
    // A name first: a file someone left in the current directory (as root, maybe /tmp) must not stand in for
    // the stored or built-in preset of that name. Something with a '/' is always a path.
    if (!pathOrName.contains(QLatin1Char('/'))) {
        for (const auto &e : listPresets()) {
            if (QFileInfo(e.path).completeBaseName() == pathOrName || (e.preset && e.preset->name == pathOrName))
                return e.preset;
        }
    }
    if (QFileInfo::exists(pathOrName))
        return loadPresetFile(pathOrName);
    return Result<Preset>::failure(
        QStringLiteral("%1: no such file, and no stored or built-in preset of that name").arg(pathOrName));
}

QString userPresetPath(const Preset &preset)
{
    QString slug = preset.name.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (slug.isEmpty())
        slug = QStringLiteral("preset");
    return userPresetDir() + QLatin1Char('/') + slug + QStringLiteral(".json");
}

Result<QString> storeUserPreset(const Preset &preset, ExistingFile existing)
{
    if (!QDir().mkpath(userPresetDir()))
        return Result<QString>::failure(QStringLiteral("cannot create %1").arg(userPresetDir()));
    const QString path = userPresetPath(preset);
    if (existing == ExistingFile::Refuse && QFileInfo::exists(path)) {
        const auto there = loadPresetFile(path);
        return Result<QString>::failure(QStringLiteral("a stored preset%1 exists as %2")
                                            .arg(there ? QStringLiteral(" \"%1\"").arg(there->name) : QString(), path));
    }
    if (const Status s = savePresetFile(path, preset, existing); !s)
        return Result<QString>::failure(s.errorMessage());
    return path;
}

} // namespace dmtune
