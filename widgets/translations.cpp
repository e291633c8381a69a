#include "translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QTranslator>

namespace dmtune {

QStringList translationDirectories()
{
    QStringList dirs;
    const QString fromEnvironment = qEnvironmentVariable("DMTUNE_TRANSLATIONS_DIR");
    if (!fromEnvironment.isEmpty())
        dirs << fromEnvironment;
    const QString programDir = QCoreApplication::applicationDirPath();
    dirs << programDir + QStringLiteral("/translations")
         << QDir::cleanPath(programDir + QStringLiteral("/../share/dmtune/translations"));
    return dirs;
}

namespace {

// A translator parented to the application, installed when locale has a file in one of dirs.
QString installFirstFound(const QLocale &locale, const QString &name, const QStringList &dirs)
{
    for (const QString &dir : dirs) {
        auto *translator = new QTranslator(QCoreApplication::instance());
        if (translator->load(locale, name, QStringLiteral("_"), dir)) {
            QCoreApplication::installTranslator(translator);
            return translator->filePath();
        }
        delete translator;
    }
    return {};
}

} // namespace

InstalledTranslations installTranslations(const QLocale &locale)
{
    InstalledTranslations installed;
    installed.dmtuneFile = installFirstFound(locale, QStringLiteral("dmtune"), translationDirectories());
    // Qt's own only with dmtune's: an English window with German standard buttons would be worse than either.
    if (!installed.dmtuneFile.isEmpty())
        installed.qtFile = installFirstFound(
            locale, QStringLiteral("qtbase"), { QLibraryInfo::path(QLibraryInfo::TranslationsPath) });
    return installed;
}

} // namespace dmtune
