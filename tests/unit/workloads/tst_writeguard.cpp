// The write guard: the decision table over device facts, the mountinfo and swaps parsers on real captures,
// and the fact gatherer over a sysfs-shaped tree (holders and mounts of partitions count for the disk).
#include "core/workloads/deviceopeners.h"
#include "core/workloads/writeguard.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/sysmacros.h>

using namespace dmtune;

Q_DECLARE_METATYPE(dmtune::DeviceFacts)

namespace {

QString fixture(const QString &name)
{
    QFile file(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return QString::fromUtf8(file.readAll());
}

DeviceFacts cleanLoop()
{
    DeviceFacts f;
    f.device = QStringLiteral("loop3");
    f.exists = true;
    f.held = true; // the O_EXCL hold was taken
    return f;
}

} // namespace

class TestWriteGuard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decision_data();
    void decision();
    void parsesMountinfo();
    void parsesSwaps();
    void gathersFactsOfPartitions();
    void gathersTheHoldersOfAPartitionsDisk();
    void parsesDevnums_data();
    void parsesDevnums();
    void holdRefusesWhatIsNotABlockDevice();
    void ownProcessesAreDmtunesByPidTreeAndExecutable();
};

void TestWriteGuard::decision_data()
{
    QTest::addColumn<DeviceFacts>("facts");
    QTest::addColumn<bool>("writes");
    QTest::addColumn<QString>("confirmation");
    QTest::addColumn<bool>("allowed");
    QTest::addColumn<bool>("needsConfirmation");
    QTest::addColumn<QString>("reason"); // the first reason starts with this

    DeviceFacts mounted = cleanLoop();
    mounted.mounts.append(
        { QStringLiteral("7:3"), QStringLiteral("/mnt/data"), QStringLiteral("ext4"), QStringLiteral("/dev/loop3") });
    DeviceFacts held = cleanLoop();
    held.holders << QStringLiteral("dm-2");
    DeviceFacts ext4 = cleanLoop();
    ext4.signatures.append({ QStringLiteral("loop3"), QStringLiteral("ext4"), QStringLiteral("filesystem") });
    DeviceFacts lvm = cleanLoop();
    lvm.signatures.append({ QStringLiteral("loop3"), QStringLiteral("LVM2_member"), QStringLiteral("raid") });
    DeviceFacts raid = cleanLoop();
    raid.signatures.append({ QStringLiteral("loop3"), QStringLiteral("linux_raid_member"), QStringLiteral("raid") });
    DeviceFacts table = cleanLoop();
    table.signatures.append({ QStringLiteral("loop3"), QStringLiteral("gpt"), QStringLiteral("partition table") });
    table.partitions << QStringLiteral("loop3p1");
    DeviceFacts partitionHeld = cleanLoop();
    partitionHeld.partitions << QStringLiteral("loop3p1");
    partitionHeld.holders << QStringLiteral("md0 (on loop3p1)");
    DeviceFacts swap = cleanLoop();
    swap.swaps << QStringLiteral("/dev/loop3");
    // Open read-write by a database (no O_EXCL: the hold was taken): in use, whatever is typed.
    DeviceFacts opened = cleanLoop();
    opened.openers.append({ 1234, QStringLiteral("postgres"), makedev(7, 3) });
    opened.openerDevices << QStringLiteral("loop3");
    DeviceFacts partitionOpened = cleanLoop();
    partitionOpened.partitions << QStringLiteral("loop3p1");
    partitionOpened.openers.append({ 88, QStringLiteral("qemu-system-x86"), makedev(259, 0) });
    partitionOpened.openerDevices << QStringLiteral("loop3p1");
    // A name with a newline and an escape sequence stays on the one line, visible.
    DeviceFacts forged = cleanLoop();
    forged.openers.append(
        { 5, QStringLiteral("x") + QChar(u'\n') + QStringLiteral("fake") + QChar(0x1b), makedev(7, 3) });
    forged.openerDevices << QStringLiteral("loop3");
    DeviceFacts unprobed = cleanLoop();
    unprobed.probeError = QStringLiteral("libblkid cannot open /dev/loop3");
    DeviceFacts missing;
    missing.device = QStringLiteral("sdz");
    DeviceFacts busy = cleanLoop(); // mounted in another mount namespace, held by LIO or ZFS...
    busy.held = false;
    busy.exclusiveError = QStringLiteral("/dev/loop3 is in use: the kernel refuses to open it exclusively");
    DeviceFacts busyExt4 = ext4;
    busyExt4.held = false;
    busyExt4.exclusiveError = busy.exclusiveError;
    DeviceFacts unheld = cleanLoop(); // facts gathered without the hold (a captured tree)
    unheld.held = false;
    DeviceFacts partitionOfHeldDisk = cleanLoop();
    partitionOfHeldDisk.device = QStringLiteral("sdb1");
    partitionOfHeldDisk.parentDisk = QStringLiteral("sdb");
    partitionOfHeldDisk.parentHolders << QStringLiteral("dm-3");

    QTest::newRow("read, holds ext4") << ext4 << false << QString() << true << false << QString();
    QTest::newRow("read, mounted") << mounted << false << QString() << true << false << QString();
    QTest::newRow("write, empty device") << cleanLoop() << true << QString() << true << false << QString();
    QTest::newRow("write, mounted") << mounted << true << QString() << false << false
                                    << "/dev/loop3 (ext4) is mounted on /mnt/data";
    // In use: refused whatever is typed.
    QTest::newRow("write, mounted, confirmed") << mounted << true << "loop3" << false << false << "/dev/loop3 (ext4)";
    QTest::newRow("write, held") << held << true << QString() << false << false << "held by dm-2";
    QTest::newRow("write, held, confirmed") << held << true << "loop3" << false << false << "held by dm-2";
    QTest::newRow("write, in use elsewhere, confirmed")
        << busy << true << "loop3" << false << false << "/dev/loop3 is in use";
    QTest::newRow("write, ext4 in use, confirmed")
        << busyExt4 << true << "loop3" << false << false << "/dev/loop3 is in use";
    QTest::newRow("write, not held") << unheld << true << "loop3" << false << false << "loop3 was not opened";
    QTest::newRow("write, partition of a held disk, confirmed")
        << partitionOfHeldDisk << true << "sdb1" << false << false << "its disk sdb is held by dm-3";
    QTest::newRow("read, in use elsewhere") << busy << false << QString() << true << false << QString();
    QTest::newRow("write, ext4") << ext4 << true << QString() << false << true << "loop3 holds ext4 (filesystem)";
    QTest::newRow("write, ext4, confirmed by path")
        << ext4 << true << "/dev/loop3" << true << true << "loop3 holds ext4";
    QTest::newRow("write, ext4, wrong name") << ext4 << true << "loop4" << false << true << "loop3 holds ext4";
    QTest::newRow("write, ext4, 'yes'") << ext4 << true << "yes" << false << true << "loop3 holds ext4";
    QTest::newRow("write, ext4, prefix") << ext4 << true << "loop" << false << true << "loop3 holds ext4";
    QTest::newRow("write, LVM member") << lvm << true << QString() << false << true << "loop3 holds LVM2_member (raid)";
    QTest::newRow("write, RAID member") << raid << true << QString() << false << true
                                        << "loop3 holds linux_raid_member";
    QTest::newRow("write, partition table")
        << table << true << QString() << false << true << "loop3 holds gpt (partition table)";
    QTest::newRow("write, partition held")
        << partitionHeld << true << QString() << false << false << "held by md0 (on loop3p1)";
    QTest::newRow("write, open read-write by another process")
        << opened << true << "loop3" << false << false << "held open by postgres, pid 1234";
    QTest::newRow("write, a partition open") << partitionOpened << true << QString() << false << false
                                             << "held open by qemu-system-x86, pid 88 (on loop3p1)";
    QTest::newRow("write, opener's name escaped")
        << forged << true << QString() << false << false << "held open by x\\x0afake\\x1b, pid 5";
    QTest::newRow("read, open read-write by another process")
        << opened << false << QString() << true << false << QString();
    QTest::newRow("write, swap") << swap << true << "loop3" << false << false << "/dev/loop3 is in use as swap";
    QTest::newRow("write, not probed") << unprobed << true << QString() << false << true
                                       << "its contents could not be checked";
    QTest::newRow("write, no such device") << missing << true << "sdz" << false << false << "sdz is not a block device";
    QTest::newRow("read, no such device")
        << missing << false << QString() << false << false << "sdz is not a block device";
}

void TestWriteGuard::decision()
{
    QFETCH(DeviceFacts, facts);
    QFETCH(bool, writes);
    QFETCH(QString, confirmation);
    QFETCH(bool, allowed);
    QFETCH(bool, needsConfirmation);
    QFETCH(QString, reason);
    const WriteDecision d = decideWrite(facts, writes, confirmation);
    QCOMPARE(d.allowed, allowed);
    QCOMPARE(d.needsConfirmation, needsConfirmation);
    if (reason.isEmpty()) {
        QVERIFY(d.reasons.isEmpty());
    } else {
        QVERIFY(!d.reasons.isEmpty());
        QVERIFY2(d.reasons.first().startsWith(reason), qPrintable(d.reasons.join(u'|')));
    }
}

void TestWriteGuard::parsesMountinfo()
{
    // This machine's mountinfo with an ext4 loop device mounted on a path with a space (\040 in the file).
    const QList<MountEntry> entries = parseMountinfo(fixture(QStringLiteral("mountinfo-loop-ext4.txt")));
    QCOMPARE(entries.size(), 21);
    const auto loop = std::find_if(
        entries.begin(), entries.end(), [](const MountEntry &m) { return m.devnum == QLatin1String("7:0"); });
    QVERIFY(loop != entries.end());
    QCOMPARE(loop->mountPoint, QStringLiteral("/var/tmp/work-fio/mnt point"));
    QCOMPARE(loop->fsType, QStringLiteral("ext4"));
    QCOMPARE(loop->source, QStringLiteral("/dev/loop0"));
    QCOMPARE(entries.first().mountPoint, QStringLiteral("/proc")); // this sandbox mounts /proc first
    QCOMPARE(entries.first().fsType, QStringLiteral("proc"));
    QVERIFY(parseMountinfo(QStringLiteral("garbage line\n1 2 3\n")).isEmpty());
}

void TestWriteGuard::parsesSwaps()
{
    QCOMPARE(parseSwaps(fixture(QStringLiteral("swaps-loop.txt"))), QStringList { QStringLiteral("/dev/loop1") });
    QVERIFY(parseSwaps(QStringLiteral("Filename\tType\tSize\tUsed\tPriority\n")).isEmpty());
}

void TestWriteGuard::gathersFactsOfPartitions()
{
    test::FakeSysfs fs;
    fs.scsiDisk(QStringLiteral("sdb"), QStringLiteral("8:16"), QStringLiteral("1:0:0:0"), QStringLiteral("ATA"),
        QStringLiteral("disk"), QStringLiteral("naa.1"));
    fs.partition(QStringLiteral("sdb"), QStringLiteral("sdb1"), QStringLiteral("8:17"), 1, 2048);
    fs.partition(QStringLiteral("sdb"), QStringLiteral("sdb2"), QStringLiteral("8:18"), 2, 2048);
    fs.dmDevice(QStringLiteral("dm-0"), QStringLiteral("254:0"), QStringLiteral("vg-lv"), QStringLiteral("LVM-x"),
        { QStringLiteral("sdb2") });
    fs.scsiDisk(QStringLiteral("sdc"), QStringLiteral("8:32"), QStringLiteral("1:0:0:1"), QStringLiteral("ATA"),
        QStringLiteral("disk"), QStringLiteral("naa.2"));
    QTemporaryDir proc;
    QVERIFY(QDir(proc.path()).mkpath(QStringLiteral("self")));
    QFile mountinfo(proc.filePath(QStringLiteral("self/mountinfo")));
    QVERIFY(mountinfo.open(QIODevice::WriteOnly));
    mountinfo.write("22 1 8:17 / /boot rw,relatime shared:2 - ext4 /dev/sdb1 rw\n"
                    "23 1 254:0 / /srv rw - xfs /dev/mapper/vg-lv rw\n");
    mountinfo.close();
    QFile swaps(proc.filePath(QStringLiteral("swaps")));
    QVERIFY(swaps.open(QIODevice::WriteOnly));
    swaps.write("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/dev/sdc                                "
                "partition\t1024\t0\t-2\n");
    swaps.close();
    const SysfsRoot root(fs.root(), proc.path());

    const DeviceFacts sdb = gatherDeviceFacts(root, QStringLiteral("sdb"));
    QVERIFY(sdb.exists);
    QCOMPARE(sdb.partitions, (QStringList { QStringLiteral("sdb1"), QStringLiteral("sdb2") }));
    QCOMPARE(sdb.mounts.size(), 1); // the partition's, not dm-0's (that one is a holder)
    QCOMPARE(sdb.mounts.first().mountPoint, QStringLiteral("/boot"));
    QCOMPARE(sdb.holders, QStringList { QStringLiteral("dm-0 (on sdb2)") });
    QVERIFY(sdb.swaps.isEmpty());
    QVERIFY(!sdb.probeError.isEmpty()); // a captured tree cannot be probed: that alone asks for confirmation

    const DeviceFacts sdc = gatherDeviceFacts(root, QStringLiteral("sdc"));
    QCOMPARE(sdc.swaps, QStringList { QStringLiteral("/dev/sdc") });
    QVERIFY(sdc.mounts.isEmpty());
    QVERIFY(sdc.holders.isEmpty());

    // A partition can be the target too; its own mount counts.
    const DeviceFacts sdb1 = gatherDeviceFacts(root, QStringLiteral("sdb1"));
    QVERIFY(sdb1.exists);
    QVERIFY(sdb1.partitions.isEmpty());
    QCOMPARE(sdb1.mounts.size(), 1);
    QVERIFY(gatherDeviceFacts(root, QStringLiteral("sdb2")).holders == QStringList { QStringLiteral("dm-0") });

    QVERIFY(!gatherDeviceFacts(root, QStringLiteral("sdz")).exists);
    QVERIFY(!gatherDeviceFacts(root, QStringLiteral("../sdb")).exists);
    QVERIFY(!decideWrite(sdb, true, QString()).allowed);
    // A captured tree is never held (it is not this machine's): no confirmation makes a write there allowed.
    QVERIFY(!sdb.held);
    QVERIFY(!decideWrite(sdb, true, QStringLiteral("sdb")).allowed);
    QVERIFY(sdb1.parentDisk == QStringLiteral("sdb"));
    QVERIFY(sdb1.parentHolders.isEmpty());
    QVERIFY(sdb.parentDisk.isEmpty());
}

void TestWriteGuard::gathersTheHoldersOfAPartitionsDisk()
{
    // sdb is a path of a multipath map (dm-3 holds the whole disk); its partition sdb1 is then in use too.
    test::FakeSysfs fs;
    fs.scsiDisk(QStringLiteral("sdb"), QStringLiteral("8:16"), QStringLiteral("1:0:0:0"), QStringLiteral("LIO-ORG"),
        QStringLiteral("disk"), QStringLiteral("naa.1"));
    fs.partition(QStringLiteral("sdb"), QStringLiteral("sdb1"), QStringLiteral("8:17"), 1, 2048);
    fs.dmDevice(QStringLiteral("dm-3"), QStringLiteral("254:3"), QStringLiteral("mpatha"), QStringLiteral("mpath-3600"),
        { QStringLiteral("sdb") });
    QTemporaryDir proc;
    QVERIFY(QDir(proc.path()).mkpath(QStringLiteral("self")));
    QFile mountinfo(proc.filePath(QStringLiteral("self/mountinfo")));
    QVERIFY(mountinfo.open(QIODevice::WriteOnly));
    mountinfo.write("22 1 8:16 / /data rw - ext4 /dev/sdb rw\n"); // and the whole disk is mounted too
    mountinfo.close();
    const SysfsRoot root(fs.root(), proc.path());
    DeviceFacts sdb1 = gatherDeviceFacts(root, QStringLiteral("sdb1"));
    QCOMPARE(sdb1.parentDisk, QStringLiteral("sdb"));
    QCOMPARE(sdb1.parentHolders, QStringList { QStringLiteral("dm-3") });
    QCOMPARE(sdb1.mounts.size(), 1);
    QCOMPARE(sdb1.mounts.first().mountPoint, QStringLiteral("/data"));
    sdb1.held = true; // as if this were the live machine and the O_EXCL open had worked
    const WriteDecision d = decideWrite(sdb1, true, QStringLiteral("sdb1"));
    QVERIFY(!d.allowed && !d.needsConfirmation);
    QVERIFY2(d.reasons.join(u'|').contains(QStringLiteral("its disk sdb is held by dm-3")),
        qPrintable(d.reasons.join(u'|')));
}

void TestWriteGuard::parsesDevnums_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<uint>("major");
    QTest::addColumn<uint>("minor");
    QTest::newRow("loop") << "7:3" << true << 7u << 3u;
    QTest::newRow("sysfs line") << "259:0\n" << true << 259u << 0u;
    QTest::newRow("large minor") << "8:1048575" << true << 8u << 1048575u;
    QTest::newRow("no minor") << "7" << false << 0u << 0u;
    QTest::newRow("three parts") << "7:3:1" << false << 0u << 0u;
    QTest::newRow("words") << "a:b" << false << 0u << 0u;
    QTest::newRow("negative") << "-1:3" << false << 0u << 0u;
    QTest::newRow("empty") << "" << false << 0u << 0u;
}

void TestWriteGuard::parsesDevnums()
{
    QFETCH(QString, text);
    QFETCH(bool, ok);
    QFETCH(uint, major);
    QFETCH(uint, minor);
    dev_t dev = 0;
    QCOMPARE(parseDevnum(text, &dev), ok);
    if (ok) {
        QCOMPARE(::major(dev), major);
        QCOMPARE(::minor(dev), minor);
    }
}

void TestWriteGuard::holdRefusesWhatIsNotABlockDevice()
{
    test::FakeSysfs fs;
    fs.virtualDisk(QStringLiteral("dmtune-test-nosuch"), QStringLiteral("7:250"), 2048);
    const SysfsRoot root(fs.root());
    const auto missing = DeviceHold::acquire(root, QStringLiteral("sdz"));
    QVERIFY(!missing);
    QVERIFY2(missing.errorMessage().contains(QStringLiteral("not a block device")), qPrintable(missing.errorMessage()));
    QVERIFY(!DeviceHold::acquire(root, QStringLiteral("../loop0")));
    QVERIFY(!DeviceHold::acquire(root, QString()));
    // In sysfs, but no /dev node of that name: the open says why.
    const auto noNode = DeviceHold::acquire(root, QStringLiteral("dmtune-test-nosuch"));
    QVERIFY(!noNode);
    QVERIFY2(noNode.errorMessage().startsWith(QStringLiteral("cannot open /dev/dmtune-test-nosuch exclusively")),
        qPrintable(noNode.errorMessage()));
    DeviceHold empty;
    QVERIFY(!empty.isHeld());
    QVERIFY(empty.devicePath().isEmpty());
    DeviceHold moved = std::move(empty);
    QVERIFY(!moved.isHeld());
}

namespace {

// A /proc-shaped tree: <pid>/stat with its parent and comm, <pid>/exe linking to the program.
void fakeProcess(const QString &proc, qint64 pid, qint64 ppid, const QString &comm, const QString &exe)
{
    const QString dir = QStringLiteral("%1/%2").arg(proc).arg(pid);
    QVERIFY(QDir().mkpath(dir));
    QFile stat(dir + QStringLiteral("/stat"));
    QVERIFY(stat.open(QIODevice::WriteOnly));
    stat.write(QStringLiteral("%1 (%2) S %3 1 1 0 -1\n").arg(pid).arg(comm).arg(ppid).toUtf8());
    QVERIFY(QFile::link(exe, dir + QStringLiteral("/exe")));
}

} // namespace

void TestWriteGuard::ownProcessesAreDmtunesByPidTreeAndExecutable()
{
    QTemporaryDir proc;
    const QString p = proc.path();
    fakeProcess(p, 1, 0, QStringLiteral("systemd"), QStringLiteral("/usr/lib/systemd/systemd"));
    fakeProcess(p, 10, 1, QStringLiteral("dmtune"), QStringLiteral("/usr/bin/dmtune")); // the GUI
    fakeProcess(p, 20, 10, QStringLiteral("dmtune-helper"), QStringLiteral("/usr/libexec/dmtune-helper")); // self
    fakeProcess(p, 30, 20, QStringLiteral("fio"), QStringLiteral("/usr/bin/fio")); // started by dmtune: counts
    fakeProcess(p, 31, 20, QStringLiteral("dmtunectl"), QStringLiteral("/usr/bin/dmtunectl (deleted)"));
    // Named like dmtune (comm and exe) but not in the tree: another program, or another dmtune using the device.
    fakeProcess(p, 40, 1, QStringLiteral("dmtune"), QStringLiteral("/usr/bin/dmtune"));
    fakeProcess(p, 41, 1, QStringLiteral("dmtune-helper"), QStringLiteral("/opt/pg/bin/postgres"));
    // A child that renamed itself (comm) stays what its executable is.
    fakeProcess(p, 32, 20, QStringLiteral("dmtunectl"), QStringLiteral("/usr/bin/python3"));
    // A comm with blanks and parentheses: the parent is still read after the last ')'.
    fakeProcess(p, 33, 31, QStringLiteral("a) S 1 (b"), QStringLiteral("/usr/bin/dmtune-report"));

    const QSet<qint64> own = ownProcesses(p, 20);
    QCOMPARE(own, (QSet<qint64> { 20, 10, 31, 33 }));
    QVERIFY(ownProcesses(p, 40) == (QSet<qint64> { 40 })); // init is no dmtune program
    QVERIFY(ownProcesses(proc.filePath(QStringLiteral("none")), 7) == (QSet<qint64> { 7 }));
}

QTEST_GUILESS_MAIN(TestWriteGuard)
#include "tst_writeguard.moc"
