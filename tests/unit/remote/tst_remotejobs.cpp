// The jobs of a remote host that a window offers again (remotejobs.h): the agent's `jobs` answer parsed, which
// jobs are offered and how (this GUI's: Attach while running, Fetch once ended; others' only while they run), the
// offer's line, a fresh file name beside one in the way, and the remembered jobs in QSettings.
#include "core/ops/workloadoperations.h"
#include "core/remote/operationjob.h"
#include "core/remote/remotejobs.h"

#include <QFile>
#include <QJsonDocument>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace dmtune;

namespace {

// A real answer of `dmtunectl agent` (DMTUNE_AGENT_JOBS set, on a loop device): jobs started as the GUI starts them
// (`cli` run ... --json --destroy-data-on DEV [--record FILE]): one that ended, one whose runner was killed (lost),
// one that failed (no such device), one running.
const char *agentAnswer
    = R"({"id":5,"jobs":[{"command":"run batched-write-4k --rw write --bs 4k --iodepth 32 --numjobs 1 --runtime 1 )"
      R"(--ioengine libaio --batching --device loop1 --json --destroy-data-on loop1 --record )"
      R"(20261203-1402-batched-write-4k.dmrec","job":"20261203-192723-4476","started":"2026-12-03T19:27:23Z",)"
      R"("state":"ended","status":0},{"command":"run batched-write-4k --rw write --bs 4k --iodepth 32 --numjobs 1 )"
      R"(--runtime 30 --ioengine libaio --batching --device loop1 --json --destroy-data-on loop1",)"
      R"("job":"20261203-192726-1fd6","started":"2026-12-03T19:27:26Z","state":"lost"},{"command":"run )"
      R"(batched-write-4k --rw write --bs 4k --iodepth 32 --numjobs 1 --runtime 1 --ioengine libaio --batching )"
      R"(--device nosuchdev --json --destroy-data-on nosuchdev","job":"20261203-192726-d8b5",)"
      R"("started":"2026-12-03T19:27:26Z","state":"ended","status":1},{"command":"run batched-write-4k --rw write )"
      R"(--bs 4k --iodepth 32 --numjobs 1 --runtime 8 --ioengine libaio --batching --device loop1 --json )"
      R"(--destroy-data-on loop1 --record mpatha-run.dmrec","job":"20261203-192728-91fe",)"
      R"("started":"2026-12-03T19:27:28Z","state":"running"}],"type":"response"})";

const QString ended = QStringLiteral("20261203-192723-4476");
const QString lost = QStringLiteral("20261203-192726-1fd6");
const QString failed = QStringLiteral("20261203-192726-d8b5");
const QString running = QStringLiteral("20261203-192728-91fe");

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QList<AgentJob> answerJobs()
{
    return parseAgentJobs(json(agentAnswer)).value();
}

RememberedJob remembered(const QString &id)
{
    return { id, QStringLiteral("/home/me/run.dmrec"), QStringLiteral("Batched 4K writes"), QStringLiteral("mpatha") };
}

QString actionName(JobOffer::Action action)
{
    switch (action) {
    case JobOffer::Action::Attach:
        return QStringLiteral("attach");
    case JobOffer::Action::Fetch:
        return QStringLiteral("fetch");
    case JobOffer::Action::None:
        break;
    }
    return QStringLiteral("none");
}

} // namespace

class TestRemoteJobs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void parseAgentJobs_data()
    {
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<QString>("error"); // empty: parsed
        QTest::addColumn<QStringList>("jobs"); // "ID STATE STATUS STARTED"
        QTest::newRow("the agent's answer") << QByteArray(agentAnswer) << QString()
                                            << QStringList { ended + QStringLiteral(" ended 0 2026-12-03T19:27:23Z"),
                                                   lost + QStringLiteral(" lost -1 2026-12-03T19:27:26Z"),
                                                   failed + QStringLiteral(" ended 1 2026-12-03T19:27:26Z"),
                                                   running + QStringLiteral(" running -1 2026-12-03T19:27:28Z") };
        QTest::newRow("no jobs") << QByteArray(R"({"id":2,"jobs":[],"type":"response"})") << QString()
                                 << QStringList {};
        QTest::newRow("an error") << QByteArray(R"({"type":"error","id":3,"error":"unknown op 'jobs'"})")
                                  << QStringLiteral("unknown op 'jobs'") << QStringList {};
        QTest::newRow("no list") << QByteArray(R"({"type":"response","id":3})")
                                 << QStringLiteral("the agent's answer has no job list") << QStringList {};
        QTest::newRow("a state of a later agent")
            << QByteArray(R"({"type":"response","id":3,"jobs":[{"job":"j1","state":"paused","command":"run x"}]})")
            << QStringLiteral("job j1: unknown state 'paused'") << QStringList {};
        QTest::newRow("a job without an id")
            << QByteArray(R"({"type":"response","id":3,"jobs":[{"state":"running","command":"run x"}]})")
            << QStringLiteral("a job without an id in the agent's answer") << QStringList {};
    }
    void parseAgentJobs()
    {
        QFETCH(QByteArray, answer);
        QFETCH(QString, error);
        QFETCH(QStringList, jobs);
        const Result<QList<AgentJob>> parsed = dmtune::parseAgentJobs(QJsonDocument::fromJson(answer).object());
        QCOMPARE(parsed.errorMessage(), error);
        QCOMPARE(bool(parsed), error.isEmpty());
        QStringList got;
        for (const AgentJob &j : parsed.valueOr({})) {
            const QString state = j.state == AgentJob::State::Running ? QStringLiteral("running")
                : j.state == AgentJob::State::Ended                   ? QStringLiteral("ended")
                                                                      : QStringLiteral("lost");
            got << QStringLiteral("%1 %2 %3 %4").arg(j.id, state).arg(j.status).arg(j.started.toString(Qt::ISODate));
        }
        QCOMPARE(got, jobs);
        if (!jobs.isEmpty())
            QVERIFY(parsed->first().command.endsWith(QLatin1String("--record 20261203-1402-batched-write-4k.dmrec")));
    }

    // What the agent writes for an operation's job and the job reads back (remote/operationjob.h): only a detachable
    // kind, every part of its shape, and the risks accepted as names.
    void operationJobFromJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error"); // empty: read back as written
        const QByteArray good
            = R"({"kind":"workload.start","request":{"device":"loop0","job":{"id":"seq-read-8k-4jobs"}},
            "basis":{"dev":"7:0"},"accepted":["destroy-data:loop0"],"command":"workload.start seq-read-8k-4jobs --device loop0"})";
        QTest::newRow("a workload") << good << QString();
        QTest::newRow("a kind that runs in the agent")
            << QByteArray(R"({"kind":"experiment.sweep","request":{},"basis":{},"accepted":[]})")
            << QStringLiteral("the job's operation 'experiment.sweep' does not run as a job");
        QTest::newRow("no basis") << QByteArray(R"({"kind":"workload.start","request":{},"accepted":[]})")
                                  << QStringLiteral("the job's operation is not {kind, request, basis, accepted}");
        QTest::newRow("a risk that is not a name")
            << QByteArray(R"({"kind":"workload.start","request":{},"basis":{},"accepted":[7]})")
            << QStringLiteral("the job's accepted risks are not names");
    }
    void operationJobFromJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const QJsonObject written = QJsonDocument::fromJson(json).object();
        QVERIFY(!written.isEmpty());
        const auto job = dmtune::operationJobFromJson(written);
        if (!error.isEmpty()) {
            QVERIFY(!job);
            QCOMPARE(job.errorMessage(), error);
            return;
        }
        QVERIFY2(job, qPrintable(job.errorMessage()));
        QCOMPARE(job->accepted, QStringList { QStringLiteral("destroy-data:loop0") });
        QCOMPARE(dmtune::operationJobToJson(job.value()), written);
    }

    void runCommandParts_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("device");
        QTest::newRow("a template, as the agent lists it")
            << answerJobs().last().command << QStringLiteral("batched-write-4k") << QStringLiteral("loop1");
        QTest::newRow("a job file") << QStringLiteral("run --job /home/me/merge.fio --device mpatha --json")
                                    << QStringLiteral("merge.fio") << QStringLiteral("mpatha");
        QTest::newRow("an operation job, as the agent lists it") << dmtune::operationJobCommand(
            QStringLiteral("workload.start"),
            dmtune::workloadRequest(*dmtune::fioTemplate(QStringLiteral("batched-write-4k")), QStringLiteral("loop1")))
                                                                 << QStringLiteral("batched-write-4k")
                                                                 << QStringLiteral("loop1");
        QTest::newRow("an operation job with a job file") << QStringLiteral("workload.start merge.fio --device mpatha")
                                                          << QStringLiteral("merge.fio") << QStringLiteral("mpatha");
        QTest::newRow("not a run") << QStringLiteral("stat --device sdb") << QString() << QString();
        QTest::newRow("no device") << QStringLiteral("run seq-read-8k-4jobs --device")
                                   << QStringLiteral("seq-read-8k-4jobs") << QString();
    }
    void runCommandParts()
    {
        QFETCH(QString, command);
        const RunCommandParts parts = dmtune::runCommandParts(command);
        QTEST(parts.workload, "workload");
        QTEST(parts.device, "device");
    }

    void jobOffers_data()
    {
        QTest::addColumn<QStringList>("ours"); // the remembered ids
        QTest::addColumn<QStringList>("offered"); // "ID ours|other ACTION", in order
        QTest::newRow("none of them this GUI's: the running one listed")
            << QStringList {} << QStringList { running + QStringLiteral(" other none") };
        QTest::newRow("all of them this GUI's")
            << QStringList { ended, lost, failed, running }
            << QStringList { ended + QStringLiteral(" ours fetch"), lost + QStringLiteral(" ours none"),
                   failed + QStringLiteral(" ours fetch"), running + QStringLiteral(" ours attach") };
        QTest::newRow("the ended one this GUI's, the running one another's: ours first")
            << QStringList { ended }
            << QStringList { ended + QStringLiteral(" ours fetch"), running + QStringLiteral(" other none") };
        QTest::newRow("remembered, gone there") << QStringList { QStringLiteral("20261101-000000-0000"), running }
                                                << QStringList { running + QStringLiteral(" ours attach") };
    }
    void jobOffers()
    {
        QFETCH(QStringList, ours);
        QList<RememberedJob> known;
        for (const QString &id : ours)
            known << remembered(id);
        QStringList got;
        for (const JobOffer &offer : dmtune::jobOffers(answerJobs(), known)) {
            got << QStringLiteral("%1 %2 %3")
                       .arg(offer.job.id, offer.ours ? QStringLiteral("ours") : QStringLiteral("other"),
                           actionName(offer.action));
            if (offer.ours)
                QCOMPARE(offer.remembered.recordPath, QStringLiteral("/home/me/run.dmrec"));
        }
        QTEST(got, "offered");
    }

    void jobOfferText_data()
    {
        QTest::addColumn<QString>("job");
        QTest::addColumn<bool>("ours");
        QTest::addColumn<QDateTime>("now");
        QTest::addColumn<QString>("text");
        const QDateTime sameDay(QDate(2026, 12, 3), QTime(19, 40), QTimeZone::utc());
        const QDateTime berlin(QDate(2026, 12, 3), QTime(20, 40), QTimeZone("Europe/Berlin"));
        QTest::newRow("ours, running") << running << true << sameDay
                                       << QStringLiteral("fio job 20261203-192728-91fe on db1 is still running "
                                                         "(started 19:27, batched-write-4k on mpatha)");
        QTest::newRow("in the viewer's time zone")
            << running << true << berlin
            << QStringLiteral("fio job 20261203-192728-91fe on db1 is still running (started 20:27, batched-write-4k "
                              "on mpatha)");
        QTest::newRow("ours, ended, a day later")
            << ended << true << sameDay.addDays(1)
            << QStringLiteral(
                   "fio job 20261203-192723-4476 on db1 ended (started 2026-12-03 19:27, batched-write-4k on mpatha)");
        QTest::newRow("ours, failed") << failed << true << sameDay
                                      << QStringLiteral("fio job 20261203-192726-d8b5 on db1 ended with status 1 "
                                                        "(started 19:27, batched-write-4k on mpatha)");
        QTest::newRow("ours, lost") << lost << true << sameDay
                                    << QStringLiteral(
                                           "fio job 20261203-192726-1fd6 on db1 ended without an exit status "
                                           "(started 19:27, batched-write-4k on mpatha): its runner there "
                                           "is gone");
        QTest::newRow("another's: the template and the device of its command line")
            << running << false << sameDay
            << QStringLiteral("fio job 20261203-192728-91fe on db1 is running (started 19:27, batched-write-4k on "
                              "loop1), not started from a dmtune window: dmtunectl --host db1 job attach "
                              "20261203-192728-91fe");
    }
    void jobOfferText()
    {
        QFETCH(QString, job);
        QFETCH(bool, ours);
        QFETCH(QDateTime, now);
        const QList<RememberedJob> known = ours ? QList<RememberedJob> { remembered(job) } : QList<RememberedJob> {};
        const QList<JobOffer> offers = dmtune::jobOffers(answerJobs(), known);
        const auto offer
            = std::find_if(offers.begin(), offers.end(), [&](const JobOffer &o) { return o.job.id == job; });
        QVERIFY(offer != offers.end());
        QTEST(dmtune::jobOfferText(*offer, QStringLiteral("db1"), now), "text");
    }

    void unusedFilePath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.1.dmrec"));
        QCOMPARE(dmtune::unusedFilePath(path), path);
        QFile(path).open(QIODevice::WriteOnly);
        QCOMPARE(dmtune::unusedFilePath(path), dir.filePath(QStringLiteral("run.1-2.dmrec")));
        QFile(dir.filePath(QStringLiteral("run.1-2.dmrec"))).open(QIODevice::WriteOnly);
        // A dangling link is in the way too: nothing is written through it.
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("nowhere")), dir.filePath(QStringLiteral("run.1-3.dmrec"))));
        QCOMPARE(dmtune::unusedFilePath(path), dir.filePath(QStringLiteral("run.1-4.dmrec")));
        const QString bare = dir.filePath(QStringLiteral("bare"));
        QFile(bare).open(QIODevice::WriteOnly);
        QCOMPARE(dmtune::unusedFilePath(bare), dir.filePath(QStringLiteral("bare-2")));
    }

    void rememberedJobsPerHost()
    {
        QSettings().remove(QStringLiteral("remote/guiJobs"));
        rememberJob(QStringLiteral("root@db1"), remembered(running));
        rememberJob(QStringLiteral("root@db1"), remembered(ended));
        rememberJob(QStringLiteral("admin@db2:2222"), remembered(failed));
        QCOMPARE(rememberedJobs(QStringLiteral("root@db1")).size(), 2);
        const RememberedJob back = rememberedJobs(QStringLiteral("admin@db2:2222")).value(0);
        QCOMPARE(back.id, failed);
        QCOMPARE(back.recordPath, QStringLiteral("/home/me/run.dmrec"));
        QCOMPARE(back.title, QStringLiteral("Batched 4K writes"));
        QCOMPARE(back.device, QStringLiteral("mpatha"));
        // db1's agent no longer has the ended job (fetched and forgotten): dropped there, db2's untouched.
        QList<AgentJob> there = answerJobs();
        there.removeIf([](const AgentJob &j) { return j.id == ended; });
        keepRememberedJobs(QStringLiteral("root@db1"), there);
        QCOMPARE(rememberedJobs(QStringLiteral("root@db1")).size(), 1);
        QCOMPARE(rememberedJobs(QStringLiteral("root@db1")).first().id, running);
        QCOMPARE(rememberedJobs(QStringLiteral("admin@db2:2222")).size(), 1);
        keepRememberedJobs(QStringLiteral("root@db1"), {});
        QVERIFY(rememberedJobs(QStringLiteral("root@db1")).isEmpty());
        // Nothing but ids, files, titles and devices is kept.
        const QString stored = QSettings().value(QStringLiteral("remote/guiJobs")).toString();
        QCOMPARE(stored,
            QStringLiteral(R"({"admin@db2:2222":{"20261203-192726-d8b5":{"device":"mpatha","record":)"
                           R"("/home/me/run.dmrec","title":"Batched 4K writes"}}})"));
        QSettings().remove(QStringLiteral("remote/guiJobs"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteJobs)
#include "tst_remotejobs.moc"
