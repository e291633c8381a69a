// Native NVMe multipath from sysfs, on trees `dmtunectl capture` took in the lab VM (Debian's 6.1,
// one brd namespace exported by nvmet-tcp on 127.0.0.1:4421 and 127.0.0.2:4422, tests/vm/guest/setup-nvme.sh):
// multipath=Y with both ports optimized, the same after port 1 became inaccessible and port 2 non-optimized, and
// multipath=N. Edge cases are made by editing a copy of a capture: a connecting controller, ANA persistent-loss and
// change, one path only, and the 6.14+ layout (multipath/ links under the head, per-path queue_depth/numa_nodes).
#include "core/discovery/nvmemultipath.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/snapshotjson.h"
#include "core/discovery/sysfscapture.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/nvmecaptures.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

} // namespace

class TestNvmeMultipath : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pathNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("controller");
        QTest::newRow("first path") << u"nvme0c0n1"_s << u"nvme0n1"_s << u"nvme0"_s;
        QTest::newRow("second controller") << u"nvme0c1n1"_s << u"nvme0n1"_s << u"nvme1"_s;
        QTest::newRow("big numbers") << u"nvme12c34n56"_s << u"nvme12n56"_s << u"nvme34"_s;
        QTest::newRow("a head") << u"nvme0n1"_s << QString() << QString();
        QTest::newRow("a partition") << u"nvme0c1n1p1"_s << QString() << QString();
        QTest::newRow("a controller") << u"nvme1"_s << QString() << QString();
        QTest::newRow("scsi") << u"sda"_s << QString() << QString();
    }
    void pathNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, head);
        QFETCH(QString, controller);
        const auto parsed = parseNvmePathName(name);
        QCOMPARE(bool(parsed), !head.isEmpty());
        if (parsed) {
            QCOMPARE(parsed->head, head);
            QCOMPARE(parsed->controller, controller);
        }
    }

    void headAndPathsOfA61Kernel()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        const DeviceSnapshot s = test::snapshotOfCapture(capture);
        QCOMPARE(s.kernelRelease, u"6.1.0-57-amd64"_s);
        QCOMPARE(s.nvmeMultipath.size(), 1);
        const NvmeMultipathHead &head = s.nvmeMultipath.first();
        QCOMPARE(head.name, u"nvme0n1"_s);
        QCOMPARE(head.devnum, u"259:1"_s);
        QCOMPARE(head.wwid, u"uuid.bfeb02cd-4e87-4f80-a563-4fbabb008103"_s);
        QCOMPARE(head.nsid, u"1"_s);
        QCOMPARE(head.sizeBytes, qint64(64) << 20);
        QCOMPARE(head.iostats, u"0"_s); // 6.1 counts the I/O on the paths only
        QCOMPARE(head.subsystem.name, u"nvme-subsys0"_s);
        QCOMPARE(head.subsystem.nqn, u"nqn.2026-12.org.dmtune.lab:nvme-mpath"_s);
        QCOMPARE(head.subsystem.model, u"Linux"_s);
        QCOMPARE(head.subsystem.serial, u"DMTUNELAB0001"_s);
        QCOMPARE(head.subsystem.iopolicy, u"numa"_s);
        QCOMPARE(head.subsystem.controllers, (QStringList { u"nvme0"_s, u"nvme1"_s }));
        QCOMPARE(head.paths.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const NvmePath &p = head.paths.at(i);
            QCOMPARE(p.name, u"nvme0c%1n1"_s.arg(i));
            QCOMPARE(p.controller, u"nvme%1"_s.arg(i));
            QCOMPARE(p.transport, u"tcp"_s);
            QVERIFY2(p.address.startsWith(u"traddr=127.0.0.%1,trsvcid=442%1"_s.arg(i + 1)), qPrintable(p.address));
            QCOMPARE(p.state, u"live"_s);
            QCOMPARE(p.anaState, u"optimized"_s);
            QCOMPARE(p.anaGroup, u"1"_s);
            QVERIFY(p.queueDepth.isEmpty()); // 6.14+
            QVERIFY(p.numaNodes.isEmpty());
            QVERIFY(p.usable());
        }
        QCOMPARE(head.usablePaths(), 2);
        QCOMPARE(s.nvmeHeadOfPath(u"nvme0c1n1"_s), &head);
        QCOMPARE(s.nvmeHeadOfPath(u"nvme0n1"_s), nullptr);
        // The head's own record names its paths although 6.1 has no multipath/ links under it.
        const BlockDevice *d = s.device(u"nvme0n1"_s);
        QVERIFY(d);
        QCOMPARE(d->nvme.pathDevices, (QStringList { u"nvme0c0n1"_s, u"nvme0c1n1"_s }));
        QCOMPARE(d->nvme.pathControllers, (QStringList { u"nvme0"_s, u"nvme1"_s }));
        QCOMPARE(d->nvme.transport, u"tcp"_s);
    }

    void anaStatesAfterAChange()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-ana-changed"_s);
        QVERIFY(!capture.isEmpty());
        const DeviceSnapshot s = test::snapshotOfCapture(capture);
        QCOMPARE(s.nvmeMultipath.size(), 1);
        const NvmeMultipathHead &head = s.nvmeMultipath.first();
        QCOMPARE(head.paths.at(0).anaState, u"inaccessible"_s);
        QVERIFY(!head.paths.at(0).usable());
        QCOMPARE(head.paths.at(1).anaState, u"non-optimized"_s);
        QVERIFY(head.paths.at(1).usable());
        QCOMPARE(head.usablePaths(), 1);
        const QString text = nvmeHeadToText(head);
        QVERIFY2(text.contains(u" +- nvme0 tcp traddr=127.0.0.1,trsvcid=4421"_s)
                && text.contains(u" live inaccessible (nvme0c0n1)"_s),
            qPrintable(text));
        QVERIFY2(text.contains(u" live non-optimized (nvme0c1n1)"_s), qPrintable(text));
        QVERIFY2(text.contains(u"1 of 2 paths usable"_s), qPrintable(text));
    }

    void multipathOffHasNoHead()
    {
        // nvme_core multipath=N: one namespace per controller, the same WWID twice, nothing native.
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-multipath-N"_s);
        QVERIFY(!capture.isEmpty());
        const DeviceSnapshot s = test::snapshotOfCapture(capture);
        QVERIFY(s.nvmeMultipath.isEmpty());
        const BlockDevice *a = s.device(u"nvme0n1"_s);
        const BlockDevice *b = s.device(u"nvme1n1"_s);
        QVERIFY(a && b);
        QCOMPARE(a->kind, DeviceKind::NvmeNamespace);
        QCOMPARE(a->wwid, b->wwid);
        QCOMPARE(a->nvme.controller, u"nvme0"_s);
        QCOMPARE(b->nvme.controller, u"nvme1"_s);
        QCOMPARE(nvmeCoreMultipath(sysfsRootForDirectory(capture)), u"N"_s);
        QCOMPARE(snapshotToJson(s).value(u"nvme_multipath"_s).toArray().size(), 0);
    }

    void json()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        const QJsonObject doc = snapshotToJson(test::snapshotOfCapture(capture));
        const QJsonArray heads = doc.value(u"nvme_multipath"_s).toArray();
        QCOMPARE(heads.size(), 1);
        QCOMPARE(doc.value(u"maps"_s).toArray().size(), 0); // maps[] stays dm-multipath only
        const QJsonObject head = heads.first().toObject();
        QCOMPARE(head.value(u"name"_s).toString(), u"nvme0n1"_s);
        QCOMPARE(head.value(u"devnum"_s).toString(), u"259:1"_s);
        QCOMPARE(head.value(u"nsid"_s).toInt(), 1);
        QCOMPARE(head.value(u"iostats"_s), QJsonValue(false));
        const QJsonObject sub = head.value(u"subsystem"_s).toObject();
        QCOMPARE(sub.value(u"nqn"_s).toString(), u"nqn.2026-12.org.dmtune.lab:nvme-mpath"_s);
        QCOMPARE(sub.value(u"iopolicy"_s).toString(), u"numa"_s);
        QCOMPARE(sub.value(u"model"_s).toString(), u"Linux"_s);
        QCOMPARE(sub.value(u"serial"_s).toString(), u"DMTUNELAB0001"_s);
        const QJsonArray paths = head.value(u"paths"_s).toArray();
        QCOMPARE(paths.size(), 2);
        const QJsonObject p = paths.at(1).toObject();
        QCOMPARE(p.value(u"name"_s).toString(), u"nvme0c1n1"_s);
        QCOMPARE(p.value(u"controller"_s).toString(), u"nvme1"_s);
        QCOMPARE(p.value(u"transport"_s).toString(), u"tcp"_s);
        QCOMPARE(p.value(u"state"_s).toString(), u"live"_s);
        QCOMPARE(p.value(u"ana_state"_s).toString(), u"optimized"_s);
        QCOMPARE(p.value(u"ana_group"_s).toInt(), 1);
        QCOMPARE(p.value(u"usable"_s).toBool(), true);
        QVERIFY(!p.contains(u"queue_depth"_s)); // only where the kernel has it
        QVERIFY(!p.contains(u"numa_nodes"_s));
    }

    void listSubsysText()
    {
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        const QString text = nvmeHeadToText(test::snapshotOfCapture(capture).nvmeMultipath.first());
        const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 6, qPrintable(text));
        QVERIFY2(lines.at(0).startsWith(u"nvme0n1 (259:1) nsid 1, 64M"_s), qPrintable(lines.at(0)));
        QVERIFY2(lines.at(0).endsWith(u"native NVMe multipath, 2 of 2 paths usable"_s), qPrintable(lines.at(0)));
        // nvme list-subsys's block: the subsystem, its iopolicy indented under the NQN, then a line per path.
        QCOMPARE(lines.at(1), u"nvme-subsys0 - NQN=nqn.2026-12.org.dmtune.lab:nvme-mpath"_s);
        QCOMPARE(lines.at(2), u"               iopolicy=numa"_s);
        QCOMPARE(lines.at(3), u"\\"_s);
        QVERIFY2(lines.at(4).startsWith(u" +- nvme0 tcp traddr=127.0.0.1,trsvcid=4421"_s), qPrintable(lines.at(4)));
        QVERIFY2(lines.at(4).endsWith(u" live optimized (nvme0c0n1)"_s), qPrintable(lines.at(4)));
        QVERIFY2(lines.at(5).startsWith(u" +- nvme1 tcp traddr=127.0.0.2,trsvcid=4422"_s), qPrintable(lines.at(5)));
        QVERIFY2(text.contains(u"the kernel counts no I/O on nvme0n1 (queue/iostats 0)"_s), qPrintable(text));
        // What a statistics view says of the head: why it reads zero, and which devices count instead.
        NvmeMultipathHead head = test::snapshotOfCapture(capture).nvmeMultipath.first();
        const QString note = nvmeHeadStatisticsNote(head, u"6.12.48+deb13-amd64"_s);
        QVERIFY2(note.startsWith(u"nvme0n1 counts no I/O (its queue/iostats is 0"_s), qPrintable(note));
        QVERIFY2(note.contains(u"its paths nvme0c0n1 nvme0c1n1 do"_s), qPrintable(note));
        QVERIFY2(note.endsWith(u"queue/iostats=1 makes the kernel count the head too"_s), qPrintable(note));
        // Before 6.2 iostats=1 is accepted and counts nothing (tst_vm_nvme measures it on the lab's 6.1).
        const QString old = nvmeHeadStatisticsNote(head, u"6.1.0-41-amd64"_s);
        QVERIFY2(
            old.endsWith(u"this kernel has no statistics for a head (they came with Linux 6.2)"_s), qPrintable(old));
        QVERIFY(nvmeHeadStatisticsCanBeTurnedOn(u"6.2.0"_s));
        QVERIFY(!nvmeHeadStatisticsCanBeTurnedOn(u"6.1.158"_s));
        QVERIFY(!nvmeHeadStatisticsCanBeTurnedOn(QString())); // unknown: not promised
        head.iostats = u"1"_s; // counted from 6.2: nothing to say
        QVERIFY(nvmeHeadStatisticsNote(head, u"6.12.48+deb13-amd64"_s).isEmpty());
        // On 6.1 the head still counts nothing with iostats 1.
        const QString blind = nvmeHeadStatisticsNote(head, u"6.1.0-41-amd64"_s);
        QVERIFY2(blind.startsWith(u"nvme0n1 counts no I/O (this kernel has no statistics for a head, whatever its "
                                  "queue/iostats says; they came with Linux 6.2)"_s),
            qPrintable(blind));
        QVERIFY(nvmeHeadStatisticsNote(head, QString()).isEmpty()); // an unknown kernel: iostats is believed
    }

    void controllerAndAnaEdges_data()
    {
        QTest::addColumn<QString>("controllerState");
        QTest::addColumn<QString>("anaState");
        QTest::addColumn<bool>("usable");
        QTest::newRow("connecting") << u"connecting"_s << u"optimized"_s << false;
        QTest::newRow("deleting") << u"deleting"_s << u"optimized"_s << false;
        QTest::newRow("resetting") << u"resetting"_s << u"non-optimized"_s << false;
        QTest::newRow("persistent-loss") << u"live"_s << u"persistent-loss"_s << false;
        QTest::newRow("change") << u"live"_s << u"change"_s << false;
        QTest::newRow("non-optimized") << u"live"_s << u"non-optimized"_s << true;
    }
    void controllerAndAnaEdges()
    {
        QFETCH(QString, controllerState);
        QFETCH(QString, anaState);
        QFETCH(bool, usable);
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        QVERIFY(writeFile(capture + u"/sys/devices/virtual/nvme-fabrics/ctl/nvme1/state"_s, controllerState.toUtf8()));
        QVERIFY(writeFile(
            capture + u"/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme0c1n1/ana_state"_s, anaState.toUtf8()));
        const NvmeMultipathHead head = test::snapshotOfCapture(capture).nvmeMultipath.value(0);
        QCOMPARE(head.paths.size(), 2);
        QCOMPARE(head.paths.at(1).state, controllerState);
        QCOMPARE(head.paths.at(1).anaState, anaState);
        QCOMPARE(head.paths.at(1).usable(), usable);
        QCOMPARE(head.usablePaths(), usable ? 2 : 1);
        const QString text = nvmeHeadToText(head);
        QVERIFY2(text.contains(u" %1 %2 (nvme0c1n1)"_s.arg(controllerState, anaState)), qPrintable(text));
    }

    void onePathOnly()
    {
        // The namespace reached through one controller: the second path's device and controller are gone.
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        QVERIFY(QFile::remove(capture + u"/sys/block/nvme0c1n1"_s));
        QVERIFY(QFile::remove(capture + u"/sys/class/block/nvme0c1n1"_s));
        QVERIFY(QDir(capture + u"/sys/devices/virtual/nvme-fabrics/ctl/nvme1"_s).removeRecursively());
        QFile::remove(capture + u"/sys/class/nvme/nvme1"_s);
        QFile::remove(capture + u"/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme1"_s);
        const DeviceSnapshot s = test::snapshotOfCapture(capture);
        QCOMPARE(s.nvmeMultipath.size(), 1);
        const NvmeMultipathHead &head = s.nvmeMultipath.first();
        QCOMPARE(head.paths.size(), 1);
        QCOMPARE(head.subsystem.controllers, QStringList { u"nvme0"_s });
        QVERIFY2(nvmeHeadToText(head).contains(u"one path only: no failover for nvme0n1"_s),
            qPrintable(nvmeHeadToText(head)));
    }

    void kernel614Layout()
    {
        // 6.14 and later: the head links its paths under multipath/, and each path says its queue depth and the
        // NUMA nodes it serves. A path the links name is taken even when its name does not follow the pattern.
        QTemporaryDir dir;
        const QString capture = test::unpackNvmeCapture(dir, u"nvme-6.1-native-optimized"_s);
        QVERIFY(!capture.isEmpty());
        const QString head = capture + u"/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1"_s;
        QVERIFY(QDir().mkpath(head + u"/multipath"_s));
        QVERIFY(QFile::link(u"../../../../nvme-fabrics/ctl/nvme0/nvme0c0n1"_s, head + u"/multipath/nvme0c0n1"_s));
        QVERIFY(QFile::link(u"../../../../nvme-fabrics/ctl/nvme1/nvme0c1n1"_s, head + u"/multipath/nvme0c1n1"_s));
        const QString path1 = capture + u"/sys/devices/virtual/nvme-fabrics/ctl/nvme1/nvme0c1n1"_s;
        QVERIFY(writeFile(path1 + u"/queue_depth"_s, "7\n"));
        QVERIFY(writeFile(path1 + u"/numa_nodes"_s, "0-1\n"));
        QVERIFY(writeFile(capture + u"/sys/devices/virtual/nvme-subsystem/nvme-subsys0/iopolicy"_s, "queue-depth\n"));
        const DeviceSnapshot s = test::snapshotOfCapture(capture);
        const NvmeMultipathHead &h = s.nvmeMultipath.first();
        QCOMPARE(h.subsystem.iopolicy, u"queue-depth"_s);
        QCOMPARE(h.paths.size(), 2);
        QCOMPARE(h.paths.at(1).queueDepth, u"7"_s);
        QCOMPARE(h.paths.at(1).numaNodes, u"0-1"_s);
        const QJsonObject p = nvmeHeadToJson(h).value(u"paths"_s).toArray().at(1).toObject();
        QCOMPARE(p.value(u"queue_depth"_s).toInt(), 7);
        QCOMPARE(p.value(u"numa_nodes"_s).toString(), u"0-1"_s);
        QVERIFY2(
            nvmeHeadToText(h).contains(u"(nvme0c1n1 queue_depth=7 numa_nodes=0-1)"_s), qPrintable(nvmeHeadToText(h)));
    }
};

QTEST_GUILESS_MAIN(TestNvmeMultipath)
#include "tst_nvmemultipath.moc"
