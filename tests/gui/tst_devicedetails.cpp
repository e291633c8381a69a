// What the detail pane shows, without the pane: queue attributes read from a fake tree, their
// table model, and the property rows of disks, maps and partitions.
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"

#include "core/discovery/discovery.h"
#include "widgets/devices/deviceproperties.h"
#include "widgets/devices/queueattributemodel.h"
#include "widgets/devices/queueattributes.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

const QueueAttribute *find(const QueueAttributes &queue, const QString &name)
{
    for (const auto &a : queue.attributes) {
        if (a.name == name)
            return &a;
    }
    return nullptr;
}

QString valueOf(const QList<PropertyRow> &rows, const QString &label)
{
    for (const auto &row : rows) {
        if (!row.heading && row.label == label)
            return row.value;
    }
    return QStringLiteral("<missing>");
}

} // namespace

class TestDeviceDetails : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void queueAttributesOfScsiDisk()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        const QueueAttributes queue = readQueueAttributes(SysfsRoot(fake.root(), QString()), QStringLiteral("sdak"));
        QVERIFY(queue.present);
        QCOMPARE(queue.directory, QStringLiteral("block/sdak/queue"));
        QCOMPARE(queue.attributes.size(), 14); // 11 queue files + 3 mq-deadline tunables
        QCOMPARE(queue.writableCount(), 11);
        const auto *nr = find(queue, QStringLiteral("nr_requests"));
        QVERIFY(nr);
        QCOMPARE(nr->value, QStringLiteral("256"));
        QVERIFY(nr->writable);
        const auto *hw = find(queue, QStringLiteral("max_hw_sectors_kb"));
        QVERIFY(hw);
        QVERIFY(!hw->writable);
        const auto *fifo = find(queue, QStringLiteral("iosched/fifo_batch"));
        QVERIFY(fifo);
        QCOMPARE(fifo->value, QStringLiteral("16"));
        QCOMPARE(find(queue, QStringLiteral("write_cache"))->value, QStringLiteral("write through"));
    }

    void queueAttributesMissing()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        const SysfsRoot sysfs(fake.root(), QString());
        const QueueAttributes zram = readQueueAttributes(sysfs, QStringLiteral("zram0"));
        QVERIFY(!zram.present);
        QVERIFY(zram.attributes.isEmpty());
        QVERIFY(!readQueueAttributes(sysfs, QStringLiteral("nosuchdevice")).present);
        QVERIFY(!readQueueAttributes(sysfs, QString()).present);
    }

    void queueAttributeModel()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        const SysfsRoot sysfs(fake.root(), QString());
        QueueAttributeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAttributes(readQueueAttributes(sysfs, QStringLiteral("sdak")).attributes);
        QCOMPARE(model.rowCount(), 14);
        const int row = model.rowOf(QStringLiteral("nr_requests"));
        QVERIFY(row >= 0);
        QCOMPARE(model.index(row, QueueAttributeModel::ValueColumn).data().toString(), QStringLiteral("256"));
        QCOMPARE(model.index(row, QueueAttributeModel::WritableColumn).data().toString(), QStringLiteral("yes"));
        QCOMPARE(model.index(row, 0).data(QueueAttributeModel::WritableRole).toBool(), true);
        QCOMPARE(model.headerData(QueueAttributeModel::WritableColumn, Qt::Horizontal).toString(),
            QStringLiteral("Writable"));

        // A refresh of the same device updates values in place.
        fake.file(QStringLiteral("block/sdak/queue/nr_requests"), QStringLiteral("64"));
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setAttributes(readQueueAttributes(sysfs, QStringLiteral("sdak")).attributes);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(row, QueueAttributeModel::ValueColumn).data().toString(), QStringLiteral("64"));

        // Another device: a reset; a device without a queue: empty.
        model.setAttributes(readQueueAttributes(sysfs, QStringLiteral("dm-0")).attributes);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 11);
        model.setAttributes({});
        QCOMPARE(model.rowCount(), 0);
    }

    void propertiesOfPathAndMap()
    {
        FakeSysfs fake;
        buildStandardMachine(fake);
        const DeviceSnapshot snapshot = Discovery::scan(SysfsRoot(fake.root(), QString()));

        const auto sdak = describeDevice(snapshot, QStringLiteral("sdak"));
        QCOMPARE(valueOf(sdak, QStringLiteral("Device number")), QStringLiteral("66:64"));
        QCOMPARE(valueOf(sdak, QStringLiteral("H:C:T:L")), QStringLiteral("2:0:3:1"));
        QCOMPARE(valueOf(sdak, QStringLiteral("Vendor")), QStringLiteral("NETAPP"));
        QCOMPARE(valueOf(sdak, QStringLiteral("queue_depth")), QStringLiteral("32"));
        QCOMPARE(valueOf(sdak, QStringLiteral("timeout")), QStringLiteral("30 s"));
        QCOMPARE(valueOf(sdak, QStringLiteral("Holders (above)")), QStringLiteral("dm-0"));
        QCOMPARE(valueOf(sdak, QStringLiteral("Map")), QStringLiteral("mpatha (dm-0)"));

        const auto map = describeDevice(snapshot, QStringLiteral("dm-0"));
        QCOMPARE(valueOf(map, QStringLiteral("dm name")), QStringLiteral("mpatha"));
        QCOMPARE(valueOf(map, QStringLiteral("dm uuid")), QStringLiteral("mpath-3600a098038303053453f463045535a59"));
        QVERIFY(valueOf(map, QStringLiteral("Path groups")).startsWith(QStringLiteral("unknown: captured")));
        QCOMPARE(valueOf(map, QStringLiteral("Slaves (below)")), QStringLiteral("sdm, sdu, sdac, sdak"));

        const auto loop = describeDevice(snapshot, QStringLiteral("loop0"));
        QCOMPARE(valueOf(loop, QStringLiteral("Backing file")), QStringLiteral("/var/tmp/dmtune-demo.img"));

        const auto partition = describeDevice(snapshot, QStringLiteral("vda1"));
        QCOMPARE(valueOf(partition, QStringLiteral("Disk")), QStringLiteral("vda"));
        QCOMPARE(valueOf(partition, QStringLiteral("Holders (above)")), QStringLiteral("dm-1"));
        QCOMPARE(diskOfPartition(snapshot, QStringLiteral("vda1"))->name, QStringLiteral("vda"));

        QVERIFY(describeDevice(snapshot, QStringLiteral("nosuchdevice")).isEmpty());
        QCOMPARE(valueOf(describeSnapshot(snapshot), QStringLiteral("Multipath maps")), QStringLiteral("1"));
    }
};

QTEST_MAIN(TestDeviceDetails)
#include "tst_devicedetails.moc"
