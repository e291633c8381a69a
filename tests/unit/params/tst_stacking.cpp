// Stacking rules: pure checks with numbers, then the seed's fixture (a map over 4 paths with
// queue_depth 32 and nr_requests 128) read from a temp tree with pending changes laid over it.
#include "paramfixture.h"

#include "core/params/planner.h"
#include "core/params/stacking.h"

#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {
MapStackFacts fourPaths(qint64 mapKb, qint64 nr, qint64 depth, const QString &pathScheduler = QStringLiteral("none"))
{
    MapStackFacts f;
    f.device = QStringLiteral("dm-0");
    f.name = QStringLiteral("mpatha");
    f.maxSectorsKb = mapKb;
    f.nrRequests = nr;
    for (const char *p : { "sda", "sdb", "sdc", "sdd" })
        f.paths << PathFacts { QString::fromLatin1(p), 512, depth, pathScheduler };
    return f;
}

QStringList codes(const QList<StackingWarning> &w)
{
    QStringList out;
    for (const auto &x : w)
        out << x.code + QLatin1Char('@') + x.device;
    return out;
}
} // namespace

class TestStacking : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rules_data();
    void rules();
    void seedNumbers();
    void fixtureMap();
    void onlyWarningsTheChangeConcerns_data();
    void onlyWarningsTheChangeConcerns();
    void pendingChangesCount();
    void slavesCycleTerminates();
    void deepDiamondIsLinear();
};

void TestStacking::rules_data()
{
    QTest::addColumn<MapStackFacts>("facts");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("healthy") << fourPaths(512, 256, 32) << QStringList();
    QTest::newRow("seed: 4 x 32 = 128 = nr_requests")
        << fourPaths(512, 128, 32) << QStringList { QStringLiteral("nr-requests-vs-queue-depth@dm-0") };
    QTest::newRow("below the sum") << fourPaths(512, 64, 32)
                                   << QStringList { QStringLiteral("nr-requests-vs-queue-depth@dm-0") };
    QTest::newRow("lower queue_depth fixes it") << fourPaths(512, 128, 16) << QStringList();
    QTest::newRow("map above its paths") << fourPaths(1024, 256, 32)
                                         << QStringList { QStringLiteral("max-sectors-above-paths@dm-0") };
    QTest::newRow("schedulers on the paths")
        << fourPaths(512, 256, 32, QStringLiteral("mq-deadline"))
        << QStringList { QStringLiteral("scheduler-under-rq-map@sda"), QStringLiteral("scheduler-under-rq-map@sdb"),
               QStringLiteral("scheduler-under-rq-map@sdc"), QStringLiteral("scheduler-under-rq-map@sdd") };
    MapStackFacts bio = fourPaths(512, 128, 32, QStringLiteral("mq-deadline"));
    bio.requestBased = false;
    QTest::newRow("bio-based map: no queue rules") << bio << QStringList();
    MapStackFacts nvme = fourPaths(512, 128, -1);
    QTest::newRow("paths without queue_depth") << nvme << QStringList();
}

void TestStacking::rules()
{
    QFETCH(MapStackFacts, facts);
    QTEST(codes(checkStacking(facts)), "expected");
}

void TestStacking::seedNumbers()
{
    const auto w = checkStacking(fourPaths(1024, 128, 32));
    QCOMPARE(w.size(), 2);
    QCOMPARE(w[0].value, 1024);
    QCOMPARE(w[0].limit, 512);
    QVERIFY2(w[0].message.contains(QLatin1String("max_sectors_kb 1024 is above the smallest of its paths (sda: 512)")),
        qPrintable(w[0].message));
    QCOMPARE(w[1].value, 128);
    QCOMPARE(w[1].limit, 128);
    QVERIFY2(w[1].message.contains(QLatin1String("nr_requests 128 <= 4 paths x queue_depth 32 = 128")),
        qPrintable(w[1].message));
    QVERIFY(w[1].message.startsWith(QLatin1String("mpatha (dm-0)")));
}

void TestStacking::fixtureMap()
{
    FakeSysfs t;
    test::buildMultipathFixture(t);
    const SysfsRoot sysfs(t.root(), QString());
    const MapStackFacts f = readMapStackFacts(sysfs, QStringLiteral("dm-0"), {});
    QCOMPARE(f.name, QStringLiteral("mpatha"));
    QCOMPARE(f.paths.size(), 4);
    QCOMPARE(f.nrRequests, 128);
    QCOMPARE(f.paths.first().queueDepth, 32);
    QVERIFY(f.requestBased);
    // A path's change brings the map's rules in, but only those about the values it names: the fixture's
    // standing nr_requests <= 4 x queue_depth is news to a queue_depth change, not to a nomerges one.
    const auto w = stackingWarnings(
        sysfs, { Change { QStringLiteral("sdb"), QStringLiteral("device/queue_depth"), QStringLiteral("32") } });
    QCOMPARE(codes(w), QStringList { QStringLiteral("nr-requests-vs-queue-depth@dm-0") });
}

void TestStacking::onlyWarningsTheChangeConcerns_data()
{
    QTest::addColumn<ChangeSet>("changes");
    QTest::addColumn<QStringList>("expected");
    const auto c = [](const char *device, const char *attribute, const char *value) {
        return Change { QLatin1String(device), QLatin1String(attribute), QLatin1String(value) };
    };
    const QString nr = QStringLiteral("nr-requests-vs-queue-depth@dm-0");
    QTest::newRow("path nomerges") << ChangeSet { c("sdb", "queue/nomerges", "1") } << QStringList();
    QTest::newRow("map read_ahead_kb") << ChangeSet { c("dm-0", "queue/read_ahead_kb", "4096") } << QStringList();
    QTest::newRow("map max_sectors_kb within the paths")
        << ChangeSet { c("dm-0", "queue/max_sectors_kb", "256") } << QStringList();
    QTest::newRow("map nr_requests as it is")
        << ChangeSet { c("dm-0", "queue/nr_requests", "128") } << QStringList { nr };
    QTest::newRow("path queue_depth") << ChangeSet { c("sdc", "device/queue_depth", "32") } << QStringList { nr };
    QTest::newRow("map max_sectors_kb above the paths")
        << ChangeSet { c("dm-0", "queue/max_sectors_kb", "2048") }
        << QStringList { QStringLiteral("max-sectors-above-paths@dm-0") };
    QTest::newRow("path scheduler") << ChangeSet { c("sda", "queue/scheduler", "bfq"), c("sdb", "queue/nomerges", "1") }
                                    << QStringList { QStringLiteral("scheduler-under-rq-map@sda") };
}

void TestStacking::onlyWarningsTheChangeConcerns()
{
    QFETCH(ChangeSet, changes);
    QFETCH(QStringList, expected);
    FakeSysfs t;
    test::buildMultipathFixture(t);
    const SysfsRoot sysfs(t.root(), QString());
    QCOMPARE(codes(stackingWarnings(sysfs, changes)), expected);
    QCOMPARE(codes(planChanges(sysfs, changes).warnings), expected);
}

// Warnings are about the state after the change set: raising nr_requests clears the warning,
// raising the map's max_sectors_kb alone raises one, and the planner returns them.
void TestStacking::pendingChangesCount()
{
    FakeSysfs t;
    test::buildMultipathFixture(t);
    const SysfsRoot sysfs(t.root(), QString());
    const Plan fixed = planChanges(
        sysfs, { Change { QStringLiteral("dm-0"), QStringLiteral("queue/nr_requests"), QStringLiteral("256") } });
    QVERIFY(fixed.ok());
    QVERIFY(fixed.warnings.isEmpty());
    const Plan depth = planChanges(sysfs,
        makeChangeSet({ QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd") },
            { { QStringLiteral("device/queue_depth"), QStringLiteral("16") } }));
    QVERIFY(depth.ok());
    QVERIFY(depth.warnings.isEmpty());
    const Plan big = planChanges(sysfs,
        { Change { QStringLiteral("dm-0"), QStringLiteral("queue/max_sectors_kb"), QStringLiteral("2048") },
            Change { QStringLiteral("sda"), QStringLiteral("queue/scheduler"), QStringLiteral("bfq") } });
    QVERIFY(big.ok());
    // The map's standing nr_requests warning is not about these two changes: not repeated.
    QCOMPARE(codes(big.warnings),
        (QStringList { QStringLiteral("max-sectors-above-paths@dm-0"), QStringLiteral("scheduler-under-rq-map@sda") }));
}

// slaves/ entries as the kernel lays them out: block/X/slaves/Y, a link to Y's directory.
static void slave(FakeSysfs &t, const QString &device, const QString &slave)
{
    t.dir(QStringLiteral("devices/virtual/block/") + slave);
    t.link(QStringLiteral("block/") + slave, QStringLiteral("devices/virtual/block/") + slave);
    t.link(QStringLiteral("devices/virtual/block/%1/slaves/%2").arg(device, slave),
        QStringLiteral("devices/virtual/block/") + slave);
}

// A crafted capture: dm-0 over dm-1 over dm-2 over dm-0 (no kernel makes this).
void TestStacking::slavesCycleTerminates()
{
    FakeSysfs t;
    t.dir(QStringLiteral("devices/virtual/block/dm-0"));
    t.link(QStringLiteral("block/dm-0"), QStringLiteral("devices/virtual/block/dm-0"));
    slave(t, QStringLiteral("dm-0"), QStringLiteral("dm-1"));
    slave(t, QStringLiteral("dm-1"), QStringLiteral("dm-2"));
    slave(t, QStringLiteral("dm-2"), QStringLiteral("dm-0"));
    slave(t, QStringLiteral("dm-1"), QStringLiteral("dm-1")); // and one onto itself
    const SysfsRoot sysfs(t.root(), QString());
    StackLevels levels(sysfs);
    QCOMPARE(levels.level(QStringLiteral("dm-0")), 2); // the link back to dm-0 counts as none
    QCOMPARE(levels.listed(), 3);
    QCOMPARE(levels.level(QStringLiteral("dm-1")), 1); // memoised: nothing listed again
    QCOMPARE(levels.listed(), 3);
    QCOMPARE(stackLevel(sysfs, QStringLiteral("dm-2")), 2);
}

// 60 levels of 2 devices, each on both devices of the level below: 2^60 paths from the top, 121 devices.
void TestStacking::deepDiamondIsLinear()
{
    FakeSysfs t;
    const auto name = [](int level, int i) { return QStringLiteral("dm-%1").arg(level * 2 + i); };
    for (const QString &top : { name(0, 0), name(0, 1) }) {
        t.dir(QStringLiteral("devices/virtual/block/") + top);
        t.link(QStringLiteral("block/") + top, QStringLiteral("devices/virtual/block/") + top);
    }
    for (int level = 0; level < 60; ++level) {
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j)
                slave(t, name(level, i), name(level + 1, j));
        }
    }
    const SysfsRoot sysfs(t.root(), QString());
    QCOMPARE(stackLevel(sysfs, name(0, 0)), 60);
    StackLevels levels(sysfs);
    QCOMPARE(levels.level(name(0, 0)), 60);
    QCOMPARE(levels.listed(), 1 + 2 * 60); // each device listed once, whatever the number of paths to it
    QCOMPARE(levels.level(name(0, 1)), 60);
    QCOMPARE(levels.listed(), 2 + 2 * 60);
    // The planner walks the same way: a change set on the top device plans at once.
    const Plan plan
        = planChanges(sysfs, { Change { name(0, 0), QStringLiteral("queue/nomerges"), QStringLiteral("1") } });
    QVERIFY(!plan.ok()); // no queue/ in this crafted tree: an error, not a hang
}

QTEST_GUILESS_MAIN(TestStacking)
#include "tst_stacking.moc"
