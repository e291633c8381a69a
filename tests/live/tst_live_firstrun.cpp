// First run on this machine (root, no multipath maps): the window opens on the real devices, says
// what dmtune does with root and on a multipath host, offers the lab device; the offer creates a
// real loop device over a sparse file in a temp dir this test owns, the tree selects it, and
// removing it (the link, or closing the window) detaches it and deletes the file.
#include "devices/devicedetailpane.h"
#include "mainwindow.h"
#include "workloads/labdevice.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

class TestLiveFirstRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QString why;
        if (!LabDevice::canCreate(&why))
            QSKIP(qPrintable(why));
        if (!QDir(QStringLiteral("/sys/block")).entryList({ QStringLiteral("dm-*") }, QDir::Dirs).isEmpty())
            QSKIP("this machine has device-mapper devices: the first-run hint is for machines without maps");
    }

    void offerCreatesSelectsAndRemovesTheLabDevice()
    {
        QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/dmtune-firstrun-XXXXXX"));
        QVERIFY(dir.isValid());
        QString name, file;
        {
            MainWindow window;
            window.labDevice()->setBaseDirectory(dir.path());
            QSignalSpy shown(&window, &MainWindow::snapshotShown);
            window.resize(1200, 760);
            window.show();
            window.start();
            QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
            QLabel *hint = window.firstRunHint();
            QVERIFY(hint->isVisible());
            QVERIFY2(hint->text().contains(QStringLiteral("multipath host")), qPrintable(hint->text()));
            QVERIFY2(hint->text().contains(QStringLiteral("as root")), qPrintable(hint->text()));
            QVERIFY2(hint->text().contains(QStringLiteral("href=\"lab:create\"")), qPrintable(hint->text()));

            Q_EMIT hint->linkActivated(QStringLiteral("lab:create"));
            name = window.labDevice()->deviceName();
            file = window.labDevice()->backingFile();
            QVERIFY2(name.startsWith(QStringLiteral("loop")), qPrintable(name));
            QVERIFY(file.startsWith(dir.path()));
            // The kernel's view: this loop device is backed by our file.
            QFile backing(QStringLiteral("/sys/block/%1/loop/backing_file").arg(name));
            QVERIFY(backing.open(QIODevice::ReadOnly));
            QCOMPARE(QString::fromLocal8Bit(backing.readAll()).trimmed(), file);
            // The next scan shows it, and it is selected.
            QTRY_COMPARE_WITH_TIMEOUT(window.detailPane()->shownDevice(), name, 10000);
            QVERIFY(hint->text().contains(name));
            QVERIFY(hint->text().contains(QStringLiteral("href=\"lab:remove\"")));
            QTest::qWait(200);
            QDir().mkpath(QStringLiteral(DMTUNE_BINARY_DIR "/test-screenshots"));
            QVERIFY(window.grab().save(QStringLiteral(DMTUNE_BINARY_DIR "/test-screenshots/firstrun_lab_device.png")));

            Q_EMIT hint->linkActivated(QStringLiteral("lab:remove"));
            QVERIFY(!window.labDevice()->exists());
            QVERIFY(!QFile::exists(QStringLiteral("/sys/block/%1/loop").arg(name)));
            QVERIFY(!QFile::exists(file));
            QTRY_VERIFY2_WITH_TIMEOUT(
                hint->text().contains(QStringLiteral("href=\"lab:create\"")), qPrintable(hint->text()), 10000);

            // Created again, then left to the window's end.
            Q_EMIT hint->linkActivated(QStringLiteral("lab:create"));
            name = window.labDevice()->deviceName();
            file = window.labDevice()->backingFile();
            QVERIFY(QFile::exists(QStringLiteral("/sys/block/%1/loop").arg(name)));
        }
        QVERIFY2(!QFile::exists(QStringLiteral("/sys/block/%1/loop").arg(name)),
            "closing the window detaches the lab device");
        QVERIFY(!QFile::exists(file));
    }
};

QTEST_MAIN(TestLiveFirstRun)
#include "tst_live_firstrun.moc"
