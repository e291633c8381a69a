// Help > About dmtune on the offscreen platform: every component has a row, QCustomPlot's version is
// the one the charts are built with, and fio's row fills in after the real `fio --version` answered,
// without the dialog having waited for it.
#include "tests/common/testpaths.h"
#include "widgets/about/aboutdialog.h"

#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTableWidget>
#include <QTest>

using namespace dmtune;

class TestAboutDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsEveryComponent()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("proc/sys/kernel"))));
        QFile release(dir.filePath(QStringLiteral("proc/sys/kernel/osrelease")));
        QVERIFY(release.open(QIODevice::WriteOnly) && release.write("6.1.0-27-amd64\n") > 0);
        release.close();
        const SysfsRoot root(dir.filePath(QStringLiteral("sys")), dir.filePath(QStringLiteral("proc")));

        AboutDialog about(localComponentVersions(root));
        QSignalSpy fioShown(&about, &AboutDialog::fioVersionShown);
        auto *table = about.findChild<QTableWidget *>(QStringLiteral("versionsTable"));
        QVERIFY(table);
        QStringList names;
        for (int row = 0; row < table->rowCount(); ++row)
            names << table->item(row, 0)->text();
        QCOMPARE(names,
            (QStringList { QStringLiteral("dmtune"), QStringLiteral("Qt"), QStringLiteral("QCustomPlot"),
                QStringLiteral("libudev"), QStringLiteral("libdevmapper"), QStringLiteral("device-mapper driver"),
                QStringLiteral("Linux kernel"), QStringLiteral("fio") }));
        QCOMPARE(about.versionOf(QStringLiteral("qt")), QString::fromLatin1(qVersion()));
        QVERIFY2(about.versionOf(QStringLiteral("qcustomplot")).startsWith(QStringLiteral("2.")),
            qPrintable(about.versionOf(QStringLiteral("qcustomplot"))));
        QCOMPARE(about.versionOf(QStringLiteral("kernel")), QStringLiteral("6.1.0-27-amd64"));

        const QString fio = QStandardPaths::findExecutable(QStringLiteral("fio"));
        if (fio.isEmpty()) {
            QTRY_COMPARE(fioShown.count(), 1);
            QVERIFY(table->item(table->rowCount() - 1, 2)->text().contains(QStringLiteral("not installed")));
            return;
        }
        // Asynchronous: the dialog exists before fio has answered.
        QCOMPARE(fioShown.count(), 0);
        QCOMPARE(table->item(table->rowCount() - 1, 2)->text(), QStringLiteral("checking…"));
        QProcess direct;
        direct.start(fio, { QStringLiteral("--version") });
        QVERIFY(direct.waitForFinished(10000));
        const QString expected = QString::fromLatin1(direct.readAll()).trimmed().mid(4); // fio-3.33
        QTRY_COMPARE_WITH_TIMEOUT(fioShown.count(), 1, 10000);
        QCOMPARE(about.versionOf(QStringLiteral("fio")), expected);
        QCOMPARE(table->item(table->rowCount() - 1, 1)->text(), expected);
        QVERIFY(about.versionsText().contains(QStringLiteral("fio")));
    }

    // This machine's own versions, as Help > About shows them (and the picture in docs/).
    void showsThisMachine()
    {
        AboutDialog about(localComponentVersions(SysfsRoot()));
        QCOMPARE(about.versionOf(QStringLiteral("kernel")), QSysInfo::kernelVersion());
        if (!QStandardPaths::findExecutable(QStringLiteral("fio")).isEmpty()) {
            QSignalSpy fioShown(&about, &AboutDialog::fioVersionShown);
            QTRY_COMPARE_WITH_TIMEOUT(fioShown.count(), 1, 10000);
        }
        about.show();
        QVERIFY(QTest::qWaitForWindowExposed(&about));
        QDir().mkpath(DMTUNE_BINARY_PATH("/test-screenshots"));
        QVERIFY(about.grab().save(DMTUNE_BINARY_PATH("/test-screenshots/about.png")));
    }
};

QTEST_MAIN(TestAboutDialog)
#include "tst_aboutdialog.moc"
