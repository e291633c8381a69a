// vm (real kernel): `dmtunectl run batched-write-4k --device mpatha --record` in the lab guest. The guard
// refuses a path (held by the map); on the map the run needs no confirmation (an empty LUN), the summary and
// the recording hold the map's and its four paths' series, with merges on the map (mq-deadline) and I/O on
// the active group's paths. The recording is left in $KLAB_OUT. A loop disk under a dm linear map (as LVM or
// multipath hold a disk) is refused, and so is its partition, even with --destroy-data-on; free again once
// the map is gone. Runs inside the lab VM; skips elsewhere.
#include "tests/common/mustsucceed.h"
#include "tests/common/testpaths.h"
#include "tests/vm/multipath/vmsupport.h"

#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingwriter.h"
#include "core/workloads/writeguard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace dmtune;

namespace {
const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
}

class TestVmWorkload : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void guardRefusesAPathOfTheMap();
    void recordedRunOnTheMap();
    void guardRefusesADiskUnderADmMapAndItsPartition();
    void cleanupTestCase();

private:
    QString m_out, m_map, m_dm, m_oldScheduler;
    QStringList m_paths;
    SysfsRoot m_sys;
};

void TestVmWorkload::initTestCase()
{
    m_out = qEnvironmentVariable("KLAB_OUT");
    if (m_out.isEmpty())
        QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R workload' as root");
    QVERIFY(::geteuid() == 0);
    const QStringList args { DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/setup-multipath.sh") };
    const vm::Run setup = vm::run(QStringLiteral("bash"), args);
    QVERIFY2(setup.exitCode == 0, qPrintable(vm::describe(QStringLiteral("bash"), args, setup)));
    const QHash<QString, QString> env = vm::parseVars(setup.out);
    m_map = env.value(QStringLiteral("MAP"));
    m_dm = env.value(QStringLiteral("DM"));
    m_paths = env.value(QStringLiteral("SD")).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QCOMPARE(m_paths.size(), 4);
    // Request-based multipath merges in the map's own scheduler (see docs/stats.md).
    m_oldScheduler = m_sys.readOr(QStringLiteral("block/%1/queue/scheduler").arg(m_dm));
    QVERIFY(m_sys.write(QStringLiteral("block/%1/queue/scheduler").arg(m_dm), QStringLiteral("mq-deadline")));
}

void TestVmWorkload::guardRefusesAPathOfTheMap()
{
    const QStringList args { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
        m_paths.first(), QStringLiteral("--dry-run") };
    const vm::Run r = vm::run(dmtunectl, args);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.contains(QStringLiteral("held by ") + m_dm), qPrintable(vm::describe(dmtunectl, args, r)));
}

void TestVmWorkload::recordedRunOnTheMap()
{
    const QString record = m_out + QStringLiteral("/workload-mpath.dmrec");
    const QStringList args { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
        m_map, QStringLiteral("--runtime"), QStringLiteral("4"), QStringLiteral("--record"), record,
        QStringLiteral("--json") };
    const vm::Run r = vm::run(dmtunectl, args, 180000);
    QVERIFY2(r.exitCode == 0, qPrintable(vm::describe(dmtunectl, args, r)));
    const QJsonObject summary
        = QJsonDocument::fromJson(r.out.mid(r.out.lastIndexOf(QStringLiteral("\n{\n")) + 1).toUtf8()).object();
    const QJsonObject devices = summary.value(QLatin1String("devices")).toObject();
    QCOMPARE(devices.keys().size(), 5); // the map and its 4 paths
    QVERIFY2(
        devices.value(m_dm).toObject().value(QLatin1String("wrqm/s")).toDouble() > 0, qPrintable(r.out.right(1500)));
    // Round-robin within the active group: its two paths carry the writes, the other group's wait.
    int busyPaths = 0;
    for (const QString &path : std::as_const(m_paths)) {
        QVERIFY(devices.contains(path));
        busyPaths += devices.value(path).toObject().value(QLatin1String("w/s")).toDouble() > 0;
    }
    QVERIFY2(busyPaths >= 2, qPrintable(r.out.right(1500)));

    const auto recording = readRecording(record);
    QVERIFY2(recording, qPrintable(recording.errorMessage()));
    const QStringList names = recording->deviceNames();
    QVERIFY(names.contains(m_dm));
    for (const QString &path : std::as_const(m_paths))
        QVERIFY(names.contains(path));
    QVERIFY(recording->fioProgress.size() >= 3);
    QCOMPARE(recording->fioResults.size(), 1);
    QVERIFY(!recording->markers.isEmpty());
    QCOMPARE(recording->markers.first().text, RecordingWriter::fioStartLabel());
}

void TestVmWorkload::guardRefusesADiskUnderADmMapAndItsPartition()
{
    QTemporaryDir dir;
    const QString image = dir.filePath(QStringLiteral("disk.img"));
    {
        QFile file(image);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(64LL << 20));
    }
    QProcess sfdisk;
    sfdisk.start(QStringLiteral("sfdisk"), { QStringLiteral("--quiet"), image });
    sfdisk.write("label: gpt\n,16MiB\n");
    sfdisk.closeWriteChannel();
    QVERIFY(sfdisk.waitForFinished(30000) && sfdisk.exitCode() == 0);
    vm::run(QStringLiteral("modprobe"), { QStringLiteral("loop") }); // Debian's kernel has it as a module
    const QStringList losetup { QStringLiteral("--find"), QStringLiteral("--show"), QStringLiteral("--partscan"),
        image };
    const vm::Run attach = vm::run(QStringLiteral("losetup"), losetup);
    QVERIFY2(attach.exitCode == 0, qPrintable(vm::describe(QStringLiteral("losetup"), losetup, attach)));
    const QString disk = attach.out.trimmed().mid(5);
    const QString part = disk + QStringLiteral("p1");
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(QStringLiteral("/dev/") + part), 5000);
    const auto dryRun = [](const QString &device) {
        return vm::run(dmtunectl,
            { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"), device,
                QStringLiteral("--destroy-data-on"), device, QStringLiteral("--dry-run") });
    };
    // dmtunectl takes whole devices only (its resolver refuses partitions): a partition through the core.
    const WriteDecision freePart = checkWrite(m_sys, part, true, QString()); // the disk free: it may be written
    const QString map = QStringLiteral("dmtune-vm-hold");
    const vm::Run create = vm::run(QStringLiteral("dmsetup"),
        { QStringLiteral("create"), map, QStringLiteral("--table"),
            QStringLiteral("0 %1 linear /dev/%2 0").arg((64LL << 20) / 512).arg(disk) });
    const vm::Run heldDisk = dryRun(disk);
    const WriteDecision heldPart = checkWrite(m_sys, part, true, part);
    vm::run(QStringLiteral("dmsetup"), { QStringLiteral("remove"), map });
    const vm::Run freedDisk = dryRun(disk);
    vm::run(QStringLiteral("losetup"), { QStringLiteral("-d"), QStringLiteral("/dev/") + disk });
    QVERIFY2(freePart.allowed, qPrintable(freePart.reasons.join(u'|')));
    QVERIFY2(create.exitCode == 0, qPrintable(create.err));
    QVERIFY2(heldDisk.exitCode == 1 && heldDisk.out.contains(QStringLiteral("\nrefused")), qPrintable(heldDisk.out));
    QVERIFY2(heldDisk.out.contains(QStringLiteral("held by dm-")), qPrintable(heldDisk.out));
    QVERIFY2(!heldPart.allowed && !heldPart.needsConfirmation, qPrintable(heldPart.reasons.join(u'|')));
    QVERIFY2(heldPart.reasons.join(u'|').contains(QStringLiteral("its disk %1 is held by dm-").arg(disk)),
        qPrintable(heldPart.reasons.join(u'|')));
    QVERIFY2(freedDisk.exitCode == 0, qPrintable(freedDisk.out)); // a partition table: confirmed, allowed
}

void TestVmWorkload::cleanupTestCase()
{
    if (!m_dm.isEmpty() && !m_oldScheduler.isEmpty()) {
        QString old = m_oldScheduler;
        const qsizetype open = old.indexOf(u'[');
        if (open >= 0)
            old = old.mid(open + 1, old.indexOf(u']') - open - 1);
        dmtune::test::warnOnFailure(
            m_sys.write(QStringLiteral("block/%1/queue/scheduler").arg(m_dm), old), "scheduler put back");
    }
}

QTEST_GUILESS_MAIN(TestVmWorkload)
#include "tst_vm_workload.moc"
