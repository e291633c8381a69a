// Planning: the safe write order, validation of names/attributes/values before anything is
// written, and the scopes a change expands to.
#include "paramfixture.h"

#include "core/discovery/discovery.h"
#include "core/params/planner.h"

#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {
Change ch(const char *device, const char *attribute, const char *value)
{
    return Change { QString::fromLatin1(device), QString::fromLatin1(attribute), QString::fromLatin1(value) };
}

QStringList order(const Plan &plan)
{
    QStringList out;
    for (const auto &w : plan.writes)
        out << w.device + QLatin1Char(' ') + w.attribute.section(QLatin1Char('/'), -1) + QLatin1Char('=') + w.value;
    return out;
}
} // namespace

class TestParamPlanner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void writeOrder_data();
    void writeOrder();
    void rejected_data();
    void rejected();
    void symlinkOutsideDevicesRejected();
    void iosched_ofNewScheduler();
    void moduleParameterOnce();
    void scopes();

private:
    std::unique_ptr<FakeSysfs> m_tree;
};

void TestParamPlanner::init()
{
    m_tree = std::make_unique<FakeSysfs>();
    test::buildMultipathFixture(*m_tree);
}

void TestParamPlanner::writeOrder_data()
{
    QTest::addColumn<ChangeSet>("changes");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("scheduler before nr_requests (it resets it)")
        << ChangeSet { ch("dm-0", "queue/nr_requests", "256"), ch("dm-0", "queue/nomerges", "1"),
               ch("dm-0", "queue/scheduler", "none") }
        << QStringList { QStringLiteral("dm-0 scheduler=none"), QStringLiteral("dm-0 nr_requests=256"),
               QStringLiteral("dm-0 nomerges=1") };
    QTest::newRow("max_sectors_kb up: paths before the map")
        << ChangeSet { ch("dm-0", "queue/max_sectors_kb", "2048"), ch("sda", "queue/max_sectors_kb", "2048"),
               ch("sdb", "queue/max_sectors_kb", "2048") }
        << QStringList { QStringLiteral("sda max_sectors_kb=2048"), QStringLiteral("sdb max_sectors_kb=2048"),
               QStringLiteral("dm-0 max_sectors_kb=2048") };
    QTest::newRow("max_sectors_kb down: the map before its paths")
        << ChangeSet { ch("sda", "queue/max_sectors_kb", "128"), ch("sdb", "queue/max_sectors_kb", "128"),
               ch("dm-0", "queue/max_sectors_kb", "128") }
        << QStringList { QStringLiteral("dm-0 max_sectors_kb=128"), QStringLiteral("sda max_sectors_kb=128"),
               QStringLiteral("sdb max_sectors_kb=128") };
    QTest::newRow("other attributes keep their order")
        << ChangeSet { ch("sdb", "queue/read_ahead_kb", "256"), ch("sda", "queue/nomerges", "2"),
               ch("sdc", "device/queue_depth", "16") }
        << QStringList { QStringLiteral("sdb read_ahead_kb=256"), QStringLiteral("sda nomerges=2"),
               QStringLiteral("sdc queue_depth=16") };
}

void TestParamPlanner::writeOrder()
{
    QFETCH(ChangeSet, changes);
    const Plan plan = planChanges(SysfsRoot(m_tree->root(), QString()), changes);
    QVERIFY2(plan.ok(), qPrintable(plan.errors.value(0).text()));
    QTEST(order(plan), "expected");
}

void TestParamPlanner::rejected_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<QString>("reason");
    QTest::newRow("dot-dot") << ch("../sda", "queue/nomerges", "2") << QStringLiteral("not a kernel device name");
    QTest::newRow("slash") << ch("sda/../sdb", "queue/nomerges", "2") << QStringLiteral("not a kernel device name");
    QTest::newRow("dot-dot alone") << ch("..", "queue/nomerges", "2") << QStringLiteral("not a kernel device name");
    QTest::newRow("absent device") << ch("sdz", "queue/nomerges", "2") << QStringLiteral("no such block device");
    QTest::newRow("unknown attribute") << ch("sda", "queue/frobnicate", "1") << QStringLiteral("unknown attribute");
    QTest::newRow("attribute path tricks")
        << ch("sda", "queue/../../../etc/passwd", "1") << QStringLiteral("unknown attribute");
    QTest::newRow("read-only raw attribute")
        << ch("dm-0", "queue/logical_block_size", "4096") << QStringLiteral("read-only: the kernel reports it");
    QTest::newRow("ignored knob") << ch("dm-0", "dm/rq_based_seq_io_merge_deadline", "0") << QStringLiteral("ignored");
    QTest::newRow("bad type") << ch("sda", "queue/nomerges", "two") << QStringLiteral("not one of");
    QTest::newRow("out of range") << ch("sda", "device/queue_depth", "100000") << QStringLiteral("outside 1..64");
    QTest::newRow("above max_hw_sectors_kb")
        << ch("dm-0", "queue/max_sectors_kb", "99999999") << QStringLiteral("outside 4..4096");
    QTest::newRow("unknown scheduler") << ch("dm-0", "queue/scheduler", "no-such-sched")
                                       << QStringLiteral("not one of");
    QTest::newRow("SCSI attribute on a map") << ch("dm-0", "device/queue_depth", "16") << QStringLiteral("has no");
    QTest::newRow("iosched of another scheduler")
        << ch("dm-0", "queue/iosched/slice_idle", "0") << QStringLiteral("belongs to bfq");
    QTest::newRow("module parameter on a path")
        << ch("sda", "module/dm_mod/dm_mq_queue_depth", "4096") << QStringLiteral("has no");
}

void TestParamPlanner::rejected()
{
    QFETCH(Change, change);
    QFETCH(QString, reason);
    const QByteArray before = test::treeDigest(m_tree->root());
    const Plan plan = planChanges(SysfsRoot(m_tree->root(), QString()), { ch("sdb", "queue/nomerges", "1"), change });
    QCOMPARE(plan.errors.size(), 1);
    const ApplyError &e = plan.errors.first();
    QCOMPARE(e.stage, ApplyError::Stage::Validate);
    QCOMPARE(e.device, change.device);
    QCOMPARE(e.attribute, change.attribute);
    QCOMPARE(e.value, change.value);
    QVERIFY2(e.message.contains(reason), qPrintable(e.message));
    QCOMPARE(test::treeDigest(m_tree->root()), before); // planning never writes
}

// block/NAME must be the kernel's link into devices/: a name that links elsewhere is refused.
void TestParamPlanner::symlinkOutsideDevicesRejected()
{
    m_tree->dir(QStringLiteral("elsewhere/queue"));
    m_tree->file(QStringLiteral("elsewhere/queue/nomerges"), QStringLiteral("0"));
    m_tree->link(QStringLiteral("block/evil"), QStringLiteral("elsewhere"));
    QFile::link(QStringLiteral("/tmp"), m_tree->root() + QStringLiteral("/block/evil2"));
    const SysfsRoot sysfs(m_tree->root(), QString());
    for (const char *name : { "evil", "evil2" }) {
        const Plan plan = planChanges(sysfs, { ch(name, "queue/nomerges", "2") });
        QCOMPARE(plan.errors.size(), 1);
        // evil2 leaves the tree: never followed, so there is no such device in it at all.
        const QString expected = qstrcmp(name, "evil") == 0 ? QStringLiteral("does not link into devices/")
                                                            : QStringLiteral("evil2: no such block device");
        QVERIFY2(plan.errors.first().message.contains(expected), qPrintable(plan.errors.first().message));
    }
    // An attribute file that is itself a link out of the device tree is refused too.
    const QString qd = m_tree->devicePath(QStringLiteral("sda")) + QStringLiteral("/queue/read_ahead_kb");
    QFile::remove(m_tree->root() + QLatin1Char('/') + qd);
    m_tree->link(qd, QStringLiteral("elsewhere/queue/nomerges"));
    const Plan plan = planChanges(sysfs, { ch("sda", "queue/read_ahead_kb", "256") });
    QCOMPARE(plan.errors.size(), 1);
    QVERIFY2(plan.errors.first().message.contains(QLatin1String("leaves the sysfs device tree")),
        qPrintable(plan.errors.first().message));
}

// iosched files of the scheduler being switched to are checked against that scheduler and
// written after the switch.
void TestParamPlanner::iosched_ofNewScheduler()
{
    const SysfsRoot sysfs(m_tree->root(), QString());
    const Plan plan = planChanges(sysfs,
        { ch("dm-0", "queue/iosched/read_lat_nsec", "1000000"), ch("dm-0", "queue/scheduler", "kyber"),
            ch("dm-0", "queue/nr_requests", "512") });
    QVERIFY2(plan.ok(), qPrintable(plan.errors.value(0).text()));
    QCOMPARE(order(plan),
        (QStringList { QStringLiteral("dm-0 scheduler=kyber"), QStringLiteral("dm-0 read_lat_nsec=1000000"),
            QStringLiteral("dm-0 nr_requests=512") }));
    QCOMPARE(plan.writes[1].oldValue, QString()); // not there yet
    // mq-deadline's file is not offered once the scheduler goes away.
    const Plan bad
        = planChanges(sysfs, { ch("dm-0", "queue/scheduler", "none"), ch("dm-0", "queue/iosched/fifo_batch", "8") });
    QCOMPARE(bad.errors.size(), 1);
    QVERIFY(bad.errors.first().message.contains(QLatin1String("scheduler will be none")));
}

void TestParamPlanner::moduleParameterOnce()
{
    const SysfsRoot sysfs(m_tree->root(), QString());
    const Plan plan = planChanges(sysfs,
        makeChangeSet({ QStringLiteral("dm-0"), QStringLiteral("sda") },
            { { QStringLiteral("module/dm_mod/dm_mq_queue_depth"), QStringLiteral("4096") } }));
    QVERIFY2(plan.ok(), qPrintable(plan.errors.value(0).text()));
    QCOMPARE(plan.writes.size(), 1);
    QCOMPARE(plan.writes.first().path, QStringLiteral("module/dm_mod/parameters/dm_mq_queue_depth"));
    const Plan twice = planChanges(sysfs, { ch("dm-0", "queue/nomerges", "1"), ch("dm-0", "queue/nomerges", "2") });
    QCOMPARE(twice.errors.size(), 1);
    QVERIFY(twice.errors.first().message.contains(QLatin1String("also set to 1")));
}

void TestParamPlanner::scopes()
{
    const DeviceSnapshot snapshot = Discovery::scan(SysfsRoot(m_tree->root(), QString()));
    const QStringList paths { QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"),
        QStringLiteral("sdd") };
    auto r = scopeDevices(snapshot, ChangeScope::MapAndPaths, { QStringLiteral("mpatha") });
    QVERIFY2(r, qPrintable(r.errorMessage()));
    QCOMPARE(*r, QStringList { QStringLiteral("dm-0") } + paths);
    r = scopeDevices(snapshot, ChangeScope::PathsOfMap, { QStringLiteral("dm-0") });
    QCOMPARE(*r, paths);
    r = scopeDevices(snapshot, ChangeScope::Device, { QStringLiteral("sdc") });
    QCOMPARE(*r, QStringList { QStringLiteral("sdc") });
    r = scopeDevices(snapshot, ChangeScope::Selection, { QStringLiteral("sdc"), QStringLiteral("sda") });
    QCOMPARE(*r, (QStringList { QStringLiteral("sdc"), QStringLiteral("sda") }));
    QVERIFY(!scopeDevices(snapshot, ChangeScope::PathsOfMap, { QStringLiteral("sda") }));
    QVERIFY(!scopeDevices(snapshot, ChangeScope::Device, { QStringLiteral("sdz") }));
    const ChangeSet set = makeChangeSet(*scopeDevices(snapshot, ChangeScope::MapAndPaths, { QStringLiteral("dm-0") }),
        { { QStringLiteral("queue/nomerges"), QStringLiteral("2") } });
    QCOMPARE(set.size(), 5);
    const auto a = parseAssignment(QStringLiteral("nomerges=2"));
    QVERIFY(a);
    QCOMPARE(a->attribute, QStringLiteral("queue/nomerges"));
    QCOMPARE(
        parseAssignment(QStringLiteral("queue/write_cache=write through"))->value, QStringLiteral("write through"));
    QVERIFY(!parseAssignment(QStringLiteral("=2")));
    QVERIFY(!parseAssignment(QStringLiteral("nomerges")));
}

QTEST_GUILESS_MAIN(TestParamPlanner)
#include "tst_paramplanner.moc"
