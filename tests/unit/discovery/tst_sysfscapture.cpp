// dmtunectl capture's core: a system copied into a directory reads back as the same snapshot, path groups
// included (from the recorded device-mapper tables), with /proc next to it for the sampler.
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include "core/discovery/discovery.h"
#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/snapshotjson.h"
#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/captureddevicemapper.h"
#include "core/dm/backend/libdevmapperbackend.h"
#include "core/dm/multipathchange.h"
#include "core/dm/multipathd/multipathdclient.h"
#include "core/stats/counterreader.h"
#include "core/util/fd.h"
#include "tests/common/fakedevicemapper.h"
#include "tests/common/multipathfixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <future>
#include <sys/stat.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

// tests/common's fixture map with the table and status of a 2x2 map as the lab's scsi_debug paths give it
// (tests/unit/dm/fixtures/multipath-fresh-maps.txt, line 9): features, a hardware handler, service-time's
// per-path arguments and a failed path, all to read back from the capture.
const QString labTableParams = QStringLiteral("3 queue_if_no_path pg_init_retries 50 1 alua 2 1 service-time 0 2 2 "
                                              "8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1");
const QString labStatusParams = QStringLiteral("2 1 0 0 2 1 E 0 2 2 8:0 A 0 0 1 8:16 A 0 0 1 E 0 2 2 8:32 F 1 0 1 "
                                               "8:48 A 0 0 1");

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
    void refusesAnExistingDirectory();
    void captureDirectoryIsPrivate();
    void newFilesNeverFollowLinks();
    void capturedMapsAreNeverChanged();
    void samplerDoesNotBlockOnAFifo();
    void samplerStaysInsideTheTree();
    void badCaptureFileNamesTheField();
    void multipathdIsReadBackAsRecorded_data();
    void multipathdIsReadBackAsRecorded();
};

void TestSysfsCapture::captureReadsBackTheSameSystem()
{
    FakeSysfs t;
    test::buildMultipathFixture(t);
    // A write-only attribute (as device/rescan is): skipped, never read.
    t.file(QStringLiteral("block/sda/device/rescan"), QString());
    QVERIFY(::chmod(QFile::encodeName(t.root() + QStringLiteral("/block/sda/device/rescan")).constData(), 0200) == 0);
    QTemporaryDir proc;
    writeText(proc.path() + QStringLiteral("/diskstats"),
        "   8       0 sda 10 0 80 5 20 3 160 9 0 12 14 0 0 0 0 0 0\n"
        "   8      16 sdb 11 0 88 5 21 3 168 9 0 12 14 0 0 0 0 0 0\n"
        "   8      32 sdc 12 0 96 5 22 3 176 9 0 12 14 0 0 0 0 0 0\n"
        "   8      48 sdd 13 0 104 5 23 3 184 9 0 12 14 0 0 0 0 0 0\n"
        " 253       0 dm-0 46 0 368 20 86 0 688 36 0 48 56 0 0 0 0 0 0\n");
    writeText(proc.path() + QStringLiteral("/sys/kernel/osrelease"), "6.1.0-28-amd64\n");
    const SysfsRoot source(t.root(), proc.path());

    FakeDeviceMapper dm;
    QVERIFY(test::addFixtureMapWithTable(dm, labTableParams, labStatusParams));
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
        QCOMPARE(
            captureDescription(captured).value(QStringLiteral("kernel")).toString(), QStringLiteral("6.1.0-28-amd64"));
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
    QCOMPARE(captured.table(QStringLiteral("mpatha")).value().first().params,
        dm.table(QStringLiteral("mpatha")).value().first().params);
}

void TestSysfsCapture::refusesANonEmptyDirectory()
{
    FakeSysfs t;
    QTemporaryDir out;
    writeText(out.path() + QStringLiteral("/something"), "x");
    const auto report = captureSystem(SysfsRoot(t.root(), QString()), out.path(), nullptr, DeviceMapperState());
    QVERIFY(!report);
    QVERIFY2(report.errorMessage().contains(QLatin1String("exists")), qPrintable(report.errorMessage()));
    QCOMPARE(QDir(out.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
        QStringList { QStringLiteral("something") });
}

// Even empty: a directory made by someone else may be theirs to plant links in.
void TestSysfsCapture::refusesAnExistingDirectory()
{
    FakeSysfs t;
    t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2048);
    QTemporaryDir out;
    const auto report = captureSystem(SysfsRoot(t.root(), QString()), out.path(), nullptr, DeviceMapperState());
    QVERIFY(!report);
    QCOMPARE(report.errorMessage(), out.path() + QStringLiteral(": exists; capture creates a new directory"));
    QVERIFY(QDir(out.path()).isEmpty());
}

void TestSysfsCapture::captureDirectoryIsPrivate()
{
    FakeSysfs t;
    t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2048);
    QTemporaryDir out;
    const QString dir = out.path() + QStringLiteral("/capture");
    const mode_t oldMask = ::umask(0);
    const auto report = captureSystem(SysfsRoot(t.root(), QString()), dir, nullptr, DeviceMapperState());
    ::umask(oldMask);
    QVERIFY2(report, qPrintable(report.errorMessage()));
    struct stat st { };
    QCOMPARE(::stat(QFile::encodeName(dir).constData(), &st), 0);
    QCOMPARE(st.st_mode & 07777, mode_t(0700));
    QVERIFY(report.value().files > 0);
    QVERIFY(QFileInfo::exists(dir + QStringLiteral("/sys/block/loop0")));
}

void TestSysfsCapture::newFilesNeverFollowLinks()
{
    QTemporaryDir out;
    QTemporaryDir outside;
    const QString victim = outside.path() + QStringLiteral("/victim");
    writeText(victim, "precious\n");
    // Planted: a link where a file goes, and a link where a directory goes.
    QVERIFY(QFile::link(victim, out.path() + QStringLiteral("/dmtune-capture.json")));
    QVERIFY(QFile::link(outside.path(), out.path() + QStringLiteral("/proc")));
    const Fd dir(::open(QFile::encodeName(out.path()).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    QVERIFY(dir.get() >= 0);
    Status s = createNewFile(dir.get(), QStringLiteral("dmtune-capture.json"), "{}", 0644);
    QVERIFY(!s);
    s = createNewFile(dir.get(), QStringLiteral("proc/diskstats"), "x", 0644);
    QVERIFY(!s);
    s = createNewFile(dir.get(), QStringLiteral("proc/../victim2"), "x", 0644);
    QVERIFY(!s);
    QFile f(victim);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("precious\n"));
    QCOMPARE(QDir(outside.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
        QStringList { QStringLiteral("victim") });
    // An existing plain file is not replaced either; a new one is made.
    writeText(out.path() + QStringLiteral("/existing"), "old");
    QVERIFY(!createNewFile(dir.get(), QStringLiteral("existing"), "new", 0644));
    QVERIFY(createNewFile(dir.get(), QStringLiteral("fresh"), "new", 0644));
}

// A captured system's maps are looked at, never changed: not through its recorded device-mapper, not
// through this host's multipathd or device-mapper (which have maps of the same names).
void TestSysfsCapture::capturedMapsAreNeverChanged()
{
    FakeSysfs t;
    test::buildMultipathFixture(t);
    FakeDeviceMapper source;
    QVERIFY(test::addFixtureMapWithTable(source, labTableParams, labStatusParams));
    DeviceMapperState state;
    state.available = true;
    QTemporaryDir out;
    const QString dir = out.path() + QStringLiteral("/capture");
    QVERIFY(captureSystem(SysfsRoot(t.root(), QString()), dir, &source, state));
    const SysfsRoot captured = sysfsRootForDirectory(dir);
    QVERIFY(!captured.isWritable());

    const auto dm = deviceMapperFor(captured);
    QVERIFY2(dm, qPrintable(dm.errorMessage()));
    QVERIFY(!dm.value()->readOnlyReason().isEmpty());
    QCOMPARE(dm.value()->table(QStringLiteral("mpatha")).value().first().params,
        source.table(QStringLiteral("mpatha")).value().first().params);
    QStringList sentToMultipathd;
    const MultipathdCommand multipathd = [&](const QString &command) -> Result<QString> {
        sentToMultipathd << command;
        return command == multipathdMapNamesCommand() ? QStringLiteral("mpatha\n") : QStringLiteral("ok\n");
    };
    const auto prepared = prepareMultipathOperation(
        *dm.value(), captured, QStringLiteral("mpatha"), { MultipathMessageKind::FailPath, QStringLiteral("sdb"), 0 });
    QVERIFY2(prepared, qPrintable(prepared.errorMessage()));
    const MultipathOperationResult r = executeMultipathOperation(*dm.value(), prepared.value(), multipathd);
    QVERIFY(!r.status.ok());
    QVERIFY2(r.status.errorMessage().contains(QLatin1String("read-only")), qPrintable(r.status.errorMessage()));
    QCOMPARE(sentToMultipathd, QStringList());
    const auto reload = prepareMultipathReload(*dm.value(), QStringLiteral("mpatha"), prepared->before.table);
    QVERIFY2(reload, qPrintable(reload.errorMessage()));
    QVERIFY(!executeMultipathReload(*dm.value(), reload.value(), false).status.ok());

    // This host's device-mapper, reached with a tree that is not this host's /sys, refuses before any ioctl
    // (the tree has dm_mod loaded; on a host without /dev/mapper/control that reason comes first).
    LibDevmapperBackend host(captured);
    QVERIFY2(
        host.readOnlyReason().contains(QLatin1String("not this system's /sys")), qPrintable(host.readOnlyReason()));
    QVERIFY(!host.message(QStringLiteral("mpatha"), QStringLiteral("fail_path 8:16")));
    QVERIFY(!host.reload(QStringLiteral("mpatha"), source.table(QStringLiteral("mpatha")).value()));
}

// The sampler's own fast reads (by path, kept open) take O_NONBLOCK too: a FIFO for proc/diskstats or a
// device's stat fails the read instead of hanging the tick.
void TestSysfsCapture::samplerDoesNotBlockOnAFifo()
{
    FakeSysfs t;
    t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2048);
    QTemporaryDir proc;
    QCOMPARE(::mkfifo(QFile::encodeName(proc.path() + QStringLiteral("/diskstats")).constData(), 0644), 0);
    const QString stat = t.root() + QLatin1Char('/') + QStringLiteral("devices/virtual/block/loop0/stat");
    QFile::remove(stat);
    QCOMPARE(::mkfifo(QFile::encodeName(stat).constData(), 0644), 0);
    const SysfsRoot captured(t.root(), proc.path());
    auto reading = std::async(std::launch::async, [&] {
        CounterReader reader(captured);
        return reader.read({}, false).ok();
    });
    if (reading.wait_for(std::chrono::seconds(3)) != std::future_status::ready) {
        // Unblock it (a writer that closes at once gives the reader EOF), FIFO after FIFO, then fail.
        while (reading.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
            for (const QString &fifo : { proc.path() + QStringLiteral("/diskstats"), stat }) {
                const int w = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
                if (w >= 0)
                    ::close(w);
            }
        }
        QFAIL("the sampler blocked on a FIFO in the tree");
    }
    reading.get();
}

// The sampler opens by path: a captured tree's links are resolved inside it first.
void TestSysfsCapture::samplerStaysInsideTheTree()
{
    QTemporaryDir outside;
    writeText(outside.path() + QStringLiteral("/diskstats"), "   7       0 loop0 99 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    writeText(outside.path() + QStringLiteral("/stat"), "99 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
    FakeSysfs t;
    t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2048);
    const QString stat = t.root() + QStringLiteral("/devices/virtual/block/loop0/stat");
    QFile::remove(stat);
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/stat"), stat));
    QTemporaryDir proc;
    QVERIFY(QFile::link(outside.path() + QStringLiteral("/diskstats"), proc.path() + QStringLiteral("/diskstats")));
    const SysfsRoot captured(t.root(), proc.path());
    QCOMPARE(captured.resolvedProcPath(QStringLiteral("diskstats")), QString());
    QCOMPARE(captured.resolvedPath(QStringLiteral("block/loop0/stat")), QString());
    QCOMPARE(captured.resolvedPath(QStringLiteral("block/loop0/size")),
        t.root() + QStringLiteral("/devices/virtual/block/loop0/size"));
    CounterReader reader(captured);
    const auto read = reader.read({}, false);
    // Nothing from outside: no counters at all (the diskstats and stat files are not there).
    QVERIFY(!read || read.value().devices.isEmpty() || read.value().devices.first()[DiskField::ReadIos] != 99);
    QVERIFY(SysfsRoot().resolvedPath(QStringLiteral("block")) == QStringLiteral("/sys/block"));
}

void TestSysfsCapture::badCaptureFileNamesTheField()
{
    const QJsonObject dm = QJsonDocument::fromJson(R"({"available": true, "maps": [
        {"name": "mpatha", "table": ["0 8 multipath 0 0 0 0"], "status": ["0 8 multipath 2 0 0 0 0 0"]},
        {"name": "mpathb", "table": ["zero 8 multipath"], "status": []}]})")
                               .object();
    const auto maps = CapturedDeviceMapper::parseMaps(dm);
    QVERIFY(!maps);
    QVERIFY2(maps.errorMessage().startsWith(QLatin1String("device_mapper.maps[1].table[0]: ")),
        qPrintable(maps.errorMessage()));
}

// A remote window shows the host's priorities and checker states from the capture it fetched: what capture recorded
// of multipathd reads back as the live reply parses, and each way of having none says which it is.
void TestSysfsCapture::multipathdIsReadBackAsRecorded_data()
{
    QFile reply(DMTUNE_SOURCE_PATH(DMTUNE_DM_FIXTURES "/multipathd-path-failed.json"));
    QVERIFY(reply.open(QIODevice::ReadOnly));
    const QString lab = QString::fromUtf8(reply.readAll());
    QTest::addColumn<bool>("record");
    QTest::addColumn<bool>("running");
    QTest::addColumn<QString>("mapsJson");
    QTest::addColumn<QString>("error");
    QTest::addColumn<QString>("expectedError"); // empty: the maps parse
    QTest::newRow("lab VM's map after a path failed") << true << true << lab << QString() << QString();
    QTest::newRow("not running then") << true << false << QString() << QString()
                                      << QStringLiteral("multipathd was not running when the capture was taken");
    QTest::newRow("no answer then") << true << true << QString() << QStringLiteral("timed out after 5 s")
                                    << QStringLiteral("multipathd did not answer when the capture was taken: timed "
                                                      "out after 5 s");
    QTest::newRow("garbage recorded") << true << true << QStringLiteral("{\"maps\": 3}") << QString()
                                      << QStringLiteral("\"maps\" is not a list");
    QTest::newRow("a capture without it")
        << false << false << QString() << QString() << QStringLiteral("the capture did not record multipathd");
}

void TestSysfsCapture::multipathdIsReadBackAsRecorded()
{
    QFETCH(bool, record);
    QFETCH(bool, running);
    QFETCH(QString, mapsJson);
    QFETCH(QString, error);
    QFETCH(QString, expectedError);
    FakeSysfs t;
    test::buildMultipathFixture(t);
    FakeDeviceMapper dm;
    QVERIFY(test::addFixtureMapWithTable(dm, labTableParams, labStatusParams));
    DeviceMapperState state;
    state.available = true;
    QTemporaryDir out;
    const QString dir = out.path() + QStringLiteral("/capture");
    std::optional<MultipathdCapture> recorded;
    if (record)
        recorded = MultipathdCapture { running, mapsJson, error };
    QVERIFY(captureSystem(SysfsRoot(t.root(), QString()), dir, &dm, state, recorded));

    const SysfsRoot captured = sysfsRootForDirectory(dir);
    const MultipathdKnowledge known = multipathdKnowledgeOf(captured);
    QVERIFY(known.captured);
    QCOMPARE(known.recorded, record);
    QCOMPARE(known.running, running);
    const auto maps = capturedMultipathdMaps(captured);
    if (!expectedError.isEmpty()) {
        QVERIFY(!maps);
        QVERIFY2(maps.errorMessage().contains(expectedError), qPrintable(maps.errorMessage()));
        return;
    }
    QVERIFY2(maps, qPrintable(maps.errorMessage()));
    QCOMPARE(maps.value(), parseMultipathdMapsJson(mapsJson).value());
    QVERIFY(known.maps);
    QCOMPARE(known.maps.value(), maps.value());
    const auto view = findMultipathdMap(maps.value(), QStringLiteral("mpatha"));
    QVERIFY(view);
    QCOMPARE(view->groups.size(), 4); // failover: a group a path
    // The failed path's checker state as multipathd told it, which sysfs and the kernel's status do not have.
    QStringList checkers;
    for (const MultipathdGroupView &g : view->groups) {
        for (const MultipathdPathView &p : g.paths)
            checkers << p.checkerState;
    }
    QVERIFY2(checkers.contains(QStringLiteral("faulty")), qPrintable(checkers.join(u' ')));
}

QTEST_GUILESS_MAIN(TestSysfsCapture)
#include "tst_sysfscapture.moc"
