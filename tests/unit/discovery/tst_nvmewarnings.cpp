// NVMe stacking warnings on the lab VM's captures (Debian's 6.1, one brd namespace exported by
// nvmet-tcp on two loopback ports; see tst_nvmemultipath): none with both ports optimized, no-optimized-path after
// port 1 became inaccessible and port 2 non-optimized, no-failover with multipath=N. Edge cases edit the snapshot
// (controller and ANA states, a path gone, a dm map over the head) or a copy of a capture (ctrl_loss_tmo).
#include "core/discovery/nvmewarnings.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/sysfscapture.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/nvmecaptures.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

// The snapshot and the warnings of one capture, unpacked once per test function.
struct Capture {
    QTemporaryDir dir;
    QString path;
    DeviceSnapshot snapshot;
    explicit Capture(const QString &name)
        : path(test::unpackNvmeCapture(dir, name))
        , snapshot(path.isEmpty() ? DeviceSnapshot() : test::snapshotOfCapture(path))
    {
    }
};

QStringList codes(const QList<NvmeWarning> &warnings)
{
    QStringList list;
    for (const NvmeWarning &w : warnings)
        list << w.code;
    return list;
}

// A dm-multipath map over `slaves`, as buildSnapshot makes it from sysfs (dm uuid mpath-...).
void addMap(DeviceSnapshot *s, const QString &name, const QStringList &slaves, DeviceKind kind = DeviceKind::Multipath)
{
    BlockDevice d;
    d.name = u"dm-0"_s;
    d.devnum = u"254:0"_s;
    d.kind = kind;
    d.dmName = name;
    d.dmUuid = kind == DeviceKind::Multipath ? u"mpath-x"_s : u"LVM-x"_s;
    d.slaves = slaves;
    s->devices << d;
    if (kind != DeviceKind::Multipath)
        return;
    MultipathMap m;
    m.name = name;
    m.device = d.name;
    m.uuid = d.dmUuid;
    m.slaves = slaves;
    s->maps << m;
}

const QHash<QString, QString> labTmo { { u"nvme0"_s, u"600"_s }, { u"nvme1"_s, u"600"_s } };

} // namespace

class TestNvmeWarnings : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void captures_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<QStringList>("codes");
        QTest::addColumn<QStringList>("devices");
        QTest::addColumn<QString>("message");
        QTest::newRow("both ports optimized")
            << u"nvme-6.1-native-optimized"_s << QStringList() << QStringList() << QString();
        QTest::newRow("port 1 inaccessible, port 2 non-optimized")
            << u"nvme-6.1-native-ana-changed"_s << QStringList { u"no-optimized-path"_s }
            << QStringList { u"nvme0n1"_s, u"nvme0c0n1"_s, u"nvme0c1n1"_s }
            << u"nvme0n1 has no ANA optimized path: its I/O goes through the non-optimized nvme0c1n1 (nvme1), 1 of "
               "its 2 path(s), slower than through an optimized one"_s;
        QTest::newRow("multipath=N, no dm map")
            << u"nvme-6.1-multipath-N"_s << QStringList { u"no-failover"_s }
            << QStringList { u"nvme0n1"_s, u"nvme1n1"_s }
            << u"nvme0n1 (controller nvme0) and nvme1n1 (controller nvme1) are one namespace (wwid "
               "uuid.8835ea57-3461-45c1-8641-e96a5d823f34) reached through 2 controllers, with nvme_core "
               "multipath=N and no dm-multipath map over them: nothing fails over, I/O to each stops when its "
               "controller is lost; let multipathd map them (multipath.conf must not blacklist nvme) or boot with "
               "nvme_core.multipath=Y"_s;
    }
    void captures()
    {
        QFETCH(QString, capture);
        QFETCH(QStringList, codes);
        QFETCH(QStringList, devices);
        QFETCH(QString, message);
        const Capture c(capture);
        QVERIFY(!c.path.isEmpty());
        // What dmtunectl does: nvme_core's multipath and ctrl_loss_tmo from the capture itself.
        const QList<NvmeWarning> warnings = nvmeWarnings(sysfsRootForDirectory(c.path), c.snapshot);
        QCOMPARE(::codes(warnings), codes);
        if (warnings.isEmpty())
            return;
        QCOMPARE(warnings.first().devices, devices);
        QCOMPARE(warnings.first().message, message);
        const QJsonArray json = nvmeWarningsToJson(warnings);
        QCOMPARE(json.size(), 1);
        const QJsonObject o = json.first().toObject();
        QCOMPARE(o.value(u"code"_s).toString(), codes.first());
        QCOMPARE(o.value(u"devices"_s).toArray(), QJsonArray::fromStringList(devices));
        QCOMPARE(o.value(u"message"_s).toString(), message);
    }

    void headStates_data()
    {
        // Controller and ANA state of the lab head's two paths (nvme0c0n1 via nvme0, nvme0c1n1 via nvme1).
        QTest::addColumn<QString>("state0");
        QTest::addColumn<QString>("ana0");
        QTest::addColumn<QString>("state1");
        QTest::addColumn<QString>("ana1");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("both optimized") << u"live"_s << u"optimized"_s << u"live"_s << u"optimized"_s << QString()
                                        << QString();
        QTest::newRow("optimized and non-optimized")
            << u"live"_s << u"optimized"_s << u"live"_s << u"non-optimized"_s << QString() << QString();
        QTest::newRow("both inaccessible")
            << u"live"_s << u"inaccessible"_s << u"live"_s << u"inaccessible"_s << u"no-usable-path"_s
            << u"nvme0n1 has none of its 2 path(s) usable (nvme0c0n1: nvme0 live, inaccessible; nvme0c1n1: nvme1 "
               "live, inaccessible): I/O to it queues until an ANA state allows I/O again, without a time limit "
               "while a controller is live"_s;
        QTest::newRow("both reconnecting")
            << u"connecting"_s << u"optimized"_s << u"resetting"_s << u"optimized"_s << u"no-usable-path"_s
            << u"nvme0n1 has none of its 2 path(s) usable (nvme0c0n1: nvme0 connecting, optimized; nvme0c1n1: nvme1 "
               "resetting, optimized): I/O to it queues until a controller reconnects, and fails when its "
               "ctrl_loss_tmo ends (nvme0 600 s, nvme1 600 s)"_s;
        QTest::newRow("both deleting")
            << u"deleting"_s << u"optimized"_s << u"dead"_s << u"optimized"_s << u"no-usable-path"_s
            << u"nvme0n1 has none of its 2 path(s) usable (nvme0c0n1: nvme0 deleting, optimized; nvme0c1n1: nvme1 "
               "dead, optimized): I/O to it fails (no controller is live or reconnecting)"_s;
        QTest::newRow("persistent-loss and change")
            << u"live"_s << u"persistent-loss"_s << u"live"_s << u"change"_s << u"no-usable-path"_s
            << u"nvme0n1 has none of its 2 path(s) usable (nvme0c0n1: nvme0 live, persistent-loss; nvme0c1n1: nvme1 "
               "live, change): I/O to it queues until an ANA state allows I/O again, without a time limit while a "
               "controller is live"_s;
        QTest::newRow("both non-optimized")
            << u"live"_s << u"non-optimized"_s << u"live"_s << u"non-optimized"_s << u"no-optimized-path"_s
            << u"nvme0n1 has no ANA optimized path: its I/O goes through the non-optimized nvme0c0n1 (nvme0) and "
               "nvme0c1n1 (nvme1), 2 of its 2 path(s), slower than through an optimized one"_s;
        // More severe than its single usable path.
        QTest::newRow("inaccessible and non-optimized")
            << u"live"_s << u"inaccessible"_s << u"live"_s << u"non-optimized"_s << u"no-optimized-path"_s
            << u"nvme0n1 has no ANA optimized path: its I/O goes through the non-optimized nvme0c1n1 (nvme1), 1 of "
               "its 2 path(s), slower than through an optimized one"_s;
        QTest::newRow("the only optimized left")
            << u"live"_s << u"inaccessible"_s << u"live"_s << u"optimized"_s << u"single-path"_s
            << u"nvme0n1 has one usable path left of 2, nvme0c1n1 via nvme1 (nvme0c0n1: nvme0 live, inaccessible): "
               "no redundancy; I/O to nvme0n1 stops when nvme1 is lost"_s;
        QTest::newRow("a controller reconnecting")
            << u"connecting"_s << u"optimized"_s << u"live"_s << u"optimized"_s << u"single-path"_s
            << u"nvme0n1 has one usable path left of 2, nvme0c1n1 via nvme1 (nvme0c0n1: nvme0 connecting, "
               "optimized): no redundancy; I/O to nvme0n1 stops when nvme1 is lost"_s;
        // A controller without ANA: the kernel takes its path as optimized.
        QTest::newRow("no ANA") << u"live"_s << QString() << u"live"_s << QString() << QString() << QString();
    }
    void headStates()
    {
        QFETCH(QString, state0);
        QFETCH(QString, ana0);
        QFETCH(QString, state1);
        QFETCH(QString, ana1);
        QFETCH(QString, code);
        QFETCH(QString, message);
        Capture c(u"nvme-6.1-native-optimized"_s);
        QVERIFY(!c.path.isEmpty());
        NvmeMultipathHead &head = c.snapshot.nvmeMultipath.first();
        QCOMPARE(head.paths.size(), 2);
        head.paths[0].state = state0;
        head.paths[0].anaState = ana0;
        head.paths[1].state = state1;
        head.paths[1].anaState = ana1;
        const QList<NvmeWarning> warnings = nvmeWarnings(c.snapshot, u"Y"_s, labTmo);
        QCOMPARE(::codes(warnings), code.isEmpty() ? QStringList() : QStringList { code });
        if (code.isEmpty())
            return;
        QCOMPARE(warnings.first().message, message);
        QCOMPARE(warnings.first().devices, (QStringList { u"nvme0n1"_s, u"nvme0c0n1"_s, u"nvme0c1n1"_s }));
        QVERIFY(!message.contains(u'\n'));
    }

    void onePath_data()
    {
        QTest::addColumn<QString>("ctrlLossTmo");
        QTest::addColumn<bool>("otherControllerGone");
        QTest::addColumn<QString>("message");
        QTest::newRow("600 s, the other controller still in the subsystem")
            << u"600"_s << false
            << u"nvme0n1 is reached through one controller only, nvme0 (path nvme0c0n1): no redundancy; when nvme0 is "
               "lost, I/O to nvme0n1 waits for nvme0 to reconnect for up to 600 s (ctrl_loss_tmo), then fails; "
               "nvme-subsys0's other controller(s) nvme1 have no path to it"_s;
        QTest::newRow("off") << u"off"_s << true
                             << u"nvme0n1 is reached through one controller only, nvme0 (path nvme0c0n1): no "
                                "redundancy; when nvme0 is lost, I/O to nvme0n1 waits for nvme0 to reconnect without "
                                "end (ctrl_loss_tmo off)"_s;
        QTest::newRow("not a fabrics controller")
            << QString() << true
            << u"nvme0n1 is reached through one controller only, nvme0 (path nvme0c0n1): no redundancy; when nvme0 is "
               "lost, I/O to nvme0n1 fails"_s;
    }
    void onePath()
    {
        QFETCH(QString, ctrlLossTmo);
        QFETCH(bool, otherControllerGone);
        QFETCH(QString, message);
        Capture c(u"nvme-6.1-native-optimized"_s);
        QVERIFY(!c.path.isEmpty());
        NvmeMultipathHead &head = c.snapshot.nvmeMultipath.first();
        head.paths.removeLast();
        if (otherControllerGone)
            head.subsystem.controllers.removeAll(u"nvme1"_s);
        const QList<NvmeWarning> warnings = nvmeWarnings(c.snapshot, u"Y"_s, { { u"nvme0"_s, ctrlLossTmo } });
        QCOMPARE(::codes(warnings), QStringList { u"single-path"_s });
        QCOMPARE(warnings.first().devices, (QStringList { u"nvme0n1"_s, u"nvme0c0n1"_s }));
        QCOMPARE(warnings.first().message, message);
    }

    void ctrlLossTmoFromTheCapture()
    {
        // The SysfsRoot form reads each path's controller's ctrl_loss_tmo where the snapshot came from.
        Capture c(u"nvme-6.1-native-optimized"_s);
        QVERIFY(!c.path.isEmpty());
        QFile tmo(c.path + u"/sys/devices/virtual/nvme-fabrics/ctl/nvme0/ctrl_loss_tmo"_s);
        QVERIFY(tmo.open(QIODevice::WriteOnly | QIODevice::Truncate) && tmo.write("off\n") == 4);
        tmo.close();
        c.snapshot.nvmeMultipath.first().paths.removeLast();
        const QList<NvmeWarning> warnings = nvmeWarnings(sysfsRootForDirectory(c.path), c.snapshot);
        QCOMPARE(::codes(warnings), QStringList { u"single-path"_s });
        QVERIFY2(warnings.first().message.contains(u"waits for nvme0 to reconnect without end (ctrl_loss_tmo off)"_s),
            qPrintable(warnings.first().message));
    }

    void headWithoutPaths()
    {
        Capture c(u"nvme-6.1-native-optimized"_s);
        QVERIFY(!c.path.isEmpty());
        c.snapshot.nvmeMultipath.first().paths.clear();
        const QList<NvmeWarning> warnings = nvmeWarnings(c.snapshot, u"Y"_s);
        QCOMPARE(::codes(warnings), QStringList { u"no-usable-path"_s });
        QCOMPARE(warnings.first().message, u"nvme0n1 has no path: no controller reaches it, I/O to it fails"_s);
    }

    void dmOverNative_data()
    {
        QTest::addColumn<QStringList>("slaves");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("multipath");
        QTest::addColumn<QString>("message");
        QTest::newRow("over the head")
            << QStringList { u"nvme0n1"_s } << int(DeviceKind::Multipath) << u"Y"_s
            << u"dm-multipath map mpathn (dm-0) is stacked on native NVMe multipath, the head nvme0n1, while "
               "nvme_core multipath=Y: both layers do failover and path selection on the same 2 path(s) (nvme0c0n1, "
               "nvme0c1n1); blacklist the NVMe devices in multipath.conf (blacklist { devnode \"^nvme\" }) and "
               "remove the map, or boot with nvme_core.multipath=N and let dm-multipath own them"_s;
        // No dm table can name a hidden path (the kernel gives it no device number); a tree that says otherwise
        // is still flagged.
        QTest::newRow("over the hidden paths")
            << QStringList { u"nvme0c0n1"_s, u"nvme0c1n1"_s } << int(DeviceKind::Multipath) << QString()
            << u"dm-multipath map mpathn (dm-0) is stacked on native NVMe multipath, nvme0c0n1 (a path of the head "
               "nvme0n1) and nvme0c1n1 (a path of the head nvme0n1), while native NVMe multipath is on: both layers "
               "do failover and path selection on the same 2 path(s) (nvme0c0n1, nvme0c1n1); blacklist the NVMe "
               "devices in multipath.conf (blacklist { devnode \"^nvme\" }) and remove the map, or boot with "
               "nvme_core.multipath=N and let dm-multipath own them"_s;
        // LVM (or dm-crypt) over a head is the stack native multipath is made for: neither selects paths.
        QTest::newRow("LVM over the head")
            << QStringList { u"nvme0n1"_s } << int(DeviceKind::DmLvm) << u"Y"_s << QString();
    }
    void dmOverNative()
    {
        QFETCH(QStringList, slaves);
        QFETCH(int, kind);
        QFETCH(QString, multipath);
        QFETCH(QString, message);
        Capture c(u"nvme-6.1-native-optimized"_s);
        QVERIFY(!c.path.isEmpty());
        addMap(&c.snapshot, u"mpathn"_s, slaves, DeviceKind(kind));
        const QList<NvmeWarning> warnings = nvmeWarnings(c.snapshot, multipath, labTmo);
        if (message.isEmpty()) {
            QVERIFY(warnings.isEmpty());
            return;
        }
        QCOMPARE(::codes(warnings), QStringList { u"dm-over-native"_s });
        QCOMPARE(warnings.first().devices, QStringList { u"mpathn"_s } + slaves);
        QCOMPARE(warnings.first().message, message);
        // It is the head's: map show and the Path groups tab of nvme0n1 show it.
        QCOMPARE(codes(nvmeWarningsOfHead(warnings, c.snapshot.nvmeMultipath.first())), codes(warnings));
    }

    void dmOverNativeBesideAHeadWarning()
    {
        // A map over a head that has lost a path: both, the map's first.
        Capture c(u"nvme-6.1-native-optimized"_s);
        QVERIFY(!c.path.isEmpty());
        addMap(&c.snapshot, u"mpathn"_s, { u"nvme0n1"_s });
        c.snapshot.nvmeMultipath.first().paths[1].anaState = u"inaccessible"_s;
        const QList<NvmeWarning> warnings = nvmeWarnings(c.snapshot, u"Y"_s, labTmo);
        QCOMPARE(codes(warnings), (QStringList { u"dm-over-native"_s, u"single-path"_s }));
        NvmeMultipathHead other = c.snapshot.nvmeMultipath.first();
        other.name = u"nvme1n1"_s;
        other.paths.clear();
        QVERIFY(nvmeWarningsOfHead(warnings, other).isEmpty());
    }

    void noFailover_data()
    {
        QTest::addColumn<QString>("multipath");
        QTest::addColumn<bool>("dmMap");
        QTest::addColumn<bool>("wwid");
        QTest::addColumn<QString>("fragment"); // empty: no warning
        QTest::newRow("N") << u"N"_s << false << true << u"with nvme_core multipath=N and no dm-multipath map"_s;
        // A kernel built without native multipath has no multipath parameter.
        QTest::newRow("no parameter") << QString() << false << true
                                      << u"with no native NVMe multipath and no dm-multipath map"_s;
        QTest::newRow("a dm map over them") << u"N"_s << true << true << QString();
        QTest::newRow("native on") << u"Y"_s << false << true << QString();
        QTest::newRow("no wwid: subsystem NQN and nsid")
            << u"N"_s << false << false << u"are one namespace (nsid 1 of nqn.2026-12.org.dmtune.lab:nvme-mpath)"_s;
    }
    void noFailover()
    {
        QFETCH(QString, multipath);
        QFETCH(bool, dmMap);
        QFETCH(bool, wwid);
        QFETCH(QString, fragment);
        Capture c(u"nvme-6.1-multipath-N"_s);
        QVERIFY(!c.path.isEmpty());
        if (dmMap)
            addMap(&c.snapshot, u"mpathv"_s, { u"nvme0n1"_s, u"nvme1n1"_s });
        for (BlockDevice &d : c.snapshot.devices) {
            if (!wwid)
                d.wwid.clear();
        }
        const QList<NvmeWarning> warnings = nvmeWarnings(c.snapshot, multipath);
        if (fragment.isEmpty()) {
            QVERIFY(warnings.isEmpty());
            return;
        }
        QCOMPARE(codes(warnings), QStringList { u"no-failover"_s });
        QCOMPARE(warnings.first().devices, (QStringList { u"nvme0n1"_s, u"nvme1n1"_s }));
        QVERIFY2(warnings.first().message.contains(fragment), qPrintable(warnings.first().message));
    }

    void noFailoverNeedsTwoControllers()
    {
        // One namespace through one controller is not a missing failover (single-controller drives are that).
        Capture c(u"nvme-6.1-multipath-N"_s);
        QVERIFY(!c.path.isEmpty());
        c.snapshot.devices.removeIf([](const BlockDevice &d) { return d.name == u"nvme1n1"_s; });
        QVERIFY(nvmeWarnings(c.snapshot, u"N"_s).isEmpty());
        // Without a WWID and without subsystem NQN and nsid nothing says two devices are one namespace.
        Capture d(u"nvme-6.1-multipath-N"_s);
        for (BlockDevice &dev : d.snapshot.devices) {
            dev.wwid.clear();
            dev.nvme.subsysNqn.clear();
        }
        QVERIFY(nvmeWarnings(d.snapshot, u"N"_s).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNvmeWarnings)
#include "tst_nvmewarnings.moc"
