#pragma once
// The size tests' variants (tests/gui/CMakeLists.txt): DMTUNE_TEST_LOCALE=de_DE runs them in German (the .qm the
// build makes, loaded as the app loads it), DMTUNE_TEST_VARIANT names the run in screenshot file names.
#include "widgets/translations.h"

#include <QLocale>
#include <QString>

namespace dmtune::test {

// Installs DMTUNE_TEST_LOCALE's translation; an error when that locale has none (the run would be English and
// prove nothing). Nothing to do, and no error, without the variable.
inline QString installTestLocale()
{
    const QString name = qEnvironmentVariable("DMTUNE_TEST_LOCALE");
    if (name.isEmpty())
        return {};
    const QLocale locale(name);
    QLocale::setDefault(locale);
    const InstalledTranslations installed = installTranslations(locale);
    if (installed.dmtuneFile.isEmpty())
        return QStringLiteral("no dmtune translation for %1 in %2")
            .arg(name, translationDirectories().join(QStringLiteral(", ")));
    return {};
}

// Whether the window speaks English: text checks apply only then.
inline bool testInEnglish()
{
    return qEnvironmentVariable("DMTUNE_TEST_LOCALE").isEmpty();
}

// "-de_DE" and the like, for screenshot names; empty for the plain run.
inline QString testVariantSuffix()
{
    const QString variant = qEnvironmentVariable("DMTUNE_TEST_VARIANT");
    return variant.isEmpty() ? QString() : QLatin1Char('-') + variant;
}

} // namespace dmtune::test
