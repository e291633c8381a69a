// Translations: the window speaks the locale's language when dmtune_LANG.qm exists (German, from
// the build's translations/dmtune_de.qm), and English when there is none. The translators are installed before the
// window is made, as main() does; an English run comes first because an installed translator stays.
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"

#include "app/dmtune/mainwindow.h"
#include "widgets/translations.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;
using dmtune::test::FakeSysfs;

namespace {

QStringList menuTitles(const MainWindow &window)
{
    QStringList titles;
    for (const QAction *menu : window.menuBar()->actions())
        titles << menu->text();
    return titles;
}

QStringList tabTitles(const MainWindow &window)
{
    QStringList titles;
    for (const QTabWidget *tabs : window.findChildren<QTabWidget *>()) {
        for (int i = 0; i < tabs->count(); ++i)
            titles << tabs->tabText(i);
    }
    return titles;
}

QStringList dockTitles(const MainWindow &window)
{
    QStringList titles;
    for (const QDockWidget *dock : window.findChildren<QDockWidget *>())
        titles << dock->windowTitle();
    return titles;
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(translationDirectories().contains(qEnvironmentVariable("DMTUNE_TRANSLATIONS_DIR")),
            qPrintable(translationDirectories().join(u' ')));
    }

    void englishWithoutAFile()
    {
        // No dmtune_fr.qm is built: nothing is installed, not even Qt's own French.
        const InstalledTranslations installed = installTranslations(QLocale(QLocale::French, QLocale::France));
        QVERIFY2(installed.dmtuneFile.isEmpty(), qPrintable(installed.dmtuneFile));
        QVERIFY(installed.qtFile.isEmpty());
        FakeSysfs fake;
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot::scratch(fake.root()));
        const QStringList menus = menuTitles(window);
        for (const QString &title : { u"&File"_s, u"&Edit"_s, u"&View"_s, u"&Presets"_s, u"&Help"_s })
            QVERIFY2(menus.contains(title), qPrintable(title + u" not in "_s + menus.join(u", "_s)));
    }

    void germanFromItsFile()
    {
        const InstalledTranslations installed = installTranslations(QLocale(QLocale::German, QLocale::Germany));
        QVERIFY2(installed.dmtuneFile.endsWith(u"/dmtune_de.qm"_s), qPrintable(installed.dmtuneFile));
        FakeSysfs fake;
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot::scratch(fake.root()));
        QSignalSpy shown(&window, &MainWindow::snapshotShown);
        window.resize(1400, 900);
        window.show();
        window.start();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
        const QStringList menus = menuTitles(window);
        for (const QString &title :
            { u"&Datei"_s, u"&Bearbeiten"_s, u"&Ansicht"_s, u"&Voreinstellungen"_s, u"&Hilfe"_s })
            QVERIFY2(menus.contains(title), qPrintable(title + u" not in "_s + menus.join(u", "_s)));
        const QStringList tabs = tabTitles(window);
        QVERIFY2(tabs.contains(u"&Optimieren"_s) && tabs.contains(u"&Pfadgruppen"_s) && tabs.contains(u"&Statistik"_s),
            qPrintable(tabs.join(u", "_s)));
        const QStringList docks = dockTitles(window);
        QVERIFY2(docks.contains(u"Verlauf"_s) && docks.contains(u"Arbeitslast"_s), qPrintable(docks.join(u", "_s)));
        QVERIFY(window.grab().save(DMTUNE_BINARY_PATH("/tst_translations_de.png")));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
