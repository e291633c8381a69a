// The agent's live ops through a real sshd on 127.0.0.1 (sshdfixture.h). The counter stream into a RemoteSampler:
// the same rates as a Sampler here over the same seconds; a lost connection ends the series (a gap in the history)
// and the stream comes back by itself when the client is connected again; bad stream requests get one line each.
// The core operations through RemoteOperationRunner: planned and run there, read back; a stale plan refused. A
// workload.start plan of a job file sent as content: fio reads it there, the guard is the far side's. A sweep
// started there (the agent's `start`): its progress here in order, its result; cancelled (`cancel-run`): restored.
#include "core/experiments/sweeprunner.h"
#include "core/ops/tuningoperations.h"
#include "core/ops/workloadoperations.h"
#include "core/remote/agentclient.h"
#include "core/remote/remoteoperationrunner.h"
#include "core/remote/remotesampler.h"
#include "core/remote/remoteworkload.h"
#include "core/stats/diskcounters.h"
#include "core/stats/metriccatalog.h"
#include "core/stats/sampler.h"
#include "core/stats/seriesstore.h"
#include "sshdfixture.h"
#include "tests/live/scratchloop.h"
#include "tests/live/workloads/livesupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <optional>

using namespace dmtune;
using namespace dmtune::live;

namespace {

double readRate(const QList<SampleBatch> &batches, const QString &device)
{
    double sectors = 0, seconds = 0;
    for (const SampleBatch &b : batches) {
        if (const DeviceSample *d = b.find(device)) {
            sectors += double(d->deltas[DiskField::ReadSectors]);
            seconds += b.elapsedSeconds;
        }
    }
    return seconds > 0 ? sectors * 512 / 1024 / seconds : 0;
}

QString readSysfs(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

QString typeOf(const QJsonObject &message)
{
    return message.value(QLatin1String("type")).toString();
}

bool writeSysfs(const QString &path, const QString &value)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(value.toLatin1()) == value.size();
}

// A counter of the device as /sys/block/<device>/stat says it now (0 when unreadable).
quint64 counterNow(const QString &device, DiskField field)
{
    const auto counters = parseBlockStat(readSysfs(QStringLiteral("/sys/block/%1/stat").arg(device)), device);
    return counters ? (*counters)[field] : 0;
}

} // namespace

class TestLiveRemoteStream : public QObject {
    Q_OBJECT

    SshdFixture m_sshd;
    ScratchLoop m_loop;

    std::unique_ptr<AgentClient> newClient()
    {
        const Result<HostAddress> address = parseHostAddress(m_sshd.host());
        return std::make_unique<AgentClient>(*address, SshSettings { m_sshd.configFile(), dmtunectl });
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = ScratchLoop::unavailableReason({ QStringLiteral("losetup"), QStringLiteral("fio") });
            !why.isEmpty())
            QSKIP(qPrintable(why));
        if (SshdFixture::sshdPath().isEmpty())
            QSKIP("sshd not installed (packaging/install-deps.sh installs openssh-server)");
        QVERIFY2(m_sshd.start(), qPrintable(m_sshd.error()));
        QVERIFY2(m_loop.create(256LL << 20), qPrintable(m_loop.error()));
    }

    void sameRatesAsASamplerHere()
    {
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        QCOMPARE(client->agentHello().value(QLatin1String("protocol")).toString(), QStringLiteral("1.2"));

        // A steady read of the test's loop device (reads only) while both sample it.
        const quint64 readsBefore = counterNow(m_loop.name(), DiskField::ReadIos);
        QProcess fio;
        fio.start(QStringLiteral("fio"),
            { QStringLiteral("--name=steady"), QStringLiteral("--filename=/dev/") + m_loop.name(),
                QStringLiteral("--rw=read"), QStringLiteral("--bs=64k"), QStringLiteral("--direct=1"),
                QStringLiteral("--rate=20m"), QStringLiteral("--time_based"), QStringLiteral("--runtime=10"),
                QStringLiteral("--readonly") });
        QVERIFY(fio.waitForStarted());
        // Past fio's start-up: until its reads show in the device's counters (20 MB/s of 64k: 320 a second).
        QTRY_VERIFY_WITH_TIMEOUT(counterNow(m_loop.name(), DiskField::ReadIos) > readsBefore + 100, 15000);

        RemoteSampler there(client.get());
        Sampler here;
        there.setWatched({ m_loop.name() });
        here.setWatched({ m_loop.name() });
        QList<SampleBatch> hereBatches, thereBatches;
        connect(&here, &Sampler::samplesAvailable, this, [&](const SampleBatch &b) { hereBatches << b; });
        connect(&there, &RemoteSampler::samplesAvailable, this, [&](const SampleBatch &b) { thereBatches << b; });
        QSignalSpy appeared(&there, &RemoteSampler::deviceAppeared);
        there.start();
        here.start();
        QTRY_VERIFY_WITH_TIMEOUT(hereBatches.size() >= 6 && thereBatches.size() >= 6, 15000);
        here.stop();
        there.stop();
        fio.waitForFinished(15000);

        QCOMPARE(appeared.size(), 1);
        QCOMPARE(appeared.first().first().toString(), m_loop.name());
        for (const SampleBatch &b : std::as_const(thereBatches)) {
            QCOMPARE(b.devices.size(), 1);
            QCOMPARE(b.devices.first().name(), m_loop.name());
            QVERIFY(b.elapsedSeconds > 0.9 && b.elapsedSeconds < 1.1);
        }
        // The same seconds, within a tick: both rates of the last 5 intervals agree within 5 %.
        const double ra = readRate(hereBatches.mid(hereBatches.size() - 5), m_loop.name());
        const double rb = readRate(thereBatches.mid(thereBatches.size() - 5), m_loop.name());
        QVERIFY2(ra > 10000, qPrintable(QString::number(ra)));
        QVERIFY2(
            std::abs(ra - rb) <= 0.05 * ra, qPrintable(QStringLiteral("here %1 kB/s, there %2 kB/s").arg(ra).arg(rb)));
        // What the charts compute from the remote batches: the iostat metric of the same deltas.
        const SampleBatch &last = thereBatches.last();
        QVERIFY(last.devices.first().metrics(last.elapsedSeconds)[Metric::ReadKBPerSec] > 10000);
    }

    void aLostConnectionIsAGapThenTheStreamComesBack()
    {
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        QSignalSpy lost(client.get(), &AgentClient::disconnected);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        RemoteSampler sampler(client.get());
        sampler.setWatched({ m_loop.name() });
        sampler.setInterval(200);
        SeriesStore store;
        int batches = 0;
        connect(&sampler, &RemoteSampler::samplesAvailable, this, [&](const SampleBatch &b) {
            store.append(b);
            ++batches;
        });
        connect(&sampler, &RemoteSampler::deviceVanished, this, [&](const QString &d) { store.endSeries(d); });
        QSignalSpy vanished(&sampler, &RemoteSampler::deviceVanished);
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(batches >= 3, 10000);

        const pid_t ssh = sshtest::sshChildOfThisProcess();
        QVERIFY(ssh > 0);
        QCOMPARE(::kill(ssh, SIGKILL), 0);
        QVERIFY(lost.wait(10000));
        QCOMPARE(lost.first().at(1).toBool(), true); // it was ready
        QCOMPARE(vanished.size(), 1);
        QVERIFY(!sampler.isStreaming());
        QVERIFY(sampler.isRunning()); // still wanted: it streams again once connected
        const int before = batches;
        QTest::qWait(700); // deliberately time-based: nothing arrives while disconnected, no invented samples
        QCOMPARE(batches, before);

        client->connectToHost();
        QVERIFY(ready.wait(15000));
        QTRY_VERIFY_WITH_TIMEOUT(batches >= before + 3, 10000);
        // The history has two segments with a gap (NaN) between them.
        const MetricSeries series = store.series(m_loop.name(), Metric::ReadKBPerSec);
        const auto gaps
            = std::count_if(series.values.begin(), series.values.end(), [](double v) { return std::isnan(v); });
        QCOMPARE(gaps, 1);
        sampler.stop();
    }

    void badStreamRequestsGetOneLine_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("fields");
        QTest::addColumn<QString>("error");
        QTest::newRow("interval too short")
            << QStringLiteral("stream") << QStringLiteral(R"({"interval_ms":5})")
            << QStringLiteral("\"interval_ms\" must be a whole number from 100 to 60000");
        QTest::newRow("devices not a list") << QStringLiteral("stream") << QStringLiteral(R"({"devices":"sda"})")
                                            << QStringLiteral("\"devices\" must be a list of device names");
        QTest::newRow("a path for a name") << QStringLiteral("stream") << QStringLiteral(R"({"devices":["../../etc"]})")
                                           << QStringLiteral("not a device name: ../../etc");
        QTest::newRow("inflight not a bool") << QStringLiteral("stream") << QStringLiteral(R"({"inflight":"yes"})")
                                             << QStringLiteral("\"inflight\" must be true or false");
        QTest::newRow("cancel of nothing") << QStringLiteral("cancel") << QStringLiteral(R"({"target":999})")
                                           << QStringLiteral("cancel: no stream, watch or map 999");
        QTest::newRow("update of nothing") << QStringLiteral("stream-update") << QStringLiteral(R"({"target":998})")
                                           << QStringLiteral("stream-update: no stream 998");
        QTest::newRow("a map without a name")
            << QStringLiteral("map") << QStringLiteral(R"({})") << QStringLiteral("map: empty map name");
        QTest::newRow("a path for a map") << QStringLiteral("map") << QStringLiteral(R"({"name":"../control"})")
                                          << QStringLiteral("map: invalid map name \"../control\"");
        QTest::newRow("a map read too often")
            << QStringLiteral("map") << QStringLiteral(R"({"name":"m","interval_ms":10})")
            << QStringLiteral("map: \"interval_ms\" must be a whole number from 100 to 60000");
    }

    // A map that is not there: the agent's "map" reports say so each interval (the stream goes on: a map that
    // comes later is reported), and cancel ends them.
    void aMapThatIsNotThereIsReportedMissing()
    {
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        QList<QJsonObject> messages;
        connect(client.get(), &AgentClient::message, this, [&](const QJsonObject &m) { messages << m; });
        const QString name = QStringLiteral("dmtune-test-no-such-map-%1").arg(::getpid());
        const qint64 id = client->request(
            QStringLiteral("map"), { { QLatin1String("name"), name }, { QLatin1String("interval_ms"), 100 } });
        if (!QFileInfo::exists(QStringLiteral("/dev/mapper/control"))) {
            // A kernel without device-mapper (this host's): one line why, and nothing follows.
            QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 15000);
            QCOMPARE(typeOf(messages.first()), QStringLiteral("error"));
            QCOMPARE(messages.first().value(QLatin1String("id")).toInteger(), id);
            QVERIFY2(messages.first().value(QLatin1String("error")).toString().startsWith(QLatin1String("map: ")),
                qPrintable(messages.first().value(QLatin1String("error")).toString()));
            qInfo("no device-mapper here: %s", qPrintable(messages.first().value(QLatin1String("error")).toString()));
            return;
        }
        QTRY_VERIFY_WITH_TIMEOUT(messages.size() >= 2, 15000);
        for (const QJsonObject &m : std::as_const(messages)) {
            QCOMPARE(m.value(QLatin1String("id")).toInteger(), id);
            QCOMPARE(typeOf(m), QStringLiteral("map-failed"));
            QCOMPARE(m.value(QLatin1String("error")).toString(), name + QStringLiteral(": no such map"));
        }
        const qint64 cancel = client->request(QStringLiteral("cancel"), { { QLatin1String("target"), id } });
        QTRY_VERIFY_WITH_TIMEOUT(messages.last().value(QLatin1String("id")).toInteger() == cancel, 15000);
        QCOMPARE(typeOf(messages.last()), QStringLiteral("response"));
    }
    void badStreamRequestsGetOneLine()
    {
        QFETCH(QString, op);
        QFETCH(QString, fields);
        QFETCH(QString, error);
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        QList<QJsonObject> messages;
        connect(client.get(), &AgentClient::message, this, [&](const QJsonObject &m) { messages << m; });
        const qint64 id = client->request(op, QJsonDocument::fromJson(fields.toUtf8()).object());
        QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 10000);
        QTest::qWait(300); // deliberately time-based: and nothing else comes, no stream was started
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.first().value(QLatin1String("type")).toString(), QStringLiteral("error"));
        QCOMPARE(messages.first().value(QLatin1String("id")).toInteger(), id);
        QVERIFY2(messages.first().value(QLatin1String("error")).toString().endsWith(error),
            qPrintable(messages.first().value(QLatin1String("error")).toString()));
    }

    // tuning.apply of the test's loop device, planned and run on the far side; the value read back here; then a
    // plan made stale by a change behind its back is refused there, and the value put back.
    void anOperationIsPlannedAndRunThere()
    {
        const QString attr = QStringLiteral("/sys/block/%1/queue/nomerges").arg(m_loop.name());
        const QString before = readSysfs(attr);
        QVERIFY(!before.isEmpty());
        const QString other = before == QLatin1String("1") ? QStringLiteral("0") : QStringLiteral("1");
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        RemoteOperationRunner runner(client.get());
        // Each call's answer comes to its own continuation.
        QList<OperationPlan> planned;
        QStringList failed;
        QList<OperationResult> finished;
        const auto onPlanned = [&planned](const OperationPlan &plan) { planned << plan; };
        const auto onFailed = [&failed](const QString &error) { failed << error; };
        const auto onFinished = [&finished](const OperationResult &result) { finished << result; };
        const QJsonObject request
            = tuningRequest({ Change { m_loop.name(), QStringLiteral("queue/nomerges"), other } });

        runner.plan(QString::fromLatin1(TuningApplyKind), request, this, onPlanned, onFailed);
        QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 1, 15000);
        const auto plan = planned.takeFirst();
        QCOMPARE(plan.kind, QString::fromLatin1(TuningApplyKind));
        QCOMPARE(plan.target, m_loop.name());
        QVERIFY2(plan.runnable(), qPrintable(plan.refusals.join(QLatin1Char(';'))));
        QCOMPARE(readSysfs(attr), before); // a plan changes nothing
        runner.run(plan, acceptAll(plan), this, onFinished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        const auto result = finished.takeFirst();
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.planId, plan.id);
        QVERIFY2(result.changes.join(QLatin1Char('\n')).contains(QStringLiteral("nomerges")),
            qPrintable(result.changes.join(QLatin1Char('\n'))));
        QCOMPARE(readSysfs(attr), other);

        // Back to the first value, but the plan goes stale before it runs.
        runner.plan(QString::fromLatin1(TuningApplyKind),
            tuningRequest({ Change { m_loop.name(), QStringLiteral("queue/nomerges"), before } }), this, onPlanned,
            onFailed);
        QTRY_COMPARE_WITH_TIMEOUT(planned.size(), 1, 15000);
        const auto back = planned.takeFirst();
        QVERIFY(writeSysfs(attr, QStringLiteral("2")));
        runner.run(back, acceptAll(back), this, onFinished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        const auto stale = finished.takeFirst();
        QVERIFY(!stale.ok);
        QVERIFY2(stale.stale, qPrintable(stale.error));
        QCOMPARE(readSysfs(attr), QStringLiteral("2"));
        QVERIFY(writeSysfs(attr, before)); // the test restores what it wrote

        runner.plan(QStringLiteral("no.such-kind"), {}, this, onPlanned, onFailed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 15000);
        QVERIFY2(failed.first().contains(QStringLiteral("no operation 'no.such-kind'")), qPrintable(failed.first()));
        QVERIFY(planned.isEmpty());
    }

    // A long-running operation started through the agent (`start`): experiment.sweep of nomerges on the test's loop
    // device, its progress events here in order, its result, the value back; then one cancelled while fio runs
    // (`cancel-run`): stopped, nothing measured, the value back.
    void aSweepIsStartedThereAndCancelled()
    {
        const QString attr = QStringLiteral("/sys/block/%1/queue/nomerges").arg(m_loop.name());
        const QString before = readSysfs(attr);
        QVERIFY(!before.isEmpty());
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        RemoteOperationRunner runner(client.get());
        const auto planSweep = [&](int runtime) {
            SweepRequest request;
            request.device = m_loop.name();
            request.parameters = { *parseSweepParameter(QStringLiteral("nomerges=0,2")) };
            FioJob job = *fioTemplate(QStringLiteral("batched-write-4k"));
            job.runtimeSeconds = runtime;
            request.workloads = { job };
            request.settleSeconds = 0;
            std::optional<OperationPlan> planned;
            QString failed;
            runner.plan(
                QString::fromLatin1(ExperimentSweepKind), sweepRequestToJson(request), this,
                [&](const OperationPlan &plan) { planned = plan; }, [&](const QString &error) { failed = error; });
            if (!QTest::qWaitFor([&] { return planned.has_value() || !failed.isEmpty(); }, 30000))
                failed = QStringLiteral("no plan");
            if (!failed.isEmpty())
                qWarning() << failed;
            return planned;
        };
        QList<QJsonObject> events;
        std::optional<OperationResult> result;
        const auto onProgress = [&events](const QJsonObject &event) {
            if (event.value(QLatin1String("event")).toString() != QLatin1String("output"))
                events << event;
        };
        const auto onFinished = [&result](const OperationResult &r) { result = r; };
        const auto names = [&events] {
            QStringList out;
            for (const QJsonObject &e : std::as_const(events))
                out << e.value(QLatin1String("event")).toString();
            return out;
        };

        const auto plan = planSweep(1);
        QVERIFY(plan && plan->runnable());
        runner.start(*plan, acceptAll(*plan), this, onProgress, onFinished);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 90000);
        QVERIFY2(result->ok, qPrintable(result->error));
        QCOMPARE(result->planId, plan->id);
        QCOMPARE(names(),
            QStringList({ QStringLiteral("started"), QStringLiteral("point"), QStringLiteral("run-started"),
                QStringLiteral("run"), QStringLiteral("point"), QStringLiteral("run-started"),
                QStringLiteral("run") }));
        const auto sweep = sweepOutcomeOf(*result);
        QVERIFY2(sweep, qPrintable(sweep.errorMessage()));
        QCOMPARE(sweep->runs.size(), 2);
        QCOMPARE(readSysfs(attr), before);

        events.clear();
        result.reset();
        const auto longer = planSweep(30);
        QVERIFY(longer && longer->runnable());
        const QPointer<OperationRun> run = runner.start(*longer, acceptAll(*longer), this, onProgress, onFinished);
        QTRY_VERIFY_WITH_TIMEOUT(names().contains(QStringLiteral("run-started")), 30000);
        QCOMPARE(readSysfs(attr), QStringLiteral("0"));
        QVERIFY(run);
        run->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 30000);
        QVERIFY(!result->ok);
        QVERIFY2(
            result->error.startsWith(QStringLiteral("stopped; 0 of 2 run(s) measured")), qPrintable(result->error));
        QVERIFY(!names().contains(QStringLiteral("run")));
        QCOMPARE(readSysfs(attr), before);
    }

    // A far side whose sudo refuses the password asks again and waits for a line that never comes: the client
    // ends it at once with one line, not after a timeout. (The fixture logs in as root, so a stand-in for the
    // remote program does what sudo -S does with a wrong password: reads one line, says so, reads again.)
    void aRefusedSudoPasswordEndsAtOnce()
    {
        QTemporaryDir dir;
        const QString standIn = dir.filePath(QStringLiteral("sudo-refuses"));
        QFile f(standIn);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\nread -r pw\necho 'Sorry, try again.' >&2\nread -r again\nsleep 60\n");
        f.close();
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const Result<HostAddress> address = parseHostAddress(m_sshd.host());
        AgentClient client(*address, SshSettings { m_sshd.configFile(), standIn });
        QSignalSpy lost(&client, &AgentClient::disconnected);
        QElapsedTimer t;
        t.start();
        client.connectToHost("wrong");
        QVERIFY(lost.wait(10000));
        QVERIFY2(t.elapsed() < 8000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(lost.first().at(0).toString(),
            QStringLiteral("dmtune-test: sudo refused the password (it was sent once and not kept)"));
        QCOMPARE(lost.first().at(1).toBool(), false);
    }

    // A recorded workload on the far side, as the GUI starts it: progress as it comes; the connection killed
    // in the middle: the job goes on there; connected again, it is attached again (no progress twice), and its
    // result and complete recording arrive here.
    void aRemoteWorkloadOutlivesALostConnection()
    {
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        QTemporaryDir dir;
        const QString recording = dir.filePath(QStringLiteral("remote.dmrec"));
        RemoteWorkload workload(client.get(), new RemoteOperationRunner(client.get()));
        QList<QJsonObject> events;
        QList<double> times;
        connect(&workload, &WorkloadRuns::event, this, [&](const QJsonObject &e) {
            events << e;
            if (e.value(QLatin1String("event")).toString() != QLatin1String("progress"))
                return;
            times << e.value(QLatin1String("t")).toDouble();
            QVERIFY(fioRatesFromJson(e.value(QLatin1String("rates")).toArray().first().toObject()).writeIops > 0);
        });
        const auto seen = [&](const char *name) {
            return std::count_if(events.cbegin(), events.cend(), [&](const QJsonObject &e) {
                return e.value(QLatin1String("event")).toString() == QLatin1String(name);
            });
        };
        QSignalSpy finished(&workload, &WorkloadRuns::finished);
        FioJob job = *fioTemplate(QStringLiteral("batched-write-4k"));
        job.runtimeSeconds = 5;
        QString error;
        // Planned there (workload.start on the test's own blank loop device), started as the agent's detached job.
        const WorkloadExtras extras { recording, false, {} };
        const Result<QJsonObject> request = workload.startRequest(job, m_loop.name(), extras);
        QVERIFY2(request, qPrintable(request.errorMessage()));
        std::optional<OperationPlan> plan;
        workload.planner()->plan(
            QString::fromLatin1(WorkloadStartKind), request.value(), this, [&](const OperationPlan &p) { plan = p; },
            [&](const QString &e) { error = e; });
        QTRY_VERIFY2_WITH_TIMEOUT(plan.has_value(), qPrintable(error), 20000);
        QVERIFY2(plan->refusals.isEmpty(), qPrintable(plan->refusals.join(u';')));
        QVERIFY2(workload.start(*plan, acceptAll(*plan), extras, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(seen("job") == 1, 15000);
        QVERIFY(!workload.jobId().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(times.size() >= 1, 10000);
        QCOMPARE(seen("started"), 1);
        QCOMPARE(::kill(sshtest::sshChildOfThisProcess(), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(seen("detached") == 1, 10000);
        QVERIFY(workload.isRunning());
        // The job goes on meanwhile: until its writes show in the device's counters while detached.
        const quint64 writesAtDetach = counterNow(m_loop.name(), DiskField::WriteIos);
        QTRY_VERIFY_WITH_TIMEOUT(counterNow(m_loop.name(), DiskField::WriteIos) > writesAtDetach + 100, 15000);
        client->connectToHost();
        QVERIFY(finished.wait(30000));
        const auto result = finished.first().at(0).value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY(result.details.value(QLatin1String("fio"))
                    .toArray()
                    .first()
                    .toObject()
                    .value(QLatin1String("write_iops"))
                    .toDouble()
            > 0);
        QCOMPARE(result.details.value(QLatin1String("recording")).toString(), recording);
        for (qsizetype i = 1; i < times.size(); ++i)
            QVERIFY(times.at(i) > times.at(i - 1)); // a re-attach replays nothing
        QCOMPARE(seen("started"), 1); // nor its start
        QCOMPARE(seen("job"), 2); // started, attached again
        const ProgramRun shown = runProgram(
            dmtunectl, { QStringLiteral("record"), QStringLiteral("show"), recording, QStringLiteral("--json") });
        QCOMPARE(shown.exitCode, 0);
        const QJsonObject rec = QJsonDocument::fromJson(shown.out.toUtf8()).object();
        QVERIFY2(rec.value(QLatin1String("complete")).toBool(), qPrintable(shown.out.left(400)));
        QVERIFY(rec.value(QLatin1String("devices")).toArray().contains(m_loop.name()));
        // And a second start while none runs, refused when the recording's file exists here.
        QVERIFY(!workload.start(*plan, acceptAll(*plan), extras, &error));
        QVERIFY2(error.contains(QStringLiteral("exists")), qPrintable(error));
    }

    // A job file's content with the workload.start plan, as a remote window's Workload dock sends it: the agent
    // writes it into a private directory of its own (0700), fio reads it there (${DMTUNE_DEVICE} is the far side's
    // device, filename= split as fio splits it) and the guard refuses a file other than the device; the copy is
    // gone once the plan is made. Both a path and content, or too much content, get one error line.
    void aJobFileIsPlannedThereFromItsContent()
    {
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        qint64 asked = 0;
        QJsonObject answer;
        connect(client.get(), &AgentClient::message, this, [&](const QJsonObject &m) {
            if (m.value(QLatin1String("id")).toInteger() == asked && typeOf(m) != QLatin1String("output"))
                answer = m;
        });
        const auto plan = [&](const QJsonObject &request) {
            answer = {};
            asked = client->request(QStringLiteral("plan"),
                { { QStringLiteral("kind"), QString::fromLatin1(WorkloadStartKind) },
                    { QStringLiteral("request"), request } });
            return QTest::qWaitFor([&] { return !answer.isEmpty(); }, 30000) ? answer : QJsonObject();
        };
        FioJob job;
        job.id = QStringLiteral("custom");
        job.jobFile = QStringLiteral("/nowhere/on/the/far/side/there.fio"); // only its name goes
        job.title = job.jobFile;
        const QString device = QStringLiteral("/dev/") + m_loop.name();

        const QJsonObject planned = plan(workloadRequestWithContent(
            job, m_loop.name(), "; from the near side\n[there]\nfilename=${DMTUNE_DEVICE}\nrw=write\nbs=64k\n"));
        QCOMPARE(typeOf(planned), QStringLiteral("plan"));
        const QJsonObject p = planned.value(QLatin1String("plan")).toObject();
        QVERIFY2(p.value(QLatin1String("refusals")).toArray().isEmpty(), QJsonDocument(p).toJson().constData());
        const QString preview = p.value(QLatin1String("preview")).toString();
        QVERIFY2(
            preview.contains(QStringLiteral("--filename=") + device) && preview.contains(QLatin1String("--bs=64k")),
            qPrintable(preview));
        QVERIFY(p.value(QLatin1String("summary")).toString().contains(job.jobFile));
        const QString copy = p.value(QLatin1String("request"))
                                 .toObject()
                                 .value(QLatin1String("job"))
                                 .toObject()
                                 .value(QLatin1String("job_file"))
                                 .toString();
        QVERIFY2(copy.startsWith(QDir::tempPath() + QStringLiteral("/dmtune-agent-plan-"))
                && copy.endsWith(QLatin1String("/there.fio")),
            qPrintable(copy));
        QVERIFY(!QFileInfo::exists(QFileInfo(copy).path())); // removed with the plan made

        // fio's reading splits the list: the second file is not the device, refused there, never created.
        QTemporaryDir dir;
        const QString elsewhere = dir.filePath(QStringLiteral("elsewhere.img"));
        const QJsonObject refused = plan(workloadRequestWithContent(
            job, m_loop.name(), "[elsewhere]\nfilename=${DMTUNE_DEVICE}:" + elsewhere.toUtf8() + "\nrw=write\n"));
        QCOMPARE(typeOf(refused), QStringLiteral("plan"));
        const QJsonArray refusals
            = refused.value(QLatin1String("plan")).toObject().value(QLatin1String("refusals")).toArray();
        QCOMPARE(refusals.size(), 1);
        QVERIFY2(refusals.first().toString().contains(
                     QStringLiteral("filename %1 is not the device %2").arg(elsewhere, device)),
            qPrintable(refusals.first().toString()));
        QVERIFY(!QFileInfo::exists(elsewhere));

        QJsonObject both = workloadRequestWithContent(job, m_loop.name(), "[j]\nfilename=${DMTUNE_DEVICE}\n");
        QJsonObject bothJob = both.value(QLatin1String("job")).toObject();
        bothJob.insert(QStringLiteral("job_file"), QStringLiteral("/etc/passwd"));
        both.insert(QStringLiteral("job"), bothJob);
        const QJsonObject bothAnswer = plan(both);
        QCOMPARE(typeOf(bothAnswer), QStringLiteral("error"));
        QCOMPARE(bothAnswer.value(QLatin1String("error")).toString(),
            QStringLiteral("workload.start: a job file as a path here (\"job_file\") and as content "
                           "(\"job_file_data\"): send one"));
        const QJsonObject large
            = plan(workloadRequestWithContent(job, m_loop.name(), QByteArray(MaxJobFileBytes + 1, ';')));
        QCOMPARE(typeOf(large), QStringLiteral("error"));
        QCOMPARE(large.value(QLatin1String("error")).toString(),
            QStringLiteral("workload.start: the job file is larger than 1024 KiB"));
    }

    void watchReportsALoopDeviceAppearing()
    {
        auto client = newClient();
        QSignalSpy ready(client.get(), &AgentClient::ready);
        client->connectToHost();
        QVERIFY(ready.wait(15000));
        QList<QJsonObject> events;
        connect(client.get(), &AgentClient::message, this, [&](const QJsonObject &m) {
            if (m.value(QLatin1String("type")).toString() == QLatin1String("block"))
                events << m;
        });
        QList<qint64> answered; // the ids of the agent's responses
        connect(client.get(), &AgentClient::message, this, [&](const QJsonObject &m) {
            if (typeOf(m) == QLatin1String("response"))
                answered << m.value(QLatin1String("id")).toInteger();
        });
        const qint64 id = client->request(QStringLiteral("watch"));
        // Until the far side watches: it responds once its udev monitor is started.
        QTRY_VERIFY_WITH_TIMEOUT(answered.contains(id), 15000);
        ScratchLoop another; // a device of this test: its add and remove must come as events
        QVERIFY2(another.create(16LL << 20), qPrintable(another.error()));
        const QString name = another.name();
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.begin(), events.end(),
                                     [&](const QJsonObject &e) {
                                         return e.value(QLatin1String("name")).toString() == name
                                             && e.value(QLatin1String("id")).toInteger() == id;
                                     }),
            10000);
        client->request(QStringLiteral("cancel"), { { QLatin1String("target"), id } });
    }
};

QTEST_GUILESS_MAIN(TestLiveRemoteStream)
#include "tst_live_remotestream.moc"
