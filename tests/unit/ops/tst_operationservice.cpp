// OperationService's continuations (ops/operationservice.h) through OperationRunner over a scratch tree: each
// call's answer goes to that call's callback alone (two plans in flight, told apart without a tag), a run's result
// to its callback and then to the observers' finished(); a callback whose context is gone before the answer
// comes is never called (the run itself still happens and is still observed); runUnlessAsked runs a plan without
// risks and hands one with a risk back unrun. And HostContext (ops/hostcontext.h), the one environment a window's
// widgets get: a captured tree has no device-mapper and never asks multipathd; the live root's device-mapper is
// there exactly when the kernel has one this process may open, and its environment carries it.
#include "tests/unit/params/paramfixture.h"

#include "core/dm/backend/dmavailability.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationrunner.h"
#include "core/ops/tuningoperations.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestOperationService : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void eachCallGetsItsOwnAnswer();
    void aGoneContextIsNotCalledBack();
    void runUnlessAskedRunsOrHandsThePlanBack();
    void hostContextOfACapturedTree();
    void hostContextOfThisMachine();

private:
    QJsonObject nomerges(const QString &device, const QString &value) const
    {
        return tuningRequest({ { device, QStringLiteral("queue/nomerges"), value } });
    }
    QString attr(const QString &device, const QString &attribute) const
    {
        return m_sysfs.readOr(QStringLiteral("block/%1/%2").arg(device, attribute)).trimmed();
    }

    std::unique_ptr<FakeSysfs> m_tree;
    SysfsRoot m_sysfs;
    std::unique_ptr<OperationRunner> m_runner;
};

void TestOperationService::init()
{
    m_runner.reset(); // joins the previous test's jobs before its tree goes
    m_tree = std::make_unique<FakeSysfs>();
    buildMultipathFixture(*m_tree);
    m_tree->file(
        m_tree->devicePath(QStringLiteral("sdb")) + QStringLiteral("/queue/write_cache"), QStringLiteral("write back"));
    m_sysfs = SysfsRoot::scratch(m_tree->root());
    m_runner = std::make_unique<OperationRunner>();
    OperationEnvironment env;
    env.sysfs = m_sysfs;
    m_runner->setEnvironment(env);
}

void TestOperationService::eachCallGetsItsOwnAnswer()
{
    QObject context;
    QList<OperationPlan> first, second;
    QStringList failed;
    const auto fail = [&failed](const QString &error) { failed << error; };
    m_runner->plan(
        QString::fromLatin1(TuningApplyKind), nomerges(QStringLiteral("sdb"), QStringLiteral("2")), &context,
        [&first](const OperationPlan &plan) { first << plan; }, fail);
    m_runner->plan(
        QString::fromLatin1(TuningApplyKind), nomerges(QStringLiteral("sdc"), QStringLiteral("1")), &context,
        [&second](const OperationPlan &plan) { second << plan; }, fail);
    m_runner->plan(
        QStringLiteral("no.such-kind"), {}, &context, [&first](const OperationPlan &plan) { first << plan; }, fail);
    QVERIFY(first.isEmpty() && second.isEmpty()); // after the call has returned, never inside it
    QTRY_COMPARE(failed.size(), 1);
    QCOMPARE(first.size(), 1);
    QCOMPARE(second.size(), 1);
    QCOMPARE(first.first().target, QStringLiteral("sdb"));
    QCOMPARE(second.first().target, QStringLiteral("sdc"));
    QVERIFY2(failed.first().contains(QStringLiteral("no.such-kind")), qPrintable(failed.first()));

    QSignalSpy observed(m_runner.get(), &OperationService::finished);
    QList<OperationResult> results;
    m_runner->run(
        first.first(), acceptAll(first.first()), &context, [&results, &observed](const OperationResult &result) {
            QCOMPARE(observed.count(), 0); // the caller's continuation first, then the observers
            results << result;
        });
    QTRY_COMPARE(observed.count(), 1);
    QCOMPARE(results.size(), 1);
    QVERIFY2(results.first().ok, qPrintable(results.first().error));
    QCOMPARE(observed.first().at(0).value<OperationResult>().planId, first.first().id);
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
}

void TestOperationService::aGoneContextIsNotCalledBack()
{
    bool called = false;
    auto context = std::make_unique<QObject>();
    m_runner->plan(
        QString::fromLatin1(TuningApplyKind), nomerges(QStringLiteral("sdb"), QStringLiteral("2")), context.get(),
        [&called](const OperationPlan &) { called = true; }, [&called](const QString &) { called = true; });
    context.reset(); // a panel closed while its plan was being made
    // A later call on the same serial runner answers after the first: by then the first answer was dropped.
    QObject later;
    std::optional<OperationPlan> plan;
    m_runner->plan(
        QString::fromLatin1(TuningApplyKind), nomerges(QStringLiteral("sdb"), QStringLiteral("2")), &later,
        [&plan](const OperationPlan &p) { plan = p; }, nullptr);
    QTRY_VERIFY(plan.has_value());
    QVERIFY(!called);

    // A run whose caller is gone still runs to its end and is observed; only its callback is dropped.
    QSignalSpy observed(m_runner.get(), &OperationService::finished);
    context = std::make_unique<QObject>();
    m_runner->run(*plan, acceptAll(*plan), context.get(), [&called](const OperationResult &) { called = true; });
    context.reset();
    QTRY_COMPARE(observed.count(), 1);
    QVERIFY(!called);
    QVERIFY(observed.first().at(0).value<OperationResult>().ok);
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/nomerges")), QStringLiteral("2"));
}

void TestOperationService::runUnlessAskedRunsOrHandsThePlanBack()
{
    QObject context;
    QList<OperationPlan> planned;
    QList<OperationResult> finished;
    const auto onPlanned = [&planned](const OperationPlan &plan) { planned << plan; };
    const auto onFinished = [&finished](const OperationResult &result) { finished << result; };
    m_runner->runUnlessAsked(QString::fromLatin1(TuningApplyKind), nomerges(QStringLiteral("sdc"), QStringLiteral("1")),
        &context, onPlanned, nullptr, onFinished);
    QTRY_COMPARE(finished.size(), 1);
    QVERIFY(planned.isEmpty());
    QCOMPARE(attr(QStringLiteral("sdc"), QStringLiteral("queue/nomerges")), QStringLiteral("1"));

    // write through on a disk with a write-back cache is a data risk: handed back, nothing written.
    m_runner->runUnlessAsked(QString::fromLatin1(TuningApplyKind),
        tuningRequest(
            { { QStringLiteral("sdb"), QStringLiteral("queue/write_cache"), QStringLiteral("write through") } }),
        &context, onPlanned, nullptr, onFinished);
    QTRY_COMPARE(planned.size(), 1);
    QVERIFY(!planned.first().risks.isEmpty());
    QCOMPARE(finished.size(), 1);
    QCOMPARE(attr(QStringLiteral("sdb"), QStringLiteral("queue/write_cache")), QStringLiteral("write back"));
}

void TestOperationService::hostContextOfACapturedTree()
{
    const HostContext host(m_sysfs);
    QVERIFY(!host.actsAsRoot());
    QVERIFY(!host.deviceMapper());
    QVERIFY(!host.newDeviceMapper());
    QVERIFY(!host.deviceMapperProblem().isEmpty());
    const OperationEnvironment env = host.environment();
    QCOMPARE(env.sysfs.root(), m_sysfs.root());
    QVERIFY(!env.dm);
    QVERIFY(!env.multipathd); // never this machine's multipathd for another tree
}

void TestOperationService::hostContextOfThisMachine()
{
    const SysfsRoot live;
    QVERIFY(live.isLive());
    const HostContext host(live);
    QCOMPARE(host.actsAsRoot(), processIsRoot());
    const DmAvailability available = checkDeviceMapper(live);
    QCOMPARE(bool(host.deviceMapper()), available.available);
    QCOMPARE(host.deviceMapperProblem(), available.reason);
    const OperationEnvironment env = host.environment();
    QCOMPARE(env.dm, host.deviceMapper().get());
    QVERIFY(env.multipathd);
    const auto own = host.newDeviceMapper();
    QCOMPARE(bool(own), available.available);
    QVERIFY(!own || own != host.deviceMapper()); // a backend of its own for a blocking thread
}

QTEST_MAIN(TestOperationService)
#include "tst_operationservice.moc"
