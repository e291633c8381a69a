// Every top-level window opens inside the screen it opens on. CTest runs this program once for
// each screen engineers use (1280x720, 1366x768, 1400x900, 1920x1080): the offscreen platform is given a screen of
// that size (its configfile option, tests/gui/CMakeLists.txt) and DMTUNE_TEST_SCREEN names the size it should be.
#include "testlocale.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"
#include "tests/live/remote/sshtestsupport.h" // a port on 127.0.0.1 that nothing listens on

#include "app/dmtune/mainwindow.h"
#include "core/remote/remotehost.h"
#include "tests/common/remotewindowaccess.h"
#include "widgets/about/aboutdialog.h"
#include "widgets/fleet/fleetwindow.h"
#include "widgets/presets/newpresetdialog.h"
#include "widgets/presets/presetmanager.h"
#include "widgets/remote/hostheader.h"
#include "widgets/remote/remotebanner.h"
#include "widgets/windowfit.h"

#include <QFile>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

QRect available()
{
    return QGuiApplication::primaryScreen()->availableGeometry();
}

QString describe(const QRect &r)
{
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

// The window shown, and its frame (title bar and borders included) inside the screen's available geometry.
bool shownInsideTheScreen(QWidget *window, QString *why)
{
    window->show();
    if (!QTest::qWaitForWindowExposed(window)) {
        *why = QStringLiteral("%1 was not exposed").arg(QString::fromLatin1(window->metaObject()->className()));
        return false;
    }
    if (!available().contains(window->frameGeometry())) {
        *why = QStringLiteral("%1 at %2 is not inside the screen's %3")
                   .arg(QString::fromLatin1(window->metaObject()->className()), describe(window->frameGeometry()),
                       describe(available()));
        return false;
    }
    return true;
}

} // namespace

class TestWindowFit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_settings.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        // The platform took the screen this run is for: else every check below would pass on a large default screen.
        const QString wanted = qEnvironmentVariable("DMTUNE_TEST_SCREEN");
        const QSize screen = QGuiApplication::primaryScreen()->geometry().size();
        QVERIFY2(!wanted.isEmpty(), "DMTUNE_TEST_SCREEN is not set: run through ctest");
        QCOMPARE(QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height()), wanted);
        const QString locale = test::installTestLocale();
        QVERIFY2(locale.isEmpty(), qPrintable(locale));
    }

    void boundedSize_data()
    {
        QTest::addColumn<QSize>("wanted");
        QTest::addColumn<QRect>("available");
        QTest::addColumn<QSize>("frame");
        QTest::addColumn<QSize>("expected");
        QTest::newRow("fits") << QSize(1100, 700) << QRect(0, 0, 1920, 1080) << QSize(8, 36) << QSize(1100, 700);
        QTest::newRow("too tall") << QSize(1280, 800) << QRect(0, 0, 1280, 720) << QSize(8, 36) << QSize(1272, 684);
        QTest::newRow("too wide") << QSize(1400, 600) << QRect(0, 0, 1366, 768) << QSize(8, 36) << QSize(1358, 600);
        QTest::newRow("panel on top") << QSize(1200, 800) << QRect(0, 30, 1280, 690) << QSize(8, 36)
                                      << QSize(1200, 654);
        QTest::newRow("no room") << QSize(500, 500) << QRect(0, 0, 4, 4) << QSize(8, 36) << QSize(1, 1);
    }
    void boundedSize()
    {
        QFETCH(QSize, wanted);
        QFETCH(QRect, available);
        QFETCH(QSize, frame);
        QFETCH(QSize, expected);
        QCOMPARE(windowfit::boundedSize(wanted, available, frame), expected);
    }

    void mainWindowAndItsWindows()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        MainWindow window(SysfsRoot(fake.root(), QString()));
        QString why;
        QVERIFY2(shownInsideTheScreen(&window, &why), qPrintable(why));
        QVERIFY2(shownInsideTheScreen(window.presetManager()->window(), &why), qPrintable(why));

        const QString one = DMTUNE_SOURCE_PATH("/tests/unit/diagnosis/fixtures/lab-qd2-seq-write.dmrec");
        const QString two = DMTUNE_SOURCE_PATH("/tests/unit/diagnosis/fixtures/lab-qd192-seq-write.dmrec");
        QString error;
        QWidget *recording = window.openRecordings({ one }, &error); // a RecordingView
        QVERIFY2(recording, qPrintable(error));
        QVERIFY2(shownInsideTheScreen(recording, &why), qPrintable(why));
        QWidget *compare = window.openRecordings({ one, two }, &error); // a CompareView
        QVERIFY2(compare, qPrintable(error));
        QVERIFY2(shownInsideTheScreen(compare, &why), qPrintable(why));
    }

    // A remote host's window has its header and, while the host is away, the banner above the same panes: it fits
    // too (its tabs give up the room those take).
    void aRemoteHostsWindow()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
            QSKIP("no ssh client");
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("ssh_config")); // none of the user's ssh set-up
        QFile(config).open(QIODevice::WriteOnly);
        const HostAddress address { QStringLiteral("root"), QStringLiteral("127.0.0.1"), sshtest::freeLoopbackPort() };
        MainWindow local(SysfsRoot(dir.path(), QString()));
        MainWindow *window = local.openRemoteWindow(address, { config, QStringLiteral("dmtunectl") }, {});
        QVERIFY(window);
        QTRY_VERIFY_WITH_TIMEOUT(window->hostHeader()->banner()->isVisible(), 20000); // refused: the banner says so
        QString why;
        QVERIFY2(shownInsideTheScreen(window, &why), qPrintable(why));
        QVERIFY2(window->minimumSizeHint().height() <= available().height(),
            qPrintable(QString::number(window->minimumSizeHint().height())));
    }

    void otherWindows()
    {
        QString why;
        FleetWindow fleet;
        QVERIFY2(shownInsideTheScreen(&fleet, &why), qPrintable(why));
        NewPresetDialog newPreset;
        QVERIFY2(shownInsideTheScreen(&newPreset, &why), qPrintable(why));
        AboutDialog about({});
        QVERIFY2(shownInsideTheScreen(&about, &why), qPrintable(why));
    }

    // A geometry saved on a larger screen (a desk's monitor) comes back inside this one.
    void geometrySavedOnALargerScreen()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        {
            MainWindow first(SysfsRoot(fake.root(), QString()));
            first.restoreSettings(); // nothing saved yet; from here on closing saves
            first.show();
            QVERIFY(QTest::qWaitForWindowExposed(&first));
            first.setGeometry(QRect(QPoint(10, 10), available().size() + QSize(600, 400)));
            QVERIFY(first.close());
        }
        QVERIFY(QSettings().contains(QStringLiteral("mainWindow/geometry")));
        MainWindow second(SysfsRoot(fake.root(), QString()));
        second.restoreSettings();
        QString why;
        QVERIFY2(shownInsideTheScreen(&second, &why), qPrintable(why));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
