// parseLunId / sameLun: the WWID of a LUN as sysfs, udev and multipathd spell it, reduced to one key
// (real strings: the lab's scsi_debug LUN, a NetApp and an LIO NAA 6, an ATA disk's NAA 5 and T10 id,
// NVMe eui/uuid/nvme forms); readPathIdentity over a sysfs tree.
#include "core/dm/lunidentity.h"
#include "tests/common/fakesysfs.h"

#include <QTest>

using namespace dmtune;

class TestLunIdentity : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("key"); // empty: an error
        QTest::addColumn<bool>("truncated");
        const QString debugLun = QStringLiteral("naa.33333330000007d0");
        // scsi_debug (vpd_use_hostno=0): NAA 3, 0x3333333000000000 + 2000 for LUN 0, 2001 for LUN 1
        QTest::newRow("scsi_debug sysfs wwid") << debugLun << debugLun << false;
        QTest::newRow("scsi_debug LUN 1")
            << QStringLiteral("naa.33333330000007d1") << QStringLiteral("naa.33333330000007d1") << false;
        QTest::newRow("scsi_debug ID_SERIAL") << QStringLiteral("333333330000007d0") << debugLun << false;
        QTest::newRow("scsi_debug ID_WWN") << QStringLiteral("0x33333330000007d0") << debugLun << false;
        QTest::newRow("lab map uuid (sysfs wwid without naa.)")
            << QStringLiteral("mpath-33333330000007d0") << debugLun << false;
        QTest::newRow("multipathd map uuid (ID_SERIAL)")
            << QStringLiteral("mpath-333333330000007d0") << debugLun << false;
        QTest::newRow("sysfs wwid with a newline") << QStringLiteral("naa.33333330000007d0\n") << debugLun << false;

        const QString netapp = QStringLiteral("naa.600a098038303053453f463045727a4d");
        QTest::newRow("NAA 6 sysfs") << netapp << netapp << false;
        QTest::newRow("NAA 6 upper case") << QStringLiteral("NAA.600A098038303053453F463045727A4D") << netapp << false;
        QTest::newRow("NAA 6 ID_SERIAL") << QStringLiteral("3600a098038303053453f463045727a4d") << netapp << false;
        QTest::newRow("NAA 6 multipathd uuid")
            << QStringLiteral("mpath-3600a098038303053453f463045727a4d") << netapp << false;
        QTest::newRow("NAA 6 ID_WWN_WITH_EXTENSION")
            << QStringLiteral("0x600a098038303053453f463045727a4d") << netapp << false;
        QTest::newRow("NAA 6 ID_WWN (first half)")
            << QStringLiteral("0x600a098038303053") << QStringLiteral("naa.600a098038303053") << true;
        QTest::newRow("LIO NAA 6 ID_SERIAL") << QStringLiteral("36001405f2b7c1a0d9e4c4e5b8a3b1c2d")
                                             << QStringLiteral("naa.6001405f2b7c1a0d9e4c4e5b8a3b1c2d") << false;
        QTest::newRow("ATA NAA 5 sysfs") << QStringLiteral("naa.5000c500a1b2c3d4")
                                         << QStringLiteral("naa.5000c500a1b2c3d4") << false;
        QTest::newRow("ATA NAA 5 ID_WWN")
            << QStringLiteral("0x5000c500a1b2c3d4") << QStringLiteral("naa.5000c500a1b2c3d4") << false;

        QTest::newRow("SCSI EUI-64 sysfs")
            << QStringLiteral("eui.0025388b71b1c7a4") << QStringLiteral("eui.0025388b71b1c7a4") << false;
        QTest::newRow("SCSI EUI-64 ID_SERIAL")
            << QStringLiteral("20025388b71b1c7a4") << QStringLiteral("eui.0025388b71b1c7a4") << false;
        QTest::newRow("NVMe eui wwid") << QStringLiteral("eui.002538b231b633a2")
                                       << QStringLiteral("eui.002538b231b633a2") << false;
        QTest::newRow("NVMe eui multipathd uuid (ID_WWN)")
            << QStringLiteral("mpath-eui.002538b231b633a2") << QStringLiteral("eui.002538b231b633a2") << false;
        QTest::newRow("NVMe uuid wwid") << QStringLiteral("uuid.5a1b4c3d-2e1f-4a5b-8c7d-6e5f4a3b2c1d")
                                        << QStringLiteral("uuid.5a1b4c3d-2e1f-4a5b-8c7d-6e5f4a3b2c1d") << false;
        const QString nvme = QStringLiteral("nvme.8086-50484b53373238303031354c34303042474e-"
                                            "494e54454c205353445045444d443430304734-00000001");
        QTest::newRow("NVMe nvme. wwid") << nvme << nvme << false;

        const QString ata = QStringLiteral("t10.ATA_QEMU_HARDDISK_QM00001");
        QTest::newRow("T10 sysfs") << QStringLiteral("t10.ATA     QEMU HARDDISK                           QM00001")
                                   << ata << false;
        QTest::newRow("T10 ID_SERIAL") << QStringLiteral("1ATA_QEMU_HARDDISK_QM00001") << ata << false;
        QTest::newRow("T10 ID_SERIAL, trailing blank") << QStringLiteral("1ATA_QEMU_HARDDISK_QM00001_") << ata << false;
        QTest::newRow("iSCSI name ID_SERIAL") << QStringLiteral("8iqn.2003-01.org.linux-iscsi.host:sn.1234")
                                              << QStringLiteral("iqn.2003-01.org.linux-iscsi.host:sn.1234") << false;

        QTest::newRow("vendor serial (virtio, ATA ID_SERIAL)")
            << QStringLiteral("QEMU_HARDDISK_QM00001") << QStringLiteral("QEMU_HARDDISK_QM00001") << false;
        QTest::newRow("a map made by hand")
            << QStringLiteral("mpath-lab-nullblk") << QStringLiteral("lab-nullblk") << false;
        QTest::newRow("empty") << QString() << QString() << false;
        QTest::newRow("blank") << QStringLiteral("  \n") << QString() << false;
        QTest::newRow("mpath- alone") << QStringLiteral("mpath-") << QString() << false;
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QString, key);
        QFETCH(bool, truncated);
        const auto id = parseLunId(text);
        QCOMPARE(id.ok(), !key.isEmpty());
        if (!id)
            return;
        QCOMPARE(id->key, key);
        QCOMPARE(id->truncated, truncated);
    }

    void same_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("same");
        QTest::newRow("mpath-3333... is naa.3333...")
            << QStringLiteral("mpath-33333330000007d0") << QStringLiteral("naa.33333330000007d0") << true;
        QTest::newRow("multipathd uuid is the sysfs wwid")
            << QStringLiteral("mpath-3600a098038303053453f463045727a4d")
            << QStringLiteral("naa.600a098038303053453f463045727a4d") << true;
        QTest::newRow("ID_SERIAL is the sysfs wwid")
            << QStringLiteral("333333330000007d0") << QStringLiteral("naa.33333330000007d0") << true;
        QTest::newRow("T10 both ways") << QStringLiteral("1ATA_QEMU_HARDDISK_QM00001")
                                       << QStringLiteral("t10.ATA     QEMU HARDDISK      QM00001") << true;
        QTest::newRow("another scsi_debug LUN")
            << QStringLiteral("mpath-33333330000007d0") << QStringLiteral("naa.33333330000007d1") << false;
        QTest::newRow("another LUN of the same array")
            << QStringLiteral("naa.600a098038303053453f463045727a4d")
            << QStringLiteral("naa.600a098038303053453f463045727a4e") << false;
        // ID_WWN's half of an NAA 6 is shared by the array's LUNs: never a proof, not even of itself
        QTest::newRow("ID_WWN half vs the full name")
            << QStringLiteral("0x600a098038303053") << QStringLiteral("naa.600a098038303053453f463045727a4d") << false;
        QTest::newRow("ID_WWN half vs ID_WWN half")
            << QStringLiteral("0x600a098038303053") << QStringLiteral("0x600a098038303053") << false;
        QTest::newRow("eui vs naa of the same digits")
            << QStringLiteral("eui.0025388b71b1c7a4") << QStringLiteral("naa.0025388b71b1c7a4") << false;
    }

    void same()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, same);
        QCOMPARE(sameLun(parseLunId(a).value(), parseLunId(b).value()), same);
        QCOMPARE(sameLun(parseLunId(b).value(), parseLunId(a).value()), same);
    }

    void readsSysfs()
    {
        test::FakeSysfs sys;
        sys.scsiDisk(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("0:0:0:0"), QStringLiteral("Linux"),
            QStringLiteral("scsi_debug"), QStringLiteral("naa.33333330000007d0"));
        sys.nvmeNamespace(QStringLiteral("nvme0n1"), QStringLiteral("259:0"), QStringLiteral("nvme0"),
            QStringLiteral("nvme-subsys0"), QStringLiteral("eui.002538b231b633a2"));
        sys.virtualDisk(QStringLiteral("nullb0"), QStringLiteral("252:0"), 2097152);
        const SysfsRoot root(sys.root(), QString());
        PathIdentity sda = readPathIdentity(root, QStringLiteral("8:0"));
        QCOMPARE(sda.name, QStringLiteral("sda"));
        QCOMPARE(sda.wwids, QStringList { QStringLiteral("naa.33333330000007d0") });
        QCOMPARE(sda.label(), QStringLiteral("sda (8:0)"));
        QCOMPARE(readPathIdentity(root, QStringLiteral("259:0")).wwids,
            QStringList { QStringLiteral("eui.002538b231b633a2") });
        const PathIdentity nullb = readPathIdentity(root, QStringLiteral("252:0"));
        QCOMPARE(nullb.name, QStringLiteral("nullb0"));
        QVERIFY(nullb.wwids.isEmpty());
        const PathIdentity gone = readPathIdentity(root, QStringLiteral("8:240"));
        QVERIFY(gone.name.isEmpty());
        QVERIFY(gone.wwids.isEmpty());
        QCOMPARE(gone.label(), QStringLiteral("8:240"));
    }
};

QTEST_GUILESS_MAIN(TestLunIdentity)
#include "tst_lunidentity.moc"
