// dmtunectl capture's core: a system copied into a directory reads back as the same snapshot, path groups
// included (from the recorded device-mapper tables), with /proc next to it for the sampler.
#include "fakesysfs.h"

#include "discovery/discovery.h"
#include "discovery/snapshotbuilder.h"
#include "discovery/snapshotjson.h"
#include "discovery/sysfscapture.h"
#include "dm/captureddevicemapper.h"
#include "dm/fakedevicemapper.h"
#include "stats/counterreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

// A 2x2 map as the lab's scsi_debug paths give it (tests/unit/dm/fixtures/multipath-fresh-maps.txt, line 9).
const QString tableText = QStringLiteral("0 131072 multipath 3 queue_if_no_path pg_init_retries 50 1 alua 2 1 "
                                         "service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1");
const QString statusText = QStringLiteral("0 131072 multipath 2 1 0 0 2 1 E 0 2 2 8:0 A 0 0 1 8:16 A 0 0 1 E 0 2 2 "
                                          "8:32 F 1 0 1 8:48 A 0 0 1");

void writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestSysfsCapture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void captureReadsBackTheSameSystem();
    void refusesANonEmptyDirectory();
    void badCaptureFileNamesTheField();
};

void TestSysfsCapture::captureReadsBackTheSameSystem()
{
    FakeSysfs t;
    const QString wwid = QStringLiteral("naa.333333330000007d0");
    const QStringList paths { QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd") };
    for (int i = 0; i < 4; ++i)
        t.scsiDisk(paths[i], QStringLiteral("8:%1").arg(i * 16), QStringLiteral("%1:0:0:0").arg(i + 2),
            QStringLiteral("Linux"), QStringLiteral("scsi_debug"), wwid);
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("254:0"), QStringLiteral("mpatha"),
        QStringLiteral("mpath-333333330000007d0"), paths, 131072);
    t.file(QStringLiteral("module/dm_mod/parameters/use_blk_mq"), QStringLiteral("Y\n"));
    // A write-only attribute (as device/rescan is): skipped, never read.
    t.file(QStringLiteral("block/sda/device/rescan"), QString());
    QVERIFY(::chmod(QFile::encodeName(t.root() + QStringLiteral("/block/sda/device/rescan")).constData(), 0200) == 0);
    QTemporaryDir proc;
    writeText(proc.path() + QStringLiteral("/diskstats"),
        "   8       0 sda 10 0 80 5 20 3 160 9 0 12 14 0 0 0 0 0 0\n"
        "   8      16 sdb 11 0 88 5 21 3 168 9 0 12 14 0 0 0 0 0 0\n"
        "   8      32 sdc 12 0 96 5 22 3 176 9 0 12 14 0 0 0 0 0 0\n"
        "   8      48 sdd 13 0 104 5 23 3 184 9 0 12 14 0 0 0 0 0 0\n"
        " 254       0 dm-0 46 0 368 20 86 0 688 36 0 48 56 0 0 0 0 0 0\n");
    writeText(proc.path() + QStringLiteral("/sys/kernel/osrelease"), "6.1.0-28-amd64\n");
    const SysfsRoot source(t.root(), proc.path());

    FakeDeviceMapper dm;
    QVERIFY(dm.addMap(QStringLiteral("mpatha"), tableText, statusText, QStringLiteral("mpath-333333330000007d0")));
    DeviceMapperState state;
    state.available = true;
    state.driverVersion = QStringLiteral("4.47.0");
    const DeviceSnapshot expected = buildSnapshot(source, enumerateBlockDirectory(source), &dm, state);
    QCOMPARE(expected.maps.size(), 1);
    QVERIFY(expected.maps.first().groupsKnown);

    QTemporaryDir out;
    const QString dir = out.path() + QStringLiteral("/capture");
    const auto report = captureSystem(source, dir, &dm, state);
    QVERIFY2(report, qPrintable(report.errorMessage()));
    QCOMPARE(report.value().maps, 1);
    QVERIFY(report.value().files > 40);
    QVERIFY(std::any_of(report.value().skipped.begin(), report.value().skipped.end(),
        [](const QString &s) { return s.endsWith(QLatin1String("/rescan: write-only")); }));
    QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/sys/block/sda/device/rescan")));

    // The capture's top directory and its sys/ both open it, with its /proc.
    for (const QString &given : { dir, dir + QStringLiteral("/sys") }) {
        const SysfsRoot captured = sysfsRootForDirectory(given);
        QVERIFY(!captured.isLive());
        QCOMPARE(captured.procRoot(), dir + QStringLiteral("/proc"));
        QCOMPARE(captureDescription(captured).value(QStringLiteral("kernel")).toString(), QStringLiteral("6.1.0-28-amd64"));
        const DeviceSnapshot snapshot = Discovery::scan(captured);
        const QJsonObject a = snapshotToJson(expected);
        const QJsonObject b = snapshotToJson(snapshot);
        QCOMPARE(b[QStringLiteral("devices")], a[QStringLiteral("devices")]);
        QCOMPARE(b[QStringLiteral("maps")], a[QStringLiteral("maps")]);
        QVERIFY(snapshot.deviceMapper.available);
        QVERIFY(snapshot.deviceMapper.reason.startsWith(QLatin1String("captured on ")));
        QCOMPARE(snapshot.maps.first().groups.size(), 2);
        QCOMPARE(snapshot.maps.first().groups[1].paths[0].name, QStringLiteral("sdc"));
        QCOMPARE(snapshot.maps.first().groups[1].paths[0].state, QStringLiteral("F"));
        QCOMPARE(snapshot.kernelRelease, QStringLiteral("6.1.0-28-amd64"));
        // The sampler reads the captured diskstats.
        CounterReader reader(captured);
        const auto read = reader.read({}, false);
        QVERIFY2(read, qPrintable(read.errorMessage()));
        QCOMPARE(read.value().devices.size(), 5);
    }
    // Read-only: the captured device-mapper refuses messages.
    const auto maps = CapturedDeviceMapper::parseMaps(
        captureDescription(sysfsRootForDirectory(dir)).value(QStringLiteral("device_mapper")).toObject());
    QVERIFY(maps);
    CapturedDeviceMapper captured(maps.value());
    QVERIFY(!captured.message(QStringLiteral("mpatha"), QStringLiteral("fail_path 8:0")));
    QCOMPARE(captured.table(QStringLiteral("mpatha")).value().first().params, dm.table(QStringLiteral("mpatha")).value().first().params);
}

void TestSysfsCapture::refusesANonEmptyDirectory()
{
    FakeSysfs t;
    QTemporaryDir out;
    writeText(out.path() + QStringLiteral("/something"), "x");
    const auto report = captureSystem(SysfsRoot(t.root(), QString()), out.path(), nullptr, DeviceMapperState());
    QVERIFY(!report);
    QVERIFY(report.errorMessage().contains(QLatin1String("not empty")));
}

void TestSysfsCapture::badCaptureFileNamesTheField()
{
    const QJsonObject dm = QJsonDocument::fromJson(R"({"available": true, "maps": [
        {"name": "mpatha", "table": ["0 8 multipath 0 0 0 0"], "status": ["0 8 multipath 2 0 0 0 0 0"]},
        {"name": "mpathb", "table": ["zero 8 multipath"], "status": []}]})").object();
    const auto maps = CapturedDeviceMapper::parseMaps(dm);
    QVERIFY(!maps);
    QVERIFY2(maps.errorMessage().startsWith(QLatin1String("device_mapper.maps[1].table[0]: ")), qPrintable(maps.errorMessage()));
}

QTEST_GUILESS_MAIN(TestSysfsCapture)
#include "tst_sysfscapture.moc"
