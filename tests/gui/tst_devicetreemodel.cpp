// The device tree model over snapshots of a fake sysfs tree: structure, labels, roles, and
// in-place updates checked by QAbstractItemModelTester.
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"

#include "core/discovery/discovery.h"
#include "widgets/devices/devicelabels.h"
#include "widgets/devices/devicetreebuilder.h"
#include "widgets/devices/devicetreemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestDeviceTreeModel : public QObject {
    Q_OBJECT

private:
    static DeviceSnapshot scan(const FakeSysfs &fake) { return Discovery::scan(SysfsRoot(fake.root(), QString())); }

    static QStringList childNames(const QAbstractItemModel &model, const QModelIndex &parent)
    {
        QStringList names;
        for (int row = 0; row < model.rowCount(parent); ++row)
            names.append(model.index(row, NameColumn, parent).data().toString());
        return names;
    }

    // The snapshot of the standard machine with dm's view of the map filled in by hand.
    static DeviceSnapshot withKnownGroups(DeviceSnapshot snapshot)
    {
        MultipathMap &map = snapshot.maps[0];
        map.groupsKnown = true;
        map.groupsUnknownReason.clear();
        map.features = { QStringLiteral("queue_if_no_path") };
        map.nextGroup = 1;
        PathGroupInfo first { 1, QStringLiteral("A"), QStringLiteral("service-time"), { QStringLiteral("0") }, {} };
        first.paths = { PathInfo { QStringLiteral("sdm"), QStringLiteral("8:192"), QStringLiteral("A"), 0, {}, {} },
            PathInfo { QStringLiteral("sdu"), QStringLiteral("65:64"), QStringLiteral("A"), 0, {}, {} } };
        PathGroupInfo second { 2, QStringLiteral("E"), QStringLiteral("service-time"), { QStringLiteral("0") }, {} };
        second.paths = { PathInfo { QStringLiteral("sdac"), QStringLiteral("65:192"), QStringLiteral("F"), 3, {}, {} },
            PathInfo { QString(), QStringLiteral("66:64"), QStringLiteral("A"), 0, {}, {} } };
        map.groups = { first, second };
        return snapshot;
    }

private Q_SLOTS:
    void formatSize_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown") << qint64(-1) << QStringLiteral("unknown");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 B");
        QTest::newRow("bytes") << qint64(512) << QStringLiteral("512 B");
        QTest::newRow("KiB") << qint64(4096) << QStringLiteral("4 KiB");
        QTest::newRow("small device") << qint64(16) * 1024 * 1024 << QStringLiteral("16 MiB"); // not "0.0 GiB"
        QTest::newRow("fraction") << qint64(1536) * 1024 * 1024 << QStringLiteral("1.5 GiB");
        QTest::newRow("LUN") << qint64(209715200) * 512 << QStringLiteral("100 GiB");
        QTest::newRow("TiB") << qint64(2) * 1024 * 1024 * 1024 * 1024 << QStringLiteral("2 TiB");
    }
    void formatSize()
    {
        QFETCH(qint64, bytes);
        QFETCH(QString, expected);
        QCOMPARE(dmtune::formatSize(bytes), expected);
    }

    void pathLabels()
    {
        PathGroupInfo group;
        group.index = 1;
        group.state = QStringLiteral("A");
        group.selector = QStringLiteral("round-robin");
        QCOMPARE(pathGroupLabel(group), QStringLiteral("Group 1 · round-robin · active"));
        group.index = 2;
        group.state = QStringLiteral("D");
        group.selector.clear();
        QCOMPARE(pathGroupLabel(group), QStringLiteral("Group 2 · disabled"));

        PathInfo path;
        path.state = QStringLiteral("F");
        path.failCount = 1;
        QCOMPARE(pathStatusText(path), QStringLiteral("failed · 1 failure"));
        path.state = QStringLiteral("A");
        path.failCount = 0;
        QCOMPARE(pathStatusText(path), QStringLiteral("active · 0 failures"));
        path.failCount = -1;
        QCOMPARE(pathStatusText(path), QStringLiteral("active"));
    }

    void roleNames()
    {
        DeviceTreeModel model;
        const auto names = model.roleNames();
        QCOMPARE(names.value(DeviceTreeModel::DeviceNameRole), QByteArray("deviceName"));
        QCOMPARE(names.value(DeviceTreeModel::RowTypeRole), QByteArray("rowType"));
        QCOMPARE(names.value(DeviceTreeModel::RowKeyRole), QByteArray("rowKey"));
        QCOMPARE(model.headerData(IdentityColumn, Qt::Horizontal).toString(), QStringLiteral("Model/Identity"));
        QCOMPARE(model.columnCount(), 6);
    }

    void capturedTreeWithoutGroups()
    {
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);
        const DeviceSnapshot snapshot = scan(fake);
        QCOMPARE(snapshot.maps.size(), 1);

        DeviceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshot);

        QCOMPARE(
            childNames(model, {}), (QStringList { QStringLiteral("Multipath maps"), QStringLiteral("Other devices") }));
        const QModelIndex maps = model.indexForKey(mapsSectionKey());
        QCOMPARE(maps.data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::Section));
        QCOMPARE(model.rowCount(maps), 1);

        const QModelIndex map = model.index(0, 0, maps);
        QCOMPARE(map.data().toString(), QStringLiteral("mpatha · dm-0"));
        QCOMPARE(map.data(DeviceTreeModel::DeviceNameRole).toString(), QStringLiteral("dm-0"));
        QCOMPARE(map.data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::Map));
        QCOMPARE(map.siblingAtColumn(SizeColumn).data().toString(), QStringLiteral("100 GiB"));
        QCOMPARE(
            map.siblingAtColumn(IdentityColumn).data().toString(), QStringLiteral("3600a098038303053453f463045535a59"));
        QVERIFY(map.data(Qt::ToolTipRole).toString().contains(QStringLiteral("NETAPP LUN C-Mode")));
        QCOMPARE(map.siblingAtColumn(StateColumn).data().toString(), QStringLiteral("4 paths · groups unknown"));
        QCOMPARE(model.indexForDevice(QStringLiteral("dm-0")), map);

        // No device-mapper for a captured tree: one stand-in group row that says why.
        QCOMPARE(model.rowCount(map), 1);
        const QModelIndex group = model.index(0, 0, map);
        QCOMPARE(group.data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::PathGroup));
        QVERIFY(!snapshot.maps[0].groupsUnknownReason.isEmpty());
        QCOMPARE(group.data().toString(),
            QStringLiteral("Path groups unknown: %1; paths from sysfs").arg(snapshot.maps[0].groupsUnknownReason));
        QVERIFY(group.data(DeviceTreeModel::SpansRowRole).toBool());
        QVERIFY(!map.data(DeviceTreeModel::SpansRowRole).toBool());

        // Paths from slaves/, in the kernel's natural order.
        QCOMPARE(childNames(model, group),
            (QStringList {
                QStringLiteral("sdm"), QStringLiteral("sdu"), QStringLiteral("sdac"), QStringLiteral("sdak") }));
        const QModelIndex sdak = model.index(3, 0, group);
        QCOMPARE(sdak.data(DeviceTreeModel::DeviceNameRole).toString(), QStringLiteral("sdak"));
        QCOMPARE(sdak.data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::Path));
        QCOMPARE(sdak.siblingAtColumn(KindColumn).data().toString(), QStringLiteral("SCSI disk"));
        QCOMPARE(sdak.siblingAtColumn(StateColumn).data().toString(), QStringLiteral("running"));
        QCOMPARE(sdak.siblingAtColumn(SchedulerColumn).data().toString(), QStringLiteral("mq-deadline"));

        // Under each path: its SCSI device.
        QCOMPARE(model.rowCount(sdak), 1);
        const QModelIndex hardware = model.index(0, 0, sdak);
        QCOMPARE(hardware.data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::PathHardware));
        QCOMPARE(hardware.data().toString(), QStringLiteral("2:0:3:1"));
        QCOMPARE(hardware.siblingAtColumn(KindColumn).data().toString(), QStringLiteral("SCSI device (fc)"));
        QCOMPARE(hardware.siblingAtColumn(IdentityColumn).data().toString(), QStringLiteral("NETAPP LUN C-Mode 9800"));
        QCOMPARE(hardware.siblingAtColumn(StateColumn).data().toString(), QStringLiteral("running · queue depth 32"));

        // Everything else: no paths, no map; partitions and holders below their device.
        const QModelIndex other = model.indexForKey(otherDevicesSectionKey());
        QCOMPARE(childNames(model, other),
            (QStringList {
                QStringLiteral("dm-1"), QStringLiteral("loop0"), QStringLiteral("vda"), QStringLiteral("zram0") }));
        const QModelIndex loop = model.indexForDevice(QStringLiteral("loop0"));
        QCOMPARE(loop.parent(), other);
        QCOMPARE(loop.siblingAtColumn(KindColumn).data().toString(), QStringLiteral("loop device"));
        QCOMPARE(loop.siblingAtColumn(IdentityColumn).data().toString(), QStringLiteral("/var/tmp/dmtune-demo.img"));
        const QModelIndex zram = model.indexForDevice(QStringLiteral("zram0"));
        QCOMPARE(zram.siblingAtColumn(KindColumn).data().toString(), QStringLiteral("zram device"));
        QCOMPARE(zram.siblingAtColumn(SchedulerColumn).data().toString(), QString());

        const QModelIndex vda = model.indexForDevice(QStringLiteral("vda"));
        QCOMPARE(childNames(model, vda), QStringList { QStringLiteral("vda1") });
        const QModelIndex vda1 = model.index(0, 0, vda);
        QCOMPARE(vda1.data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::Partition));
        QCOMPARE(childNames(model, vda1), QStringList { QStringLiteral("dm-1") });
        QCOMPARE(model.index(0, 0, vda1).data(DeviceTreeModel::RowTypeRole).toInt(), int(DeviceRowType::Holder));
        QCOMPARE(model.index(0, IdentityColumn, vda1).data().toString(), QStringLiteral("vg0-root"));
        // The device's own row wins over the rows that show it stacked somewhere.
        QCOMPARE(model.indexForDevice(QStringLiteral("dm-1")).parent(), other);

        // Keys are unique in the whole tree.
        QSet<QString> keys;
        std::function<void(const QModelIndex &)> collect = [&](const QModelIndex &parent) {
            for (int row = 0; row < model.rowCount(parent); ++row) {
                const QModelIndex index = model.index(row, 0, parent);
                const QString key = index.data(DeviceTreeModel::RowKeyRole).toString();
                QVERIFY2(!keys.contains(key), qPrintable(key));
                keys.insert(key);
                collect(index);
            }
        };
        collect({});
        QCOMPARE(model.indexForKey(QStringLiteral("nonexistent")), QModelIndex());
    }

    void groupsKnownUpdateInPlace()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        const DeviceSnapshot unknown = scan(fake);

        DeviceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(unknown);
        const QPersistentModelIndex loop = model.indexForDevice(QStringLiteral("loop0"));
        const QPersistentModelIndex map = model.indexForDevice(QStringLiteral("dm-0"));
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);

        model.setSnapshot(withKnownGroups(unknown));
        QCOMPARE(resets.count(), 0);
        QVERIFY(loop.isValid());
        QCOMPARE(loop.data().toString(), QStringLiteral("loop0"));
        QVERIFY(map.isValid());
        QCOMPARE(map.sibling(map.row(), StateColumn).data().toString(), QStringLiteral("3 of 4 paths active"));
        QVERIFY(map.sibling(map.row(), NameColumn).data(Qt::ForegroundRole).isValid());

        QCOMPARE(childNames(model, map),
            (QStringList { QStringLiteral("Group 1 · service-time · active"),
                QStringLiteral("Group 2 · service-time · enabled") }));
        const QModelIndex first = model.index(0, 0, map);
        const QModelIndex second = model.index(1, 0, map);
        QCOMPARE(first.siblingAtColumn(StateColumn).data().toString(), QStringLiteral("2 of 2 paths active · next"));
        QCOMPARE(first.data(Qt::ToolTipRole).toString(),
            QStringLiteral("Path group 1 of mpatha, path selector service-time (arguments: 0)"));
        QCOMPARE(childNames(model, first), (QStringList { QStringLiteral("sdm"), QStringLiteral("sdu") }));
        // A path the status names only by devnum is resolved to its device.
        QCOMPARE(childNames(model, second), (QStringList { QStringLiteral("sdac"), QStringLiteral("sdak") }));
        const QModelIndex sdac = model.index(0, 0, second);
        QCOMPARE(sdac.siblingAtColumn(StateColumn).data().toString(), QStringLiteral("failed · 3 failures"));
        QVERIFY(sdac.data(Qt::ForegroundRole).isValid());
        const QModelIndex sdak = model.index(1, 0, second);
        QCOMPARE(sdak.siblingAtColumn(StateColumn).data().toString(), QStringLiteral("active · 0 failures"));
        QVERIFY(!sdak.data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.index(0, 0, sdak).data().toString(), QStringLiteral("2:0:3:1"));

        // The same snapshot again changes nothing.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.setSnapshot(withKnownGroups(unknown));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(removed.count(), 0);

        // Back to unknown groups (dm went away): the stand-in row returns.
        model.setSnapshot(unknown);
        QCOMPARE(model.rowCount(map), 1);
        QVERIFY(model.index(0, 0, map).data().toString().startsWith(QStringLiteral("Path groups unknown: ")));
    }

    void refreshRemovesDevice()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        DeviceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(scan(fake));
        const QPersistentModelIndex loop = model.indexForDevice(QStringLiteral("loop0"));
        const QPersistentModelIndex zram = model.indexForDevice(QStringLiteral("zram0"));
        const QPersistentModelIndex sdak = model.indexForKey(QStringLiteral("map/mpatha/group/unknown/path/sdak"));
        QVERIFY(loop.isValid() && zram.isValid() && sdak.isValid());
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

        fake.removeDevice(QStringLiteral("loop0"));
        model.setSnapshot(scan(fake));
        QCOMPARE(removed.count(), 1);
        QVERIFY(!loop.isValid());
        QVERIFY(!model.indexForDevice(QStringLiteral("loop0")).isValid());
        QVERIFY(zram.isValid());
        QCOMPARE(zram.data().toString(), QStringLiteral("zram0"));
        QCOMPARE(model.indexForDevice(QStringLiteral("zram0")), QModelIndex(zram));

        // A path that goes away leaves its map with the others.
        fake.removeDevice(QStringLiteral("sdu"));
        QFile::remove(fake.root() + QStringLiteral("/devices/virtual/block/dm-0/slaves/sdu"));
        model.setSnapshot(scan(fake));
        QVERIFY(sdak.isValid());
        QCOMPARE(childNames(model, sdak.parent()),
            (QStringList { QStringLiteral("sdm"), QStringLiteral("sdac"), QStringLiteral("sdak") }));

        // Everything gone: both sections stay, empty.
        model.setSnapshot(DeviceSnapshot());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowCount(model.indexForKey(mapsSectionKey())), 0);
        QCOMPARE(model.rowCount(model.indexForKey(otherDevicesSectionKey())), 0);
        QCOMPARE(model.indexForKey(otherDevicesSectionKey()).siblingAtColumn(IdentityColumn).data().toString(),
            QStringLiteral("none"));
    }
};

QTEST_MAIN(TestDeviceTreeModel)
#include "tst_devicetreemodel.moc"
