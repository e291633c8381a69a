// Workloads on real loop devices: the guard refuses to write over an ext4 file system and leaves it intact
// (in-process and through `dmtunectl run`), --destroy-data-on lets the write happen; the lab device is created
// with direct I/O and mq-deadline and removed without a trace; FioRun streams progress from a real fio and
// stop() ends it with SIGINT; a recorded `dmtunectl run` reads back; nomerges=2 shows in the run summary.
#include "livesupport.h"
#include "tests/live/scratchloop.h"

#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingwriter.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/fiorun.h"
#include "core/workloads/writeguard.h"
#include "tests/common/labdevice.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <sys/mount.h>

using namespace dmtune;
using namespace dmtune::live;

class TestLiveWorkloads : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void guardRefusesExt4AndLeavesItIntact();
    void cliRefusesWithoutConfirmationAndRunsWithIt();
    void cliRefusesAWriteWhileAnotherProcessHasTheDeviceOpen();
    void labDeviceLifecycle();
    void fioRunStreamsProgressAndStopsOnSigint();
    void recordedRunReadsBack();
    void summaryIsOverFiosIoWindow();

private:
    SysfsRoot m_root;
    QTemporaryDir m_work;
};

void TestLiveWorkloads::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason(ext4WitnessTools);
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    QVERIFY(QFileInfo::exists(dmtunectl));
    QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("mnt")));
}

void TestLiveWorkloads::guardRefusesExt4AndLeavesItIntact()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    const QString mnt = m_work.filePath(QStringLiteral("mnt"));
    const QByteArray witness = "written before the guard looked\n";
    QString error;
    QVERIFY2(makeExt4WithWitness(loop.devicePath(), mnt, witness, &error), qPrintable(error));

    // libblkid sees the file system; a write is refused, a read is not.
    const DeviceFacts facts = gatherDeviceFacts(m_root, loop.name());
    QVERIFY(facts.probeError.isEmpty());
    QCOMPARE(facts.signatures.size(), 1);
    QCOMPARE(facts.signatures.first().type, QStringLiteral("ext4"));
    QCOMPARE(facts.signatures.first().usage, QStringLiteral("filesystem"));
    const WriteDecision write = decideWrite(facts, true, QString());
    QVERIFY(!write.allowed);
    QVERIFY(write.needsConfirmation);
    QVERIFY(decideWrite(facts, false, QString()).allowed);
    QVERIFY(!decideWrite(facts, true, QStringLiteral("yes")).allowed);
    QVERIFY(decideWrite(facts, true, loop.name()).allowed);

    // Mounted, the mount is a reason of its own.
    QCOMPARE(::mount(QFile::encodeName(loop.devicePath()).constData(), QFile::encodeName(mnt).constData(), "ext4",
                 MS_RDONLY, nullptr),
        0);
    const DeviceFacts mounted = gatherDeviceFacts(m_root, loop.name());
    ::umount(QFile::encodeName(mnt).constData());
    QCOMPARE(mounted.mounts.size(), 1);
    QCOMPARE(mounted.mounts.first().mountPoint, mnt);
    QVERIFY(decideWrite(mounted, true, QString()).reasons.first().contains(QStringLiteral("is mounted on")));

    // An empty device needs no confirmation.
    ScratchLoop empty;
    QVERIFY2(empty.create(16LL << 20), qPrintable(empty.error()));
    const WriteDecision fresh = checkWrite(m_root, empty.name(), true, QString());
    QVERIFY2(fresh.allowed && !fresh.needsConfirmation, qPrintable(fresh.reasons.join(u'|')));

    QVERIFY2(ext4WitnessIntact(loop.devicePath(), mnt, witness, &error), qPrintable(error));
}

void TestLiveWorkloads::cliRefusesWithoutConfirmationAndRunsWithIt()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    ScratchLoop other;
    QVERIFY2(other.create(16LL << 20), qPrintable(other.error()));
    const QString mnt = m_work.filePath(QStringLiteral("mnt"));
    const QByteArray witness = "the CLI must not touch this\n";
    QString error;
    QVERIFY2(makeExt4WithWitness(loop.devicePath(), mnt, witness, &error), qPrintable(error));

    const QStringList job = { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
        loop.devicePath(), QStringLiteral("--runtime"), QStringLiteral("2") };
    const ProgramRun refused = runProgram(dmtunectl, job);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("holds ext4 (filesystem)")), qPrintable(refused.err));
    QVERIFY(refused.err.contains(QStringLiteral("--destroy-data-on ") + loop.name()));
    QCOMPARE(refused.err.count(QLatin1Char('\n')), 1); // one line, as every error
    // Confirming with another device is a usage error, and writes nothing either.
    const ProgramRun wrongDevice
        = runProgram(dmtunectl, job + QStringList { QStringLiteral("--destroy-data-on"), other.name() });
    QCOMPARE(wrongDevice.exitCode, 2);
    // A read workload runs without confirmation.
    const ProgramRun read = runProgram(dmtunectl,
        { QStringLiteral("run"), QStringLiteral("seq-read-8k-4jobs"), QStringLiteral("--device"), loop.name(),
            QStringLiteral("--runtime"), QStringLiteral("1"), QStringLiteral("--json") });
    QCOMPARE(read.exitCode, 0);
    QVERIFY2(ext4WitnessIntact(loop.devicePath(), mnt, witness, &error), qPrintable(error));

    // Confirmed: fio writes, and the file system is gone.
    const ProgramRun confirmed = runProgram(dmtunectl,
        job + QStringList { QStringLiteral("--destroy-data-on"), loop.devicePath(), QStringLiteral("--json") });
    QCOMPARE(confirmed.exitCode, 0);
    const QString summaryText = confirmed.out.mid(confirmed.out.lastIndexOf(QStringLiteral("\n{\n")) + 1);
    const QJsonObject summary = QJsonDocument::fromJson(summaryText.toUtf8()).object();
    QVERIFY2(!summary.isEmpty(), qPrintable(confirmed.out.right(400)));
    QVERIFY(
        summary.value(QLatin1String("fio")).toArray().first().toObject().value(QLatin1String("write_iops")).toDouble()
        > 0);
    QVERIFY(summary.value(QLatin1String("devices"))
                .toObject()
                .value(loop.name())
                .toObject()
                .value(QLatin1String("w/s"))
                .toDouble()
        > 0);
    QVERIFY(!ext4WitnessIntact(loop.devicePath(), mnt, witness, &error));
}

namespace {

// Field 5 of /sys/block/<name>/stat: writes completed on the device.
qint64 writesCompleted(const QString &name)
{
    QFile stat(QStringLiteral("/sys/block/%1/stat").arg(name));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    return QString::fromLatin1(stat.readAll()).simplified().section(u' ', 4, 4).toLongLong();
}

} // namespace

// A device open read-write by another process, not exclusively (a database on a raw device,
// a VM's disk), was written. Now the write is refused naming the opener, nothing is written, a read still runs,
// and once the opener is gone the same write runs.
void TestLiveWorkloads::cliRefusesAWriteWhileAnotherProcessHasTheDeviceOpen()
{
    if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        QSKIP("python3 is needed to hold the device open");
    ScratchLoop loop;
    QVERIFY2(loop.create(32LL << 20), qPrintable(loop.error()));
    QProcess holder;
    holder.start(QStringLiteral("python3"),
        { QStringLiteral("-c"),
            QStringLiteral("import os, sys, time\nfd = os.open(sys.argv[1], os.O_RDWR)\nprint('open', flush=True)\n"
                           "time.sleep(600)\n"),
            loop.devicePath() });
    QVERIFY(holder.waitForStarted());
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += holder.readAllStandardOutput()).contains("open"), 10000);
    const qint64 pid = holder.processId();
    QFile comm(QStringLiteral("/proc/%1/comm").arg(pid)); // "python3", or python3.12 behind a version manager
    QVERIFY(comm.open(QIODevice::ReadOnly));
    const QString name = QString::fromLocal8Bit(comm.readAll()).trimmed();

    const QStringList write = { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
        loop.name(), QStringLiteral("--runtime"), QStringLiteral("1") };
    const qint64 writesBefore = writesCompleted(loop.name());
    QVERIFY(writesBefore >= 0);
    const ProgramRun refused = runProgram(dmtunectl, write);
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(
        refused.err.contains(QStringLiteral("held open by %1, pid %2").arg(name).arg(pid)), qPrintable(refused.err));
    QCOMPARE(refused.err.count(QLatin1Char('\n')), 1); // one line, as every error
    QCOMPARE(writesCompleted(loop.name()), writesBefore); // no I/O reached the device

    // A read workload never needs the device to itself.
    const ProgramRun read = runProgram(dmtunectl,
        { QStringLiteral("run"), QStringLiteral("seq-read-8k-4jobs"), QStringLiteral("--device"), loop.name(),
            QStringLiteral("--runtime"), QStringLiteral("1") });
    QVERIFY2(read.exitCode == 0, qPrintable(read.err));
    QCOMPARE(writesCompleted(loop.name()), writesBefore);

    holder.kill();
    QVERIFY(holder.waitForFinished());
    const ProgramRun ran = runProgram(dmtunectl, write);
    QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
    QVERIFY(writesCompleted(loop.name()) > writesBefore);

    // An opener that closes the device at once (udev's probe after a write, a checker) is waited out, not
    // refused: the run starts while it still has the device open and writes once it is gone.
    QProcess brief;
    brief.start(QStringLiteral("python3"),
        { QStringLiteral("-c"),
            QStringLiteral("import os, sys, time\nfd = os.open(sys.argv[1], os.O_RDONLY)\nprint('open', flush=True)\n"
                           "time.sleep(0.5)\nos.close(fd)\ntime.sleep(600)\n"),
            loop.devicePath() });
    QVERIFY(brief.waitForStarted());
    QByteArray briefSaid;
    QTRY_VERIFY_WITH_TIMEOUT((briefSaid += brief.readAllStandardOutput()).contains("open"), 10000);
    const ProgramRun waited = runProgram(dmtunectl, write);
    brief.kill();
    brief.waitForFinished();
    QVERIFY2(waited.exitCode == 0, qPrintable(waited.err));
}

void TestLiveWorkloads::labDeviceLifecycle()
{
    QString why;
    QVERIFY2(LabDevice::canCreate(&why), qPrintable(why));
    QString name, file, schedulerBefore;
    {
        LabDevice lab;
        lab.setBaseDirectory(m_work.path());
        QSignalSpy created(&lab, &LabDevice::created);
        const auto result = lab.create(256LL << 20);
        QVERIFY2(result, qPrintable(result.errorMessage()));
        name = result.value();
        file = lab.backingFile();
        QCOMPARE(created.count(), 1);
        QVERIFY(name.startsWith(QLatin1String("loop")));
        QCOMPARE(lab.deviceName(), name);
        QCOMPARE(lab.create().value(), name); // one lab device per object
        QCOMPARE(m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(name)), file);
        QCOMPARE(m_root.readOr(QStringLiteral("block/%1/loop/dio").arg(name)), QStringLiteral("1"));
        QVERIFY(lab.directIo());
        QCOMPARE(m_root.readOr(QStringLiteral("block/%1/size").arg(name)).toLongLong(), (256LL << 20) / 512);
        QVERIFY(m_root.readOr(QStringLiteral("block/%1/queue/scheduler").arg(name))
                    .contains(QStringLiteral("[mq-deadline]")));
        QVERIFY(QFileInfo(file).size() == (256LL << 20));
        QVERIFY(checkWrite(m_root, name, true, QString()).allowed); // empty: the safe default target
        schedulerBefore = lab.schedulerBefore();
        QVERIFY(!schedulerBefore.isEmpty());
        // Removed explicitly here; the destructor would do the same (the app's exit).
        QVERIFY(lab.remove());
        QVERIFY(!lab.exists());
    }
    QVERIFY(!QFileInfo::exists(file));
    QVERIFY(m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(name)).isEmpty());
    // Loop devices keep queue settings after detach: the next user gets what the device had.
    QVERIFY(
        m_root.readOr(QStringLiteral("block/%1/queue/scheduler").arg(name)).contains(u'[' + schedulerBefore + u']'));
    {
        LabDevice lab;
        lab.setBaseDirectory(m_work.path());
        name = lab.create(16LL << 20).value();
        file = lab.backingFile();
        QVERIFY(!name.isEmpty());
    } // destructor
    QVERIFY(!QFileInfo::exists(file));
    QVERIFY(m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(name)).isEmpty());
}

void TestLiveWorkloads::fioRunStreamsProgressAndStopsOnSigint()
{
    LabDevice lab;
    lab.setBaseDirectory(m_work.path());
    QVERIFY(lab.create(256LL << 20));
    FioJob job = *fioTemplate(QStringLiteral("batched-write-4k"));
    job.runtimeSeconds = 60;
    FioRun run;
    QSignalSpy started(&run, &FioRun::started);
    QSignalSpy progress(&run, &FioRun::progress);
    QSignalSpy finished(&run, &FioRun::finished);
    QSignalSpy failed(&run, &FioRun::failed);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(run.start(fioArguments(job, lab.devicePath())));
    QVERIFY(run.isRunning());
    QVERIFY(!run.start({})); // one run at a time
    QVERIFY(started.wait(10000));
    QVERIFY(run.fioVersion().majorVersion() >= 3);
    QCOMPARE(started.first().at(1).toStringList().first(), FioRun::findFio().value());
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 3, 15000);
    for (const auto &args : std::as_const(progress)) {
        const FioProgress p = args.first().value<FioProgress>();
        QCOMPARE(p.rates.size(), 1);
        QVERIFY(p.rates.first().writeIops > 0);
        QCOMPARE(p.rates.first().readIops, 0.0);
        QVERIFY(p.rates.first().clat.perInterval);
        QVERIFY(p.rates.first().clat.p50Ns > 0);
        QVERIFY(p.rates.first().clat.p99Ns >= p.rates.first().clat.p50Ns);
    }
    run.stop();
    QVERIFY(finished.wait(10000));
    QVERIFY(failed.isEmpty());
    QVERIFY(clock.elapsed() < 30000); // well before fio's own 60 s
    const FioOutcome outcome = finished.first().first().value<FioOutcome>();
    QVERIFY(outcome.stopped);
    QVERIFY(!outcome.killed); // SIGINT was enough: fio wrote its final report
    QVERIFY(outcome.otherLines.contains(QStringLiteral("fio: terminating on signal 2")));
    QVERIFY(!outcome.final.isEmpty());
    QCOMPARE(outcome.overall.size(), 1);
    QVERIFY(outcome.overall.first().writeIops > 0);
    QVERIFY(!run.isRunning());
}

void TestLiveWorkloads::recordedRunReadsBack()
{
    LabDevice lab;
    lab.setBaseDirectory(m_work.path());
    const auto name = lab.create(256LL << 20);
    QVERIFY(name);
    const QString record = m_work.filePath(QStringLiteral("run.dmrec"));
    const QStringList job = { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
        name.value(), QStringLiteral("--runtime"), QStringLiteral("3"), QStringLiteral("--json") };
    const ProgramRun merged = runProgram(dmtunectl, job + QStringList { QStringLiteral("--record"), record });
    QCOMPARE(merged.exitCode, 0);

    const auto recording = readRecording(record);
    QVERIFY2(recording, qPrintable(recording.errorMessage()));
    QVERIFY(recording->truncation.isEmpty());
    QVERIFY(recording->deviceNames().contains(name.value()));
    QVERIFY(recording->batches.size() >= 3);
    QVERIFY(recording->fioProgress.size() >= 3);
    QVERIFY(recording->fioProgress.first().status.contains(QStringLiteral("dmtune_rates")));
    QCOMPARE(recording->fioResults.size(), 1);
    QVERIFY(recording->fioResults.first().argv.contains(QStringLiteral("--filename=/dev/") + name.value()));
    QStringList labels;
    for (const RecordedEvent &m : recording->markers)
        labels << m.text;
    QCOMPARE(labels, (QStringList { RecordingWriter::fioStartLabel(), RecordingWriter::fioEndLabel() }));

    // The summary's device statistics show the merges, and nomerges=2 takes them away.
    const auto wrqm = [&](const ProgramRun &run) {
        const QJsonObject summary
            = QJsonDocument::fromJson(run.out.mid(run.out.lastIndexOf(QStringLiteral("\n{\n")) + 1).toUtf8()).object();
        return summary.value(QLatin1String("devices"))
            .toObject()
            .value(name.value())
            .toObject()
            .value(QLatin1String("wrqm/s"))
            .toDouble(-1);
    };
    QVERIFY2(wrqm(merged) > 0, qPrintable(merged.out.right(600)));
    const QString nomerges = QStringLiteral("block/%1/queue/nomerges").arg(name.value());
    const QString old = m_root.readOr(nomerges);
    QVERIFY(m_root.write(nomerges, QStringLiteral("2")));
    const ProgramRun unmerged = runProgram(dmtunectl, job);
    QVERIFY(m_root.write(nomerges, old)); // loop devices keep queue settings after detach
    QCOMPARE(unmerged.exitCode, 0);
    QCOMPARE(wrqm(unmerged), 0.0);
}

QTEST_GUILESS_MAIN(TestLiveWorkloads)
#include "tst_live_workloads.moc"

// The summary's device rates are over fio's I/O window (the map's w/s read 694 against fio's 1,126
// IOPS when divided by the sampling window): on the test's loop device, the device's completed plus merged
// writes per second equal fio's write IOPS. The progress lines: no line of zeros before the I/O, no runtime
// printed twice, the merge columns shown.
void TestLiveWorkloads::summaryIsOverFiosIoWindow()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    const QStringList job
        = { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"), loop.name(),
              QStringLiteral("--destroy-data-on"), loop.name(), QStringLiteral("--runtime"), QStringLiteral("3") };
    const ProgramRun text = runProgram(dmtunectl, job);
    QCOMPARE(text.exitCode, 0);
    QStringList runtimes;
    for (const QString &line : text.out.split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char('[')))
            continue;
        const QString runtime = line.section(QLatin1Char(']'), 0, 0);
        QVERIFY2(!runtimes.contains(runtime), qPrintable(text.out));
        runtimes << runtime;
        QVERIFY2(!line.contains(QStringLiteral("write 0 IOPS")), qPrintable(line));
    }
    QVERIFY2(runtimes.size() >= 3, qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("%wrqm")) && text.out.contains(QStringLiteral("wareq-sz")),
        qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("devices over fio's 3.0 s of I/O")), qPrintable(text.out));

    const ProgramRun json = runProgram(dmtunectl, job + QStringList { QStringLiteral("--json") });
    QCOMPARE(json.exitCode, 0);
    const QJsonObject summary
        = QJsonDocument::fromJson(json.out.mid(json.out.lastIndexOf(QStringLiteral("\n{\n")) + 1).toUtf8()).object();
    QCOMPARE(summary.value(QLatin1String("device_window")).toString(), QStringLiteral("fio"));
    QVERIFY(qAbs(summary.value(QLatin1String("device_seconds")).toDouble() - 3.0) < 0.05);
    QVERIFY(summary.value(QLatin1String("sampled_seconds")).toDouble()
        >= summary.value(QLatin1String("device_seconds")).toDouble());
    const double fioIops = summary.value(QLatin1String("fio"))
                               .toArray()
                               .first()
                               .toObject()
                               .value(QLatin1String("write_iops"))
                               .toDouble();
    const QJsonObject device = summary.value(QLatin1String("devices")).toObject().value(loop.name()).toObject();
    const double requests
        = device.value(QLatin1String("w/s")).toDouble() + device.value(QLatin1String("wrqm/s")).toDouble();
    QVERIFY2(fioIops > 1000, qPrintable(QString::number(fioIops)));
    QVERIFY2(qAbs(requests - fioIops) <= 0.03 * fioIops,
        qPrintable(QStringLiteral("fio %1 IOPS, %2 w/s + wrqm/s").arg(fioIops).arg(requests)));
}
