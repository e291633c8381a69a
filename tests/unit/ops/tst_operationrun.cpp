// The run handle of a long-running operation (ops/operationactivity.h, OperationService::start) through
// OperationRunner, with a test kind whose activity counts steps on a timer and "writes" a value it puts back
// however it ends (as a sweep restores its attributes):
//   * its progress events arrive in order, then one result; the activity ran on a thread the runner owns, not
//     the caller's, and the serial jobs were free meanwhile;
//   * cancel mid-run: the activity stops, puts the value back, and the result says it was stopped;
//   * cancel while the checks run: the activity is never made, nothing is written;
//   * a plan whose basis changed: refused as stale, never made; a kind that is not long-running: refused;
//   * the runner deleted mid-run (a window closed): the value is back before its destructor returns;
//   * the caller's context gone: the run is cancelled (the value back) and nothing is called back;
//   * a remote host's service that is not connected: the start fails in one line, nothing sent (the agent's start
//     itself: tst_live_remotestream).
#include "core/ops/operationactivity.h"
#include "core/ops/operationrunner.h"
#include "core/remote/agentclient.h"
#include "core/remote/remoteoperationrunner.h"

#include <QPointer>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

constexpr auto CountKind = "test.count";
constexpr auto InstantKind = "test.instant";

// The "device": a value the activity writes at its start and puts back at its end.
std::atomic<int> g_value { 0 };
std::atomic<int> g_made { 0 }; // activities made
std::atomic<QThread *> g_activityThread { nullptr };

class CountActivity : public OperationActivity {
public:
    CountActivity(int steps, int original, OperationResult checked)
        : m_steps(steps)
        , m_original(original)
        , m_checked(std::move(checked))
    {
        ++g_made;
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            Q_EMIT progress({ { u"event"_s, u"step"_s }, { u"step"_s, ++m_done } });
            if (m_done == m_steps)
                end(false);
        });
    }
    ~CountActivity() override
    {
        if (m_running)
            g_value = m_original; // an owner that goes away mid-run still gets its value back
    }
    void start() override
    {
        g_activityThread = QThread::currentThread();
        m_running = true;
        g_value = 99;
        Q_EMIT progress({ { u"event"_s, u"started"_s }, { u"steps"_s, m_steps } });
        m_timer.start();
    }
    void cancel() override { end(true); }

private:
    void end(bool cancelled)
    {
        if (!m_running)
            return;
        m_running = false;
        m_timer.stop();
        g_value = m_original;
        OperationResult result = m_checked;
        result.ok = !cancelled;
        result.error = cancelled ? u"stopped after %1 step(s)"_s.arg(m_done) : QString();
        result.details = { { u"steps"_s, m_done }, { u"cancelled"_s, cancelled } };
        Q_EMIT finished(result);
    }

    QTimer m_timer { this };
    int m_steps;
    int m_done = 0;
    int m_original;
    bool m_running = false;
    OperationResult m_checked;
};

void registerTestKinds()
{
    static const bool done = [] {
        for (const char *name : { CountKind, InstantKind }) {
            OperationKind op;
            op.kind = QString::fromLatin1(name);
            op.description = u"test"_s;
            op.plan = [](const OperationEnvironment &, const QJsonObject &request) -> Result<OperationPlan> {
                OperationPlan plan;
                plan.request = request;
                plan.target = u"value"_s;
                plan.basis = { { u"value"_s, QString::number(g_value) } };
                return plan;
            };
            op.run = [](const OperationEnvironment &, const OperationPlan &, bool) {
                OperationResult r;
                r.ok = true;
                return r;
            };
            registerOperation(std::move(op));
        }
        registerLongOperation(QString::fromLatin1(CountKind),
            [](const OperationEnvironment &env, const OperationPlan &plan, const OperationAnswers &answers) {
                OperationStart start;
                OperationPlan fresh;
                start.result = checkOperation(env, plan, answers, &fresh);
                if (start.result.ok) {
                    const int steps = plan.request.value(u"steps"_s).toInt();
                    start.make = [steps, original = int(g_value), checked = start.result] {
                        return std::make_unique<CountActivity>(steps, original, checked);
                    };
                }
                return start;
            });
        return true;
    }();
    Q_UNUSED(done);
}

struct Collected {
    QList<QJsonObject> events;
    std::optional<OperationResult> result;
    int steps() const
    {
        int n = 0;
        for (const QJsonObject &e : events)
            n += e.value(u"event"_s).toString() == u"step"_s ? 1 : 0;
        return n;
    }
};

} // namespace

class TestOperationRun : public QObject {
    Q_OBJECT

    std::unique_ptr<OperationRunner> m_runner;

    // The plan as the runner makes it (a job); an empty plan (no id) when none came.
    OperationPlan plan(const QString &kind, int steps)
    {
        std::optional<OperationPlan> out;
        m_runner->plan(
            kind, { { u"steps"_s, steps } }, this, [&](const OperationPlan &p) { out = p; },
            [](const QString &error) { qWarning() << error; });
        if (!QTest::qWaitFor([&] { return out.has_value(); }, 5000))
            qWarning() << "no plan of" << kind;
        return out.value_or(OperationPlan {});
    }

    QPointer<OperationRun> start(const OperationPlan &p, Collected *c, QObject *context = nullptr)
    {
        return m_runner->start(
            p, acceptAll(p), context ? context : this, [c](const QJsonObject &e) { c->events.append(e); },
            [c](const OperationResult &r) { c->result = r; });
    }

private Q_SLOTS:
    void init()
    {
        registerTestKinds();
        g_value = 0;
        g_made = 0;
        g_activityThread = nullptr;
        m_runner = std::make_unique<OperationRunner>();
    }
    void cleanup() { m_runner.reset(); }

    void progressInOrderThenOneResult()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 5);
        Collected c;
        const QPointer<OperationRun> run = start(p, &c);
        QVERIFY(run && !run->isFinished());
        QCOMPARE(run->kind(), QString::fromLatin1(CountKind));
        QVERIFY(m_runner->isBusy());
        // The serial jobs are not held up by the run: a plan is answered while it goes on.
        plan(QString::fromLatin1(InstantKind), 0);
        QTRY_VERIFY(c.result.has_value());
        QVERIFY2(c.result->ok, qPrintable(c.result->error));
        QCOMPARE(c.result->kind, QString::fromLatin1(CountKind));
        QCOMPARE(c.result->planId, p.id);
        QCOMPARE(c.events.size(), 6);
        QCOMPARE(c.events.first().value(u"event"_s).toString(), u"started"_s);
        for (int i = 1; i <= 5; ++i)
            QCOMPARE(c.events.at(i).value(u"step"_s).toInt(), i);
        QCOMPARE(g_value.load(), 0);
        QVERIFY(g_activityThread.load() != nullptr);
        QVERIFY(g_activityThread.load() != QThread::currentThread());
        QTRY_VERIFY(run.isNull()); // the service deleted its handle after the result
        QVERIFY(!m_runner->isBusy());
    }

    void cancelMidRunPutsTheValueBack()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 100000);
        Collected c;
        const QPointer<OperationRun> run = start(p, &c);
        QTRY_VERIFY(c.steps() >= 3);
        QCOMPARE(g_value.load(), 99);
        run->cancel();
        QVERIFY(run->isCancelRequested());
        QTRY_VERIFY(c.result.has_value());
        QVERIFY(!c.result->ok);
        QVERIFY(c.result->details.value(u"cancelled"_s).toBool());
        QVERIFY2(c.result->error.startsWith(u"stopped after"_s), qPrintable(c.result->error));
        QCOMPARE(g_value.load(), 0);
        QVERIFY(c.steps() < 100000);
        QCOMPARE(c.result->details.value(u"steps"_s).toInt(), c.steps()); // every event before the result
    }

    void cancelWhileCheckingNeverBegins()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 5);
        Collected c;
        const QPointer<OperationRun> run = start(p, &c);
        run->cancel(); // the checks are a queued job: they have not answered yet
        QTRY_VERIFY(c.result.has_value());
        QVERIFY(!c.result->ok);
        QVERIFY2(c.result->error.contains(u"cancelled before it began"_s), qPrintable(c.result->error));
        QVERIFY(c.events.isEmpty());
        QCOMPARE(g_made.load(), 0);
        QCOMPARE(g_value.load(), 0);
    }

    void aChangedBasisIsRefusedAsStale()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 5);
        g_value = 7; // the state the plan was made on is gone
        Collected c;
        start(p, &c);
        QTRY_VERIFY(c.result.has_value());
        QVERIFY(!c.result->ok);
        QVERIFY(c.result->stale);
        QCOMPARE(g_made.load(), 0);
        QCOMPARE(g_value.load(), 7);
    }

    void aShortKindIsRefused()
    {
        const OperationPlan p = plan(QString::fromLatin1(InstantKind), 0);
        QVERIFY(!isLongOperation(p.kind));
        QVERIFY(isLongOperation(QStringLiteral("experiment.sweep")));
        Collected c;
        start(p, &c);
        QTRY_VERIFY(c.result.has_value());
        QVERIFY(!c.result->ok);
        QCOMPARE(c.result->error, u"test.instant is not a long-running operation: run it"_s);
    }

    void deletingTheRunnerMidRunRestores()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 100000);
        Collected c;
        start(p, &c);
        QTRY_VERIFY(c.steps() >= 2);
        QCOMPARE(g_value.load(), 99);
        m_runner.reset(); // the window closes
        QCOMPARE(g_value.load(), 0); // put back before the destructor returned
        QVERIFY(!c.result.has_value()); // nobody is called back from a runner that is gone
    }

    void aGoneContextCancelsTheRun()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 100000);
        Collected c;
        auto *context = new QObject;
        const QPointer<OperationRun> run = start(p, &c, context);
        QTRY_VERIFY(c.steps() >= 2);
        const int seen = int(c.events.size());
        delete context; // a closed panel
        QTRY_COMPARE(g_value.load(), 0);
        QTRY_VERIFY(run.isNull());
        QVERIFY(!c.result.has_value());
        QCOMPARE(c.events.size(), seen);
    }

    void aRemoteHostNotConnectedSendsNothing()
    {
        const OperationPlan p = plan(QString::fromLatin1(CountKind), 5);
        AgentClient client(parseHostAddress(u"db1.invalid"_s).value(), SshSettings {}); // never connected
        RemoteOperationRunner remote(&client);
        Collected c;
        const QPointer<OperationRun> run = remote.start(
            p, acceptAll(p), this, [&c](const QJsonObject &e) { c.events.append(e); },
            [&c](const OperationResult &r) { c.result = r; });
        QVERIFY(run);
        QVERIFY(!c.result.has_value()); // asynchronous, as the agent's answer would be
        QTRY_VERIFY(c.result.has_value());
        QVERIFY(!c.result->ok);
        QCOMPARE(c.result->error, u"not connected to db1.invalid: nothing was run"_s);
        QVERIFY(c.events.isEmpty());
        QCOMPARE(g_made.load(), 0);
        QTRY_VERIFY(run.isNull());
    }
};

QTEST_GUILESS_MAIN(TestOperationRun)
#include "tst_operationrun.moc"
