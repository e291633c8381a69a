// dmtunectl list --json on the live /sys opens a bounded number of files per block device: the
// attribute files the output shows, nothing per device besides (libudev used to walk each device's path a
// component at a time and read its udev database entry a dozen times). Counted at the system-call level with
// strace (open and openat, failed ones included), over 200 scratch loop devices: the opens that 100 more attached
// loop devices add, per device: 6 (their udev database entries add one each where udevd keeps them). The process's own
// start (the dynamic loader, Qt) does not grow with the devices and is left out that way.
#include "scratchloop.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <fcntl.h>
#include <linux/loop.h>
#include <memory>
#include <sys/ioctl.h>
#include <unistd.h>
#include <vector>

using dmtune::live::ScratchLoop;

namespace {

struct OpenCount {
    qint64 opens = 0;
    qsizetype devices = 0; // disks and partitions (class/block) when the scan ran
    QByteArray json;
};

qsizetype blockDeviceCount()
{
    return QDir(QStringLiteral("/sys/class/block"))
        .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)
        .size();
}

} // namespace

class TestLiveListScale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void opensPerDeviceStayBounded();

private:
    bool attach(int count);
    OpenCount countListOpens();

    QStringList m_before; // /sys/block before the test: the loop devices it may delete are the others
    std::vector<std::unique_ptr<ScratchLoop>> m_loops;
};

void TestLiveListScale::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("strace") });
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    m_before = QDir(QStringLiteral("/sys/block")).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
}

void TestLiveListScale::cleanupTestCase()
{
    QStringList names;
    for (const auto &loop : m_loops)
        names << loop->name();
    m_loops.clear(); // detached, files deleted
    // The loop devices this test made the kernel create go too (LOOP_CTL_REMOVE; devtmpfs drops their nodes).
    const int control = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (control < 0)
        return;
    for (const QString &name : std::as_const(names)) {
        if (!m_before.contains(name))
            ::ioctl(control, LOOP_CTL_REMOVE, name.mid(4).toInt()); // EBUSY: someone took it since, left
    }
    ::close(control);
}

bool TestLiveListScale::attach(int count)
{
    for (int i = 0; i < count; ++i) {
        auto loop = std::make_unique<ScratchLoop>();
        if (!loop->create(1 << 20)) {
            qWarning("%s", qPrintable(loop->error()));
            return false;
        }
        m_loops.push_back(std::move(loop));
    }
    return true;
}

OpenCount TestLiveListScale::countListOpens()
{
    OpenCount count;
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("strace.txt"));
    QProcess strace;
    strace.setStandardOutputFile(dir.filePath(QStringLiteral("list.json")));
    strace.start(QStringLiteral("strace"),
        { QStringLiteral("-f"), QStringLiteral("-qq"), QStringLiteral("-e"), QStringLiteral("trace=open,openat"),
            QStringLiteral("-o"), trace, DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl"), QStringLiteral("list"),
            QStringLiteral("--json") });
    if (!strace.waitForFinished(120000) || strace.exitCode() != 0)
        return count;
    count.devices = blockDeviceCount();
    QFile lines(trace);
    if (!lines.open(QIODevice::ReadOnly))
        return count;
    while (!lines.readLine().isEmpty())
        ++count.opens;
    QFile json(dir.filePath(QStringLiteral("list.json")));
    if (json.open(QIODevice::ReadOnly))
        count.json = json.readAll();
    return count;
}

void TestLiveListScale::opensPerDeviceStayBounded()
{
    QVERIFY(attach(100));
    const OpenCount first = countListOpens();
    QVERIFY2(first.opens > 0, "strace dmtunectl list --json did not run");
    QVERIFY(attach(100));
    const OpenCount second = countListOpens();
    QVERIFY2(second.opens > 0, "strace dmtunectl list --json did not run");
    // The scan saw the devices it is charged for.
    for (const auto &loop : m_loops)
        QVERIFY2(second.json.contains("\"name\": \"" + loop->name().toUtf8() + '"'), qPrintable(loop->name()));
    const qsizetype added = second.devices - first.devices;
    // The second hundred are new devices unless others freed loop devices meanwhile (a busy machine).
    QVERIFY2(added >= 50, qPrintable(QStringLiteral("only %1 new block devices").arg(added)));
    const double perDevice = double(second.opens - first.opens) / double(added);
    qInfo("list --json: %lld opens at %lld block devices, %lld at %lld: %.2f per added device (%.2f per device "
          "overall)",
        first.opens, qlonglong(first.devices), second.opens, qlonglong(second.devices), perDevice,
        double(second.opens) / double(second.devices));
    // An attached loop device: size, ro, removable, queue/rotational, queue/scheduler, loop/backing_file; and its
    // udev database entry where udevd keeps one (none on a machine without udevd).
    int withEntry = 0;
    for (std::size_t i = m_loops.size() - 100; i < m_loops.size(); ++i) {
        QFile dev(QStringLiteral("/sys/block/%1/dev").arg(m_loops[i]->name()));
        if (dev.open(QIODevice::ReadOnly)
            && QFile::exists(QStringLiteral("/run/udev/data/b") + QString::fromLatin1(dev.readAll().trimmed())))
            ++withEntry;
    }
    const double limit = 6.0 + withEntry / 100.0;
    QVERIFY2(perDevice <= limit,
        qPrintable(QStringLiteral("%1 file opens per block device, more than %2").arg(perDevice).arg(limit)));
}

QTEST_GUILESS_MAIN(TestLiveListScale)
#include "tst_live_listscale.moc"
