// SysfsRoot: reads, errors as values, links resolved the way sysfs lays them out.
#include "fakesysfs.h"

#include "sysfs/sysfsroot.h"

#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestSysfsRoot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTrimmedText();
    void missingFileIsAnErrorValue();
    void linkThroughLinkedDirectory();
    void linkLeavingTheRootIsIgnored();
    void writeTruncates();
    void writeErrorCarriesErrno();
    void liveOnlyForSys();
};

void TestSysfsRoot::readsTrimmedText()
{
    FakeSysfs t;
    t.file(QStringLiteral("block/x/queue/scheduler"), QStringLiteral("  [none] mq-deadline \n"));
    SysfsRoot s(t.root(), QString());
    QCOMPARE(s.read(QStringLiteral("block/x/queue/scheduler")).value(), QStringLiteral("[none] mq-deadline"));
}

void TestSysfsRoot::missingFileIsAnErrorValue()
{
    FakeSysfs t;
    SysfsRoot s(t.root(), QString());
    auto r = s.read(QStringLiteral("block/nope/size"));
    QVERIFY(!r);
    QVERIFY(r.errorMessage().contains(QLatin1String("block/nope/size")));
    QCOMPARE(s.readOr(QStringLiteral("block/nope/size"), QStringLiteral("fallback")), QStringLiteral("fallback"));
    QVERIFY(!s.readProc(QStringLiteral("diskstats")));
}

// block/sda is a link; block/sda/device is relative to the real directory, not to block/.
void TestSysfsRoot::linkThroughLinkedDirectory()
{
    FakeSysfs t;
    t.scsiDisk(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("2:0:1:3"), QStringLiteral("V"),
               QStringLiteral("M"), QStringLiteral("naa.1"));
    SysfsRoot s(t.root(), QString());
    QCOMPARE(s.linkName(QStringLiteral("block/sda/device")), QStringLiteral("2:0:1:3"));
    QCOMPARE(s.linkName(QStringLiteral("block/sda/device/subsystem")), QStringLiteral("scsi"));
    QVERIFY(s.linkTarget(QStringLiteral("block/sda")).startsWith(QLatin1String("devices/pci0000:00/")));
    QCOMPARE(s.linkTarget(QStringLiteral("block/sda/size")), QString());
}

void TestSysfsRoot::linkLeavingTheRootIsIgnored()
{
    FakeSysfs t;
    t.dir(QStringLiteral("block"));
    QFile::link(QStringLiteral("/etc"), t.root() + QStringLiteral("/block/evil"));
    SysfsRoot s(t.root(), QString());
    QCOMPARE(s.linkTarget(QStringLiteral("block/evil")), QString());
}

void TestSysfsRoot::writeTruncates()
{
    FakeSysfs t;
    t.file(QStringLiteral("block/x/queue/scheduler"), QStringLiteral("mq-deadline"));
    SysfsRoot s(t.root(), QString());
    QVERIFY(s.write(QStringLiteral("block/x/queue/scheduler"), QStringLiteral("bfq")));
    QCOMPARE(s.read(QStringLiteral("block/x/queue/scheduler")).value(), QStringLiteral("bfq"));
}

void TestSysfsRoot::writeErrorCarriesErrno()
{
    FakeSysfs t;
    SysfsRoot s(t.root(), QString());
    const Status st = s.write(QStringLiteral("block/none/queue/nr_requests"), QStringLiteral("4"));
    QVERIFY(!st);
    QVERIFY(st.errorMessage.contains(QLatin1String("No such file")));
}

void TestSysfsRoot::liveOnlyForSys()
{
    QVERIFY(SysfsRoot().isLive());
    QVERIFY(SysfsRoot(QStringLiteral("/sys/")).isLive());
    FakeSysfs t;
    QVERIFY(!SysfsRoot(t.root()).isLive());
}

QTEST_GUILESS_MAIN(TestSysfsRoot)
#include "tst_sysfsroot.moc"
