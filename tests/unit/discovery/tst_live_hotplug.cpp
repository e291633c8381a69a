// live (root): a real loop device appears in, changes in and disappears from the snapshot
// through the udev monitor (kernel uevents when udevd does not run), each within a second.
#include "core/discovery/discovery.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace dmtune;

namespace {
// A loop number unlikely to be in use; the test creates the device and removes it again.
constexpr int loopNumber = 217;

bool loopControl(unsigned long request, int number)
{
    const int fd = ::open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return false;
    const int rc = ::ioctl(fd, request, number);
    ::close(fd);
    return rc >= 0;
}

QString run(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(10000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}
} // namespace

class TestLiveHotplug : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void loopAppearsChangesAndVanishes();
    void cleanupTestCase();

private:
    QTemporaryDir m_dir;
    QString m_name = QStringLiteral("loop%1").arg(loopNumber);
    bool m_created = false;
};

void TestLiveHotplug::initTestCase()
{
    if (::geteuid() != 0)
        QSKIP("needs root (creates a loop device)");
    if (!QFile::exists(QStringLiteral("/dev/loop-control")))
        QSKIP("no /dev/loop-control");
    if (QFile::exists(QStringLiteral("/sys/block/") + m_name))
        QSKIP("loop217 exists already; not touching a device this test did not create");
    QVERIFY(m_dir.isValid());
}

void TestLiveHotplug::loopAppearsChangesAndVanishes()
{
    Discovery discovery;
    QSignalSpy changed(&discovery, &Discovery::snapshotChanged);
    discovery.start();
    QTRY_VERIFY_WITH_TIMEOUT(discovery.hasSnapshot(), 5000);
    QVERIFY2(!discovery.monitorSource().isEmpty(), qPrintable(discovery.monitorError()));
    QVERIFY(!discovery.snapshot().device(m_name));

    // add: LOOP_CTL_ADD makes the kernel announce a new disk
    QSignalSpy added(&discovery, &Discovery::devicesAdded);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(loopControl(LOOP_CTL_ADD, loopNumber));
    m_created = true;
    QTRY_VERIFY_WITH_TIMEOUT(discovery.snapshot().device(m_name), 1000);
    qInfo("add seen after %lld ms (monitor: %s)", clock.elapsed(), qPrintable(discovery.monitorSource()));
    QVERIFY(!added.isEmpty());
    QCOMPARE(discovery.snapshot().device(m_name)->kind, DeviceKind::Loop);

    // change: attaching a backing file
    const QString image = m_dir.filePath(QStringLiteral("backing.img"));
    {
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(16 << 20));
    }
    clock.restart();
    run(QStringLiteral("losetup"), { QStringLiteral("/dev/") + m_name, image });
    QTRY_COMPARE_WITH_TIMEOUT(discovery.snapshot().device(m_name)->loopBackingFile, image, 1000);
    QCOMPARE(discovery.snapshot().device(m_name)->sizeBytes, qint64(16 << 20));
    qInfo("attach seen after %lld ms", clock.elapsed());

    run(QStringLiteral("losetup"), { QStringLiteral("-d"), QStringLiteral("/dev/") + m_name });
    QTRY_VERIFY_WITH_TIMEOUT(discovery.snapshot().device(m_name)->loopBackingFile.isEmpty(), 1000);

    // remove
    QSignalSpy removed(&discovery, &Discovery::devicesRemoved);
    clock.restart();
    QVERIFY(loopControl(LOOP_CTL_REMOVE, loopNumber));
    m_created = false;
    QTRY_VERIFY_WITH_TIMEOUT(!discovery.snapshot().device(m_name), 1000);
    qInfo("remove seen after %lld ms", clock.elapsed());
    QVERIFY(!removed.isEmpty());
    QVERIFY(removed.first().first().toStringList().contains(m_name));
}

void TestLiveHotplug::cleanupTestCase()
{
    if (!m_created)
        return;
    run(QStringLiteral("losetup"), { QStringLiteral("-d"), QStringLiteral("/dev/") + m_name });
    loopControl(LOOP_CTL_REMOVE, loopNumber);
}

QTEST_GUILESS_MAIN(TestLiveHotplug)
#include "tst_live_hotplug.moc"
