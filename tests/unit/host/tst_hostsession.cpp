// This machine's HostSession over a captured tree: what the window gets from it without asking which host it is.
// A real tree (FakeSysfs), a real discovery, real runners; nothing here writes outside the tree.
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include "core/discovery/discovery.h"
#include "core/host/localhostsession.h"
#include "core/host/workloadruns.h"
#include "core/jobs/jobtracker.h"
#include "core/ops/hostcontext.h"
#include "core/ops/operationservice.h"
#include "core/ops/tuningoperations.h"
#include "core/params/tuningsession.h"
#include "core/stats/sampler.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace dmtune;
using dmtune::test::FakeSysfs;

class TestHostSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void capturedTreeIsThisMachineReadOnly();
    void aRunRefreshesTheDevicesADryRunDoesNot();
    void laterServicesAreTheCallersOwn();
};

namespace {
QJsonObject nomerges(const QString &device, const QString &value)
{
    return QJsonObject { { QStringLiteral("changes"),
        QJsonArray { QJsonObject { { QStringLiteral("device"), device },
            { QStringLiteral("attribute"), QStringLiteral("queue/nomerges") },
            { QStringLiteral("value"), value } } } } };
}
// The plan of sdb's nomerges to `value` by `service` (waited for); nullopt when it could not be made.
std::optional<OperationPlan> planNomerges(OperationService *service, QObject *context, const QString &value)
{
    std::optional<OperationPlan> plan;
    bool failed = false;
    service->plan(
        QString::fromLatin1(TuningApplyKind), nomerges(QStringLiteral("sdb"), value), context,
        [&plan](const OperationPlan &p) { plan = p; }, [&failed](const QString &) { failed = true; });
    if (!QTest::qWaitFor([&] { return plan.has_value() || failed; }, 5000))
        return std::nullopt;
    return plan;
}
} // namespace

void TestHostSession::capturedTreeIsThisMachineReadOnly()
{
    FakeSysfs tree;
    buildMultipathFixture(tree);
    LocalHostSession host(SysfsRoot(tree.root(), QString()));
    QVERIFY(host.name().isEmpty()); // this machine
    QCOMPARE(host.state(), HostSession::State::Connected);
    QVERIFY(!host.context()->actsAsRoot());
    QVERIFY(!host.context()->deviceMapper()); // a capture is never a device-mapper to ask
    QVERIFY(!host.labUnavailableReason().isEmpty()); // nothing is made in another machine's tree
    QVERIFY(!host.latencySourceMaker()); // this process's probe
    std::unique_ptr<WorkloadRuns> runs(host.newWorkloadRuns(nullptr));
    QVERIFY(!runs->isRunning());
    QString error;
    QVERIFY(!runs->attach(QStringLiteral("1"), {}, &error)); // no run here outlives its window
    QVERIFY2(error.contains(QLatin1String("outlives")), qPrintable(error));
    QVERIFY(!host.fetchesCaptures()); // a captured tree opened to inspect: read-only, nothing fetched
    QCOMPARE(host.samples(), static_cast<SampleSource *>(host.sampler()));

    std::unique_ptr<TuningSession> tuning(host.newTuningSession(nullptr));
    QVERIFY(tuning->isReadOnly());
    QVERIFY(!tuning->isRemote());

    QSignalSpy scanned(host.discovery(), &Discovery::snapshotChanged);
    host.start();
    QTRY_VERIFY(!scanned.isEmpty());
    QVERIFY(host.discovery()->snapshot().device(QStringLiteral("sdb")));
    QCOMPARE(host.hotplug(), HostSession::Hotplug::CapturedTree);
}

void TestHostSession::aRunRefreshesTheDevicesADryRunDoesNot()
{
    FakeSysfs tree;
    buildMultipathFixture(tree);
    LocalHostSession host(SysfsRoot::scratch(tree.root()));
    QSignalSpy scanned(host.discovery(), &Discovery::snapshotChanged);
    host.start();
    QTRY_VERIFY(!scanned.isEmpty());
    scanned.clear();

    QObject panel;
    OperationService *service = host.newOperationService(&panel);
    QCOMPARE(service->parent(), &panel);
    QSignalSpy finished(service, &OperationService::finished);
    // A refresh starts a scan at once; the session's own observer of the service runs before this test's spy.
    QSignalSpy scans(const_cast<JobTracker *>(&host.discovery()->jobs()), &JobTracker::started);
    const std::optional<OperationPlan> plan = planNomerges(service, &panel, QStringLiteral("1"));
    QVERIFY(plan.has_value());
    QCOMPARE(scans.count(), 0); // a plan changes nothing
    OperationAnswers answers = acceptAll(*plan);
    answers.dryRun = true;
    service->run(*plan, answers, &panel, nullptr);
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(finished.at(0).at(0).value<OperationResult>().dryRun);
    QCOMPARE(scans.count(), 0);

    // The same plan run for real: the scan starts as its result is observed.
    const std::optional<OperationPlan> again = planNomerges(service, &panel, QStringLiteral("1"));
    QVERIFY(again.has_value());
    service->run(*again, acceptAll(*again), &panel, nullptr);
    QTRY_COMPARE(finished.count(), 2);
    const auto result = finished.at(1).at(0).value<OperationResult>();
    QVERIFY2(result.ok && !result.dryRun, qPrintable(result.error));
    QCOMPARE(scans.count(), 1);
    QCOMPARE(SysfsRoot(tree.root(), QString()).readOr(QStringLiteral("block/sdb/queue/nomerges")).trimmed(),
        QStringLiteral("1"));
    QTRY_VERIFY(!scanned.isEmpty()); // the devices read again, with the new value
}

void TestHostSession::laterServicesAreTheCallersOwn()
{
    FakeSysfs tree;
    buildMultipathFixture(tree);
    auto host = std::make_unique<LocalHostSession>(SysfsRoot::scratch(tree.root()));
    QObject first, second;
    OperationService *a = host->newOperationService(&first);
    OperationService *b = host->newOperationService(&second);
    QVERIFY(a != b && a != host->operations() && b != host->operations());
    QPointer<OperationService> own(host->operations());
    host.reset(); // the session's own service goes with it; the callers' stay theirs
    QVERIFY(own.isNull());
    QCOMPARE(a->parent(), &first);
    QCOMPARE(b->parent(), &second);
}

QTEST_MAIN(TestHostSession)
#include "tst_hostsession.moc"
