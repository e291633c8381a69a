// Device-mapper availability from temp sysfs/proc trees, and the libdevmapper backend refusing
// cleanly, without calling the library, when the kernel has no device-mapper.
#include "core/dm/backend/dmavailability.h"
#include "core/dm/backend/libdevmapperbackend.h"
#include "core/sysfs/sysfsroot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace dmtune;

namespace {
bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

// /proc/misc of this machine's kernel, which has no device-mapper.
const QByteArray miscWithoutDm = "234 btrfs-control\n259 cpu_dma_latency\n237 loop-control\n229 fuse\n";
// /proc/misc of a Debian kernel with dm_mod loaded.
const QByteArray miscWithDm = "236 device-mapper\n237 loop-control\n229 fuse\n";
} // namespace

class TestDmAvailability : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void noDeviceMapper();
    void noProcRoot();
    void moduleWithoutControl();
    void moduleAndControl();
    void procMiscOnly();
    void backendRefusesWithoutTouchingLibdevmapper();
    void liveMachineIsConsistent();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_sys;
    QString m_proc;
    QString m_control;
};

void TestDmAvailability::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_sys = m_dir->filePath(QStringLiteral("sys"));
    m_proc = m_dir->filePath(QStringLiteral("proc"));
    m_control = m_dir->filePath(QStringLiteral("dev/mapper/control"));
    QVERIFY(QDir().mkpath(m_sys + QStringLiteral("/module/loop")));
    QVERIFY(writeFile(m_proc + QStringLiteral("/misc"), miscWithoutDm));
}

void TestDmAvailability::noDeviceMapper()
{
    const DmAvailability dm = checkDeviceMapper(SysfsRoot(m_sys, m_proc), m_control);
    QVERIFY(!dm.available);
    QVERIFY2(dm.reason.contains(QStringLiteral("the kernel has no device-mapper")), qPrintable(dm.reason));
    QVERIFY(dm.reason.contains(m_sys + QStringLiteral("/module/dm_mod")));
    QVERIFY(dm.reason.contains(QStringLiteral("modprobe dm_mod")));
}

void TestDmAvailability::noProcRoot()
{
    // A captured sysfs tree without /proc: only module/dm_mod can tell.
    const DmAvailability dm = checkDeviceMapper(SysfsRoot(m_sys, QString()), m_control);
    QVERIFY(!dm.available);
    QVERIFY(dm.reason.contains(QStringLiteral("/proc/misc")));
}

void TestDmAvailability::moduleWithoutControl()
{
    QVERIFY(QDir().mkpath(m_sys + QStringLiteral("/module/dm_mod/parameters")));
    const DmAvailability dm = checkDeviceMapper(SysfsRoot(m_sys, m_proc), m_control);
    QVERIFY(!dm.available);
    QCOMPARE(dm.reason, QStringLiteral("device-mapper is loaded but %1 is missing").arg(m_control));
}

void TestDmAvailability::moduleAndControl()
{
    QVERIFY(QDir().mkpath(m_sys + QStringLiteral("/module/dm_mod")));
    QVERIFY(writeFile(m_control, {}));
    const DmAvailability dm = checkDeviceMapper(SysfsRoot(m_sys, m_proc), m_control);
    QVERIFY2(dm.available, qPrintable(dm.reason));
    QVERIFY(dm.reason.isEmpty());
}

void TestDmAvailability::procMiscOnly()
{
    // dm built in without a module directory: /proc/misc still lists it.
    QVERIFY(writeFile(m_proc + QStringLiteral("/misc"), miscWithDm));
    QVERIFY(writeFile(m_control, {}));
    QVERIFY(checkDeviceMapper(SysfsRoot(m_sys, m_proc), m_control).available);
}

void TestDmAvailability::backendRefusesWithoutTouchingLibdevmapper()
{
    // As root on a kernel without dm, any libdevmapper call would create /dev/mapper/control.
    const bool hostControlBefore = QFileInfo::exists(QStringLiteral("/dev/mapper/control"));
    LibDevmapperBackend backend(SysfsRoot(m_sys, m_proc), m_control);
    const QString reason = backend.availability().reason;
    QVERIFY(reason.contains(QStringLiteral("no device-mapper")));

    QCOMPARE(backend.listMaps().errorMessage(), reason);
    QCOMPARE(backend.info(QStringLiteral("mpatha")).errorMessage(), reason);
    QCOMPARE(backend.table(QStringLiteral("mpatha")).errorMessage(), reason);
    QCOMPARE(backend.status(QStringLiteral("mpatha")).errorMessage(), reason);
    QCOMPARE(backend.message(QStringLiteral("mpatha"), QStringLiteral("fail_path 8:16")).errorMessage(), reason);
    const auto line = parseTargetLine(u"0 131072 multipath 0 0 1 1 round-robin 0 1 1 8:0 1");
    QCOMPARE(backend.reload(QStringLiteral("mpatha"), { line.value() }).errorMessage(), reason);
    QCOMPARE(backend.waitEvent(QStringLiteral("mpatha"), 0).errorMessage(), reason);

    QCOMPARE(QFileInfo::exists(QStringLiteral("/dev/mapper/control")), hostControlBefore);
    QVERIFY(!QFileInfo::exists(m_control));
}

void TestDmAvailability::liveMachineIsConsistent()
{
    // Whatever this machine has: an unavailable device-mapper is reported as the backend's error.
    LibDevmapperBackend backend;
    const DmAvailability dm = backend.availability();
    if (dm.available)
        QSKIP("device-mapper is available here; the live backend is covered by the VM tests");
    QVERIFY(!dm.reason.isEmpty());
    QCOMPARE(backend.listMaps().errorMessage(), dm.reason);
}

QTEST_GUILESS_MAIN(TestDmAvailability)
#include "tst_dmavailability.moc"
