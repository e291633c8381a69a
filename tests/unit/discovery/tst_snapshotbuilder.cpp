// Discovery over sysfs-shaped fixture trees modelled on the seeds' machines.
#include "tests/common/fakesysfs.h"

#include "core/discovery/discovery.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/snapshotjson.h"
#include "core/discovery/udevsource.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <string_view>
#include <tuple>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestSnapshotBuilder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void netappMapOverFourPaths();
    void singlePathMapOverSkd();
    void eightySataDisksInFailoverMaps();
    void nvmeNamespace();
    void zramWithoutQueueFiles();
    void loopWithBackingFile();
    void partitionsAndHolders();
    void kernelIndexReadsAsEachDevice();
    void udevDatabaseEntry();
    void udevDatabaseFillsIdentity();
    void tarCaptureWithPaddedFiles();
    void malformedTreeNeverCrashes();
    void kernelNameOrder_data();
    void kernelNameOrder();
    void mapTextAsMultipathLl();
};

// The seed's NetApp LUN: one map, four paths (sdak, sdu, sdm, sdac).
void TestSnapshotBuilder::netappMapOverFourPaths()
{
    FakeSysfs t;
    const QString wwid = QStringLiteral("naa.600a098038303053453f463045727a4d");
    t.scsiDisk(QStringLiteral("sdak"), QStringLiteral("66:64"), QStringLiteral("3:0:1:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.scsiDisk(QStringLiteral("sdu"), QStringLiteral("65:64"), QStringLiteral("2:0:1:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.scsiDisk(QStringLiteral("sdm"), QStringLiteral("8:192"), QStringLiteral("2:0:0:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.scsiDisk(QStringLiteral("sdac"), QStringLiteral("65:192"), QStringLiteral("3:0:0:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.dmDevice(QStringLiteral("dm-3"), QStringLiteral("253:3"), QStringLiteral("mpathc"),
        QStringLiteral("mpath-3600a098038303053453f463045727a4d"),
        { QStringLiteral("sdak"), QStringLiteral("sdu"), QStringLiteral("sdm"), QStringLiteral("sdac") });

    const SysfsRoot sysfs(t.root(), QString());
    QVERIFY(!sysfs.isLive());
    const DeviceSnapshot s = Discovery::scan(sysfs);
    QCOMPARE(s.devices.size(), 5);
    // natural kernel order: dm-3, sdm, sdu, sdac, sdak
    QCOMPARE(s.deviceNames(),
        (QStringList { QStringLiteral("dm-3"), QStringLiteral("sdm"), QStringLiteral("sdu"), QStringLiteral("sdac"),
            QStringLiteral("sdak") }));
    const BlockDevice *map = s.device(QStringLiteral("dm-3"));
    QVERIFY(map);
    QCOMPARE(map->kind, DeviceKind::Multipath);
    QCOMPARE(map->dmName, QStringLiteral("mpathc"));
    QCOMPARE(map->slaves,
        (QStringList { QStringLiteral("sdm"), QStringLiteral("sdu"), QStringLiteral("sdac"), QStringLiteral("sdak") }));
    QCOMPARE(map->sizeBytes, qint64(2097152) * 512);
    const BlockDevice *sdak = s.device(QStringLiteral("sdak"));
    QVERIFY(sdak);
    QCOMPARE(sdak->kind, DeviceKind::Scsi);
    QCOMPARE(sdak->scsi.hctl, QStringLiteral("3:0:1:5"));
    QCOMPARE(sdak->vendor, QStringLiteral("NETAPP"));
    QCOMPARE(sdak->model, QStringLiteral("LUN C-Mode"));
    QCOMPARE(sdak->wwid, wwid);
    QCOMPARE(sdak->scsi.queueDepth, QStringLiteral("32"));
    QCOMPARE(sdak->holders, QStringList { QStringLiteral("dm-3") });
    QCOMPARE(sdak->scheduler, QStringLiteral("mq-deadline"));
    QCOMPARE(sdak->schedulers.size(), 4);
    QCOMPARE(sdak->devnum, QStringLiteral("66:64"));

    QCOMPARE(s.maps.size(), 1);
    const MultipathMap &m = s.maps.first();
    QCOMPARE(m.name, QStringLiteral("mpathc"));
    QCOMPARE(m.device, QStringLiteral("dm-3"));
    QCOMPARE(m.slaves.size(), 4);
    QVERIFY(!m.groupsKnown);
    QVERIFY(m.groupsUnknownReason.contains(QLatin1String("captured")));
    QCOMPARE(s.mapOfPath(QStringLiteral("sdu")), &m);

    const QJsonObject json = snapshotToJson(s);
    const QJsonArray maps = json[QStringLiteral("maps")].toArray();
    QCOMPARE(maps.size(), 1);
    QCOMPARE(maps[0][QStringLiteral("uuid")].toString(), QStringLiteral("mpath-3600a098038303053453f463045727a4d"));
    const QJsonArray devices = json[QStringLiteral("devices")].toArray();
    QCOMPARE(devices[4][QStringLiteral("name")].toString(), QStringLiteral("sdak"));
    QCOMPARE(devices[4][QStringLiteral("kind")].toString(), QStringLiteral("scsi"));
    QCOMPARE(devices[4][QStringLiteral("size_bytes")].toDouble(), 2097152.0 * 512);
    QCOMPARE(devices[4][QStringLiteral("holders")].toArray().first().toString(), QStringLiteral("dm-3"));
}

// The seed's single-path map over an STEC skd PCIe SSD (a block driver without SCSI).
void TestSnapshotBuilder::singlePathMapOverSkd()
{
    FakeSysfs t;
    const QString pci = QStringLiteral("devices/pci0000:00/0000:00:03.0/0000:04:00.0");
    t.dir(QStringLiteral("bus/pci"));
    t.link(pci + QStringLiteral("/subsystem"), QStringLiteral("bus/pci"));
    const QString skd = pci + QStringLiteral("/block/skd0");
    t.blockCommon(skd, QStringLiteral("skd0"), QStringLiteral("252:0"), 1563037696);
    t.link(skd + QStringLiteral("/device"), pci);
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("253:0"), QStringLiteral("skd_mpath"),
        QStringLiteral("mpath-skd0"), { QStringLiteral("skd0") }, 1563037696);

    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    QCOMPARE(s.devices.size(), 2);
    QCOMPARE(s.device(QStringLiteral("skd0"))->kind, DeviceKind::Other);
    QCOMPARE(s.device(QStringLiteral("skd0"))->holders, QStringList { QStringLiteral("dm-0") });
    QCOMPARE(s.maps.size(), 1);
    QCOMPARE(s.maps[0].slaves, QStringList { QStringLiteral("skd0") });
    QCOMPARE(s.maps[0].sizeBytes, qint64(1563037696) * 512);
}

// 80 SATA disks behind two HBAs, paired into 40 two-path failover maps.
void TestSnapshotBuilder::eightySataDisksInFailoverMaps()
{
    FakeSysfs t;
    auto sdName = [](int i) {
        QString n;
        ++i;
        while (i > 0) {
            --i;
            n.prepend(QChar(u'a' + i % 26));
            i /= 26;
        }
        return QStringLiteral("sd") + n;
    };
    for (int i = 0; i < 80; ++i) {
        const int lun = i / 2;
        t.scsiDisk(sdName(i), QStringLiteral("%1:%2").arg(8 + (i * 16) / 256).arg((i * 16) % 256),
            QStringLiteral("%1:0:%2:0").arg(i % 2 ? 1 : 0).arg(lun), QStringLiteral("ATA"),
            QStringLiteral("ST4000NM0033-9ZM"), QStringLiteral("naa.5000c500%1").arg(lun, 8, 10, QLatin1Char('0')));
    }
    for (int m = 0; m < 40; ++m) {
        t.dmDevice(QStringLiteral("dm-%1").arg(m), QStringLiteral("253:%1").arg(m), QStringLiteral("mpath%1").arg(m),
            QStringLiteral("mpath-35000c500%1").arg(m, 8, 10, QLatin1Char('0')), { sdName(2 * m), sdName(2 * m + 1) });
    }
    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    QCOMPARE(s.devices.size(), 120);
    QCOMPARE(s.maps.size(), 40);
    // natural order: mpath2 before mpath10, sdz before sdaa
    QCOMPARE(s.maps[2].name, QStringLiteral("mpath2"));
    QCOMPARE(s.maps[10].name, QStringLiteral("mpath10"));
    QVERIFY(s.deviceNames().indexOf(QStringLiteral("sdz")) < s.deviceNames().indexOf(QStringLiteral("sdaa")));
    QCOMPARE(s.device(QStringLiteral("sdcb"))->holders, QStringList { QStringLiteral("dm-39") });
    for (const auto &m : s.maps)
        QCOMPARE(m.slaves.size(), 2);
}

void TestSnapshotBuilder::nvmeNamespace()
{
    FakeSysfs t;
    t.nvmeNamespace(QStringLiteral("nvme0n1"), QStringLiteral("259:0"), QStringLiteral("nvme0"),
        QStringLiteral("nvme-subsys0"), QStringLiteral("eui.002538b231b633a2"));
    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    QCOMPARE(s.devices.size(), 1);
    const BlockDevice &d = s.devices.first();
    QCOMPARE(d.kind, DeviceKind::NvmeNamespace);
    QCOMPARE(d.nvme.controller, QStringLiteral("nvme0"));
    QCOMPARE(d.nvme.subsystem, QStringLiteral("nvme-subsys0"));
    QCOMPARE(d.nvme.transport, QStringLiteral("pcie"));
    QCOMPARE(d.nvme.iopolicy, QStringLiteral("numa"));
    QCOMPARE(d.model, QStringLiteral("Samsung SSD 980 PRO 1TB"));
    QCOMPARE(d.serial, QStringLiteral("S5GXNX0R123456"));
    QCOMPARE(d.wwid, QStringLiteral("eui.002538b231b633a2"));
    QCOMPARE(d.nvme.nsid, QStringLiteral("1"));
}

// zram can take major 253 (as dm does here) and has no scheduler: classify by what it is.
void TestSnapshotBuilder::zramWithoutQueueFiles()
{
    FakeSysfs t;
    const QString path = t.virtualDisk(QStringLiteral("zram0"), QStringLiteral("253:0"), 0, false);
    t.file(path + QStringLiteral("/comp_algorithm"), QStringLiteral("lzo lzo-rle [zstd]"));
    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    QCOMPARE(s.devices.size(), 1);
    const BlockDevice &d = s.devices.first();
    QCOMPARE(d.kind, DeviceKind::Zram);
    QCOMPARE(d.scheduler, QString());
    QVERIFY(d.unavailable.contains(QStringLiteral("queue/scheduler")));
    QVERIFY(s.maps.isEmpty());
    const QJsonObject json = deviceToJson(d);
    QVERIFY(json[QStringLiteral("scheduler")].isNull());
}

void TestSnapshotBuilder::loopWithBackingFile()
{
    FakeSysfs t;
    const QString path = t.virtualDisk(QStringLiteral("loop3"), QStringLiteral("7:3"), 524288);
    t.file(path + QStringLiteral("/loop/backing_file"), QStringLiteral("/var/tmp/lab.img"));
    t.file(path + QStringLiteral("/loop/dio"), QStringLiteral("1"));
    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    QCOMPARE(s.devices.first().kind, DeviceKind::Loop);
    QCOMPARE(s.devices.first().loopBackingFile, QStringLiteral("/var/tmp/lab.img"));
}

// An LVM volume on a multipath map's partition: the partition lists it as a holder.
void TestSnapshotBuilder::partitionsAndHolders()
{
    FakeSysfs t;
    t.scsiDisk(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("0:0:0:0"), QStringLiteral("ATA"),
        QStringLiteral("Samsung SSD"), QStringLiteral("naa.5002538e40000001"));
    t.partition(QStringLiteral("sda"), QStringLiteral("sda2"), QStringLiteral("8:2"), 2, 1000);
    t.partition(QStringLiteral("sda"), QStringLiteral("sda1"), QStringLiteral("8:1"), 1, 2048);
    const QString lv = t.dmDevice(
        QStringLiteral("dm-1"), QStringLiteral("253:1"), QStringLiteral("vg-root"), QStringLiteral("LVM-abcdef"), {});
    t.link(lv + QStringLiteral("/slaves/sda2"), t.devicePath(QStringLiteral("sda2")));
    t.link(t.devicePath(QStringLiteral("sda2")) + QStringLiteral("/holders/dm-1"), lv);
    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    const BlockDevice *sda = s.device(QStringLiteral("sda"));
    QVERIFY(sda);
    QCOMPARE(sda->partitions.size(), 2);
    QCOMPARE(sda->partitions[0].name, QStringLiteral("sda1"));
    QCOMPARE(sda->partitions[0].sizeBytes, qint64(2048) * 512);
    QCOMPARE(sda->partitions[1].holders, QStringList { QStringLiteral("dm-1") });
    QCOMPARE(s.device(QStringLiteral("dm-1"))->kind, DeviceKind::DmLvm);
    QCOMPARE(s.device(QStringLiteral("dm-1"))->slaves, QStringList { QStringLiteral("sda2") });
    QVERIFY(s.maps.isEmpty());
}

// The live scan's shortcuts (KernelBlockIndex: device numbers and partitions from dev/block, holders as the
// inverse of slaves) give the snapshot that reading each device's own files gives, on a tree laid out as the
// kernel lays out /sys: a multipath map over a disk and a partition, an LVM volume on a partition, a loop
// device with and one without a backing file, an NVMe namespace, a virtio disk.
void TestSnapshotBuilder::kernelIndexReadsAsEachDevice()
{
    FakeSysfs t;
    const QString wwid = QStringLiteral("naa.600a098038303053453f463045727a4d");
    t.scsiDisk(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("0:0:0:0"), QStringLiteral("ATA"),
        QStringLiteral("Samsung SSD"), QStringLiteral("naa.5002538e40000001"));
    t.partition(QStringLiteral("sda"), QStringLiteral("sda2"), QStringLiteral("8:2"), 2, 1000);
    t.partition(QStringLiteral("sda"), QStringLiteral("sda1"), QStringLiteral("8:1"), 1, 2048);
    t.scsiDisk(QStringLiteral("sdb"), QStringLiteral("8:16"), QStringLiteral("2:0:1:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.scsiDisk(QStringLiteral("sdc"), QStringLiteral("8:32"), QStringLiteral("3:0:1:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("253:0"), QStringLiteral("mpatha"),
        QStringLiteral("mpath-3600a098038303053453f463045727a4d"), { QStringLiteral("sdc"), QStringLiteral("sdb") });
    t.dmDevice(QStringLiteral("dm-1"), QStringLiteral("253:1"), QStringLiteral("vg-root"), QStringLiteral("LVM-abc"),
        { QStringLiteral("sda2") });
    t.dmDevice(QStringLiteral("dm-2"), QStringLiteral("253:2"), QStringLiteral("vg-home"), QStringLiteral("LVM-def"),
        { QStringLiteral("sda2"), QStringLiteral("sda1") });
    const QString loop = t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 524288);
    t.file(loop + QStringLiteral("/loop/backing_file"), QStringLiteral("/var/tmp/lab.img"));
    t.virtualDisk(QStringLiteral("loop1"), QStringLiteral("7:1"), 0);
    t.nvmeNamespace(QStringLiteral("nvme0n1"), QStringLiteral("259:0"), QStringLiteral("nvme0"),
        QStringLiteral("nvme-subsys0"), QStringLiteral("eui.0025388b71b1a2c4"));
    const QStringList devnums { QStringLiteral("8:0"), QStringLiteral("8:1"), QStringLiteral("8:2"),
        QStringLiteral("8:16"), QStringLiteral("8:32"), QStringLiteral("253:0"), QStringLiteral("253:1"),
        QStringLiteral("253:2"), QStringLiteral("7:0"), QStringLiteral("7:1"), QStringLiteral("259:0") };
    const QStringList names { QStringLiteral("sda"), QStringLiteral("sda1"), QStringLiteral("sda2"),
        QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("dm-0"), QStringLiteral("dm-1"),
        QStringLiteral("dm-2"), QStringLiteral("loop0"), QStringLiteral("loop1"), QStringLiteral("nvme0n1") };
    for (qsizetype i = 0; i < names.size(); ++i)
        t.link(QStringLiteral("dev/block/") + devnums[i], t.devicePath(names[i]));

    const SysfsRoot sysfs = SysfsRoot::scratch(t.root());
    const KernelBlockIndex index = readKernelBlockIndex(sysfs);
    QCOMPARE(index.devnumByName.size(), names.size());
    QCOMPARE(index.devnumByName.value(QStringLiteral("sda2")), QStringLiteral("8:2"));
    QCOMPARE(index.partitionsByDisk.keys(), QStringList { QStringLiteral("sda") });
    QCOMPARE(index.partitionsByDisk.value(QStringLiteral("sda")),
        (QStringList { QStringLiteral("sda1"), QStringLiteral("sda2") }));

    const QList<UdevRecord> records = enumerateBlockDirectory(sysfs);
    const DeviceSnapshot perDevice = buildSnapshot(sysfs, records, nullptr, {});
    const DeviceSnapshot indexed = buildSnapshot(sysfs, records, nullptr, {}, &index);
    QCOMPARE(QJsonDocument(snapshotToJson(indexed)).toJson(), QJsonDocument(snapshotToJson(perDevice)).toJson());
    // What the comparison covers (so that it cannot pass on two empty snapshots):
    QCOMPARE(indexed.devices.size(), 9);
    const BlockDevice *sda = indexed.device(QStringLiteral("sda"));
    QVERIFY(sda);
    QCOMPARE(sda->devnum, QStringLiteral("8:0"));
    QCOMPARE(sda->partitions.size(), 2);
    QCOMPARE(sda->partitions[1].holders, (QStringList { QStringLiteral("dm-1"), QStringLiteral("dm-2") }));
    QCOMPARE(indexed.device(QStringLiteral("sdb"))->holders, QStringList { QStringLiteral("dm-0") });
    QCOMPARE(
        indexed.device(QStringLiteral("dm-0"))->slaves, (QStringList { QStringLiteral("sdb"), QStringLiteral("sdc") }));
    QCOMPARE(indexed.device(QStringLiteral("loop0"))->loopBackingFile, QStringLiteral("/var/tmp/lab.img"));
}

void TestSnapshotBuilder::udevDatabaseEntry()
{
    const QByteArray entry = "S:disk/by-id/wwn-0x5002538e40000001\n"
                             "I:1722000000\n"
                             "E:ID_SERIAL_SHORT=S3Z9NB0K\n"
                             "E:ID_WWN=0x5002538e40000001\n"
                             "E:ID_FS_LABEL=a=b\n"
                             "E:=empty key\n"
                             "G:systemd\n";
    const QHash<QString, QString> properties = parseUdevDatabaseEntry(entry);
    QCOMPARE(properties.size(), 3);
    QCOMPARE(properties.value(QStringLiteral("ID_SERIAL_SHORT")), QStringLiteral("S3Z9NB0K"));
    QCOMPARE(properties.value(QStringLiteral("ID_WWN")), QStringLiteral("0x5002538e40000001"));
    QCOMPARE(properties.value(QStringLiteral("ID_FS_LABEL")), QStringLiteral("a=b"));
}

// udev's identity (ID_SERIAL_SHORT, ID_WWN) reaches the devices that have a database entry, read by device
// number; a device without one keeps sysfs's.
void TestSnapshotBuilder::udevDatabaseFillsIdentity()
{
    FakeSysfs t;
    t.virtualDisk(QStringLiteral("vda"), QStringLiteral("254:0"), 2048);
    t.virtualDisk(QStringLiteral("vdb"), QStringLiteral("254:16"), 2048);
    t.link(QStringLiteral("dev/block/254:0"), t.devicePath(QStringLiteral("vda")));
    t.link(QStringLiteral("dev/block/254:16"), t.devicePath(QStringLiteral("vdb")));
    t.file(QStringLiteral("run/udev/data/b254:0"),
        QStringLiteral("E:ID_SERIAL_SHORT=VIRT-1\nE:ID_WWN=0x5000c500a1b2c3d4"));
    t.file(QStringLiteral("run/udev/data/c10:1"), QStringLiteral("E:ID_SERIAL_SHORT=not-a-disk"));

    const SysfsRoot sysfs = SysfsRoot::scratch(t.root());
    const KernelBlockIndex index = readKernelBlockIndex(sysfs);
    QList<UdevRecord> records = enumerateBlockDirectory(sysfs);
    addUdevDatabaseProperties(records, index.devnumByName, t.root() + QStringLiteral("/run/udev/data"));
    const DeviceSnapshot s = buildSnapshot(sysfs, records, nullptr, {}, &index);
    QCOMPARE(s.device(QStringLiteral("vda"))->serial, QStringLiteral("VIRT-1"));
    QCOMPARE(s.device(QStringLiteral("vda"))->wwid, QStringLiteral("0x5000c500a1b2c3d4"));
    QCOMPARE(s.device(QStringLiteral("vda"))->udevProperties.size(), 2);
    QVERIFY(s.device(QStringLiteral("vdb"))->serial.isEmpty());
    QVERIFY(s.device(QStringLiteral("vdb"))->udevProperties.isEmpty());
}

// A support engineer's capture made with tar: sysfs states 4096 bytes for every attribute, tar reads fewer and
// pads the rest with NULs ("File shrank by N bytes; padding with zeros"). The tree must read the same.
void TestSnapshotBuilder::tarCaptureWithPaddedFiles()
{
    FakeSysfs t;
    const QString wwid = QStringLiteral("naa.600a098038303053453f463045727a4d");
    t.scsiDisk(QStringLiteral("sdu"), QStringLiteral("65:64"), QStringLiteral("2:0:1:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.scsiDisk(QStringLiteral("sdm"), QStringLiteral("8:192"), QStringLiteral("2:0:0:5"), QStringLiteral("NETAPP"),
        QStringLiteral("LUN C-Mode"), wwid);
    t.dmDevice(QStringLiteral("dm-3"), QStringLiteral("253:3"), QStringLiteral("mpathc"),
        QStringLiteral("mpath-3600a098038303053453f463045727a4d"), { QStringLiteral("sdu"), QStringLiteral("sdm") });
    const QJsonObject plain = snapshotToJson(Discovery::scan(SysfsRoot(t.root(), QString())));

    // Pad every regular file as tar does, then round-trip the tree through the real tar.
    QDirIterator it(t.root(), QDir::Files | QDir::NoSymLinks | QDir::Hidden, QDirIterator::Subdirectories);
    int padded = 0;
    while (it.hasNext()) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        if (size < 4096) {
            f.seek(size);
            f.write(QByteArray(4096 - size, '\0'));
            ++padded;
        }
    }
    QVERIFY(padded > 20);
    QTemporaryDir captured;
    QProcess tar;
    tar.start(QStringLiteral("sh"),
        { QStringLiteral("-c"),
            QStringLiteral("tar -C '%1' -cf - . | tar -C '%2' -xf -").arg(t.root(), captured.path()) });
    QVERIFY(tar.waitForFinished(30000));
    QCOMPARE(tar.exitCode(), 0);
    QCOMPARE(QFileInfo(captured.path() + QStringLiteral("/block/sdu/queue/scheduler")).size(), qint64(4096));

    const QJsonObject fromTar = snapshotToJson(Discovery::scan(SysfsRoot(captured.path(), QString())));
    QCOMPARE(fromTar[QStringLiteral("devices")].toArray().size(), 3);
    QCOMPARE(fromTar[QStringLiteral("devices")], plain[QStringLiteral("devices")]);
    QCOMPARE(fromTar[QStringLiteral("maps")], plain[QStringLiteral("maps")]);
}

void TestSnapshotBuilder::malformedTreeNeverCrashes()
{
    FakeSysfs t;
    // a dangling entry, a device without dev/size, garbage sizes, a file where a dir should be
    t.link(QStringLiteral("block/ghost"), QStringLiteral("devices/virtual/block/ghost"));
    t.dir(QStringLiteral("devices/virtual/block/bare"));
    t.link(QStringLiteral("block/bare"), QStringLiteral("devices/virtual/block/bare"));
    const QString junk = t.virtualDisk(QStringLiteral("junk0"), QStringLiteral("not-a-devnum"), 0);
    t.file(junk + QStringLiteral("/size"), QStringLiteral("lots"));
    t.file(junk + QStringLiteral("/queue/scheduler"), QStringLiteral("[[]"));
    t.file(junk + QStringLiteral("/slaves"), QStringLiteral("not a directory"));
    const DeviceSnapshot s = Discovery::scan(SysfsRoot(t.root(), QString()));
    QVERIFY(!s.device(QStringLiteral("ghost")));
    const BlockDevice *bare = s.device(QStringLiteral("bare"));
    QVERIFY(bare);
    QCOMPARE(bare->sizeBytes, qint64(-1));
    QVERIFY(bare->unavailable.contains(QStringLiteral("dev")));
    const BlockDevice *j = s.device(QStringLiteral("junk0"));
    QVERIFY(j);
    QCOMPARE(j->sizeBytes, qint64(-1));
    QVERIFY(j->slaves.isEmpty());
    // and the JSON of it all is still well-formed
    QVERIFY(!snapshotToJson(s)[QStringLiteral("devices")].toArray().isEmpty());
}

void TestSnapshotBuilder::kernelNameOrder_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("letters") << QStringLiteral("sda") << QStringLiteral("sdb");
    QTest::newRow("length first") << QStringLiteral("sdz") << QStringLiteral("sdaa");
    QTest::newRow("numbers") << QStringLiteral("nvme0n2") << QStringLiteral("nvme0n10");
    QTest::newRow("dm") << QStringLiteral("dm-9") << QStringLiteral("dm-10");
    QTest::newRow("prefix") << QStringLiteral("loop1") << QStringLiteral("loop1p1");
    QTest::newRow("other drivers alphabetical") << QStringLiteral("loop0") << QStringLiteral("vda");
    QTest::newRow("sd before sr") << QStringLiteral("sdaa") << QStringLiteral("sr0");
}

void TestSnapshotBuilder::kernelNameOrder()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QVERIFY(kernelNameLess(a, b));
    QVERIFY(!kernelNameLess(b, a));
}

// dmtunectl list's map tree: the lines multipath -ll prints for the same table and status (lab VM,
// multipathd's map over scsi_debug); what only multipathd knows (prio, checker state) when given its view.
void TestSnapshotBuilder::mapTextAsMultipathLl()
{
    DeviceSnapshot s;
    MultipathMap m;
    m.name = QStringLiteral("mpatha");
    m.device = QStringLiteral("dm-0");
    m.uuid = QStringLiteral("mpath-1Linux_scsi_debug_2000");
    m.sizeBytes = 32 << 20;
    m.features = { QStringLiteral("queue_if_no_path") };
    m.hwHandler = {};
    m.groupsKnown = true;
    for (const auto &[state, path, devnum, pathState] :
        { std::tuple { "A", "sdd", "8:48", "A" }, std::tuple { "E", "sdc", "8:32", "F" } }) {
        PathGroupInfo g;
        g.index = int(m.groups.size()) + 1;
        g.state = QLatin1String(state);
        g.selector = QStringLiteral("service-time");
        PathInfo p;
        p.name = QLatin1String(path);
        p.devnum = QLatin1String(devnum);
        p.state = QLatin1String(pathState);
        p.failCount = pathState == std::string_view("F") ? 1 : 0;
        g.paths << p;
        m.groups << g;
    }
    const QStringList lines = mapToText(m, s).split(QLatin1Char('\n'));
    QCOMPARE(lines.value(1), QStringLiteral("size=32M features='1 queue_if_no_path' hwhandler='0' wp=rw"));
    QCOMPARE(lines.value(2), QStringLiteral("|-+- policy='service-time 0' status=active"));
    QCOMPARE(lines.value(3), QStringLiteral("| `- - sdd 8:48 active fail_count=0"));
    QCOMPARE(lines.value(4), QStringLiteral("`-+- policy='service-time 0' status=enabled"));
    QCOMPARE(lines.value(5), QStringLiteral("  `- - sdc 8:32 failed fail_count=1"));

    // With multipathd's view: its priorities and checker states where multipath -ll prints them.
    MultipathdMapView view;
    view.groups = { MultipathdGroupView { 1, QStringLiteral("service-time 0"), 50, QStringLiteral("active"),
                        { MultipathdPathView { QStringLiteral("sdd"), QStringLiteral("8:48"), QStringLiteral("active"),
                            QStringLiteral("running"), QStringLiteral("ready"), QStringLiteral("tur"), 50 } } },
        MultipathdGroupView { 2, QStringLiteral("service-time 0"), 1, QStringLiteral("enabled"),
            { MultipathdPathView { QStringLiteral("sdc"), QStringLiteral("8:32"), QStringLiteral("failed"),
                QStringLiteral("running"), QStringLiteral("faulty"), QStringLiteral("tur"), 1 } } } };
    const QStringList withView = mapToText(m, s, &view).split(QLatin1Char('\n'));
    QCOMPARE(withView.value(2), QStringLiteral("|-+- policy='service-time 0' prio=50 status=active"));
    QCOMPARE(withView.value(3), QStringLiteral("| `- - sdd 8:48 active ready running fail_count=0"));
    QCOMPARE(withView.value(4), QStringLiteral("`-+- policy='service-time 0' prio=1 status=enabled"));
    QCOMPARE(withView.value(5), QStringLiteral("  `- - sdc 8:32 failed faulty running fail_count=1"));
}

QTEST_GUILESS_MAIN(TestSnapshotBuilder)
#include "tst_snapshotbuilder.moc"
