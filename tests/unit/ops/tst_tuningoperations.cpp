// tuning.apply (core/ops/tuningoperations.h) over a scratch tree: the plan is the planner's (refusals, data
// risks naming the device, stacking notes, ordered steps, the old values as basis); the run writes and reads
// back; an attribute that changes between the plan and the answers makes the run refuse the plan as stale and
// write nothing; --with-paths covers the map's paths. And the Applier: destroyed while an in-process
// transaction is in its write, it finishes that step (the tracker joins) and nothing crashes. The environment's
// transaction hook: tuning.apply and preset.apply both write through it when set (a recording stand-in here; the
// Applier's own through a stand-in helper program), in this process when not.
#include "tests/unit/params/paramfixture.h"

#include "core/ops/operationregistry.h"
#include "core/ops/presetoperations.h"
#include "core/ops/tuningoperations.h"
#include "core/params/applier.h"
#include "core/params/transaction.h"
#include "core/presets/presetjson.h"
#include "tests/common/tuningrun.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestTuningOperations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void planIsThePlanners();
    void runWritesAndReadsBack();
    void staleBasisIsRefused();
    void riskNeedsItsAnswer();
    void withPathsCoversTheMap();
    void badRequestsFail_data();
    void badRequestsFail();
    void applierDestroyedMidTransactionFinishesTheStep();
    void transactionHookWritesTuningAndPresets();
    void applierRunsOperationsThroughTheHelper();

private:
    QString attr(const QString &device, const QString &attribute) const
    {
        return m_sysfs.readOr(QStringLiteral("block/%1/%2").arg(device, attribute));
    }
    OperationPlan plan(const ChangeSet &changes, bool withPaths = false)
    {
        const auto p = planOperation(m_env, QString::fromLatin1(TuningApplyKind), tuningRequest(changes, withPaths));
        if (!p)
            qWarning("%s", qPrintable(p.errorMessage()));
        return p ? p.value() : OperationPlan();
    }

    std::unique_ptr<FakeSysfs> m_tree;
    SysfsRoot m_sysfs;
    OperationEnvironment m_env;
};

namespace {

// Records each transaction it is handed and writes it to the tree itself, as the helper would as root.
struct RecordingHook {
    std::shared_ptr<QList<Plan>> plans = std::make_shared<QList<Plan>>();
    TransactionHook hook() const
    {
        return [plans = plans](const OperationEnvironment &env, const Plan &plan, bool dryRun) {
            plans->append(plan);
            ApplyResult r = executePlan(env.sysfs, plan, dryRun);
            r.executor = QStringLiteral("recorded");
            return r;
        };
    }
};

} // namespace

void TestTuningOperations::init()
{
    m_tree = std::make_unique<FakeSysfs>();
    buildMultipathFixture(*m_tree);
    m_tree->file(
        m_tree->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"), QStringLiteral("write back"));
    m_sysfs = SysfsRoot::scratch(m_tree->root());
    m_env = OperationEnvironment();
    m_env.sysfs = m_sysfs;
}

void TestTuningOperations::planIsThePlanners()
{
    const OperationPlan p = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") },
        { QStringLiteral("sdb"), QStringLiteral("queue/scheduler"), QStringLiteral("mq-deadline") } });
    QCOMPARE(p.kind, QStringLiteral("tuning.apply"));
    QVERIFY(p.refusals.isEmpty());
    QVERIFY(p.risks.isEmpty());
    QVERIFY(!p.id.isEmpty());
    // The scheduler first (it resets what depends on it), then the rest; each step with its old value.
    QCOMPARE(p.steps.value(0), QStringLiteral("sdb queue/scheduler: none -> mq-deadline"));
    QCOMPARE(p.steps.value(1), QStringLiteral("sdb queue/nomerges: 0 -> 2"));
    QCOMPARE(p.basis.value(QLatin1String("sdb queue/nomerges")).toString(), QStringLiteral("0"));
    QCOMPARE(p.basis.value(QLatin1String("sdb queue/scheduler")).toString(), QStringLiteral("none"));
    QVERIFY(tuningPlanOf(p));
    // Its JSON form keeps what a remote caller needs; the same state gives the same id.
    QCOMPARE(plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") },
                      { QStringLiteral("sdb"), QStringLiteral("queue/scheduler"), QStringLiteral("mq-deadline") } })
                 .id,
        p.id);

    const OperationPlan bad
        = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("9") } });
    QCOMPARE(bad.refusals.size(), 1);
    QVERIFY2(
        bad.refusals.first().startsWith(QLatin1String("sdb queue/nomerges=9: ")), qPrintable(bad.refusals.first()));
    const OperationResult refused = runOperation(m_env, bad, acceptAll(bad));
    QVERIFY(!refused.ok);
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));
}

void TestTuningOperations::runWritesAndReadsBack()
{
    const OperationPlan p = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } });
    OperationAnswers dry = acceptAll(p);
    dry.dryRun = true;
    const OperationResult wouldBe = runOperation(m_env, p, dry);
    QVERIFY2(wouldBe.ok, qPrintable(wouldBe.error));
    QCOMPARE(wouldBe.changes, QStringList { QStringLiteral("would: sdb queue/nomerges 0 -> 2") });
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));

    const OperationResult done = runOperation(m_env, p, acceptAll(p));
    QVERIFY2(done.ok, qPrintable(done.error));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
    QCOMPARE(done.changes, QStringList { QStringLiteral("sdb nomerges 0 -> 2") });
    const ApplyResult r = applyResultOf(done);
    QCOMPARE(r.changes.size(), 1);
    QCOMPARE(r.changes.first().newValue, QStringLiteral("2"));
    QCOMPARE(r.executor, QStringLiteral("in-process"));
}

void TestTuningOperations::staleBasisIsRefused()
{
    const OperationPlan p = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } });
    // Someone else writes the attribute while the plan waits for its answers.
    QVERIFY(m_sysfs.write(QStringLiteral("block/sdb/queue/nomerges"), QStringLiteral("1")));
    const OperationResult r = runOperation(m_env, p, acceptAll(p));
    QVERIFY(!r.ok);
    QVERIFY(r.stale);
    QVERIFY2(r.error.contains(QLatin1String("changed since the plan was made")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QLatin1String("sdb queue/nomerges")), qPrintable(r.error));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("1")); // not written
    QVERIFY(applyResultOf(r).rejected());
}

void TestTuningOperations::riskNeedsItsAnswer()
{
    const OperationPlan p
        = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/write_cache"), QStringLiteral("write through") } });
    QCOMPARE(p.risks.size(), 1);
    QCOMPARE(p.risks.first().confirmDevice, QStringLiteral("sdb"));
    QVERIFY(p.risks.first().confirmable);
    QVERIFY(p.risks.first().text.startsWith(QLatin1String("sdb queue/write_cache=write through: ")));
    const OperationResult unanswered = runOperation(m_env, p, OperationAnswers { p.id, {}, false });
    QVERIFY(!unanswered.ok);
    QVERIFY2(unanswered.error.startsWith(QLatin1String("not confirmed: ")), qPrintable(unanswered.error));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
    const OperationResult answered = runOperation(m_env, p, acceptAll(p));
    QVERIFY2(answered.ok, qPrintable(answered.error));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write through"));
}

void TestTuningOperations::withPathsCoversTheMap()
{
    const OperationPlan p
        = plan({ { QStringLiteral("mpatha"), QStringLiteral("queue/nomerges"), QStringLiteral("1") } }, true);
    QVERIFY2(p.refusals.isEmpty(), qPrintable(p.refusals.join(u'\n')));
    QCOMPARE(p.basis.size(), 5); // dm-0 and its four paths
    for (const QString &device : { QStringLiteral("dm-0"), QStringLiteral("sda"), QStringLiteral("sdd") })
        QVERIFY2(p.basis.contains(device + QStringLiteral(" queue/nomerges")), qPrintable(device));
    const OperationResult r = runOperation(m_env, p, acceptAll(p));
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(attr(QStringLiteral("sdc"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));
    QCOMPARE(attr(QStringLiteral("dm-0"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));
}

void TestTuningOperations::badRequestsFail_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("error");
    QTest::newRow("no changes") << QJsonObject() << QStringLiteral("tuning.apply needs \"changes\"");
    QTest::newRow("no such device") << tuningRequest(
        { { QStringLiteral("sdz"), QStringLiteral("queue/nomerges"), QStringLiteral("1") } })
                                    << QStringLiteral("sdz");
    QTest::newRow("with_paths on a disk")
        << tuningRequest({ { QStringLiteral("sda"), QStringLiteral("queue/nomerges"), QStringLiteral("1") } }, true)
        << QStringLiteral("sda");
}

void TestTuningOperations::badRequestsFail()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, error);
    const auto p = planOperation(m_env, QString::fromLatin1(TuningApplyKind), request);
    const QString why = p ? p->refusals.join(u'\n') : p.errorMessage();
    QVERIFY2(!p || !p->refusals.isEmpty(), "planned without a refusal");
    QVERIFY2(why.contains(error), qPrintable(why));
}

namespace {
// Whether a thread of this process waits in the kernel for the other end of a FIFO (an open(O_WRONLY) with no
// reader yet): the job is inside its write.
bool aThreadWaitsForAFifoReader()
{
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile wchan(tasks.filePath(tid + QStringLiteral("/wchan")));
        if (wchan.open(QIODevice::ReadOnly) && wchan.readAll().trimmed() == "wait_for_partner")
            return true;
    }
    return false;
}
} // namespace

void TestTuningOperations::applierDestroyedMidTransactionFinishesTheStep()
{
    // sdb's nomerges becomes a FIFO: the transaction's write blocks in open() until a reader comes, so the
    // Applier is destroyed while its job is inside the transaction's write, deterministically.
    const QString fifo = m_tree->root() + QLatin1Char('/') + m_tree->devicePath(QStringLiteral("sdb"))
        + QStringLiteral("/queue/nomerges");
    QVERIFY(QFile::remove(fifo));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
    QVERIFY(!aThreadWaitsForAFifoReader());
    auto applier = std::make_unique<Applier>(m_sysfs);
    applier->setMode(Applier::Mode::InProcess);
    QSignalSpy finished(applier.get(), &Applier::finished);
    QVERIFY(test::runTuning(
        *applier, { { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } }));
    QTRY_VERIFY_WITH_TIMEOUT(aThreadWaitsForAFifoReader(), 10000); // the job is in the write now
    // The kernel's side, late: it takes the write a moment after the Applier began to go away.
    QByteArray written;
    std::atomic<bool> readerOpening = false;
    QThread *reader = QThread::create([&] {
        QThread::msleep(200);
        readerOpening = true; // before open(): the write's open() cannot return until this open() is made
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY);
        char buf[64];
        ssize_t n;
        while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0)
            written.append(buf, n);
        if (fd >= 0)
            ::close(fd);
    });
    reader->start();
    applier.reset(); // joins: the write finishes (and its read-back); the result is dropped
    // The write's open() returns only once the reader opens (200 ms on): a destructor that did not wait for the
    // step returns before that.
    QVERIFY(readerOpening);
    QVERIFY(reader->wait(10000));
    delete reader;
    // The bytes go to whichever opens the FIFO for reading first: the reader, or the transaction's own read-back
    // (O_NONBLOCK, right after the write), which then reads "2" back.
    QVERIFY2(written.trimmed() == "2" || written.isEmpty(), written.constData());
    QTest::qWait(20); // deliberately time-based: lets a stray queued finished() arrive, to prove none does
    QCOMPARE(finished.count(), 0);
}

void TestTuningOperations::transactionHookWritesTuningAndPresets()
{
    RecordingHook recorder;
    m_env.applyTransaction = recorder.hook();

    // tuning.apply: the checked plan goes to the hook, which writes it; the result is the hook's.
    const OperationPlan p = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } });
    const OperationResult tuned = runOperation(m_env, p, acceptAll(p));
    QVERIFY2(tuned.ok, qPrintable(tuned.error));
    QCOMPARE(recorder.plans->size(), 1);
    QCOMPARE(recorder.plans->first().writes.size(), 1);
    QCOMPARE(recorder.plans->first().writes.first().device, QStringLiteral("sdb"));
    QCOMPARE(recorder.plans->first().writes.first().value, QStringLiteral("2"));
    QCOMPARE(applyResultOf(tuned).executor, QStringLiteral("recorded"));
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));

    // A stale plan never reaches the hook.
    const OperationPlan again
        = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("1") } });
    QVERIFY(m_sysfs.write(QStringLiteral("block/sdb/queue/nomerges"), QStringLiteral("0")));
    QVERIFY(runOperation(m_env, again, acceptAll(again)).stale);
    QCOMPARE(recorder.plans->size(), 1);

    // preset.apply: its attribute writes go through the same hook (for a user: pkexec dmtune-helper).
    const auto preset = parsePreset(
        R"({"schema": 1, "name": "hooked", "rules": [{"match": {"name": "sdc"}, "settings": {"queue/nomerges": 1}}]})");
    QVERIFY2(preset, qPrintable(preset.errorMessage()));
    const auto presetPlan = planOperation(m_env, QStringLiteral("preset.apply"), presetRequest(*preset));
    QVERIFY2(presetPlan, qPrintable(presetPlan.errorMessage()));
    QVERIFY2(presetPlan->runnable(), qPrintable(presetPlan->refusals.join(QStringLiteral("; "))));
    const OperationResult applied = runOperation(m_env, *presetPlan, acceptAll(*presetPlan));
    QVERIFY2(applied.ok, qPrintable(applied.error));
    QCOMPARE(recorder.plans->size(), 2);
    QCOMPARE(recorder.plans->last().writes.size(), 1);
    QCOMPARE(recorder.plans->last().writes.first().device, QStringLiteral("sdc"));
    QCOMPARE(recorder.plans->last().writes.first().attribute, QStringLiteral("queue/nomerges"));
    QCOMPARE(applied.details.value(QLatin1String("executor")).toString(), QStringLiteral("recorded"));
    QCOMPARE(attr(QStringLiteral("sdc"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));

    // Without a hook: in this process, as root does (the other tests of this file run that way too).
    m_env.applyTransaction = {};
    QVERIFY(m_sysfs.write(QStringLiteral("block/sdc/queue/nomerges"), QStringLiteral("0")));
    const auto inProcess = planOperation(m_env, QStringLiteral("preset.apply"), presetRequest(*preset));
    QVERIFY(inProcess);
    const OperationResult direct = runOperation(m_env, *inProcess, acceptAll(*inProcess));
    QVERIFY2(direct.ok, qPrintable(direct.error));
    QCOMPARE(direct.details.value(QLatin1String("executor")).toString(), QStringLiteral("in-process"));
    QCOMPARE(attr(QStringLiteral("sdc"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));
    QCOMPARE(recorder.plans->size(), 2);
}

void TestTuningOperations::applierRunsOperationsThroughTheHelper()
{
    const QString sh = QStandardPaths::findExecutable(QStringLiteral("sh"));
    if (sh.isEmpty())
        QSKIP("no sh");
    QTemporaryDir dir;
    const QString request = dir.filePath(QStringLiteral("request.json"));
    Applier applier(m_sysfs);
    applier.setMode(Applier::Mode::Helper);
    QVERIFY(applier.usesHelper());
    QVERIFY(applier.transactionHook());
    QVERIFY(applier.environment().applyTransaction);
    // A stand-in helper: keeps the request it was sent, answers as the real one would, writes nothing.
    applier.setHelperCommand(sh,
        { QStringLiteral("-c"),
            QStringLiteral("cat > '%1'; echo '{\"ok\":true,\"dry_run\":false,\"rolled_back\":false,"
                           "\"executor\":\"helper\",\"changes\":[{\"device\":\"sdb\",\"attribute\":"
                           "\"queue/nomerges\",\"old\":\"0\",\"requested\":\"2\",\"new\":\"2\","
                           "\"written\":true}],\"errors\":[],\"warnings\":[]}'")
                .arg(request) });
    const OperationPlan p = plan({ { QStringLiteral("sdb"), QStringLiteral("queue/nomerges"), QStringLiteral("2") } });
    QSignalSpy operations(&applier, &Applier::operationFinished);
    QVERIFY(applier.run(p, acceptAll(p)));
    QVERIFY(operations.wait(10000));
    const auto result = operations.first().first().value<OperationResult>();
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(result.kind, QStringLiteral("tuning.apply"));
    QCOMPARE(result.planId, p.id);
    QCOMPARE(applyResultOf(result).executor, QStringLiteral("helper"));
    QFile sent(request);
    QVERIFY(sent.open(QIODevice::ReadOnly));
    const QByteArray json = sent.readAll();
    QVERIFY2(json.contains("\"device\":\"sdb\"") && json.contains("\"value\":\"2\""), json.constData());
    // The helper wrote (or not): this process did not.
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("0"));

    // In-process (root, or Mode::InProcess): no hook, the transaction is this process's.
    applier.setMode(Applier::Mode::InProcess);
    QVERIFY(!applier.transactionHook());
    QVERIFY(applier.run(p, acceptAll(p)));
    QVERIFY(operations.wait(10000));
    QVERIFY(operations.last().first().value<OperationResult>().ok);
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
}

QTEST_GUILESS_MAIN(TestTuningOperations)
#include "tst_tuningoperations.moc"
