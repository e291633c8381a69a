// dm-stats for bio-based maps: which devices it suits, the instance word a region carries and how a dead instance
// is recognised. The regions themselves are tested on a real kernel (tests/vm/latency).
#include "core/latency/dmstatslatency.h"
#include "core/sysfs/sysfsroot.h"

#include "tests/common/fakesysfs.h"

#include <QTest>

#include <optional>

using namespace dmtune;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(std::optional<dmtune::DmStatsInstance>)
Q_DECLARE_METATYPE(std::optional<quint64>)

class TestDmStatsLatency : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parseInstance_data();
    void parseInstance();
    void instanceRoundTrips();
    void procStatStartTime_data();
    void procStatStartTime();
    void refusal_data();
    void refusal();
    void planRefusesCapturedTreeAndNoDevices();
};

void TestDmStatsLatency::parseInstance_data()
{
    QTest::addColumn<QString>("userData");
    QTest::addColumn<std::optional<DmStatsInstance>>("expected");
    QTest::newRow("dmtune's word") << u"dmtune-instance=4242.36217.1"_s
                                   << std::optional(DmStatsInstance { 4242, 36217, 1 });
    QTest::newRow("large numbers") << u"dmtune-instance=4194304.18446744073709551615.7"_s
                                   << std::optional(DmStatsInstance { 4194304, 18446744073709551615ULL, 7 });
    QTest::newRow("empty (dmstats create without --userdata)") << QString() << std::optional<DmStatsInstance>();
    QTest::newRow("another program's word") << u"pmda-dm"_s << std::optional<DmStatsInstance>();
    QTest::newRow("two fields (not our form)") << u"dmtune-instance=4242.36217"_s << std::optional<DmStatsInstance>();
    QTest::newRow("trailing text") << u"dmtune-instance=4242.36217.1x"_s << std::optional<DmStatsInstance>();
    QTest::newRow("leading text") << u"x dmtune-instance=4242.36217.1"_s << std::optional<DmStatsInstance>();
    QTest::newRow("pid 0") << u"dmtune-instance=0.36217.1"_s << std::optional<DmStatsInstance>();
    QTest::newRow("negative pid") << u"dmtune-instance=-1.36217.1"_s << std::optional<DmStatsInstance>();
    QTest::newRow("start time beyond 64 bits")
        << u"dmtune-instance=1.99999999999999999999.1"_s << std::optional<DmStatsInstance>();
}

void TestDmStatsLatency::parseInstance()
{
    QFETCH(QString, userData);
    QFETCH(std::optional<DmStatsInstance>, expected);
    QCOMPARE(parseDmStatsInstance(userData), expected);
}

void TestDmStatsLatency::instanceRoundTrips()
{
    const DmStatsInstance instance { 31337, 987654321, 3 };
    QCOMPARE(instance.userData(), u"dmtune-instance=31337.987654321.3"_s);
    QVERIFY(!instance.userData().contains(u' ')); // dm-stats refuses whitespace in user data
    QCOMPARE(parseDmStatsInstance(instance.userData()), std::optional(instance));
}

void TestDmStatsLatency::procStatStartTime_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<std::optional<quint64>>("expected");
    // Real lines of /proc/PID/stat (6.18); the second one's command holds a space and a parenthesis.
    QTest::newRow("cat")
        << u"10023 (cat) R 10017 10017 1290 0 -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 36217 3133440 382 "
           "18446744073709551615 94433653592064 94433653611945 140721353199504 0 0 0 0 0 0 0 0 0 17 1 0 "
           "0 0 0 0 94433653627952 94433653629568 94433679929344 140721353206402 140721353206422 "
           "140721353206422 140721353207787 0"_s
        << std::optional<quint64>(36217);
    QTest::newRow("command with ') ' inside")
        << u"777 (odd) name) S 1 777 777 0 -1 4194560 500 0 0 0 3 1 0 0 20 0 1 0 912 12345678 900 "
           "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0"_s
        << std::optional<quint64>(912);
    QTest::newRow("cut short") << u"777 (cat) S 1 777 777 0"_s << std::optional<quint64>();
    QTest::newRow("no command") << u"garbage"_s << std::optional<quint64>();
    QTest::newRow("start time not a number")
        << u"1 (init) S 0 1 1 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 abc 1 1 1"_s << std::optional<quint64>();
}

void TestDmStatsLatency::procStatStartTime()
{
    QFETCH(QString, line);
    QFETCH(std::optional<quint64>, expected);
    QCOMPARE(parseProcStatStartTime(line), expected);
}

void TestDmStatsLatency::refusal_data()
{
    QTest::addColumn<QString>("device");
    QTest::addColumn<QString>("refusalContains"); // empty: dm-stats suits the device
    QTest::newRow("linear map (bio-based)") << u"dm-0"_s << QString();
    QTest::newRow("multipath map (request-based)") << u"dm-1"_s << u"dm-1 (mpatha) is a request-based map"_s;
    QTest::newRow("a SCSI path") << u"sdb"_s << u"sdb is not a device-mapper map"_s;
    QTest::newRow("no such device") << u"dm-9"_s << u"dm-9: no such block device"_s;
}

void TestDmStatsLatency::refusal()
{
    QFETCH(QString, device);
    QFETCH(QString, refusalContains);
    test::FakeSysfs fs;
    fs.scsiDisk(u"sdb"_s, u"8:16"_s, u"1:0:0:0"_s, u"LIO-ORG"_s, u"disk"_s, u"naa.1"_s);
    fs.scsiDisk(u"sdc"_s, u"8:32"_s, u"2:0:0:0"_s, u"LIO-ORG"_s, u"disk"_s, u"naa.1"_s);
    fs.dmDevice(u"dm-0"_s, u"253:0"_s, u"vg-lv"_s, u"LVM-abc"_s, { u"sdb"_s });
    fs.dmDevice(u"dm-1"_s, u"253:1"_s, u"mpatha"_s, u"mpath-36001405"_s, { u"sdb"_s, u"sdc"_s });
    fs.dir(fs.devicePath(u"dm-1"_s) + u"/mq/0"_s); // blk-mq: a request-based map
    const SysfsRoot root(fs.root(), {});
    const QString refusal = dmStatsRefusal(root, device);
    if (refusalContains.isEmpty()) {
        QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
        QVERIFY(isBioBasedDmDevice(root, device));
    } else {
        QVERIFY2(refusal.contains(refusalContains), qPrintable(refusal));
        QVERIFY(!isBioBasedDmDevice(root, device));
    }
}

void TestDmStatsLatency::planRefusesCapturedTreeAndNoDevices()
{
    test::FakeSysfs fs;
    fs.dmDevice(u"dm-0"_s, u"253:0"_s, u"vg-lv"_s, u"LVM-abc"_s, {});
    const OperationPlan captured = planDmStatsLatency(SysfsRoot(fs.root(), {}), { u"dm-0"_s });
    QCOMPARE(captured.kind, u"latency.dm-stats"_s);
    QVERIFY(!captured.runnable());
    QVERIFY2(captured.refusals.value(0).contains(u"not a captured tree"_s), qPrintable(captured.refusals.value(0)));
    QVERIFY(captured.basis.isEmpty()); // nothing was asked of device-mapper

    const OperationPlan none = planDmStatsLatency(SysfsRoot(), {});
    QVERIFY(!none.runnable());
    QVERIFY(none.refusals.value(0).contains(u"name the maps"_s));
    const auto started = DmStatsLatency::start(SysfsRoot(), none);
    QVERIFY(!started);
    QCOMPARE(started.errorMessage(), none.refusals.value(0));
}

QTEST_GUILESS_MAIN(TestDmStatsLatency)
#include "tst_dmstatslatency.moc"
