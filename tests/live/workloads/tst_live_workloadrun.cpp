// workload.start started through the operation layer's run handle (OperationService::start on an OperationRunner),
// as the Workloads dock and dmtunectl run start it, on loop devices made here (root, fio):
//   * a recorded write run: the events in order (started with the watched devices, progress with fio's rates and
//     the device's iostat, no line of zeros), one ok result whose details are the run's summary (fio's window, the
//     device's writes), the recording on disk, the device held O_EXCL while fio writes and free after;
//   * cancel mid-run: fio stopped by SIGINT, the result ok with "stopped", the device free;
//   * a recording file that exists: the plan refuses it, and plans it when the request says to replace it;
//   * a device that gained a file system between the plan and the start: refused as stale, nothing written;
//   * a remote window's detached job checks the same (checkOperationJob): the basis the user answered, the risks
//     accepted.
#include "core/ops/operationrunner.h"
#include "core/ops/workloadoperations.h"
#include "core/recordings/recordingreader.h"
#include "core/remote/operationjob.h"
#include "core/workloads/fiojob.h"
#include "core/workloads/workloadsession.h"
#include "tests/live/operationevents.h"
#include "tests/live/scratchloop.h"

#include <QFile>
#include <QJsonArray>
#include <QPointer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

#include <fcntl.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::live::ScratchLoop;
using RunEvents = dmtune::live::OperationEvents;
using namespace Qt::StringLiterals;

namespace {

// errno of an O_EXCL open of the device (0: it opened, nobody holds it).
int exclusiveOpenErrno(const QString &devicePath)
{
    const int fd = ::open(QFile::encodeName(devicePath).constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
    const int error = fd < 0 ? errno : 0;
    if (fd >= 0)
        ::close(fd);
    return error;
}

} // namespace

class TestLiveWorkloadRun : public QObject {
    Q_OBJECT
    std::unique_ptr<OperationRunner> m_runner;
    QTemporaryDir m_work;

    std::optional<OperationPlan> plan(const QJsonObject &request)
    {
        std::optional<OperationPlan> out;
        QString error;
        m_runner->plan(
            QString::fromLatin1(WorkloadStartKind), request, this, [&](const OperationPlan &p) { out = p; },
            [&](const QString &e) { error = e; });
        if (!QTest::qWaitFor([&] { return out.has_value() || !error.isEmpty(); }, 30000) || !out)
            qWarning() << "no plan:" << error;
        return out;
    }

    QPointer<OperationRun> start(const OperationPlan &p, RunEvents *events)
    {
        return m_runner->start(
            p, acceptAll(p), this, [events](const QJsonObject &e) { events->events.append(e); },
            [events](const OperationResult &r) { events->result = r; });
    }

    static QJsonObject request(const ScratchLoop &loop, const QString &templateId, int runtime)
    {
        FioJob job = *fioTemplate(templateId);
        job.runtimeSeconds = runtime;
        return workloadRequest(job, loop.name());
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString reason = ScratchLoop::unavailableReason({ u"losetup"_s, u"fio"_s, u"mkfs.ext4"_s });
        if (!reason.isEmpty())
            QSKIP(qPrintable(reason));
        QVERIFY(m_work.isValid());
    }
    void init() { m_runner = std::make_unique<OperationRunner>(); }
    void cleanup() { m_runner.reset(); }

    void aRecordedWriteRunsToItsResult()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(128LL << 20), qPrintable(loop.error()));
        const QString record = m_work.filePath(u"write.dmrec"_s);
        const auto p = plan(withWorkloadExtras(request(loop, u"batched-write-4k"_s, 2), { record, false, {} }));
        QVERIFY(p);
        QVERIFY2(p->refusals.isEmpty(), qPrintable(p->refusals.join(u"; ")));
        QVERIFY(p->steps.join(u'\n').contains(record));
        RunEvents events;
        const QPointer<OperationRun> run = start(*p, &events);
        QVERIFY(run);
        QTRY_VERIFY_WITH_TIMEOUT(events.count(u"started"_s) == 1 || events.result, 30000);
        QVERIFY2(!events.result, qPrintable(events.result ? events.result->error : QString()));
        QCOMPARE(exclusiveOpenErrno(loop.devicePath()), EBUSY); // held while fio writes
        QTRY_VERIFY_WITH_TIMEOUT(events.result.has_value(), 60000);
        QVERIFY2(events.result->ok, qPrintable(events.result->error));
        QCOMPARE(events.result->kind, QString::fromLatin1(WorkloadStartKind));
        const QStringList names = events.names();
        QCOMPARE(names.first(), u"started"_s);
        QVERIFY(names.size() >= 2);
        QCOMPARE(names.count(u"progress"_s), names.size() - 1);
        QVERIFY(!run); // the handle goes once its result was delivered
        QCOMPARE(exclusiveOpenErrno(loop.devicePath()), 0); // released when fio ended

        const QJsonObject started = events.events.first();
        QCOMPARE(started.value("device"_L1).toString(), loop.devicePath());
        QCOMPARE(started.value("devices"_L1).toArray().first().toString(), loop.name());
        QCOMPARE(started.value("record"_L1).toString(), record);
        QVERIFY(started.value("command"_L1).toString().contains(u"--runtime=2"_s));
        for (const QJsonObject &e : std::as_const(events.events)) {
            if (e.value("event"_L1).toString() != "progress"_L1)
                continue;
            const QJsonArray rates = e.value("rates"_L1).toArray();
            QCOMPARE(rates.size(), 1);
            QVERIFY(fioRatesFromJson(rates.first().toObject()).writeIops > 0); // no line of zeros
        }
        // Some progress carries the device's iostat of the newest sample.
        QVERIFY(std::any_of(events.events.cbegin(), events.events.cend(),
            [&](const QJsonObject &e) { return e.value("devices"_L1).toObject().contains(loop.name()); }));

        const QJsonObject summary = events.result->details;
        QVERIFY(!summary.value("stopped"_L1).toBool());
        QCOMPARE(summary.value("device_window"_L1).toString(), u"fio"_s);
        QVERIFY(summary.value("window_to"_L1).toDouble() > summary.value("window_from"_L1).toDouble());
        QCOMPARE(summary.value("recording"_L1).toString(), record);
        const IostatMetrics device
            = metricsFromJson(summary.value("devices"_L1).toObject().value(loop.name()).toObject());
        QVERIFY(device[Metric::WritesPerSec] > 0);
        QVERIFY(fioRatesFromJson(summary.value("fio"_L1).toArray().first().toObject()).writeIops > 0);
        const auto read = readRecording(record);
        QVERIFY2(read, qPrintable(read.errorMessage()));
        QVERIFY(read->truncation.isEmpty());
        QVERIFY(read->deviceNames().contains(loop.name()));
        QCOMPARE(read->fioResults.size(), 1);
    }

    void aCancelStopsFioAndTheResultSaysSo()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(128LL << 20), qPrintable(loop.error()));
        const auto p = plan(request(loop, u"batched-write-4k"_s, 60));
        QVERIFY(p && p->refusals.isEmpty());
        RunEvents events;
        const QPointer<OperationRun> run = start(*p, &events);
        QTRY_VERIFY_WITH_TIMEOUT(events.count(u"progress"_s) >= 1 || events.result, 30000);
        QVERIFY(run && !events.result);
        run->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(events.result.has_value(), 20000);
        QVERIFY2(events.result->ok, qPrintable(events.result->error)); // fio's own report of the part it ran
        QVERIFY(events.result->details.value("stopped"_L1).toBool());
        QVERIFY(events.result->details.value("seconds"_L1).toDouble() < 30);
        QCOMPARE(exclusiveOpenErrno(loop.devicePath()), 0);
    }

    void anExistingRecordingIsRefusedUnlessReplaced()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
        const QString record = m_work.filePath(u"exists.dmrec"_s);
        QFile existing(record);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("kept\n");
        existing.close();
        const QJsonObject asked = request(loop, u"seq-read-8k-4jobs"_s, 1);
        const auto refused = plan(withWorkloadExtras(asked, { record, false, {} }));
        QVERIFY(refused);
        QCOMPARE(refused->refusals.size(), 1);
        QVERIFY2(refused->refusals.first().contains(u"exists"_s), qPrintable(refused->refusals.first()));
        const auto replaced = plan(withWorkloadExtras(asked, { record, true, {} }));
        QVERIFY(replaced && replaced->refusals.isEmpty());
        const auto badLatency = plan(withWorkloadExtras(asked, { {}, false, u"sometimes"_s }));
        QVERIFY(badLatency && !badLatency->refusals.isEmpty());
        QFile kept(record);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("kept\n")); // planning wrote nothing
    }

    void aDeviceThatChangedSinceThePlanIsRefused()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
        const auto p = plan(request(loop, u"batched-write-4k"_s, 1));
        QVERIFY(p && p->refusals.isEmpty() && p->risks.isEmpty()); // empty: nothing to confirm
        // The plan holds the device (O_EXCL) while the user would be asked; mkfs opens it exclusively too and fails.
        QProcess mkfs;
        mkfs.start(u"mkfs.ext4"_s, { u"-q"_s, u"-F"_s, loop.devicePath() });
        QVERIFY(mkfs.waitForFinished(30000));
        QVERIFY(mkfs.exitCode() != 0);
        // The plan's hold let go (as a dialog closed would), then the file system appears: the start finds it.
        preparedWorkloadOf(*p)->hold->release();
        QProcess again;
        again.start(u"mkfs.ext4"_s, { u"-q"_s, u"-F"_s, loop.devicePath() });
        QVERIFY(again.waitForFinished(30000));
        QCOMPARE(again.exitCode(), 0);
        RunEvents events;
        start(*p, &events);
        QTRY_VERIFY_WITH_TIMEOUT(events.result.has_value(), 30000);
        QVERIFY(!events.result->ok);
        QVERIFY(events.events.isEmpty()); // fio never started
        QVERIFY2(events.result->stale || events.result->error.contains(u"ext4"_s), qPrintable(events.result->error));
        QProcess fsck;
        fsck.start(u"fsck.ext4"_s, { u"-n"_s, u"-f"_s, loop.devicePath() });
        QVERIFY(fsck.waitForFinished(30000));
        QCOMPARE(fsck.exitCode(), 0); // the file system made after the plan is intact
    }

    void aDetachedJobStartsOnlyOnWhatWasAnswered()
    {
        ScratchLoop loop;
        QVERIFY2(loop.create(64LL << 20), qPrintable(loop.error()));
        OperationEnvironment env;
        env.sysfs = SysfsRoot();
        const auto blank = plan(request(loop, u"batched-write-4k"_s, 1));
        QVERIFY(blank && blank->refusals.isEmpty() && blank->risks.isEmpty());
        preparedWorkloadOf(*blank)->hold->release();
        const OperationJob asked { QString::fromLatin1(WorkloadStartKind), blank->request, blank->basis, {},
            operationJobCommand(QString::fromLatin1(WorkloadStartKind), blank->request) };
        QCOMPARE(asked.command, u"workload.start batched-write-4k --device %1"_s.arg(loop.name()));
        const auto read = operationJobFromJson(operationJobToJson(asked));
        QVERIFY(read && read->request == asked.request && read->basis == asked.basis);
        {
            const auto unchanged = checkOperationJob(env, asked);
            QVERIFY(std::holds_alternative<CheckedOperationJob>(unchanged));
            QCOMPARE(std::get<CheckedOperationJob>(unchanged).plan.kind, QString::fromLatin1(WorkloadStartKind));
        } // its fresh plan's hold goes here
        QProcess mkfs;
        mkfs.start(u"mkfs.ext4"_s, { u"-q"_s, u"-F"_s, loop.devicePath() });
        QVERIFY(mkfs.waitForFinished(30000));
        QCOMPARE(mkfs.exitCode(), 0);
        const auto stale = checkOperationJob(env, asked);
        QVERIFY(std::holds_alternative<OperationResult>(stale));
        QVERIFY(std::get<OperationResult>(stale).stale);
        QVERIFY2(std::get<OperationResult>(stale).error.contains(u"signatures"_s),
            qPrintable(std::get<OperationResult>(stale).error));
        // Planned on the file system: its data risk, answered or not.
        const auto full = plan(request(loop, u"batched-write-4k"_s, 1));
        QVERIFY(full && full->risks.size() == 1);
        preparedWorkloadOf(*full)->hold->release();
        OperationJob unanswered { QString::fromLatin1(WorkloadStartKind), full->request, full->basis, {}, {} };
        const auto refused = checkOperationJob(env, unanswered);
        QVERIFY(std::holds_alternative<OperationResult>(refused));
        QVERIFY2(std::get<OperationResult>(refused).error.startsWith(u"not answered"_s),
            qPrintable(std::get<OperationResult>(refused).error));
        OperationJob answered = unanswered;
        answered.accepted = { full->risks.first().id };
        QVERIFY(std::holds_alternative<CheckedOperationJob>(checkOperationJob(env, answered)));
    }
};

QTEST_GUILESS_MAIN(TestLiveWorkloadRun)
#include "tst_live_workloadrun.moc"
