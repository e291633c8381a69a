// SysfsRoot: reads, errors as values, links resolved the way sysfs lays them out.
#include "tests/common/fakesysfs.h"

#include "core/sysfs/beneath.h"
#include "core/sysfs/sysfsroot.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestSysfsRoot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsTrimmedText();
    void missingFileIsAnErrorValue();
    void linkThroughLinkedDirectory();
    void linkLeavingTheRootIsIgnored();
    void writeTruncates();
    void writeErrorCarriesErrno();
    void liveOnlyForSys();
    // An untrusted (captured) tree: nothing outside it is read, nothing blocks, nothing is huge.
    void escapingLinkIsNotRead_data();
    void escapingLinkIsNotRead();
    void listAndLinkTargetStayInside();
    void fifoAttributeDoesNotBlock();
    void hugeAttributeIsCapped();
    void capturedTreeRefusesWrites();
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
    const SysfsRoot s = SysfsRoot::scratch(t.root());
    QVERIFY(s.write(QStringLiteral("block/x/queue/scheduler"), QStringLiteral("bfq")));
    QCOMPARE(s.read(QStringLiteral("block/x/queue/scheduler")).value(), QStringLiteral("bfq"));
}

void TestSysfsRoot::writeErrorCarriesErrno()
{
    FakeSysfs t;
    const SysfsRoot s = SysfsRoot::scratch(t.root());
    const Status st = s.write(QStringLiteral("block/none/queue/nr_requests"), QStringLiteral("4"));
    QVERIFY(!st);
    QVERIFY(st.errorMessage().contains(QLatin1String("No such file")));
}

void TestSysfsRoot::liveOnlyForSys()
{
    QVERIFY(SysfsRoot().isLive());
    QVERIFY(SysfsRoot().isWritable());
    QVERIFY(SysfsRoot::scratch(QStringLiteral("/sys")).isLive());
    QVERIFY(SysfsRoot(QStringLiteral("/sys/")).isLive());
    FakeSysfs t;
    QVERIFY(!SysfsRoot(t.root()).isLive());
}

namespace {
// A file outside every tree under test, with a secret in it.
struct Outside {
    QTemporaryDir dir;
    QString file() const { return dir.path() + QStringLiteral("/passwd"); }
    Outside()
    {
        QFile f(file());
        if (f.open(QIODevice::WriteOnly))
            f.write("root:secret\n");
    }
};
} // namespace

void TestSysfsRoot::escapingLinkIsNotRead_data()
{
    QTest::addColumn<QString>("link"); // where block/x/wwid points; %1 is the outside directory
    QTest::addColumn<bool>("walk"); // the component walk of kernels without openat2
    for (const bool walk : { false, true }) {
        const char *how = walk ? ", component walk" : ", openat2";
        QTest::addRow("absolute link to a file outside%s", how) << QStringLiteral("%1/passwd") << walk;
        QTest::addRow("relative link climbing out%s", how)
            << QStringLiteral("../../../../../../../../../../../../%1/passwd") << walk;
        QTest::addRow("absolute link to /etc/passwd%s", how) << QStringLiteral("/etc/passwd") << walk;
    }
}

void TestSysfsRoot::escapingLinkIsNotRead()
{
    QFETCH(QString, link);
    QFETCH(bool, walk);
    beneath::setForceFallback(walk);
    const auto reset = qScopeGuard([] { beneath::setForceFallback(false); });
    Outside outside;
    FakeSysfs t;
    t.dir(QStringLiteral("block/x"));
    const QString target = link.contains(QLatin1String("%1")) ? link.arg(outside.dir.path()) : link;
    QVERIFY(QFile::link(target, t.root() + QStringLiteral("/block/x/wwid")));
    // A directory link out of the tree, read through.
    QVERIFY(QFile::link(outside.dir.path(), t.root() + QStringLiteral("/block/x/device")));
    QTemporaryDir proc;
    QVERIFY(QFile::link(outside.file(), proc.path() + QStringLiteral("/diskstats")));
    const SysfsRoot s(t.root(), proc.path());
    const auto r = s.read(QStringLiteral("block/x/wwid"));
    QVERIFY2(!r, qPrintable(QStringLiteral("read %1 bytes from outside the tree").arg(r.valueOr({}).size())));
    QVERIFY2(r.errorMessage().contains(QLatin1String("out of the tree")), qPrintable(r.errorMessage()));
    QVERIFY(!s.read(QStringLiteral("block/x/device/passwd")));
    QVERIFY(!s.readRaw(QStringLiteral("block/x/device/passwd")));
    QVERIFY(!s.readProc(QStringLiteral("diskstats")));
    QVERIFY(!s.exists(QStringLiteral("block/x/device/passwd")));
    QVERIFY(!s.isDir(QStringLiteral("block/x/device")));
    // Links that stay inside still work (the tree's own relative links).
    t.file(QStringLiteral("devices/x/wwid"), QStringLiteral("naa.1"));
    QVERIFY(QFile::link(QStringLiteral("../../devices/x/wwid"), t.root() + QStringLiteral("/block/x/wwid2")));
    QCOMPARE(s.read(QStringLiteral("block/x/wwid2")).value(), QStringLiteral("naa.1"));
    QCOMPARE(s.linkTarget(QStringLiteral("block/x/wwid2")), QStringLiteral("devices/x/wwid"));
}

void TestSysfsRoot::listAndLinkTargetStayInside()
{
    Outside outside;
    FakeSysfs t;
    t.dir(QStringLiteral("block"));
    QVERIFY(QFile::link(outside.dir.path(), t.root() + QStringLiteral("/block/evil")));
    QVERIFY(QFile::link(QStringLiteral("../../../../../../../../../..") + outside.dir.path(),
        t.root() + QStringLiteral("/block/climb")));
    const SysfsRoot s(t.root(), QString());
    QCOMPARE(s.list(QStringLiteral("block")), QStringList({ QStringLiteral("climb"), QStringLiteral("evil") }));
    QCOMPARE(s.list(QStringLiteral("block/evil")), QStringList());
    QCOMPARE(s.list(QStringLiteral("block/climb")), QStringList());
    QCOMPARE(s.linkTarget(QStringLiteral("block/climb")), QString());
    QCOMPARE(s.linkTarget(QStringLiteral("block/evil/passwd")), QString());
    QVERIFY(!s.isWritable(QStringLiteral("block/evil/passwd")));
}

void TestSysfsRoot::fifoAttributeDoesNotBlock()
{
    FakeSysfs t;
    t.dir(QStringLiteral("block/x/queue"));
    const QByteArray fifo = QFile::encodeName(t.root() + QStringLiteral("/block/x/queue/scheduler"));
    QCOMPARE(::mkfifo(fifo.constData(), 0644), 0);
    const SysfsRoot s(t.root(), QString());
    auto reading = std::async(std::launch::async, [&] { return s.read(QStringLiteral("block/x/queue/scheduler")); });
    if (reading.wait_for(std::chrono::seconds(3)) != std::future_status::ready) {
        // Unblock the reader (a writer that closes at once gives it EOF), then fail.
        const int w = ::open(fifo.constData(), O_WRONLY | O_NONBLOCK);
        if (w >= 0)
            ::close(w);
        reading.wait();
        QFAIL("reading a FIFO in the tree blocked");
    }
    const auto r = reading.get();
    QVERIFY(!r);
    QVERIFY2(r.errorMessage().contains(QLatin1String("not a regular file")), qPrintable(r.errorMessage()));
    QCOMPARE(s.list(QStringLiteral("block/x/queue/scheduler")), QStringList());
}

void TestSysfsRoot::hugeAttributeIsCapped()
{
    FakeSysfs t;
    t.file(QStringLiteral("block/x/size"), QString());
    // 100 MB, sparse: costs no disk.
    QVERIFY(QFile::resize(t.root() + QStringLiteral("/block/x/size"), 100 * 1000 * 1000));
    const SysfsRoot s(t.root(), QString());
    QElapsedTimer clock;
    clock.start();
    const auto r = s.read(QStringLiteral("block/x/size"));
    QVERIFY(!r);
    QVERIFY2(r.errorMessage().contains(QLatin1String("larger than 1048576 bytes")), qPrintable(r.errorMessage()));
    QVERIFY(!s.readRaw(QStringLiteral("block/x/size")));
    qInfo() << "100 MB attribute refused in" << clock.elapsed() << "ms";
}

void TestSysfsRoot::capturedTreeRefusesWrites()
{
    FakeSysfs t;
    t.file(QStringLiteral("block/x/queue/nomerges"), QStringLiteral("0"));
    const SysfsRoot captured(t.root(), QString());
    const Status st = captured.write(QStringLiteral("block/x/queue/nomerges"), QStringLiteral("2"));
    QVERIFY(!st);
    QVERIFY2(st.errorMessage().contains(QLatin1String("captured tree: read-only")), qPrintable(st.errorMessage()));
    QCOMPARE(captured.read(QStringLiteral("block/x/queue/nomerges")).value(), QStringLiteral("0"));
    QVERIFY(!captured.isWritable() && captured.checkWritable().errorMessage() == st.errorMessage());
    // A scratch tree (tests) is written like /sys, and is still not the live system.
    const SysfsRoot scratch = SysfsRoot::scratch(t.root());
    QVERIFY(scratch.isWritable() && !scratch.isLive());
    QVERIFY(scratch.write(QStringLiteral("block/x/queue/nomerges"), QStringLiteral("2")));
    QCOMPARE(captured.read(QStringLiteral("block/x/queue/nomerges")).value(), QStringLiteral("2"));
}

QTEST_GUILESS_MAIN(TestSysfsRoot)
#include "tst_sysfsroot.moc"
