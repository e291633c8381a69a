#pragma once
// The GUI's translations: dmtune_LANG.qm for the user's locale, and Qt's own qtbase_LANG.qm
// (standard dialogs and buttons) when the system has it. The CLI never loads one: its output stays as scripts
// and the man pages know it.
#include <QLocale>
#include <QString>
#include <QStringList>

namespace dmtune {

// Where dmtune_LANG.qm files are looked for, first match wins: $DMTUNE_TRANSLATIONS_DIR, "translations" next to
// the program (the build tree), then the installed DATADIR/dmtune/translations relative to the program's bin/.
QStringList translationDirectories();

struct InstalledTranslations {
    QString dmtuneFile; // the .qm loaded for dmtune's own text, empty when the locale has none (English)
    QString qtFile; // Qt's qtbase .qm, empty when none
};

// Loads and installs the translators for locale on the running application (they live as long as it does).
InstalledTranslations installTranslations(const QLocale &locale);

} // namespace dmtune
