// What the write guard checks stays true until fio ends, on real loop devices with real fio: a device mounted
// here or in another mount namespace, opened exclusively by someone else, or a partition of such a disk is
// refused even when confirmed; an allowed write holds the device (a mount fails with EBUSY while fio runs) and
// lets go at the end; the node must be the device sysfs names; a GPT without its protective MBR is seen. fio
// dies with a SIGKILLed dmtunectl, SIGHUP ends a recorded run cleanly. A lab device is detached only when its
// backing file is still ours, and a killed process's lab device is removed by the next create().
#include "livesupport.h"
#include "tests/live/scratchloop.h"

#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingwriter.h"
#include "core/workloads/devicehold.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/fiorun.h"
#include "core/workloads/writeguard.h"
#include "tests/common/labdevice.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include <csignal>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace dmtune;
using namespace dmtune::live;

namespace {

// The test binary started again with this set creates a lab device in that directory, prints its name and
// waits to be killed: a dmtune that crashed with a lab device.
const char *const labChildVariable = "DMTUNE_TEST_LAB_CHILD";

// A file attached as a loop device (optionally with partition scanning), detached when this goes away.
class AttachedFile {
public:
    AttachedFile() = default;
    AttachedFile(const AttachedFile &) = delete;
    AttachedFile &operator=(const AttachedFile &) = delete;
    ~AttachedFile() { detach(); }
    bool attach(const QString &file, bool partscan, const QString &device = QStringLiteral("--find"))
    {
        QStringList args { QStringLiteral("--show"), QStringLiteral("--direct-io=on") };
        if (partscan)
            args << QStringLiteral("--partscan");
        args << device << file;
        const ProgramRun r = runProgram(QStringLiteral("losetup"), args);
        m_device = r.out.trimmed();
        if (r.exitCode != 0 || !m_device.startsWith(QLatin1String("/dev/loop"))) {
            m_error = QStringLiteral("losetup: ") + r.err;
            m_device.clear();
            return false;
        }
        return true;
    }
    void detach()
    {
        if (!m_device.isEmpty())
            QProcess::execute(QStringLiteral("losetup"), { QStringLiteral("-d"), m_device });
        m_device.clear();
    }
    QString devicePath() const { return m_device; }
    QString name() const { return m_device.mid(5); }
    QString error() const { return m_error; }

private:
    QString m_device, m_error;
};

bool makeSparse(const QString &path, qint64 bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.resize(bytes);
}

// sfdisk writes a partition table into a plain file (before it is attached).
bool partition(const QString &file, const QByteArray &script, QString *error)
{
    QProcess sfdisk;
    sfdisk.start(QStringLiteral("sfdisk"), { QStringLiteral("--quiet"), QStringLiteral("--no-reread"), file });
    sfdisk.write(script);
    sfdisk.closeWriteChannel();
    if (!sfdisk.waitForFinished(30000) || sfdisk.exitCode() != 0) {
        *error = QStringLiteral("sfdisk: ") + QString::fromLocal8Bit(sfdisk.readAllStandardError());
        return false;
    }
    return true;
}

// open(2) with O_EXCL, as mount and dm do; returns the descriptor or -errno.
int openExclusive(const QString &device)
{
    const int fd = ::open(QFile::encodeName(device).constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

// /proc/<pid>/stat after the command name: state, ppid, pgrp, ...; empty when the process is gone.
QList<QByteArray> statFields(int pid, QByteArray *comm = nullptr)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = stat.readAll();
    if (comm)
        *comm = text.mid(text.indexOf('(') + 1, text.lastIndexOf(')') - text.indexOf('(') - 1);
    return text.mid(text.lastIndexOf(')') + 2).split(' ');
}

QList<int> allPids()
{
    QList<int> pids;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const int pid = entry.toInt(&ok);
        if (ok)
            pids << pid;
    }
    return pids;
}

// The fio that `parent` started and the job processes it forked (fio puts each in a session of its own, so
// they are found by parent, not by process group); empty when there is no fio.
QList<int> fioFamily(qint64 parent)
{
    QList<int> family;
    const QList<int> pids = allPids();
    for (int pid : pids) {
        QByteArray comm;
        const QList<QByteArray> f = statFields(pid, &comm);
        if (comm == "fio" && f.size() > 1 && f.at(1).toLongLong() == parent)
            family << pid;
    }
    if (family.isEmpty())
        return {};
    for (int pid : pids) {
        const QList<QByteArray> f = statFields(pid);
        if (f.size() > 1 && f.at(1).toInt() == family.first())
            family << pid;
    }
    return family;
}

// Those of `pids` that still run (zombies do not: this sandbox's init may never reap them).
QList<int> stillRunning(const QList<int> &pids)
{
    QList<int> running;
    for (int pid : pids) {
        const QList<QByteArray> f = statFields(pid);
        if (!f.isEmpty() && f.at(0) != "Z" && f.at(0) != "X")
            running << pid;
    }
    return running;
}

void killAll(const QList<int> &pids)
{
    for (int pid : stillRunning(pids))
        ::kill(pid, SIGKILL);
}

// `dmtunectl run` in the background, until its stderr says fio started.
bool startRun(QProcess *p, const QStringList &args, QString *why)
{
    p->start(dmtunectl, args);
    QElapsedTimer clock;
    clock.start();
    QByteArray err;
    while (clock.elapsed() < 20000) {
        p->waitForReadyRead(200);
        err += p->readAllStandardError();
        if (err.contains("fio started"))
            return true;
        if (p->state() == QProcess::NotRunning)
            break;
    }
    *why = QStringLiteral("no 'fio started': ") + QString::fromLocal8Bit(err + p->readAllStandardError());
    return false;
}

int labChildMain(const QString &dir)
{
    LabDevice lab;
    lab.setBaseDirectory(dir);
    const auto created = lab.create(16LL << 20);
    if (!created) {
        fprintf(stderr, "%s\n", qPrintable(created.errorMessage()));
        return 1;
    }
    printf("%s\n", qPrintable(created.value()));
    fflush(stdout);
    ::pause(); // killed here, with the device attached
    return 0;
}

} // namespace

class TestLiveHolds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refusesAMountedDeviceEvenConfirmed();
    void refusesAMountInAnotherNamespace();
    void refusesAnExclusivelyOpenedDevice();
    void refusesAPartitionOfAHeldDisk();
    void holdsTheDeviceWhileFioRuns();
    void seesAGptWithoutItsProtectiveMbr();
    void fioDiesWithItsParent();
    void fioJobsDieWithAKilledRun();
    void refusesANodeThatIsNotTheCheckedDevice();
    void sighupEndsARecordedRunCleanly();
    void leavesALoopDeviceThatIsNoLongerOurs();
    void removesAKilledProcessesLabDevice();

private:
    SysfsRoot m_root;
    QTemporaryDir m_work;
};

void TestLiveHolds::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("fio"),
        QStringLiteral("mkfs.ext4"), QStringLiteral("sfdisk"), QStringLiteral("unshare") });
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    QVERIFY(QFileInfo::exists(dmtunectl));
    QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("mnt")));
}

void TestLiveHolds::refusesAMountedDeviceEvenConfirmed()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(32LL << 20), qPrintable(loop.error()));
    QCOMPARE(runProgram(QStringLiteral("mkfs.ext4"), { QStringLiteral("-q"), QStringLiteral("-F"), loop.devicePath() })
                 .exitCode,
        0);
    const QString mnt = m_work.filePath(QStringLiteral("mnt"));
    QCOMPARE(::mount(QFile::encodeName(loop.devicePath()).constData(), QFile::encodeName(mnt).constData(), "ext4",
                 MS_RDONLY, nullptr),
        0);
    // Confirmed by name, a mounted device is still refused: the file system is in use, not just data.
    const WriteDecision d = checkWrite(m_root, loop.name(), true, loop.name());
    const ProgramRun cli = runProgram(dmtunectl,
        { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"), loop.name(),
            QStringLiteral("--destroy-data-on"), loop.name(), QStringLiteral("--dry-run") });
    ::umount(QFile::encodeName(mnt).constData());
    QVERIFY2(!d.allowed, qPrintable(d.reasons.join(u'|')));
    QVERIFY(!d.needsConfirmation);
    QVERIFY(d.reasons.first().contains(QStringLiteral("is mounted on ") + mnt));
    QCOMPARE(cli.exitCode, 1);
    QVERIFY2(cli.out.contains(QStringLiteral("\nrefused")), qPrintable(cli.out));
    // Unmounted, the confirmation is what it takes (ext4 is data the user may mean to destroy).
    QVERIFY(checkWrite(m_root, loop.name(), true, loop.name()).allowed);
    QVERIFY(!checkWrite(m_root, loop.name(), true, QString()).allowed);
}

void TestLiveHolds::refusesAMountInAnotherNamespace()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(32LL << 20), qPrintable(loop.error()));
    QCOMPARE(runProgram(QStringLiteral("mkfs.ext4"), { QStringLiteral("-q"), QStringLiteral("-F"), loop.devicePath() })
                 .exitCode,
        0);
    // A private mount namespace kept alive by its one process: the mount is in no mountinfo dmtune can read.
    QProcess holder;
    holder.start(QStringLiteral("unshare"),
        { QStringLiteral("--mount"), QStringLiteral("--propagation"), QStringLiteral("private"), QStringLiteral("sh"),
            QStringLiteral("-c"),
            QStringLiteral("mount -o ro %1 %2 && echo mounted && exec sleep 60")
                .arg(loop.devicePath(), m_work.filePath(QStringLiteral("mnt"))) });
    QVERIFY(holder.waitForReadyRead(10000));
    QCOMPARE(holder.readAllStandardOutput().trimmed(), QByteArray("mounted"));
    const DeviceFacts facts = gatherDeviceFacts(m_root, loop.name());
    const WriteDecision d = checkWrite(m_root, loop.name(), true, loop.name());
    holder.kill(); // the namespace goes with its last process, and the mount with it
    holder.waitForFinished();
    QVERIFY(facts.mounts.isEmpty()); // invisible here...
    QVERIFY2(!d.allowed, qPrintable(d.reasons.join(u'|'))); // ...and still refused, by the O_EXCL hold
    QVERIFY2(d.reasons.join(u'|').contains(QStringLiteral("is in use")), qPrintable(d.reasons.join(u'|')));
    // Legitimate again once nothing has it: the namespace's teardown may take a moment.
    QTRY_VERIFY_WITH_TIMEOUT(checkWrite(m_root, loop.name(), true, loop.name()).allowed, 5000);
}

void TestLiveHolds::refusesAnExclusivelyOpenedDevice()
{
    // What LIO, ZFS, dm and md do to a disk they use, done here by the test (no dm on every CI kernel; the
    // vm test has a real dm map over a loop device).
    ScratchLoop loop;
    QVERIFY2(loop.create(16LL << 20), qPrintable(loop.error()));
    QVERIFY(checkWrite(m_root, loop.name(), true, QString()).allowed); // empty and free: runs unconfirmed
    const int fd = openExclusive(loop.devicePath());
    QVERIFY(fd >= 0);
    const WriteDecision d = checkWrite(m_root, loop.name(), true, loop.name());
    ::close(fd);
    QVERIFY2(!d.allowed && !d.needsConfirmation, qPrintable(d.reasons.join(u'|')));
    QVERIFY(d.reasons.join(u'|').contains(QStringLiteral("is in use")));
    QVERIFY(checkWrite(m_root, loop.name(), true, QString()).allowed);
}

void TestLiveHolds::refusesAPartitionOfAHeldDisk()
{
    const QString image = m_work.filePath(QStringLiteral("parted.img"));
    QVERIFY(makeSparse(image, 32LL << 20));
    QString error;
    QVERIFY2(partition(image, "label: gpt\n,8MiB\n,8MiB\n", &error), qPrintable(error));
    AttachedFile disk;
    QVERIFY2(disk.attach(image, true), qPrintable(disk.error()));
    const QString part = disk.name() + QStringLiteral("p1");
    // A kernel without the GPT parser (CONFIG_EFI_PARTITION) scans nothing: partx adds them through BLKPG. The
    // kernel's own scan is done when losetup --partscan returns; a partx that still races with it fails with the
    // partition there.
    if (!m_root.exists(QStringLiteral("class/block/") + part)) {
        const ProgramRun added = runProgram(QStringLiteral("partx"), { QStringLiteral("-a"), disk.devicePath() });
        QVERIFY2(added.exitCode == 0 || m_root.exists(QStringLiteral("class/block/") + part), qPrintable(added.err));
    }
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(QStringLiteral("/dev/") + part), 5000);
    // The disk free, its empty partition is a legitimate target.
    const WriteDecision free = checkWrite(m_root, part, true, QString());
    QVERIFY2(free.allowed, qPrintable(free.reasons.join(u'|')));
    // The disk claimed by someone else (a multipath map over it, say): the partition is refused, confirmed
    // or not; writing it would go around whoever uses the disk.
    const int fd = openExclusive(disk.devicePath());
    QVERIFY(fd >= 0);
    const WriteDecision held = checkWrite(m_root, part, true, part);
    ::close(fd);
    QVERIFY2(!held.allowed && !held.needsConfirmation, qPrintable(held.reasons.join(u'|')));
    QFile::remove(image);
}

void TestLiveHolds::holdsTheDeviceWhileFioRuns()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    QProcess run;
    QString why;
    QVERIFY2(startRun(&run,
                 { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"), loop.name(),
                     QStringLiteral("--runtime"), QStringLiteral("2") },
                 &why),
        qPrintable(why));
    // While fio writes, nothing can claim the device: mount(2) fails with EBUSY before it reads a byte (an
    // empty device would otherwise fail with EINVAL: no file system), and so does another O_EXCL open.
    const QString mnt = m_work.filePath(QStringLiteral("mnt"));
    const int mounted = ::mount(QFile::encodeName(loop.devicePath()).constData(), QFile::encodeName(mnt).constData(),
        "ext4", MS_RDONLY, nullptr);
    const int mountErrno = errno;
    if (mounted == 0)
        ::umount(QFile::encodeName(mnt).constData());
    const int exclusive = openExclusive(loop.devicePath());
    if (exclusive >= 0)
        ::close(exclusive);
    QVERIFY(run.waitForFinished(30000));
    QCOMPARE(run.exitCode(), 0);
    QCOMPARE(mounted, -1);
    QCOMPARE(mountErrno, EBUSY);
    QCOMPARE(exclusive, -EBUSY);
    // fio ended: the hold is gone.
    const int after = openExclusive(loop.devicePath());
    QVERIFY2(after >= 0, qPrintable(QString::fromLocal8Bit(std::strerror(-after))));
    ::close(after);
}

void TestLiveHolds::seesAGptWithoutItsProtectiveMbr()
{
    const QString image = m_work.filePath(QStringLiteral("gpt.img"));
    QVERIFY(makeSparse(image, 16LL << 20));
    QString error;
    QVERIFY2(partition(image, "label: gpt\n,4MiB\n", &error), qPrintable(error));
    {
        QFile file(image); // zero the protective MBR: the GPT headers (LBA 1 and the last LBA) stay
        QVERIFY(file.open(QIODevice::ReadWrite));
        QCOMPARE(file.write(QByteArray(512, '\0')), 512);
    }
    AttachedFile disk;
    QVERIFY2(disk.attach(image, false), qPrintable(disk.error()));
    const DeviceFacts facts = gatherDeviceFacts(m_root, disk.name());
    QStringList types;
    for (const BlockSignature &s : facts.signatures)
        types << s.type;
    QVERIFY2(types.contains(QStringLiteral("gpt")), qPrintable(types.join(u',')));
    const WriteDecision unconfirmed = decideWrite(facts, true, QString());
    QVERIFY(!unconfirmed.allowed && unconfirmed.needsConfirmation);
    QVERIFY(checkWrite(m_root, disk.name(), true, disk.name()).allowed); // the data may be destroyed on purpose
    disk.detach();
    QFile::remove(image);
}

void TestLiveHolds::fioDiesWithItsParent()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    QProcess run;
    QString why;
    QVERIFY2(
        startRun(&run,
            { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"), loop.name(),
                QStringLiteral("--runtime"), QStringLiteral("30"), QStringLiteral("--numjobs"), QStringLiteral("2") },
            &why),
        qPrintable(why));
    QList<int> family;
    QTRY_VERIFY_WITH_TIMEOUT((family = fioFamily(run.processId())).size() >= 3, 5000); // fio and its 2 jobs
    ::kill(pid_t(run.processId()), SIGKILL); // dmtunectl dies without a word to fio
    QVERIFY(run.waitForFinished(5000));
    QElapsedTimer clock;
    clock.start();
    // The bound is what is checked: fio and its jobs go within 3 s.
    const bool gone = QTest::qWaitFor([&] { return stillRunning(family).isEmpty(); }, 3000);
    const QList<int> left = stillRunning(family);
    const qint64 ms = clock.elapsed();
    killAll(family); // not to leave a writer behind whatever the result
    QVERIFY2(gone && left.isEmpty(),
        qPrintable(QStringLiteral("%1 fio processes still running after 3 s").arg(left.size())));
    qInfo("fio and its jobs gone %lld ms after dmtunectl was killed", ms);
}

void TestLiveHolds::fioJobsDieWithAKilledRun()
{
    // SIGKILL (the grace period over, or the owner going away) reaches fio's job processes too: fio cannot
    // pass it on, and each job is in a session of its own.
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    FioJob job = *fioTemplate(QStringLiteral("batched-write-4k"));
    job.runtimeSeconds = 30;
    job.numjobs = 2;
    auto run = std::make_unique<FioRun>();
    QSignalSpy progress(run.get(), &FioRun::progress);
    QVERIFY(run->start(fioArguments(job, loop.devicePath())));
    QVERIFY(progress.wait(10000));
    const QList<int> family = fioFamily(::getpid());
    QCOMPARE(family.size(), 3);
    run.reset(); // ~FioRun: SIGKILL
    // The bound is what is checked: the jobs go within 2 s.
    const bool gone = QTest::qWaitFor([&] { return stillRunning(family).isEmpty(); }, 2000);
    const QList<int> left = stillRunning(family);
    killAll(family);
    QVERIFY2(gone && left.isEmpty(), qPrintable(QStringLiteral("%1 fio processes still running").arg(left.size())));
}

void TestLiveHolds::refusesANodeThatIsNotTheCheckedDevice()
{
    // A sysfs that names another device than the node at /dev/<name> is (a stale or planted node): the
    // hold refuses. Two scratch devices: loopA's node against a tree whose class/block/loopA/dev is loopB's.
    ScratchLoop a, b;
    QVERIFY2(a.create(16LL << 20), qPrintable(a.error()));
    QVERIFY2(b.create(16LL << 20), qPrintable(b.error()));
    QTemporaryDir tree;
    const auto fakeDev = [&](const QString &devnum) {
        QDir(tree.path()).mkpath(QStringLiteral("class/block/") + a.name());
        QFile dev(tree.filePath(QStringLiteral("class/block/%1/dev").arg(a.name())));
        return dev.open(QIODevice::WriteOnly | QIODevice::Truncate) && dev.write(devnum.toUtf8() + '\n') > 0;
    };
    QVERIFY(fakeDev(m_root.readOr(QStringLiteral("class/block/%1/dev").arg(b.name()))));
    const auto mismatch = DeviceHold::acquire(SysfsRoot(tree.path()), a.name());
    QVERIFY(!mismatch);
    QVERIFY2(mismatch.errorMessage().contains(QStringLiteral("is not the device the guard checked")),
        qPrintable(mismatch.errorMessage()));
    QVERIFY(fakeDev(m_root.readOr(QStringLiteral("class/block/%1/dev").arg(a.name()))));
    auto match = DeviceHold::acquire(SysfsRoot(tree.path()), a.name());
    QVERIFY2(match, qPrintable(match.errorMessage()));
    QCOMPARE(match->devicePath(), a.devicePath());
    match.value().release();
    // The live tree: the hold is what the decision hands to the run, and it is exclusive.
    DeviceHold hold;
    QVERIFY(checkWrite(m_root, a.name(), true, QString(), &hold).allowed);
    QVERIFY(hold.isHeld());
    QCOMPARE(openExclusive(a.devicePath()), -EBUSY);
    hold.release();
    const int fd = openExclusive(a.devicePath());
    QVERIFY(fd >= 0);
    ::close(fd);
    // A refused write holds nothing.
    const int other = openExclusive(b.devicePath());
    QVERIFY(!checkWrite(m_root, b.name(), true, b.name(), &hold).allowed);
    QVERIFY(!hold.isHeld());
    ::close(other);
}

void TestLiveHolds::sighupEndsARecordedRunCleanly()
{
    ScratchLoop loop;
    QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
    const QString record = m_work.filePath(QStringLiteral("hup.dmrec"));
    QProcess run;
    QString why;
    QVERIFY2(startRun(&run,
                 { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"), loop.name(),
                     QStringLiteral("--runtime"), QStringLiteral("30"), QStringLiteral("--record"), record },
                 &why),
        qPrintable(why));
    // Until fio's progress shows: a progress line after the command line.
    QByteArray out;
    const auto progressShown = [&] {
        out += run.readAllStandardOutput();
        return out.contains("\n[");
    };
    QTRY_VERIFY_WITH_TIMEOUT(progressShown(), 30000);
    const QList<int> family = fioFamily(run.processId());
    QVERIFY(!family.isEmpty());
    QElapsedTimer clock;
    clock.start();
    ::kill(pid_t(run.processId()), SIGHUP); // the terminal went away
    const bool ended = run.waitForFinished(15000);
    const qint64 took = clock.elapsed();
    // A cleanly ended run leaves no fio behind: until its processes are gone.
    if (!QTest::qWaitFor([&] { return stillRunning(family).isEmpty(); }, 10000))
        qWarning("fio outlived dmtunectl");
    killAll(family); // an fio that outlived it (the old dmtunectl died of SIGHUP) must not keep writing
    QVERIFY(ended);
    QCOMPARE(run.exitStatus(), QProcess::NormalExit);
    QCOMPARE(run.exitCode(), 0);
    QVERIFY(took < 10000);
    const auto recording = readRecording(record);
    QVERIFY2(recording, qPrintable(recording.errorMessage()));
    QVERIFY(recording->truncation.isEmpty());
    QCOMPARE(recording->fioResults.size(), 1);
    QStringList labels;
    for (const RecordedEvent &m : recording->markers)
        labels << m.text;
    QCOMPARE(labels, (QStringList { RecordingWriter::fioStartLabel(), RecordingWriter::fioEndLabel() }));
    const ProgramRun shown = runProgram(dmtunectl, { QStringLiteral("record"), QStringLiteral("show"), record });
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
}

void TestLiveHolds::leavesALoopDeviceThatIsNoLongerOurs()
{
    const QString base = m_work.filePath(QStringLiteral("lab-notours"));
    QVERIFY(QDir().mkpath(base));
    LabDevice lab;
    lab.setBaseDirectory(base);
    const auto created = lab.create(16LL << 20);
    QVERIFY2(created, qPrintable(created.errorMessage()));
    const QString name = created.value();
    const QString schedulerBefore = lab.schedulerBefore();
    // Someone detaches it and puts their own file on the same loop device.
    QCOMPARE(
        runProgram(QStringLiteral("losetup"), { QStringLiteral("-d"), QStringLiteral("/dev/") + name }).exitCode, 0);
    const QString theirs = m_work.filePath(QStringLiteral("theirs.img"));
    QVERIFY(makeSparse(theirs, 16LL << 20));
    AttachedFile other;
    QVERIFY2(other.attach(theirs, false, QStringLiteral("/dev/") + name), qPrintable(other.error()));
    QCOMPARE(other.name(), name);
    const Status removed = lab.remove();
    const QString backing = m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(name));
    QCOMPARE(backing, theirs); // still theirs, attached
    QVERIFY(!removed);
    QVERIFY2(removed.errorMessage().contains(QStringLiteral("left attached")), qPrintable(removed.errorMessage()));
    QVERIFY(!lab.exists());
    QVERIFY(QDir(base).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty()); // our files are gone
    // The lab device set mq-deadline and, the device no longer its own, left it: the test puts it back.
    QVERIFY(m_root.write(QStringLiteral("block/%1/queue/scheduler").arg(name), schedulerBefore));
    other.detach();
    QFile::remove(theirs);
}

void TestLiveHolds::removesAKilledProcessesLabDevice()
{
    const QString base = m_work.filePath(QStringLiteral("lab-stale"));
    QVERIFY(QDir().mkpath(base));
    // A crashed dmtune: this binary again, creating a lab device, SIGKILLed.
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(labChildVariable), base);
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForReadyRead(10000));
    const QString stale = QString::fromLocal8Bit(child.readAllStandardOutput()).trimmed();
    QVERIFY2(stale.startsWith(QLatin1String("loop")),
        qPrintable(stale + QString::fromLocal8Bit(child.readAllStandardError())));
    const QString staleFile = m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(stale));
    QVERIFY(staleFile.startsWith(base));
    child.kill();
    QVERIFY(child.waitForFinished(5000));
    QCOMPARE(m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(stale)), staleFile); // left behind

    // A lab directory without an owner file (not provably ours) with a device: never touched.
    const QString foreignDir = base + QStringLiteral("/dmtune-lab-foreign");
    QVERIFY(QDir().mkpath(foreignDir));
    QFile::setPermissions(foreignDir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QVERIFY(makeSparse(foreignDir + QStringLiteral("/lab.img"), 16LL << 20));
    AttachedFile foreign;
    QVERIFY2(foreign.attach(foreignDir + QStringLiteral("/lab.img"), false), qPrintable(foreign.error()));

    // This process's own lab device is alive: its owner runs.
    LabDevice alive;
    alive.setBaseDirectory(base);
    const auto aliveName = alive.create(16LL << 20);
    QVERIFY2(aliveName, qPrintable(aliveName.errorMessage()));
    LabDevice next;
    next.setBaseDirectory(base);
    const auto nextName = next.create(16LL << 20);
    QVERIFY2(nextName, qPrintable(nextName.errorMessage()));

    const bool staleLeft = m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(stale)) == staleFile;
    if (staleLeft) // not to leave it behind whatever the result
        QProcess::execute(QStringLiteral("losetup"), { QStringLiteral("-d"), QStringLiteral("/dev/") + stale });
    QVERIFY2(!staleLeft, qPrintable(stale + QStringLiteral(" still backed by ") + staleFile));
    QVERIFY(!QFileInfo::exists(QFileInfo(staleFile).path()));
    QCOMPARE(m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(aliveName.value())), alive.backingFile());
    QCOMPARE(m_root.readOr(QStringLiteral("block/%1/loop/backing_file").arg(foreign.name())),
        foreignDir + QStringLiteral("/lab.img"));
    foreign.detach();
    QFile::remove(foreignDir + QStringLiteral("/lab.img"));
    QDir().rmdir(foreignDir);
}

int main(int argc, char **argv)
{
    if (const QByteArray dir = qgetenv(labChildVariable); !dir.isEmpty()) {
        QCoreApplication app(argc, argv);
        return labChildMain(QString::fromLocal8Bit(dir));
    }
    QCoreApplication app(argc, argv);
    TestLiveHolds test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_live_holds.moc"
