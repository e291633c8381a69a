// experiment.sweep started through the operation layer's run handle (OperationService::start on an
// OperationRunner), on a loop device made here (root, fio):
//   * nomerges over 0 and 2: the progress events in order (started, then per point "point", "run-started",
//     "run"), one ok result whose details are the sweep's runs, the old nomerges back;
//   * cancel during the first point's fio: fio stopped, the result "stopped" and not ok, nomerges back, the
//     device no longer held;
//   * a plan made on a nomerges that changed before the start: refused as stale, nothing written.
#include "core/experiments/sweeprunner.h"
#include "core/ops/operationrunner.h"
#include "tests/live/operationevents.h"
#include "tests/live/scratchloop.h"

#include <QPointer>
#include <QTest>

#include <optional>

#include <fcntl.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::live::ScratchLoop;
using namespace Qt::StringLiterals;

using Collected = dmtune::live::OperationEvents;

class TestLiveSweepRun : public QObject {
    Q_OBJECT
    SysfsRoot m_sys;
    std::unique_ptr<OperationRunner> m_runner;

    QString nomerges(const ScratchLoop &loop) const
    {
        return m_sys.readOr(u"block/%1/queue/nomerges"_s.arg(loop.name())).trimmed();
    }

    std::optional<OperationPlan> plan(const ScratchLoop &loop, int runtime)
    {
        SweepRequest request;
        request.device = loop.name();
        request.parameters = { *parseSweepParameter(u"nomerges=0,2"_s) };
        FioJob job = *fioTemplate(u"batched-write-4k"_s);
        job.runtimeSeconds = runtime;
        request.workloads = { job };
        request.settleSeconds = 0;
        std::optional<OperationPlan> out;
        QString error;
        m_runner->plan(
            QString::fromLatin1(ExperimentSweepKind), sweepRequestToJson(request), this,
            [&](const OperationPlan &p) { out = p; }, [&](const QString &e) { error = e; });
        if (!QTest::qWaitFor([&] { return out.has_value() || !error.isEmpty(); }, 30000) || !out)
            qWarning() << "no plan:" << error;
        if (out && !out->refusals.isEmpty())
            qWarning() << "refused:" << out->refusals;
        return out;
    }

    QPointer<OperationRun> start(const OperationPlan &p, Collected *c)
    {
        return m_runner->start(
            p, acceptAll(p), this, [c](const QJsonObject &e) { c->events.append(e); },
            [c](const OperationResult &r) { c->result = r; });
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString reason = ScratchLoop::unavailableReason({ u"losetup"_s, u"fio"_s });
        if (!reason.isEmpty())
            QSKIP(qPrintable(reason));
    }
    void init() { m_runner = std::make_unique<OperationRunner>(); }
    void cleanup() { m_runner.reset(); }

    void progressInOrderThenTheResult()
    {
        ScratchLoop loop;
        if (const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20); !problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s)); // restored as found, not to the default
        const auto p = plan(loop, 1);
        QVERIFY(p && p->refusals.isEmpty());
        Collected c;
        const QPointer<OperationRun> run = start(*p, &c);
        QVERIFY(run);
        QTRY_VERIFY_WITH_TIMEOUT(c.result.has_value(), 90000);
        QVERIFY2(c.result->ok, qPrintable(c.result->error));
        QCOMPARE(c.result->kind, QString::fromLatin1(ExperimentSweepKind));
        QCOMPARE(c.names(true),
            QStringList({ u"started 0"_s, u"point 1"_s, u"run-started 1"_s, u"run 0"_s, u"point 2"_s,
                u"run-started 2"_s, u"run 0"_s }));
        // The runs come in order, each with its measurement.
        QList<int> points;
        for (const QJsonObject &e : std::as_const(c.events)) {
            if (e.value("event"_L1).toString() == "run"_L1)
                points << sweepMeasurementFromJson(e.value("run"_L1).toObject()).point;
        }
        QCOMPARE(points, QList<int>({ 0, 1 }));
        const auto sweep = sweepOutcomeOf(*c.result);
        QVERIFY2(sweep, qPrintable(sweep.errorMessage()));
        QCOMPARE(sweep->runs.size(), 2);
        QVERIFY(!sweep->outcome.stopped);
        QCOMPARE(nomerges(loop), u"1"_s);
        QVERIFY2(c.result->changes.contains(u"%1 nomerges 2 -> 1"_s.arg(loop.name())),
            qPrintable(c.result->changes.join(u"; "_s)));
    }

    void cancelMidSweepRestores()
    {
        ScratchLoop loop;
        if (const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20); !problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        const auto p = plan(loop, 30);
        QVERIFY(p && p->refusals.isEmpty());
        Collected c;
        const QPointer<OperationRun> run = start(*p, &c);
        QTRY_VERIFY_WITH_TIMEOUT(c.has(u"run-started"_s), 30000); // fio runs on the first point
        QCOMPARE(nomerges(loop), u"0"_s);
        QVERIFY(run);
        run->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(c.result.has_value(), 30000);
        QVERIFY(!c.result->ok);
        QVERIFY(!c.result->stale);
        QVERIFY2(c.result->error.startsWith(u"stopped; 0 of 2 run(s) measured"_s), qPrintable(c.result->error));
        const auto sweep = sweepOutcomeOf(*c.result);
        QVERIFY(sweep && sweep->outcome.stopped && sweep->runs.isEmpty());
        QVERIFY(!c.has(u"run"_s));
        QCOMPARE(nomerges(loop), u"1"_s);
        QVERIFY2(c.result->changes.contains(u"%1 nomerges 0 -> 1"_s.arg(loop.name())),
            qPrintable(c.result->changes.join(u"; "_s)));
        // The sweep's O_EXCL hold (a write workload) let go.
        const int fd = ::open(loop.devicePath().toLocal8Bit().constData(), O_RDONLY | O_EXCL | O_CLOEXEC);
        QVERIFY2(fd >= 0, "the device is still held");
        ::close(fd);
    }

    void aChangedValueIsStale()
    {
        ScratchLoop loop;
        if (const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20); !problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        const auto p = plan(loop, 1);
        QVERIFY(p && p->refusals.isEmpty());
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"2"_s)); // after the plan: its basis is gone
        Collected c;
        start(*p, &c);
        QTRY_VERIFY_WITH_TIMEOUT(c.result.has_value(), 30000);
        QVERIFY(!c.result->ok);
        QVERIFY2(c.result->stale, qPrintable(c.result->error));
        QVERIFY(c.events.isEmpty());
        QCOMPARE(nomerges(loop), u"2"_s);
    }
};

QTEST_GUILESS_MAIN(TestLiveSweepRun)
#include "tst_live_sweeprun.moc"
