// Job files as fio reads them: `fio --showcmd` text (captured from fio 3.33) split into argv words and planned
// with fio's command-line semantics; job files run through the real fio (every spelling fio reads apart from a
// hand-made grammar, the templates and the seeds' jobs as job files); the checked options are what fio runs (the same
// job options in fio's JSON as the file gives, and edits after the check change nothing); rw classification; a job file
// named "-foo.fio".
#include "core/workloads/fiojob.h"
#include "core/workloads/fiojobfile.h"
#include "core/workloads/fiorun.h"

#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace dmtune;

namespace {

const QString device = QStringLiteral("/dev/loop7");

QStringList words(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *w : list)
        out << QString::fromUtf8(w);
    return out;
}

QString fioOrEmpty()
{
    const auto fio = FioRun::findFio();
    return fio ? fio.value() : QString();
}

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(text) == text.size();
}

// fio's JSON report of a short run: every job's "job options" (without "name", which the command line adds)
// merged over the "global options", in job order.
QList<QJsonObject> jobOptionsOfRun(const QString &fio, const QStringList &args, QString *error)
{
    QProcess p;
    p.start(fio, QStringList { QStringLiteral("--output-format=json") } + args);
    if (!p.waitForFinished(30000) || p.exitCode() != 0) {
        *error = QString::fromLocal8Bit(p.readAllStandardError() + p.readAllStandardOutput()).left(400);
        return {};
    }
    const QJsonObject report = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QList<QJsonObject> jobs;
    for (const QJsonValue &v : report.value(QLatin1String("jobs")).toArray()) {
        QJsonObject options = report.value(QLatin1String("global options")).toObject();
        const QJsonObject own = v.toObject().value(QLatin1String("job options")).toObject();
        for (auto it = own.begin(); it != own.end(); ++it)
            options.insert(it.key(), it.value());
        options.remove(QStringLiteral("name"));
        options.insert(QStringLiteral("jobname"), v.toObject().value(QLatin1String("jobname")));
        options.insert(QStringLiteral("wrote"),
            v.toObject().value(QLatin1String("write")).toObject().value(QLatin1String("io_bytes")).toInteger() > 0);
        jobs << options;
    }
    if (jobs.isEmpty())
        *error = QStringLiteral("no jobs in fio's report");
    return jobs;
}

// A template as the job file a user would write for it.
QByteArray templateAsJobFile(const FioJob &job)
{
    QByteArray text = "; " + job.title.toUtf8() + "\n[" + job.id.toUtf8() + "]\nfilename=${DMTUNE_DEVICE}\n";
    QStringList args = fioArguments(job, QStringLiteral("/dev/X"));
    for (const QString &arg : args) {
        if (arg.startsWith(QLatin1String("--name=")) || arg.startsWith(QLatin1String("--filename="))
            || fioStatusArguments().contains(arg))
            continue;
        text += arg.mid(2).toUtf8() + '\n';
    }
    return text;
}

} // namespace

class TestFioJobFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void parseShowcmd_data();
    void parseShowcmd();
    void planShowcmdOutput_data();
    void planShowcmdOutput();
    void jobFilesThroughFio_data();
    void jobFilesThroughFio();
    void templatesPassAsJobFilesAndAsTemplates_data();
    void templatesPassAsJobFilesAndAsTemplates();
    void templateOverridesUseTheSameClassification_data();
    void templateOverridesUseTheSameClassification();
    void checkedOptionsRunTheSameJob();
    void editsAfterTheCheckChangeNothing();
    void jobFileNamedLikeAnOption();
    void anotherUsersJobFileIsParsedAsThatUser();
    void inlineAsFioReads_data();
    void inlineAsFioReads();
    void screenBeforeFio_data();
    void screenBeforeFio();
    void allowListNamesFioOptions();
    void valuelessOptionsTakeNoValueOnFiosCommandLine();
    void rwModes_data();
    void rwModes();
    void filenameLists_data();
    void filenameLists();

private:
    QString m_fio;
    QTemporaryDir m_dir;
};

void TestFioJobFile::initTestCase()
{
    m_fio = fioOrEmpty();
    QVERIFY(m_dir.isValid());
    // Files the job files below include, and the variable one of them expands.
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("write.inc")), "rw=write\n"));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("read.inc")), "rw=read\nbs=8k\n"));
    qputenv("DMTUNE_TEST_RW", "randwrite");
}

void TestFioJobFile::parseShowcmd_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QString>("error");
    // Every text is what fio 3.33 printed for a job file (DMTUNE_DEVICE=/dev/loop7).
    QTest::newRow("one job") << "fio --name=w --rw=write --bs=4k --filename=/dev/loop7 \n"
                             << words({ "--name=w", "--rw=write", "--bs=4k", "--filename=/dev/loop7" }) << QString();
    QTest::newRow("global first")
        << "fio --direct=1 --rw=randwrite --filename=/dev/loop7 --name=reader --rw=randread --bs=4k --name=writer "
           "--bs=64k \n"
        << words({ "--direct=1", "--rw=randwrite", "--filename=/dev/loop7", "--name=reader", "--rw=randread", "--bs=4k",
               "--name=writer", "--bs=64k" })
        << QString();
    QTest::newRow("flag") << "fio --name=64_seq_write --rw=write --ioengine=libaio --time_based "
                             "--filename=/dev/loop7 \n"
                          << words({ "--name=64_seq_write", "--rw=write", "--ioengine=libaio", "--time_based",
                                 "--filename=/dev/loop7" })
                          << QString();
    QTest::newRow("description in quotes")
        << "fio --name=j --description=\"8K reads, \"as in the seed\"\" --filename=/dev/loop7 \n"
        << words({ "--name=j", "--description=8K reads, \"as in the seed\"", "--filename=/dev/loop7" }) << QString();
    QTest::newRow("section name with a blank") << "fio --name=my job --filename=/dev/loop7 \n"
                                               << words({ "--name=my job", "--filename=/dev/loop7" }) << QString();
    QTest::newRow("value with blanks") << "fio --name=j --exec_prerun=dd if=/dev/zero of=/dev/sda "
                                          "--filename=/dev/loop7 \n"
                                       << words({ "--name=j", "--exec_prerun=dd if=/dev/zero of=/dev/sda",
                                              "--filename=/dev/loop7" })
                                       << QString();
    QTest::newRow("empty file") << "" << QStringList() << QString();
    // A broken include: fio prints its error into the command line and ends with an empty line.
    QTest::newRow("broken include") << "fio --name=j --rw=read --filename=/dev/loop7 fio: file:init.c:1956, "
                                       "func=job file open, error=No such file or directory\n\n"
                                    << QStringList() << "fio --showcmd printed more than one line";
    QTest::newRow("not fio") << "Bad option <bogus=1>\n" << QStringList() << "fio --showcmd printed 'Bad option";
}

void TestFioJobFile::parseShowcmd()
{
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    QFETCH(QString, error);
    const auto parsed = parseFioShowcmd(text);
    if (!error.isEmpty()) {
        QVERIFY(!parsed);
        QVERIFY2(parsed.errorMessage().startsWith(error), qPrintable(parsed.errorMessage()));
        return;
    }
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed.value(), words);
}

void TestFioJobFile::planShowcmdOutput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error"); // empty: allowed
    QTest::addColumn<bool>("writes");
    QTest::addColumn<QStringList>("jobs"); // name:rw:ioengine per job
    // fio 3.33's --showcmd of real job files (DMTUNE_DEVICE=/dev/loop7).
    QTest::newRow("seed 64_seq_write") << "fio --name=64_seq_write --rw=write --rwmixread=0 --bs=4k --iodepth=16 "
                                          "--direct=1 --numjobs=64 --runtime=100 --ioengine=libaio --time_based "
                                          "--filename=/dev/loop7 \n"
                                       << QString() << true << words({ "64_seq_write:write:libaio" });
    QTest::newRow("seed 8K read, global section")
        << "fio --ioengine=libaio --iodepth=64 --direct=1 --runtime=1800 --time_based --group_reporting "
           "--numjobs=4 --rw=read --name=job1 --bs=8K --size=1G --filename=/dev/loop7 \n"
        << QString() << false << words({ "job1:read:libaio" });
    QTest::newRow("rw=write   # 4k sequential") << "fio --name=w --rw=write --bs=4k --filename=/dev/loop7 \n"
                                                << QString() << true << words({ "w:write:psync" });
    QTest::newRow("global inherited, job overrides")
        << "fio --direct=1 --rw=randwrite --filename=/dev/loop7 --name=reader --rw=randread --bs=4k --name=writer "
           "--bs=64k \n"
        << QString() << true << words({ "reader:randread:psync", "writer:randwrite:psync" });
    QTest::newRow("last value wins (read)") << "fio --name=j --rw=write --rw=read --filename=/dev/loop7 \n"
                                            << QString() << false << words({ "j:read:psync" });
    QTest::newRow("last value wins (write)") << "fio --name=j --rw=read --rw=write --filename=/dev/loop7 \n"
                                             << QString() << true << words({ "j:write:psync" });
    QTest::newRow("include with a tab") << "fio --name=j --rw=write --filename=/dev/loop7 \n"
                                        << QString() << true << words({ "j:write:psync" });
    QTest::newRow("randtrimwrite") << "fio --name=j --rw=randtrimwrite --filename=/dev/loop7 \n"
                                   << QString() << true << words({ "j:randtrimwrite:psync" });
    QTest::newRow("trim_percentage on a read job")
        << "fio --name=j --rw=read --verify=md5 --trim_percentage=10 --filename=/dev/loop7 \n"
        << QString() << true << words({ "j:read:psync" });
    QTest::newRow("trim_percentage=0") << "fio --name=j --rw=read --trim_percentage=0 --filename=/dev/loop7 \n"
                                       << QString() << false << words({ "j:read:psync" });
    QTest::newRow("io_uring options") << "fio --name=j --ioengine=io_uring --rw=read:8k --time_based "
                                         "--filename=/dev/loop7 --hipri --fixedbufs \n"
                                      << QString() << false << words({ "j:read:8k:io_uring" });
    QTest::newRow("section name with a blank") << "fio --name=my job --filename=/dev/loop7 \n"
                                               << QString() << false << words({ "my job:read:psync" });
    QTest::newRow("description") << "fio --name=j --description=\"8K reads, \"as in the seed\"\" "
                                    "--filename=/dev/loop7 \n"
                                 << QString() << false << words({ "j:read:psync" });
    // Refused, the option named.
    QTest::newRow("filename list") << "fio --name=j --filename=/dev/loop7:/dev/sda \n"
                                   << "job 'j': filename /dev/sda is not the device /dev/loop7" << false
                                   << QStringList();
    QTest::newRow("filename \\: escape") << "fio --name=j --filename=/dev/loop7\\:x \n"
                                         << "job 'j': filename /dev/loop7:x is not the device" << false
                                         << QStringList();
    QTest::newRow("filename adds, never replaces")
        << "fio --filename=/dev/sda --name=j --filename=/dev/loop7 \n"
        << "job 'j': filename /dev/sda is not the device" << false << QStringList();
    QTest::newRow("no filename") << "fio --name=j --rw=read \n"
                                 << "job 'j': no filename=: fio would create files in the current directory" << false
                                 << QStringList();
    QTest::newRow("only globals") << "fio --rw=read --filename=/dev/loop7 \n"
                                  << "no job section" << false << QStringList();
    QTest::newRow("empty file") << ""
                                << "no job section" << false << QStringList();
    QTest::newRow("exec_prerun") << "fio --name=j --exec_prerun=dd if=/dev/zero of=/dev/sda "
                                    "--filename=/dev/loop7 \n"
                                 << "job 'j': exec_prerun is refused: it runs a program" << false << QStringList();
    QTest::newRow("exec_postrun") << "fio --name=j --exec_postrun=reboot --filename=/dev/loop7 \n"
                                  << "job 'j': exec_postrun is refused: it runs a program" << false << QStringList();
    QTest::newRow("ioengine=exec") << "fio --name=j --ioengine=exec --filename=/dev/loop7 \n"
                                   << "job 'j': ioengine=exec is refused: it runs a program" << false << QStringList();
    QTest::newRow("ioengine=external") << "fio --name=j --ioengine=external:/tmp/x.so --filename=/dev/loop7 \n"
                                       << "job 'j': ioengine=external:/tmp/x.so is refused: it loads a library" << false
                                       << QStringList();
    QTest::newRow("ioengine=sg") << "fio --name=j --ioengine=sg --filename=/dev/loop7 \n"
                                 << "job 'j': ioengine=sg is refused" << false << QStringList();
    QTest::newRow("global ioengine=exec") << "fio --ioengine=exec --name=j --filename=/dev/loop7 \n"
                                          << "ioengine=exec is refused" << false << QStringList();
    QTest::newRow("ioscheduler") << "fio --name=j --ioscheduler=none --filename=/dev/loop7 \n"
                                 << "job 'j': ioscheduler is refused: it writes the device's scheduler in sysfs"
                                 << false << QStringList();
    QTest::newRow("read_iolog") << "fio --name=j --read_iolog=/tmp/trace --filename=/dev/loop7 \n"
                                << "job 'j': read_iolog is refused" << false << QStringList();
    QTest::newRow("write_iolog") << "fio --name=j --write_iolog=/etc/motd --filename=/dev/loop7 \n"
                                 << "job 'j': write_iolog is refused" << false << QStringList();
    QTest::newRow("write_bw_log") << "fio --name=j --write_bw_log=/etc/x --filename=/dev/loop7 \n"
                                  << "job 'j': write_bw_log is refused" << false << QStringList();
    QTest::newRow("opendir") << "fio --name=j --opendir=/srv --filename=/dev/loop7 \n"
                             << "job 'j': opendir is refused" << false << QStringList();
    QTest::newRow("directory") << "fio --name=j --directory=/mnt --filename=/dev/loop7 \n"
                               << "job 'j': directory is refused" << false << QStringList();
    QTest::newRow("filename_format") << "fio --name=j --filename_format=/dev/sd$jobnum \n"
                                     << "job 'j': filename_format is refused" << false << QStringList();
    QTest::newRow("global directory") << "fio --directory=/mnt --name=j --filename=/dev/loop7 \n"
                                      << "directory is refused" << false << QStringList();
    QTest::newRow("unlink") << "fio --name=j --unlink=1 --filename=/dev/loop7 \n"
                            << "job 'j': unlink is refused: it deletes the files" << false << QStringList();
    QTest::newRow("allow_mounted_write") << "fio --name=j --allow_mounted_write=1 --filename=/dev/loop7 \n"
                                         << "job 'j': allow_mounted_write is refused" << false << QStringList();
    QTest::newRow("zonemode") << "fio --name=j --zonemode=zbd --filename=/dev/loop7 \n"
                              << "job 'j': zonemode is refused: zone resets destroy data" << false << QStringList();
    QTest::newRow("iomem naming a file") << "fio --name=j --mem=mmaphuge:/hugetlbfs/x --filename=/dev/loop7 \n"
                                         << "job 'j': mem=mmaphuge:/hugetlbfs/x is refused: it names a file" << false
                                         << QStringList();
    QTest::newRow("buffer_pattern from a file")
        << "fio --name=j --buffer_pattern='/etc/shadow' "
           "--filename=/dev/loop7 \n"
        << "job 'j': buffer_pattern='/etc/shadow' is refused: it reads a file" << false << QStringList();
    QTest::newRow("abbreviated option") << "fio --name=j --ioeng=exec --filename=/dev/loop7 \n"
                                        << "job 'j': ioeng is refused" << false << QStringList();
    QTest::newRow("unknown rw") << "fio --name=j --rw=WRITE --filename=/dev/loop7 \n"
                                << "job 'j': rw=WRITE is not an I/O direction fio knows" << false << QStringList();
    // "cpus_allowed" alone is valid in a job file, but fio's getopt would take "--rw=read" for its value.
    QTest::newRow("option without a value")
        << "fio --rw=write --name=j --cpus_allowed --rw=read "
           "--filename=/dev/loop7 \n"
        << "job 'j': cpus_allowed is given without a value" << false << QStringList();
    // fio's command line: a later --name=global section is global for the jobs after it only.
    QTest::newRow("--name=global") << "fio --name=a --filename=/dev/loop7 --name=global --rw=write --name=b "
                                      "--filename=/dev/loop7 \n"
                                   << QString() << true << words({ "a:read:psync", "b:write:psync" });
}

void TestFioJobFile::planShowcmdOutput()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    QFETCH(bool, writes);
    QFETCH(QStringList, jobs);
    const auto words = parseFioShowcmd(text);
    QVERIFY2(words, qPrintable(words.errorMessage()));
    const auto plan = planFioArguments(words.value(), device);
    if (!error.isEmpty()) {
        QVERIFY(!plan);
        QVERIFY2(plan.errorMessage().startsWith(error), qPrintable(plan.errorMessage()));
        QVERIFY(!plan.errorMessage().contains(u'\n'));
        return;
    }
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QCOMPARE(plan->writes, writes);
    QCOMPARE(plan->arguments, words.value());
    QStringList got;
    for (const FioPlannedJob &job : plan->jobs) {
        got << QStringLiteral("%1:%2:%3").arg(job.name, job.rw, job.ioengine);
        QCOMPARE(job.filenames.value(0), device);
    }
    QCOMPARE(got, jobs);
    QCOMPARE(plan->writeReason.isEmpty(), !writes);
}

void TestFioJobFile::jobFilesThroughFio_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error"); // contained in the error; empty: allowed
    QTest::addColumn<bool>("writes");
    const QByteArray dev = "[j]\nfilename=${DMTUNE_DEVICE}\n";
    // The spellings of a job file that once slipped through, each through the real fio --showcmd (never run; still,
    // every path named is the test's own). Each check costs two fio runs, ~0.1 s of CPU: fio calibrates its clock
    // first; the other cases are in planShowcmdOutput).
    QTest::newRow("rw=write   # comment") << dev + "rw=write   # 4k sequential\n" << QString() << true;
    QTest::newRow("rw=write ; comment") << dev + "rw=write ; 4k sequential\n" << QString() << true;
    QTest::newRow("randtrimwrite") << dev + "rw=randtrimwrite\n" << QString() << true;
    QTest::newRow("include with a tab") << dev + "include\twrite.inc\n" << QString() << true;
    QTest::newRow("include with =") << dev + "include=write.inc\n" << QString() << true;
    // Only the device is expanded: fio would take any other ${VAR} from its environment.
    QTest::newRow("${VAR}") << dev + "rw=${DMTUNE_TEST_RW}\n"
                            << "rw: '$' is refused" << false;
    QTest::newRow("$ncpus") << dev + "rw=read\nnumjobs=$ncpus\n"
                            << "numjobs: '$' is refused" << false;
    QTest::newRow("read_iolog") << dev + "read_iolog=" + QFile::encodeName(m_dir.filePath(QStringLiteral("trace")))
            + "\n"
                                << "read_iolog is refused" << false;
    QTest::newRow("opendir") << dev + "opendir=" + QFile::encodeName(m_dir.path()) + "\n"
                             << "opendir is refused" << false;
    QTest::newRow("exec_prerun") << dev + "exec_prerun=touch "
            + QFile::encodeName(m_dir.filePath(QStringLiteral("ran"))) + "\n"
                                 << "exec_prerun is refused" << false;
    QTest::newRow("exec_postrun") << dev + "exec_postrun=touch "
            + QFile::encodeName(m_dir.filePath(QStringLiteral("ran"))) + "\n"
                                  << "exec_postrun is refused" << false;
    QTest::newRow("ioengine=exec") << dev + "ioengine=exec\nprogram=/bin/true\n"
                                   << "ioengine=exec is refused" << false;
    QTest::newRow("ioscheduler") << dev + "ioscheduler=none\n"
                                 << "ioscheduler is refused" << false;
    QTest::newRow("global inheritance") << "[global]\nrw=randwrite\n" + dev << QString() << true;
    QTest::newRow("global filename") << QByteArray("[global]\nfilename=${DMTUNE_DEVICE}\n[r]\nrw=read\n[w]\nrw=write\n")
                                     << QString() << true;
    QTest::newRow("last value wins") << dev + "rw=write\nrw=read\n" << QString() << false;
    QTest::newRow("cpus_allowed without a value") << "[global]\nrw=write\n" + dev + "cpus_allowed\nrw=read\n"
                                                  << "cpus_allowed is given without a value" << false;
    QTest::newRow("filename list") << "[j]\nfilename=${DMTUNE_DEVICE}:" + QFile::encodeName(m_dir.path()) + "/other\n"
                                   << "/other is not the device" << false;
    QTest::newRow("directory") << dev + "directory=" + QFile::encodeName(m_dir.path()) + "\n"
                               << "directory is refused" << false;
    QTest::newRow("filename_format") << "[j]\nfilename_format=" + QFile::encodeName(m_dir.path()) + "/$jobname\n"
                                     << "filename_format is refused" << false;
    QTest::newRow("no filename") << QByteArray("[j]\nrw=read\n") << "no filename=" << false;
    QTest::newRow("broken include") << dev + "rw=read\ninclude missing.inc\n"
                                    << "line 4: include missing.inc: " << false;
    QTest::newRow("[global] after a job")
        << "[r]\nfilename=${DMTUNE_DEVICE}\n[global]\nrw=write\n" + dev << "a [global] section after a job" << false;
    // The seeds' jobs, each on the device instead of the seed's disk or directory.
    QTest::newRow("seed 000 64_seq_write")
        << QByteArray("[64_seq_write]\nfilename=${DMTUNE_DEVICE}\nrw=write\nrwmixread=0\nblocksize=4k\niodepth=16\n"
                      "direct=1\nnumjobs=64\n#nrfiles=1\nruntime=100\nioengine=libaio\ntime_based\n")
        << QString() << true;
    QTest::newRow("seed 003 null_blk randread")
        << QByteArray("[global]\ngroup_reporting\nrw=randread\nbs=4k\nnumjobs=24\niodepth=32\nruntime=99999999\n"
                      "time_based\nloops=1\nioengine=libaio\ndirect=1\ninvalidate=1\nrandrepeat=1\nnorandommap\n"
                      "exitall\n[task_nullb0]\nfilename=${DMTUNE_DEVICE}\n")
        << QString() << false;
    QTest::newRow("seed 004 8K read") << QByteArray(
        "[global]\nioengine=libaio\niodepth=64\ndirect=1\nruntime=1800\ntime_based\ngroup_reporting\n"
        "numjobs=4\nrw=read\n\n[job1]\nbs=8K\nfilename=${DMTUNE_DEVICE}\nsize=1G\n")
                                      << QString() << false;
    // Legitimate read jobs.
    QTest::newRow("read") << dev + "rw=read\nbs=8k\nioengine=libaio\niodepth=8\ndirect=1\n" << QString() << false;
}

void TestFioJobFile::jobFilesThroughFio()
{
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    QFETCH(bool, writes);
    const QString path = m_dir.filePath(QStringLiteral("job.fio"));
    QVERIFY(writeFile(path, text));
    const auto plan = checkFioJobFile(m_fio, path, device);
    if (!error.isEmpty()) {
        QVERIFY2(!plan, qPrintable(plan ? plan->arguments.join(u' ') : QString()));
        QVERIFY2(plan.errorMessage().contains(error), qPrintable(plan.errorMessage()));
        QVERIFY(!plan.errorMessage().contains(u'\n'));
        return;
    }
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QCOMPARE(plan->writes, writes);
    for (const FioPlannedJob &job : plan->jobs)
        QCOMPARE(job.filenames, QStringList { device });
}

void TestFioJobFile::templatesPassAsJobFilesAndAsTemplates_data()
{
    QTest::addColumn<QString>("id");
    for (const FioJob &job : fioTemplates())
        QTest::newRow(qPrintable(job.id)) << job.id;
}

void TestFioJobFile::templatesPassAsJobFilesAndAsTemplates()
{
    QFETCH(QString, id);
    FioJob job = *fioTemplate(id);
    const auto asTemplate = prepareFioJob(&job, device);
    QVERIFY2(asTemplate, qPrintable(asTemplate.errorMessage()));
    QCOMPARE(asTemplate->writes, rwWrites(job.rw));
    QVERIFY(job.checkedArguments.isEmpty()); // a template is its own argv
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    const QString path = m_dir.filePath(id + QStringLiteral(".fio"));
    QVERIFY(writeFile(path, templateAsJobFile(job)));
    FioJob custom;
    custom.id = QStringLiteral("custom");
    custom.jobFile = path;
    const auto asFile = prepareFioJob(&custom, device, m_fio);
    QVERIFY2(asFile, qPrintable(asFile.errorMessage()));
    QCOMPARE(asFile->writes, asTemplate->writes);
    QCOMPARE(asFile->jobs.size(), 1);
    QCOMPARE(asFile->jobs.first().ioengine, job.ioengine);
    QCOMPARE(custom.checkedArguments, asFile->arguments);
    QCOMPARE(custom.checkedDevice, device);
    QVERIFY(fioJobRunnable(custom, device));
    QVERIFY(!fioJobRunnable(custom, QStringLiteral("/dev/loop8"))); // checked for another device
}

void TestFioJobFile::templateOverridesUseTheSameClassification_data()
{
    QTest::addColumn<QString>("rw");
    QTest::addColumn<bool>("writes");
    QTest::addColumn<QString>("error");
    QTest::newRow("randtrimwrite") << "randtrimwrite" << true << QString();
    QTest::newRow("readwrite") << "readwrite" << true << QString();
    QTest::newRow("write:4k") << "write:4k" << true << QString();
    QTest::newRow("randread:8") << "randread:8" << false << QString();
    QTest::newRow("sideways") << "sideways" << false << "rw: 'sideways' is not one of";
}

void TestFioJobFile::templateOverridesUseTheSameClassification()
{
    QFETCH(QString, rw);
    QFETCH(bool, writes);
    QFETCH(QString, error);
    FioJob job = *fioTemplate(QStringLiteral("seq-read-8k-4jobs"));
    job.rw = rw; // what `dmtunectl run --rw` and the dock's combo box do
    const auto plan = prepareFioJob(&job, device);
    if (!error.isEmpty()) {
        QVERIFY(!plan);
        QVERIFY2(plan.errorMessage().startsWith(error), qPrintable(plan.errorMessage()));
        return;
    }
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QCOMPARE(plan->writes, writes);
    QCOMPARE(rwWrites(rw), writes);
    // A template's extra options pass the same allow-list.
    job.options << QStringLiteral("--exec_prerun=/bin/true");
    QVERIFY(validateFioJob(job));
    const auto smuggled = prepareFioJob(&job, device);
    QVERIFY(!smuggled);
    QVERIFY2(
        smuggled.errorMessage().contains(QLatin1String("exec_prerun is refused")), qPrintable(smuggled.errorMessage()));
}

void TestFioJobFile::checkedOptionsRunTheSameJob()
{
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    // A regular file of the test's own stands for the device (the check compares names only).
    const QString target = m_dir.filePath(QStringLiteral("target.img"));
    QVERIFY(writeFile(target, QByteArray(1 << 20, '\0')));
    const QString path = m_dir.filePath(QStringLiteral("mixed.fio"));
    QVERIFY(writeFile(path,
        "; globals first, two jobs, an include, comments and the device's variable\n"
        "[global]\nfilename=${DMTUNE_DEVICE}\nsize=1m\nruntime=1\nioengine=psync ; the default\n"
        "[reader]\nrw=randread\nbs=4k\ninclude read.inc\n"
        "[writer]\nrw=randwrite   # randwrite\nbs=64k\nnumjobs=2\n"));
    const auto plan = checkFioJobFile(m_fio, path, target);
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QVERIFY(plan->writes);
    QVERIFY(!plan->arguments.join(u' ').contains(QLatin1String("mixed.fio")));

    QString error;
    qputenv("DMTUNE_DEVICE", target.toLocal8Bit());
    const QList<QJsonObject> fromFile = jobOptionsOfRun(m_fio, { path }, &error);
    qunsetenv("DMTUNE_DEVICE");
    QVERIFY2(!fromFile.isEmpty(), qPrintable(error));
    const QList<QJsonObject> fromChecked = jobOptionsOfRun(m_fio, plan->arguments, &error);
    QVERIFY2(!fromChecked.isEmpty(), qPrintable(error));
    QCOMPARE(fromChecked, fromFile);
    QCOMPARE(fromFile.size(), 3); // reader, writer x2
    QCOMPARE(fromFile.first().value(QLatin1String("rw")).toString(), QStringLiteral("read")); // read.inc's, last
    QVERIFY(!fromFile.first().value(QLatin1String("wrote")).toBool());
    QVERIFY(fromFile.last().value(QLatin1String("wrote")).toBool());
}

void TestFioJobFile::editsAfterTheCheckChangeNothing()
{
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    const QString include = m_dir.filePath(QStringLiteral("edited.inc"));
    const QString path = m_dir.filePath(QStringLiteral("edited.fio"));
    QVERIFY(writeFile(include, "bs=4k\n"));
    QVERIFY(writeFile(path, "[r]\nfilename=${DMTUNE_DEVICE}\nrw=read\ninclude edited.inc\n"));
    FioJob job;
    job.id = QStringLiteral("custom");
    job.jobFile = path;
    const auto plan = prepareFioJob(&job, device, m_fio);
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QVERIFY(!plan->writes);
    const QStringList args = fioArguments(job, device);
    // The file and its include turn into a write after the check: what fio is given does not change.
    QVERIFY(writeFile(include, "rw=write\n"));
    QVERIFY(writeFile(path, "[r]\nfilename=/dev/sda\nrw=write\ninclude edited.inc\n"));
    QCOMPARE(fioArguments(job, device), args);
    QCOMPARE(args, (fioStatusArguments() + words({ "--name=r", "--rw=read", "--bs=4k", "--filename=/dev/loop7" })));
    QVERIFY(!args.contains(path));
    QCOMPARE(fioCommandLine(QStringLiteral("/usr/bin/fio"), job, device),
        QStringLiteral("/usr/bin/fio --status-interval=1 --output-format=json+ --name=r --rw=read --bs=4k "
                       "--filename=/dev/loop7"));
    // Unchecked (a new file chosen), it is not runnable.
    job.checkedArguments.clear();
    QVERIFY(!fioJobRunnable(job, device));
}

void TestFioJobFile::jobFileNamedLikeAnOption()
{
    QCOMPARE(fioJobFileArgument(QStringLiteral("-foo.fio")), QStringLiteral("./-foo.fio"));
    QCOMPARE(fioJobFileArgument(QStringLiteral("-")), QStringLiteral("./-")); // fio's "read the job from stdin"
    QCOMPARE(fioJobFileArgument(QStringLiteral("/srv/-foo.fio")), QStringLiteral("/srv/-foo.fio"));
    QCOMPARE(fioJobFileArgument(QStringLiteral("jobs/-foo.fio")), QStringLiteral("jobs/-foo.fio"));
    FioJob job;
    job.id = QStringLiteral("custom");
    job.jobFile = QStringLiteral("-foo.fio");
    QCOMPARE(fioArguments(job, device).first(), QStringLiteral("./-foo.fio"));
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    const QString old = QDir::currentPath();
    QVERIFY(QDir::setCurrent(m_dir.path()));
    QVERIFY(writeFile(QStringLiteral("-foo.fio"), "[r]\nfilename=${DMTUNE_DEVICE}\nrw=read\n"));
    const auto plan = prepareFioJob(&job, device, m_fio);
    QDir::setCurrent(old);
    QVERIFY2(plan, qPrintable(plan.errorMessage()));
    QCOMPARE(job.checkedArguments, (words({ "--name=r", "--rw=read", "--filename=/dev/loop7" })));
}

void TestFioJobFile::anotherUsersJobFileIsParsedAsThatUser()
{
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    if (::geteuid() != 0)
        QSKIP("needs root (chown)");
    // dmtune reads a job file's includes itself, as root: another user's job file may include only what that
    // user could read. Seen through an include only root may open.
    QTemporaryDir open;
    QVERIFY(QFile::setPermissions(open.path(),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther
            | QFile::ExeOther));
    const QString secret = open.filePath(QStringLiteral("root-only.inc"));
    QVERIFY(writeFile(secret, "bs=8k\n"));
    QVERIFY(QFile::setPermissions(secret, QFile::ReadOwner | QFile::WriteOwner));
    const QString path = open.filePath(QStringLiteral("theirs.fio"));
    QVERIFY(writeFile(path, "[r]\nfilename=${DMTUNE_DEVICE}\nrw=read\ninclude root-only.inc\n"));
    const auto asRoot = checkFioJobFile(m_fio, path, device);
    QVERIFY2(asRoot, qPrintable(asRoot.errorMessage()));
    QVERIFY(asRoot->arguments.contains(QStringLiteral("--bs=8k")));
    QCOMPARE(::chown(QFile::encodeName(path).constData(), 65534, 65534), 0); // nobody's now
    const auto asOwner = checkFioJobFile(m_fio, path, device);
    QVERIFY(!asOwner);
    QVERIFY2(asOwner.errorMessage().contains(QLatin1String("root-only.inc: not readable by the job file's owner (uid "
                                                           "65534)")),
        qPrintable(asOwner.errorMessage()));
}

void TestFioJobFile::inlineAsFioReads_data()
{
    QTest::addColumn<QByteArray>("text"); // jobs/main.fio; the other files are below
    QTest::addColumn<QString>("inlined"); // empty: refused
    QTest::addColumn<QString>("error"); // contained in the refusal
    const QByteArray head = "[j]\n";
    QTest::newRow("comments and blanks") << head + "  rw=read ; why\n\n# all\n\t;x\nbs=4k#k\n  time_based \t\n"
                                         << "[j]\nrw=read\nbs=4k\ntime_based\n"
                                         << QString();
    QTest::newRow("include, blank") << head + "include a.inc\n"
                                    << "[j]\nbs=8k\n"
                                    << QString();
    QTest::newRow("include, tab") << head + "include\ta.inc\n"
                                  << "[j]\nbs=8k\n"
                                  << QString();
    QTest::newRow("include=") << head + "include=a.inc ; comment\n"
                              << "[j]\nbs=8k\n"
                              << QString();
    // fio skips one character after "include", whatever it is: "includeXa.inc" is a.inc.
    QTest::newRow("includeX") << head + "includeXa.inc\n"
                              << "[j]\nbs=8k\n"
                              << QString();
    // Tried in the working directory first (cwd.inc exists there), else next to the including file.
    QTest::newRow("working directory first") << head + "include cwd.inc\n"
                                             << "[j]\nrw=write\n"
                                             << QString();
    QTest::newRow("nested, relative to the include") << head + "include sub/outer.inc\n"
                                                     << "[j]\nrw=read\nbs=8k\n"
                                                     << QString();
    QTest::newRow("absolute") << head + "include /abs/a.inc\n"
                              << "[j]\niodepth=2\n"
                              << QString();
    QTest::newRow("missing") << head + "include none.inc\n"
                             << QString() << "jobs/main.fio line 2: include none.inc: jobs/none.inc: missing";
    QTest::newRow("no name") << head + "include\n" << QString() << "include without a file name";
    QTest::newRow("$ in the name") << head + "include ${HOME}/x\n" << QString() << "does not expand '$'";
    QTest::newRow("section in an include") << head + "include section.inc\n"
                                           << QString() << "jobs/section.inc line 2: a section in an included file";
    QTest::newRow("includes itself") << head + "include loop.inc\n" << QString() << "more than 16 levels";
    QTest::newRow("NUL") << head + QByteArray("rw=read\0ioengine=x\n", 20) << QString() << "line 2: a NUL byte";
    QTest::newRow("long line") << head + "description=" + QByteArray(5000, 'x') + "\n"
                               << QString() << "longer than 4000 characters";
}

void TestFioJobFile::inlineAsFioReads()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, inlined);
    QFETCH(QString, error);
    const QHash<QString, QByteArray> files = {
        { QStringLiteral("jobs/main.fio"), text },
        { QStringLiteral("jobs/a.inc"), "bs=8k\n" },
        { QStringLiteral("cwd.inc"), "rw=write\n" },
        { QStringLiteral("jobs/cwd.inc"), "rw=trim\n" },
        { QStringLiteral("jobs/sub/outer.inc"), "rw=read\ninclude inner.inc\n" },
        { QStringLiteral("jobs/sub/inner.inc"), "bs=8k\n" },
        { QStringLiteral("/abs/a.inc"), "iodepth=2\n" },
        { QStringLiteral("jobs/section.inc"), "bs=8k\n[other]\n" },
        { QStringLiteral("jobs/loop.inc"), "include loop.inc\n" },
    };
    FioJobSource source;
    source.exists = [&](const QString &path) { return files.contains(path); };
    source.read = [&](const QString &path) {
        return files.contains(path) ? Result<QByteArray>(files.value(path))
                                    : Result<QByteArray>::failure(path + QStringLiteral(": missing"));
    };
    const auto result = inlineFioJobFile(QStringLiteral("jobs/main.fio"), source);
    if (inlined.isEmpty()) {
        QVERIFY(!result);
        QVERIFY2(result.errorMessage().contains(error), qPrintable(result.errorMessage()));
        QVERIFY(!result.errorMessage().contains(u'\n'));
        return;
    }
    QVERIFY2(result, qPrintable(result.errorMessage()));
    QCOMPARE(result.value(), inlined);
}

void TestFioJobFile::screenBeforeFio_data()
{
    QTest::addColumn<QString>("text"); // inlined (inlineFioJobFile's output)
    QTest::addColumn<QString>("error"); // contained in the refusal; empty: allowed
    const QString job = QStringLiteral("[j]\nfilename=${DMTUNE_DEVICE}\nrw=write\n");
    QTest::newRow("plain") << job + QStringLiteral("ioengine=libaio\nbs=4k\ntime_based\n") << QString();
    QTest::newRow("alias") << job + QStringLiteral("readwrite=read\nblocksize=4k\n") << QString();
    QTest::newRow("external:") << job + QStringLiteral("ioengine=external:/x.so\n")
                               << QStringLiteral("ioengine=external:/x.so is refused: it loads a library");
    QTest::newRow("bare path") << job + QStringLiteral("ioengine=/x.so\n")
                               << QStringLiteral("ioengine=/x.so is refused: it loads a library");
    QTest::newRow("blanks") << job + QStringLiteral("ioengine \t= /x.so\n")
                            << QStringLiteral("ioengine= /x.so is refused: it loads a library");
    QTest::newRow("blank before libaio") << job + QStringLiteral("ioengine= libaio\n")
                                         << QStringLiteral("ioengine= libaio is refused");
    QTest::newRow("quoted") << job + QStringLiteral("ioengine=\"/x.so\"\n")
                            << QStringLiteral("ioengine=\"/x.so\" is refused: it loads a library");
    QTest::newRow("in [global], before a job's own") << QStringLiteral("[global]\nioengine=/x.so\n") + job
            + QStringLiteral("ioengine=libaio\n") << QStringLiteral("ioengine=/x.so is refused");
    QTest::newRow("engine named before its options") << job + QStringLiteral("program=/bin/sh\nioengine=exec\n")
                                                     << QStringLiteral("ioengine=exec is refused: it runs a program");
    QTest::newRow("upper case") << job + QStringLiteral("IOENGINE=/x.so\n") << QStringLiteral("IOENGINE is refused");
    QTest::newRow("option off the list") << job + QStringLiteral("exec_prerun=/bin/sh\n")
                                         << QStringLiteral("exec_prerun is refused: it runs a program");
    QTest::newRow("pattern file") << job + QStringLiteral("verify_pattern='/etc/shadow'\n")
                                  << QStringLiteral("verify_pattern='/etc/shadow' is refused: it reads a file");
    QTest::newRow("mmap file") << job + QStringLiteral("mem=mmapshared:/x\n")
                               << QStringLiteral("mem=mmapshared:/x is refused: it names a file");
    QTest::newRow("${VAR}") << job + QStringLiteral("bs=${BS}\n") << QStringLiteral("bs: '$' is refused");
    QTest::newRow("$ncpus") << job + QStringLiteral("numjobs=$ncpus\n") << QStringLiteral("numjobs: '$' is refused");
    QTest::newRow("$(math)") << job + QStringLiteral("bs=$(2*4k)\n") << QStringLiteral("bs: '$' is refused");
    QTest::newRow("name from ${VAR}") << job + QStringLiteral("io${X}engine=/x.so\n")
                                      << QStringLiteral("io${X}engine is refused");
    QTest::newRow("ESC in description") << job + QStringLiteral("description=\x1b]0;owned\x07\n")
                                        << QStringLiteral("a control character (0x1b)");
}

void TestFioJobFile::screenBeforeFio()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    const Status screened = screenFioJobText(text);
    if (error.isEmpty()) {
        QVERIFY2(screened, qPrintable(screened.errorMessage()));
        return;
    }
    QVERIFY(!screened);
    QVERIFY2(screened.errorMessage().contains(error), qPrintable(screened.errorMessage()));
    QVERIFY(!screened.errorMessage().contains(u'\n'));
}

void TestFioJobFile::allowListNamesFioOptions()
{
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    // Every option dmtune lets through is one fio 3.33 knows by that name (a job option or one of the
    // io_uring/libaio engines').
    const auto help = [&](const QString &what) {
        QProcess p;
        p.start(m_fio, { what });
        return p.waitForFinished(10000) ? QString::fromLocal8Bit(p.readAllStandardOutput()) : QString();
    };
    const QString listed = help(QStringLiteral("--cmdhelp=all")) + help(QStringLiteral("--enghelp=io_uring"))
        + help(QStringLiteral("--enghelp=libaio"));
    QVERIFY(listed.contains(QLatin1String("ioengine")));
    const auto named = [](const QString &text, const QString &name) {
        return text.contains(QRegularExpression(
            QStringLiteral("^ *%1 *:").arg(QRegularExpression::escape(name)), QRegularExpression::MultilineOption));
    };
    QStringList unknown;
    for (const QString &name : fioAllowedOptions()) {
        // --cmdhelp=all leaves a few out; asked by name, fio prints "   name: ..." for an option it knows
        if (!named(listed, name) && !named(help(QStringLiteral("--cmdhelp=") + name), name))
            unknown << name;
    }
    QVERIFY2(unknown.isEmpty(), qPrintable(unknown.join(u' ')));
}

void TestFioJobFile::valuelessOptionsTakeNoValueOnFiosCommandLine()
{
    if (m_fio.isEmpty())
        QSKIP("fio is not installed");
    // Each one bare, then --bs: fio must still see every --bs (a flag that wanted a value would swallow it).
    const QString target = m_dir.filePath(QStringLiteral("flags.img"));
    QVERIFY(writeFile(target, QByteArray(4096, '\0')));
    for (const char *engine : { "io_uring", "libaio" }) {
        QStringList args
            = { QStringLiteral("--parse-only"), QStringLiteral("--debug=parse"), QStringLiteral("--name=j"),
                  QStringLiteral("--ioengine=") + QLatin1String(engine), QStringLiteral("--filename=") + target };
        const QStringList uring = words({ "hipri", "fixedbufs", "registerfiles", "sqthread_poll" });
        const QStringList aio = words({ "userspace_reap" });
        const QStringList engineOnly = engine == QByteArrayView("io_uring") ? uring : aio;
        QStringList flags;
        for (const QString &flag : fioValuelessOptions()) {
            const bool engineFlag = uring.contains(flag) || aio.contains(flag);
            if (!engineFlag || engineOnly.contains(flag))
                flags << flag;
        }
        for (const QString &flag : std::as_const(flags))
            args << QStringLiteral("--") + flag << QStringLiteral("--bs=4k");
        QProcess p;
        p.start(m_fio, args);
        QVERIFY(p.waitForFinished(10000));
        const QString trace = QString::fromLocal8Bit(p.readAllStandardOutput() + p.readAllStandardError());
        QCOMPARE(trace.count(QLatin1String("handle_option=bs, ptr=4k")), flags.size());
    }
}

void TestFioJobFile::rwModes_data()
{
    QTest::addColumn<QString>("rw");
    QTest::addColumn<int>("writes"); // 1 writes, 0 reads, -1 unknown to fio
    // fio 3.33's list (fio --cmdhelp=rw), every write and trim mode.
    for (const char *w : { "write", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim", "trimwrite",
             "randtrimwrite", "write:4k", "randwrite:8", "write,read" })
        QTest::newRow(w) << QString::fromLatin1(w) << 1;
    for (const char *r : { "read", "randread", "read:8k", "randread:8", "read,write" })
        QTest::newRow(r) << QString::fromLatin1(r) << 0;
    for (const char *u : { "WRITE", "Read", " write", "", "sideways" })
        QTest::newRow(qPrintable(QStringLiteral("unknown '%1'").arg(QLatin1String(u)))) << QString::fromLatin1(u) << -1;
}

void TestFioJobFile::rwModes()
{
    QFETCH(QString, rw);
    QFETCH(int, writes);
    const std::optional<bool> got = fioRwModeWrites(rw);
    QCOMPARE(got.has_value() ? int(*got) : -1, writes);
    QCOMPARE(rwWrites(rw), writes != 0); // unknown counts as a write
}

void TestFioJobFile::filenameLists_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("one") << "/dev/loop7" << words({ "/dev/loop7" });
    QTest::newRow("two") << "/dev/loop7:/dev/sda" << words({ "/dev/loop7", "/dev/sda" });
    QTest::newRow("escaped colon") << "/dev/a\\:b:/dev/c" << words({ "/dev/a:b", "/dev/c" });
    QTest::newRow("leading and doubled colons") << ":/dev/a::/dev/b:" << words({ "/dev/a", "/dev/b" });
    QTest::newRow("blanks around") << "  /dev/loop7 " << words({ "/dev/loop7" });
    QTest::newRow("empty") << "" << QStringList();
}

void TestFioJobFile::filenameLists()
{
    QFETCH(QString, value);
    QFETCH(QStringList, names);
    QCOMPARE(splitFioFilenames(value), names);
}

QTEST_GUILESS_MAIN(TestFioJobFile)
#include "tst_fiojobfile.moc"
