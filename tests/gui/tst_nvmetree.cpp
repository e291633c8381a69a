// The device tree over native NVMe multipath: on the lab VM's capture after an ANA change (6.1,
// port 1 inaccessible, port 2 non-optimized) the head is a multipath device beside the dm maps, its subsystem and
// both paths under it with each controller's state and ANA state, the unusable path marked; neither the head nor
// its hidden paths are "Other devices" any more. With multipath=N the two namespaces stay plain devices.
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/sysfscapture.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/nvmecaptures.h"
#include "widgets/devices/devicetreebuilder.h"
#include "widgets/devices/devicetreenode.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<DeviceTreeNode> treeOf(const QString &capture)
{
    return buildDeviceTree(test::snapshotOfCapture(capture));
}

QStringList childNames(const DeviceTreeNode &node)
{
    QStringList names;
    for (const auto &child : node.children)
        names << child->text[NameColumn];
    return names;
}

} // namespace

class TestNvmeTree : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headWithItsPaths()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-ana-changed"_s);
        QVERIFY(!capture.isEmpty());
        const auto root = treeOf(capture);
        QCOMPARE(root->children.size(), size_t(2));
        const DeviceTreeNode &maps = *root->children.at(0);
        QCOMPARE(maps.text[IdentityColumn], u"1 map"_s);
        QCOMPARE(childNames(maps), QStringList { u"nvme0n1"_s });
        const DeviceTreeNode &head = *maps.children.at(0);
        QCOMPARE(head.type, DeviceRowType::Map);
        QCOMPARE(head.deviceName, u"nvme0n1"_s);
        QCOMPARE(head.text[KindColumn], u"NVMe native multipath"_s);
        QCOMPARE(head.text[SizeColumn], u"64 MiB"_s);
        QCOMPARE(head.text[IdentityColumn], u"uuid.bfeb02cd-4e87-4f80-a563-4fbabb008103"_s);
        QCOMPARE(head.text[StateColumn], u"1 of 2 paths usable"_s);
        QVERIFY(head.attention);
        QVERIFY2(head.toolTip.contains(u"nqn.2026-12.org.dmtune.lab:nvme-mpath"_s), qPrintable(head.toolTip));

        const DeviceTreeNode &subsystem = *head.children.at(0);
        QCOMPARE(subsystem.text[NameColumn], u"nvme-subsys0 · iopolicy numa"_s);
        QCOMPARE(subsystem.text[IdentityColumn], u"nqn.2026-12.org.dmtune.lab:nvme-mpath"_s);
        QCOMPARE(childNames(subsystem), (QStringList { u"nvme0c0n1"_s, u"nvme0c1n1"_s }));
        const DeviceTreeNode &lost = *subsystem.children.at(0);
        QCOMPARE(lost.type, DeviceRowType::Path);
        QCOMPARE(lost.text[KindColumn], u"NVMe path"_s);
        QCOMPARE(lost.text[StateColumn], u"live · inaccessible"_s);
        QVERIFY(lost.attention);
        const DeviceTreeNode &working = *subsystem.children.at(1);
        QCOMPARE(working.text[StateColumn], u"live · non-optimized"_s);
        QVERIFY(!working.attention);
        // The controller under each path: its transport and address.
        QCOMPARE(working.children.size(), size_t(1));
        QCOMPARE(working.children.at(0)->text[NameColumn], u"nvme1"_s);
        QCOMPARE(working.children.at(0)->text[KindColumn], u"NVMe controller (tcp)"_s);
        QVERIFY2(working.children.at(0)->text[IdentityColumn].contains(u"traddr=127.0.0.2,trsvcid=4422"_s),
            qPrintable(working.children.at(0)->text[IdentityColumn]));

        const DeviceTreeNode &other = *root->children.at(1);
        QCOMPARE(childNames(other), QStringList { u"ram0"_s });
    }

    void multipathOffStaysPlain()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-multipath-N"_s);
        QVERIFY(!capture.isEmpty());
        const auto root = treeOf(capture);
        QCOMPARE(root->children.at(0)->children.size(), size_t(0));
        QCOMPARE(childNames(*root->children.at(1)), (QStringList { u"nvme0n1"_s, u"nvme1n1"_s, u"ram0"_s }));
    }
};

QTEST_GUILESS_MAIN(TestNvmeTree)
#include "tst_nvmetree.moc"
