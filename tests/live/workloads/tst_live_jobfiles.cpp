// Job files on real loop devices, through `dmtunectl run --job`: every spelling that fio reads
// differently from a hand-made grammar is refused on an ext4 device in one line, and fsck finds it intact
// afterwards; read jobs still run on it, write jobs on an empty device, and on the ext4 device with
// --destroy-data-on; a job file named "-foo.fio" is a file, not fio options; the job fio runs is the one
// checked, whatever the file and its include say after the check.
#include "livesupport.h"
#include "tests/live/scratchloop.h"

#include "core/ops/workloadoperations.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/fiojobfile.h"
#include "core/workloads/fiorun.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace dmtune;
using namespace dmtune::live;

namespace {

const QByteArray witness = "written before any job file was checked\n";

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

QJsonObject summaryOf(const ProgramRun &run)
{
    return QJsonDocument::fromJson(run.out.mid(run.out.lastIndexOf(QStringLiteral("\n{\n")) + 1).toUtf8()).object();
}

double fioRate(const QJsonObject &summary, const char *key)
{
    double sum = 0;
    for (const QJsonValue &group : summary.value(QLatin1String("fio")).toArray())
        sum += group.toObject().value(QLatin1String(key)).toDouble();
    return sum;
}

} // namespace

class TestLiveJobFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refusedOnExt4_data();
    void refusedOnExt4();
    void legitimateJobFilesRun();
    void jobFileNamedLikeAnOption();
    void whatRunsIsWhatWasChecked();

private:
    QString jobPath(const QString &name) const { return m_work.filePath(name); }
    QString mountPoint() const { return m_work.filePath(QStringLiteral("mnt")); }
    ProgramRun runJob(const QString &file, const QString &device, const QStringList &extra = {}) const;

    QTemporaryDir m_work;
    std::unique_ptr<ScratchLoop> m_ext4; // made once, checked intact after every refusal
};

void TestLiveJobFiles::initTestCase()
{
    const QString reason = ScratchLoop::unavailableReason(ext4WitnessTools);
    if (!reason.isEmpty())
        QSKIP(qPrintable(reason));
    QVERIFY(QFileInfo::exists(dmtunectl));
    QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("mnt")));
    m_ext4 = std::make_unique<ScratchLoop>();
    QVERIFY2(m_ext4->create(32LL << 20), qPrintable(m_ext4->error()));
    QString error;
    QVERIFY2(makeExt4WithWitness(m_ext4->devicePath(), mountPoint(), witness, &error), qPrintable(error));
    // What the job files below include, and the directory an opendir= names.
    QVERIFY(writeFile(jobPath(QStringLiteral("write.inc")), "rw=write\n"));
    QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("dir")));
    QVERIFY(writeFile(jobPath(QStringLiteral("dir/small.txt")), witness));
    // Remembered, so that it is restored even if an ioscheduler= ever got through.
    const SysfsRoot root;
    QString scheduler = root.readOr(QStringLiteral("block/%1/queue/scheduler").arg(m_ext4->name()));
    scheduler = scheduler.mid(scheduler.indexOf(u'[') + 1).section(u']', 0, 0);
    QVERIFY(m_ext4->setQueue(root, QStringLiteral("scheduler"), scheduler));
}

ProgramRun TestLiveJobFiles::runJob(const QString &file, const QString &device, const QStringList &extra) const
{
    return runProgram(dmtunectl,
        QStringList { QStringLiteral("run"), QStringLiteral("--job=") + file, QStringLiteral("--device"), device,
            QStringLiteral("--json") }
            + extra,
        m_work.path());
}

void TestLiveJobFiles::refusedOnExt4_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("refusal"); // in the one line on stderr
    const QByteArray job = "[j]\nfilename=${DMTUNE_DEVICE}\nsize=4m\nruntime=1\n";
    const QString holds = QStringLiteral("holds ext4 (filesystem)"); // seen as a write: the guard asks
    QTest::newRow("rw=write   # comment") << job + "rw=write   # 4k sequential\n" << holds;
    QTest::newRow("rw=write ; comment") << job + "rw=write ; 4k sequential\n" << holds;
    QTest::newRow("rw=randtrimwrite") << job + "rw=randtrimwrite\n" << holds;
    QTest::newRow("include with a tab") << job + "include\twrite.inc\n" << holds;
    QTest::newRow("include with =") << job + "include=write.inc\n" << holds;
    QTest::newRow("${VAR}") << job + "rw=${DMTUNE_TEST_RW}\n" << QStringLiteral("rw: '$' is refused");
    QTest::newRow("global inheritance") << "[global]\nrw=write\n" + job << holds;
    QTest::newRow("last value wins") << job + "rw=read\nrw=write\n" << holds;
    QTest::newRow("read_iolog") << job + "read_iolog=" + QFile::encodeName(jobPath(QStringLiteral("write.inc"))) + "\n"
                                << QStringLiteral("read_iolog is refused");
    // Every path a refused job names is the test's own: run by a dmtunectl without the check (the old code,
    // to see these rows fail), fio would lay out (overwrite) every small file under an opendir= directory.
    QTest::newRow("opendir") << job + "opendir=" + QFile::encodeName(jobPath(QStringLiteral("dir"))) + "\n"
                             << QStringLiteral("opendir is refused");
    QTest::newRow("exec_prerun") << job + "exec_prerun=touch " + QFile::encodeName(jobPath(QStringLiteral("ran")))
            + "\n" << QStringLiteral("exec_prerun is refused: it runs a program");
    QTest::newRow("exec_postrun") << job + "exec_postrun=touch " + QFile::encodeName(jobPath(QStringLiteral("ran")))
            + "\n" << QStringLiteral("exec_postrun is refused: it runs a program");
    QTest::newRow("ioengine=exec") << job + "ioengine=exec\nprogram=/bin/true\n"
                                   << QStringLiteral("ioengine=exec is refused: it runs a program");
    QTest::newRow("ioscheduler") << job + "ioscheduler=none\n" << QStringLiteral("ioscheduler is refused");
    QTest::newRow("filename list") << QByteArray("[j]\nfilename=${DMTUNE_DEVICE}:")
            + QFile::encodeName(jobPath(QStringLiteral("other.img")))
            + "\nsize=4m\n" << QStringLiteral("other.img is not the device");
    QTest::newRow("directory") << job + "directory=" + QFile::encodeName(m_work.path()) + "\n"
                               << QStringLiteral("directory is refused");
    QTest::newRow("filename_format") << "[j]\nfilename_format=" + QFile::encodeName(m_work.path())
            + "/$jobname\nsize=4m\n" << QStringLiteral("filename_format is refused");
    QTest::newRow("no filename") << QByteArray("[j]\nrw=write\nsize=4m\n") << QStringLiteral("no filename=");
    QTest::newRow("broken include") << job + "rw=read\ninclude missing.inc\n"
                                    << QStringLiteral("include missing.inc: ");
    // Valid in a job file; on fio's command line "--cpus_allowed --rw=read" would leave rw=write.
    QTest::newRow("option without a value") << "[global]\nrw=write\n" + job + "cpus_allowed\nrw=read\n"
                                            << QStringLiteral("cpus_allowed is given without a value");
    QTest::newRow("[global] after a job")
        << job + "[global]\nrw=write\n" + job << QStringLiteral("a [global] section after a job");
}

void TestLiveJobFiles::refusedOnExt4()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, refusal);
    const QString file = jobPath(QStringLiteral("job.fio"));
    QVERIFY(writeFile(file, text));
    const QString scheduler = SysfsRoot().readOr(QStringLiteral("block/%1/queue/scheduler").arg(m_ext4->name()));
    qputenv("DMTUNE_TEST_RW", "write");
    const ProgramRun run = runJob(file, m_ext4->devicePath());
    {
        // The Workloads dock's check is the same operation (workload.start): the same refusal for the same file.
        FioJob job;
        job.id = QStringLiteral("custom");
        job.jobFile = file;
        job.title = file;
        OperationEnvironment env;
        const auto plan
            = planOperation(env, QString::fromLatin1(WorkloadStartKind), workloadRequest(job, m_ext4->name()));
        QVERIFY2(plan, qPrintable(plan.errorMessage()));
        QStringList said = plan->refusals;
        for (const OperationRisk &risk : plan->risks)
            said << risk.text;
        QVERIFY2(said.join(u'|').contains(refusal), qPrintable(said.join(u'|')));
        QVERIFY(!plan->runnable() || !plan->risks.isEmpty()); // refused, or it asks for the device's name
    }
    qunsetenv("DMTUNE_TEST_RW");
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(refusal), qPrintable(run.err));
    QCOMPARE(run.err.count(u'\n'), 1); // one line
    QVERIFY(run.err.startsWith(QLatin1String("dmtunectl: run: ")));
    QString why;
    QVERIFY2(ext4WitnessIntact(m_ext4->devicePath(), mountPoint(), witness, &why), qPrintable(why));
    QVERIFY(!QFileInfo::exists(jobPath(QStringLiteral("ran")))); // no exec_ program ran
    QVERIFY(!QFileInfo::exists(jobPath(QStringLiteral("other.img"))));
    QFile small(jobPath(QStringLiteral("dir/small.txt")));
    QVERIFY(small.open(QIODevice::ReadOnly));
    QCOMPARE(small.readAll(), witness); // opendir= did not lay it out
    QCOMPARE(SysfsRoot().readOr(QStringLiteral("block/%1/queue/scheduler").arg(m_ext4->name())), scheduler);
}

void TestLiveJobFiles::legitimateJobFilesRun()
{
    QString why;
    // A read job on the ext4 device runs without confirmation and leaves it intact.
    const QString read = jobPath(QStringLiteral("read.fio"));
    QVERIFY(writeFile(read,
        "; 8K sequential reads, as the seed's\n[global]\nioengine=libaio\niodepth=8\ndirect=1\nruntime=1\n"
        "time_based\nrw=read   # reads only\n[job1]\nbs=8K\nfilename=${DMTUNE_DEVICE}\nsize=8m\n"));
    const ProgramRun reads = runJob(read, m_ext4->devicePath());
    QCOMPARE(reads.exitCode, 0);
    QVERIFY2(fioRate(summaryOf(reads), "read_iops") > 0, qPrintable(reads.out.right(400)));
    QCOMPARE(fioRate(summaryOf(reads), "write_iops"), 0.0);
    QVERIFY2(ext4WitnessIntact(m_ext4->devicePath(), mountPoint(), witness, &why), qPrintable(why));

    // A write job file on an empty device runs without confirmation.
    const QString write = jobPath(QStringLiteral("write.fio"));
    QVERIFY(writeFile(write,
        "[global]\nfilename=${DMTUNE_DEVICE}\nsize=8m\nruntime=1\ndirect=1\n[w]\nrw=randwrite\nbs=4k\n"
        "ioengine=libaio\niodepth=4\n"));
    ScratchLoop empty;
    QVERIFY2(empty.create(16LL << 20), qPrintable(empty.error()));
    const ProgramRun writes = runJob(write, empty.devicePath());
    QCOMPARE(writes.exitCode, 0);
    QVERIFY2(fioRate(summaryOf(writes), "write_iops") > 0, qPrintable(writes.out.right(400)));

    // On the ext4 device: refused, then run with --destroy-data-on naming it.
    const ProgramRun refused = runJob(write, m_ext4->devicePath());
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QStringLiteral("--destroy-data-on ") + m_ext4->name()), qPrintable(refused.err));
    QVERIFY2(ext4WitnessIntact(m_ext4->devicePath(), mountPoint(), witness, &why), qPrintable(why));
    const ProgramRun confirmed
        = runJob(write, m_ext4->devicePath(), { QStringLiteral("--destroy-data-on"), m_ext4->name() });
    QCOMPARE(confirmed.exitCode, 0);
    QVERIFY(fioRate(summaryOf(confirmed), "write_iops") > 0);
    QVERIFY(!ext4WitnessIntact(m_ext4->devicePath(), mountPoint(), witness, &why));
    // The file system is gone: make it again for the functions after this one.
    QString error;
    QVERIFY2(makeExt4WithWitness(m_ext4->devicePath(), mountPoint(), witness, &error), qPrintable(error));
}

void TestLiveJobFiles::jobFileNamedLikeAnOption()
{
    // Given to fio as it is, "-foo.fio" would be fio options ("No job(s) defined"); it must be read as a file.
    QVERIFY(writeFile(jobPath(QStringLiteral("-foo.fio")), "[r]\nfilename=${DMTUNE_DEVICE}\nrw=read\nsize=4m\n"));
    const ProgramRun run = runJob(QStringLiteral("-foo.fio"), m_ext4->devicePath());
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(fioRate(summaryOf(run), "read_iops") > 0);
    QString why;
    QVERIFY2(ext4WitnessIntact(m_ext4->devicePath(), mountPoint(), witness, &why), qPrintable(why));
}

void TestLiveJobFiles::whatRunsIsWhatWasChecked()
{
    const QString include = jobPath(QStringLiteral("frozen.inc"));
    const QString file = jobPath(QStringLiteral("frozen.fio"));
    QVERIFY(writeFile(include, "bs=4k\n"));
    QVERIFY(writeFile(file, "[r]\nfilename=${DMTUNE_DEVICE}\nrw=read\nsize=4m\ninclude frozen.inc\n"));
    FioJob job;
    job.id = QStringLiteral("custom");
    job.jobFile = file;
    const auto plan = prepareFioJob(&job, m_ext4->devicePath());
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QVERIFY(!plan->writes);
    // Between the check and the start (the dock's probe, a confirmation dialog), the file and its include
    // turn into writes: fio still runs the checked read job.
    QVERIFY(writeFile(include, "rw=write\nbs=1m\n"));
    QVERIFY(writeFile(file, "[r]\nfilename=${DMTUNE_DEVICE}\nrw=write\nsize=16m\ninclude frozen.inc\n"));
    FioRun run;
    QSignalSpy finished(&run, &FioRun::finished);
    QVERIFY(fioJobRunnable(job, m_ext4->devicePath()));
    QVERIFY(run.start(fioArguments(job, m_ext4->devicePath()), fioEnvironment(m_ext4->devicePath())));
    QVERIFY(finished.wait(30000));
    const FioOutcome outcome = finished.first().first().value<FioOutcome>();
    QCOMPARE(outcome.exitCode, 0);
    QVERIFY(!outcome.argv.contains(file));
    QCOMPARE(outcome.overall.size(), 1);
    QVERIFY(outcome.overall.first().readIops > 0);
    QCOMPARE(outcome.overall.first().writeIops, 0.0);
    QString why;
    QVERIFY2(ext4WitnessIntact(m_ext4->devicePath(), mountPoint(), witness, &why), qPrintable(why));
}

QTEST_GUILESS_MAIN(TestLiveJobFiles)
#include "tst_live_jobfiles.moc"
