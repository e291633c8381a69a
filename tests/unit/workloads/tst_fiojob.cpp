// Templates and command lines: every built-in template loads, builds the exact fio argv, and its shell-quoted
// command line; job validation names the parameter (job files: tst_fiojobfile).
#include "core/workloads/fiojob.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace dmtune;

class TestFioJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void templatesMatchTheResourceFiles();
    void argvOfEveryTemplate_data();
    void argvOfEveryTemplate();
    void customJobFile();
    void shellQuote_data();
    void shellQuote();
    void rejectsBadParameters_data();
    void rejectsBadParameters();
    void rwWrites_data();
    void rwWrites();
};

void TestFioJob::templatesMatchTheResourceFiles()
{
    // What is embedded is what is in resources/workloads (and installed from there).
    const QDir dir(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/../../../../resources/workloads"));
    const QStringList files = dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    QCOMPARE(fioTemplates().size(), files.size());
    QVERIFY(files.size() >= 5);
    for (const QString &name : files) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto job = fioJobFromJson(QJsonDocument::fromJson(file.readAll()).object());
        QVERIFY2(job, qPrintable(name + QStringLiteral(": ") + job.errorMessage()));
        QCOMPARE(job->id + QStringLiteral(".json"), name);
        QVERIFY(fioTemplate(job->id));
        QVERIFY(!job->why.isEmpty());
    }
}

void TestFioJob::argvOfEveryTemplate_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QStringList>("argv");
    QTest::addColumn<bool>("writes");
    const QStringList tail = { QStringLiteral("--status-interval=1"), QStringLiteral("--output-format=json+") };
    const auto common = [](const char *id, const char *rw, const char *bs, const char *engine, int depth, int jobs) {
        return QStringList { QStringLiteral("--name=%1").arg(QLatin1String(id)),
            QStringLiteral("--filename=/dev/loop7"), QStringLiteral("--rw=%1").arg(QLatin1String(rw)),
            QStringLiteral("--bs=%1").arg(QLatin1String(bs)),
            QStringLiteral("--ioengine=%1").arg(QLatin1String(engine)), QStringLiteral("--iodepth=%1").arg(depth),
            QStringLiteral("--numjobs=%1").arg(jobs), QStringLiteral("--direct=1"), QStringLiteral("--time_based"),
            QStringLiteral("--runtime=30"), QStringLiteral("--group_reporting") };
    };
    // The seeds' jobs, parameter for parameter.
    QTest::newRow("seq-write-4k-64jobs") << "seq-write-4k-64jobs"
                                         << common("seq-write-4k-64jobs", "write", "4k", "libaio", 16, 64) + tail
                                         << true;
    QTest::newRow("rand-read-4k-24jobs") << "rand-read-4k-24jobs"
                                         << common("rand-read-4k-24jobs", "randread", "4k", "libaio", 32, 24)
            + QStringList { QStringLiteral("--norandommap"), QStringLiteral("--randrepeat=1") } + tail
                                         << false;
    QTest::newRow("seq-read-8k-4jobs") << "seq-read-8k-4jobs"
                                       << common("seq-read-8k-4jobs", "read", "8k", "libaio", 64, 4) + tail << false;
    QTest::newRow("parallel-read-1m-16jobs") << "parallel-read-1m-16jobs"
                                             << common("parallel-read-1m-16jobs", "read", "1m", "psync", 1, 16)
            + QStringList { QStringLiteral("--offset_increment=6%") } + tail
                                             << false;
    QTest::newRow("batched-write-4k") << "batched-write-4k"
                                      << common("batched-write-4k", "write", "4k", "libaio", 32, 1)
            + QStringList { QStringLiteral("--iodepth_batch_submit=16"),
                  QStringLiteral("--iodepth_batch_complete_min=8") }
            + tail << true;
}

void TestFioJob::argvOfEveryTemplate()
{
    QFETCH(QString, id);
    QFETCH(QStringList, argv);
    QFETCH(bool, writes);
    const FioJob *job = fioTemplate(id);
    QVERIFY(job);
    QCOMPARE(fioArguments(*job, QStringLiteral("/dev/loop7")), argv);
    QCOMPARE(dmtune::rwWrites(job->rw), writes);
    QVERIFY(validateFioJob(*job));
    // Every word is safe for the shell except the '%' option, which stays unquoted as well: nothing to quote.
    QCOMPARE(fioCommandLine(QStringLiteral("/usr/bin/fio"), *job, QStringLiteral("/dev/loop7")),
        QStringLiteral("/usr/bin/fio ") + argv.join(u' '));

    // Edited parameters go into the same places; io_uring is one of the engines.
    FioJob edited = *job;
    edited.ioengine = QStringLiteral("io_uring");
    edited.iodepth = 128;
    edited.runtimeSeconds = 5;
    const QStringList args = fioArguments(edited, QStringLiteral("/dev/loop7"));
    QVERIFY(args.contains(QStringLiteral("--ioengine=io_uring")));
    QVERIFY(args.contains(QStringLiteral("--iodepth=128")));
    QVERIFY(args.contains(QStringLiteral("--runtime=5")));
    QCOMPARE(fioJobFromJson(fioJobToJson(edited)).value().iodepth, 128);
}

void TestFioJob::customJobFile()
{
    FioJob job;
    job.id = QStringLiteral("custom");
    job.jobFile = QStringLiteral("/home/me/my jobs/merge test.fio");
    QCOMPARE(fioArguments(job, QStringLiteral("/dev/sdb")),
        (QStringList { job.jobFile, QStringLiteral("--status-interval=1"), QStringLiteral("--output-format=json+") }));
    QCOMPARE(fioEnvironment(QStringLiteral("/dev/sdb")), QStringList { QStringLiteral("DMTUNE_DEVICE=/dev/sdb") });
    QCOMPARE(fioCommandLine(QStringLiteral("/usr/bin/fio"), job, QStringLiteral("/dev/sdb")),
        QStringLiteral("DMTUNE_DEVICE=/dev/sdb /usr/bin/fio '/home/me/my jobs/merge test.fio' --status-interval=1 "
                       "--output-format=json+"));
}

void TestFioJob::shellQuote_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<QString>("quoted");
    QTest::newRow("plain") << "--bs=4k"
                           << "--bs=4k";
    QTest::newRow("space") << "a b"
                           << "'a b'";
    QTest::newRow("single quote") << "it's"
                                  << "'it'\\''s'";
    QTest::newRow("ESC") << "--description=\x1b]0;owned\x07 it's \\"
                         << "$'--description=\\x1b]0;owned\\x07 it\\'s \\\\'";
    QTest::newRow("newline") << "a\nb"
                             << "$'a\\x0ab'";
    QTest::newRow("dollar") << "${DMTUNE_DEVICE}"
                            << "'${DMTUNE_DEVICE}'";
    QTest::newRow("empty") << ""
                           << "''";
    QTest::newRow("glob") << "*.fio"
                          << "'*.fio'";
}

void TestFioJob::shellQuote()
{
    QFETCH(QString, word);
    QFETCH(QString, quoted);
    QCOMPARE(dmtune::shellQuote(word), quoted);
}

void TestFioJob::rejectsBadParameters_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("no id") << R"({"rw": "read"})"
                           << "id: missing";
    QTest::newRow("rw unknown") << R"({"id": "x", "rw": "sideways"})"
                                << "rw: 'sideways' is not one of";
    QTest::newRow("rw not a string") << R"({"id": "x", "rw": 3})"
                                     << "rw: not a string";
    QTest::newRow("bs") << R"({"id": "x", "bs": "4 k"})"
                        << "bs: '4 k' is not a size";
    QTest::newRow("iodepth 0") << R"({"id": "x", "iodepth": 0})"
                               << "iodepth: 0 is not in 1..65536";
    QTest::newRow("iodepth fraction") << R"({"id": "x", "iodepth": 1.5})"
                                      << "iodepth: not an integer";
    QTest::newRow("numjobs") << R"({"id": "x", "numjobs": -2})"
                             << "numjobs: -2 is not in 1..4096";
    QTest::newRow("runtime") << R"({"id": "x", "runtime": 0})"
                             << "runtime: 0 s is not in";
    QTest::newRow("engine") << R"({"id": "x", "ioengine": "lib aio"})"
                            << "ioengine: 'lib aio' is not an engine";
    QTest::newRow("filename smuggled") << R"({"id": "x", "options": ["--filename=/dev/sda"]})"
                                       << "options: '--filename=/dev/sda' is not";
    QTest::newRow("not an option") << R"({"id": "x", "options": ["rm"]})"
                                   << "options: 'rm' is not";
}

void TestFioJob::rejectsBadParameters()
{
    QFETCH(QString, json);
    QFETCH(QString, error);
    const auto job = fioJobFromJson(QJsonDocument::fromJson(json.toUtf8()).object());
    QVERIFY(!job);
    QVERIFY2(job.errorMessage().startsWith(error), qPrintable(job.errorMessage()));
}

void TestFioJob::rwWrites_data()
{
    QTest::addColumn<QString>("rw");
    QTest::addColumn<bool>("writes");
    for (const char *w : { "write", "randwrite", "rw", "readwrite", "randrw", "trim", "randtrim", "trimwrite",
             "randtrimwrite", "write:4k", "WRITE" })
        QTest::newRow(w) << QString::fromLatin1(w) << true;
    for (const char *r : { "read", "randread", "read:8k" })
        QTest::newRow(r) << QString::fromLatin1(r) << false;
}

void TestFioJob::rwWrites()
{
    QFETCH(QString, rw);
    QFETCH(bool, writes);
    QCOMPARE(dmtune::rwWrites(rw), writes);
}

QTEST_GUILESS_MAIN(TestFioJob)
#include "tst_fiojob.moc"
