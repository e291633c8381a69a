// The libudev adapter against umockdev's testbed: enumeration and hotplug events through real
// libudev calls, on devices this machine does not have (SCSI paths, a multipath map).
// Runs under umockdev-wrapper (LD_PRELOAD from process start).
#include <umockdev.h> // before Qt: gio's headers use "signals"

#include "core/discovery/discovery.h"
#include "core/discovery/udevsource.h"

#include <QSignalSpy>
#include <QTest>

using namespace dmtune;

class TestUdevUmockdev : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void enumerationSeesMapAndPaths();
    void hotplugAddAndRemove();

private:
    QString addScsiDisk(const char *name, const char *devnum, const char *hctl);
    UMockdevTestbed *m_testbed = nullptr;
};

void TestUdevUmockdev::initTestCase()
{
    // umockdev_in_mock_environment() only says whether a testbed exists; the preload is what matters.
    if (!qgetenv("LD_PRELOAD").contains("libumockdev-preload"))
        QSKIP("not under umockdev-wrapper");
}

void TestUdevUmockdev::init()
{
    m_testbed = umockdev_testbed_new();
}

void TestUdevUmockdev::cleanup()
{
    g_object_unref(m_testbed);
    m_testbed = nullptr;
}

QString TestUdevUmockdev::addScsiDisk(const char *name, const char *devnum, const char *hctl)
{
    const QByteArray host = QByteArray("host") + QByteArray(hctl).split(':').first();
    gchar *hostPath = umockdev_testbed_add_device(m_testbed, "scsi_host", host.constData(), nullptr, nullptr, nullptr);
    gchar *scsiPath = umockdev_testbed_add_device(m_testbed, "scsi", hctl, hostPath, "vendor", "NETAPP", "model",
        "LUN C-Mode", "queue_depth", "32", "wwid", "naa.600a098038303053453f463045727a4d", nullptr, "DEVTYPE",
        "scsi_device", nullptr);
    const QList<QByteArray> mm = QByteArray(devnum).split(':');
    gchar *blockPath = umockdev_testbed_add_device(m_testbed, "block", name, scsiPath, "dev", devnum, "size", "2097152",
        "queue/scheduler", "[mq-deadline] none", nullptr, "DEVTYPE", "disk", "MAJOR", mm[0].constData(), "MINOR",
        mm[1].constData(), "ID_SERIAL_SHORT", "80LqA$RB1Y8a", nullptr);
    const QString path = QString::fromUtf8(blockPath);
    g_free(hostPath);
    g_free(scsiPath);
    g_free(blockPath);
    return path;
}

void TestUdevUmockdev::enumerationSeesMapAndPaths()
{
    addScsiDisk("sdu", "65:64", "2:0:1:5");
    addScsiDisk("sdak", "66:64", "3:0:1:5");
    gchar *dm = umockdev_testbed_add_device(m_testbed, "block", "dm-3", nullptr, "dev", "253:3", "size", "2097152",
        "dm/name", "mpathc", "dm/uuid", "mpath-3600a098038303053453f463045727a4d", nullptr, "DEVTYPE", "disk",
        "DM_NAME", "mpathc", nullptr);
    g_free(dm);

    auto records = enumerateWithUdev();
    QVERIFY2(records, qPrintable(records.errorMessage()));
    QStringList names;
    for (const auto &r : records.value())
        names << r.sysname;
    names.sort();
    QCOMPARE(names, (QStringList { QStringLiteral("dm-3"), QStringLiteral("sdak"), QStringLiteral("sdu") }));
    for (const auto &r : records.value()) {
        if (r.sysname == QLatin1String("sdu"))
            QCOMPARE(r.properties.value(QStringLiteral("ID_SERIAL_SHORT")), QStringLiteral("80LqA$RB1Y8a"));
    }

    const DeviceSnapshot s = Discovery::scan(SysfsRoot());
    const BlockDevice *sdu = s.device(QStringLiteral("sdu"));
    QVERIFY(sdu);
    QCOMPARE(sdu->kind, DeviceKind::Scsi);
    QCOMPARE(sdu->scsi.hctl, QStringLiteral("2:0:1:5"));
    QCOMPARE(sdu->vendor, QStringLiteral("NETAPP"));
    // The scan takes udev's identity from udev's database (tst_snapshotbuilder udevDatabaseFillsIdentity), which
    // umockdev does not emulate: it writes a device's properties into its uevent file, where the kernel never
    // puts ID_SERIAL_SHORT. The serial here is sysfs's: none.
    QVERIFY(sdu->serial.isEmpty());
    QCOMPARE(sdu->scheduler, QStringLiteral("mq-deadline"));
    const BlockDevice *map = s.device(QStringLiteral("dm-3"));
    QVERIFY(map);
    QCOMPARE(map->kind, DeviceKind::Multipath);
    QCOMPARE(s.maps.size(), 1);
    QCOMPARE(s.maps.first().name, QStringLiteral("mpathc"));
}

void TestUdevUmockdev::hotplugAddAndRemove()
{
    Discovery discovery;
    discovery.start();
    QTRY_VERIFY(discovery.hasSnapshot());
    QVERIFY2(!discovery.monitorSource().isEmpty(), qPrintable(discovery.monitorError()));
    QVERIFY(!discovery.snapshot().device(QStringLiteral("sdm")));

    QSignalSpy added(&discovery, &Discovery::devicesAdded);
    const QString path = addScsiDisk("sdm", "8:192", "2:0:0:5");
    umockdev_testbed_uevent(m_testbed, path.toUtf8().constData(), "add");
    QTRY_VERIFY_WITH_TIMEOUT(discovery.snapshot().device(QStringLiteral("sdm")), 1000);
    QCOMPARE(added.size(), 1);
    QCOMPARE(added.first().first().toStringList(), QStringList { QStringLiteral("sdm") });

    QSignalSpy removed(&discovery, &Discovery::devicesRemoved);
    umockdev_testbed_uevent(m_testbed, path.toUtf8().constData(), "remove");
    umockdev_testbed_remove_device(m_testbed, path.toUtf8().constData());
    QTRY_VERIFY_WITH_TIMEOUT(!discovery.snapshot().device(QStringLiteral("sdm")), 1000);
    QCOMPARE(removed.size(), 1);
}

QTEST_GUILESS_MAIN(TestUdevUmockdev)
#include "tst_udev_umockdev.moc"
