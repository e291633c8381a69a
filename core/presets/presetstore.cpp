#include "presetstore.h"

#include "presets/presetjson.h"

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
    if (QFileInfo::exists(pathOrName))
        return loadPresetFile(pathOrName);
    for (const auto &e : listPresets()) {
        if (QFileInfo(e.path).completeBaseName() == pathOrName || (e.preset && e.preset->name == pathOrName))
            return e.preset;
    }
    return Result<Preset>::failure(
        QStringLiteral("%1: no such file, and no stored or built-in preset of that name").arg(pathOrName));
}

Result<QString> storeUserPreset(const Preset &preset)
{
    QString slug = preset.name.toLower();
    slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    slug.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (slug.isEmpty())
        slug = QStringLiteral("preset");
    if (!QDir().mkpath(userPresetDir()))
        return Result<QString>::failure(QStringLiteral("cannot create %1").arg(userPresetDir()));
    const QString path = userPresetDir() + QLatin1Char('/') + slug + QStringLiteral(".json");
    if (const Status s = savePresetFile(path, preset); !s)
        return Result<QString>::failure(s.errorMessage);
    return path;
}

} // namespace dmtune
