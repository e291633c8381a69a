// Stacking rules: pure checks with numbers, then the seed's fixture (a map over 4 paths with
// queue_depth 32 and nr_requests 128) read from a temp tree with pending changes laid over it.
#include "paramfixture.h"

#include "params/planner.h"
#include "params/stacking.h"

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
    void pendingChangesCount();
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
    // Touching any path brings the map's rules in.
    const auto w = stackingWarnings(
        sysfs, { Change { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("1") } });
    QCOMPARE(codes(w), QStringList { QStringLiteral("nr-requests-vs-queue-depth@dm-0") });
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
    QCOMPARE(codes(big.warnings),
        (QStringList { QStringLiteral("max-sectors-above-paths@dm-0"),
            QStringLiteral("nr-requests-vs-queue-depth@dm-0"), QStringLiteral("scheduler-under-rq-map@sda") }));
}

QTEST_GUILESS_MAIN(TestStacking)
#include "tst_stacking.moc"
