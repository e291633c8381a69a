// First run on this machine (root, no multipath maps): the window opens on the real devices, says
// what dmtune does with root and on a multipath host, offers the lab device; the offer creates a
// real loop device over a sparse file in a temp dir this test owns, the tree selects it, and
// removing it (the link, or closing the window) detaches it and deletes the file.
#include "app/dmtune/mainwindow.h"
#include "core/workloads/labdevices.h"
#include "tests/common/testpaths.h"
#include "widgets/devices/devicedetailpane.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
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
        if (!LabDevices::canCreate(&why))
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
            window.setLabBaseDirectory(dir.path());
            QSignalSpy labChanged(&window, &MainWindow::labDeviceChanged);
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
            QVERIFY(window.isLabBusy()); // an operation of the window's runner: the UI thread goes on
            QTRY_COMPARE_WITH_TIMEOUT(labChanged.count(), 1, 10000);
            name = window.labDeviceName();
            file = window.labBackingFile();
            QVERIFY2(name.startsWith(QStringLiteral("loop")), qPrintable(name));
            QVERIFY(file.startsWith(dir.path()));
            // The status bar says what the result read back.
            QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Lab device %1 created").arg(name)),
                qPrintable(window.statusBar()->currentMessage()));
            // The kernel's view: this loop device is backed by our file.
            QFile backing(QStringLiteral("/sys/block/%1/loop/backing_file").arg(name));
            QVERIFY(backing.open(QIODevice::ReadOnly));
            QCOMPARE(QString::fromLocal8Bit(backing.readAll()).trimmed(), file);
            // The next scan shows it, and it is selected.
            QTRY_COMPARE_WITH_TIMEOUT(window.detailPane()->shownDevice(), name, 10000);
            QVERIFY(hint->text().contains(name));
            QVERIFY(hint->text().contains(QStringLiteral("href=\"lab:remove\"")));
            // The screenshot shows the lab device's queue: wait for its read to have arrived.
            QTRY_VERIFY_WITH_TIMEOUT(!window.detailPane()->isReadingQueue()
                    && !window.detailPane()->queueSummary().contains(QStringLiteral("reading")),
                10000);
            QDir().mkpath(DMTUNE_BINARY_PATH("/test-screenshots"));
            QVERIFY(window.grab().save(DMTUNE_BINARY_PATH("/test-screenshots/firstrun_lab_device.png")));

            Q_EMIT hint->linkActivated(QStringLiteral("lab:remove"));
            QTRY_COMPARE_WITH_TIMEOUT(labChanged.count(), 2, 10000);
            QVERIFY(window.labDeviceName().isEmpty());
            QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Lab device %1 removed").arg(name)),
                qPrintable(window.statusBar()->currentMessage()));
            QVERIFY(!QFile::exists(QStringLiteral("/sys/block/%1/loop").arg(name)));
            QVERIFY(!QFile::exists(file));
            QTRY_VERIFY2_WITH_TIMEOUT(
                hint->text().contains(QStringLiteral("href=\"lab:create\"")), qPrintable(hint->text()), 10000);

            // Created again, then left to the window's end.
            Q_EMIT hint->linkActivated(QStringLiteral("lab:create"));
            QTRY_COMPARE_WITH_TIMEOUT(labChanged.count(), 3, 10000);
            name = window.labDeviceName();
            file = window.labBackingFile();
            QVERIFY(QFile::exists(QStringLiteral("/sys/block/%1/loop").arg(name)));
        }
        QVERIFY2(!QFile::exists(QStringLiteral("/sys/block/%1/loop").arg(name)),
            "closing the window detaches the lab device");
        QVERIFY(!QFile::exists(file));
    }
};

QTEST_MAIN(TestLiveFirstRun)
#include "tst_live_firstrun.moc"
