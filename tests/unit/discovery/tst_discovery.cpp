// Discovery's background scans run on its JobTracker: rescans requested while one runs supersede each other
// (only the latest runs and is shown), devices added/removed between snapshots are reported, and a Discovery
// destroyed while a scan runs waits for it without delivering.
#include "tests/common/fakesysfs.h"

#include "core/discovery/discovery.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {
void buildMachine(FakeSysfs &fake)
{
    fake.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2048);
    fake.virtualDisk(QStringLiteral("zram0"), QStringLiteral("252:0"), 4096);
    fake.scsiDisk(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("0:0:0:0"), QStringLiteral("ATA"),
        QStringLiteral("disk"), QStringLiteral("naa.5000c500a1b2c3d4"));
}
} // namespace

class TstDiscovery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rescansSupersede()
    {
        FakeSysfs fake;
        buildMachine(fake);
        Discovery discovery(SysfsRoot(fake.root(), QString()));
        QSignalSpy changed(&discovery, &Discovery::snapshotChanged);
        QSignalSpy finished(&discovery.jobs(), &JobTracker::finished);
        QSignalSpy idle(&discovery.jobs(), &JobTracker::idle);
        for (int i = 0; i < 5; ++i)
            discovery.refresh();
        QVERIFY(idle.wait(10000));
        QCOMPARE(finished.size(), 5);
        QCOMPARE(changed.size(), 1); // only the latest request's scan is shown
        int skipped = 0;
        for (const auto &args : std::as_const(finished))
            skipped += args.at(1).toBool() ? 1 : 0;
        // The first scan may have started before the others were asked for; the three in between never run.
        QVERIFY2(skipped >= 3, qPrintable(QString::number(skipped)));
        QCOMPARE(finished.last().at(1).toBool(), false);
        QVERIFY(discovery.hasSnapshot());
        QVERIFY(discovery.snapshot().deviceNames().contains(QStringLiteral("loop0")));
    }

    void reportsRemovedDevices()
    {
        FakeSysfs fake;
        buildMachine(fake);
        Discovery discovery(SysfsRoot(fake.root(), QString()));
        QSignalSpy changed(&discovery, &Discovery::snapshotChanged);
        QSignalSpy removed(&discovery, &Discovery::devicesRemoved);
        discovery.start();
        QVERIFY(changed.wait(10000));
        QVERIFY(QFile::remove(fake.root() + QStringLiteral("/block/loop0")));
        QVERIFY(QFile::remove(fake.root() + QStringLiteral("/class/block/loop0")));
        QVERIFY(QDir(fake.root() + QStringLiteral("/devices/virtual/block/loop0")).removeRecursively());
        discovery.refresh();
        QVERIFY(changed.wait(10000));
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().at(0).toStringList(), QStringList { QStringLiteral("loop0") });
    }

    void destroyedWhileScanning()
    {
        FakeSysfs fake;
        buildMachine(fake);
        bool delivered = false;
        {
            Discovery discovery(SysfsRoot(fake.root(), QString()));
            connect(&discovery, &Discovery::snapshotChanged, this, [&delivered] { delivered = true; });
            discovery.refresh();
            QTRY_VERIFY(!discovery.jobs().isIdle() || delivered);
        } // joins the scan, drops its hand-back
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QVERIFY(true); // no crash, no hand-back to the destroyed object (ASan would see one)
    }
};

QTEST_GUILESS_MAIN(TstDiscovery)
#include "tst_discovery.moc"
