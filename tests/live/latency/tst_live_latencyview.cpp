// live (root, a scratch loop device): the Latency tab's view on this machine's kernel. It loads the probe on a
// job, learns the device's number from the sampler's first batch, and charts every interval's I/O: the heat
// map's intervals add up to what fio did.
#include "core/stats/sampler.h"
#include "latencychecks.h"
#include "tests/common/testpaths.h"
#include "tests/live/scratchloop.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/latencyview.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace dmtune;
using namespace dmtune::latencytest;

class TestLiveLatencyView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void chartsWhatFioDid();
    void chartsThroughTheHelper();
    void helperFailureSaysWhy();

private:
    SysfsRoot m_sys;
    live::ScratchLoop m_loop;
};

void TestLiveLatencyView::initTestCase()
{
    if (const QString why = live::ScratchLoop::unavailableReason({ QStringLiteral("fio"), QStringLiteral("losetup") });
        !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY2(m_loop.create(64 << 20), qPrintable(m_loop.error()));
}

void TestLiveLatencyView::chartsWhatFioDid()
{
    Sampler sampler(m_sys);
    sampler.setWatched({ m_loop.name() });
    QVERIFY(sampler.setInterval(300));
    LatencyView view;
    view.resize(1000, 600);
    connect(&sampler, &Sampler::samplesAvailable, &view, &LatencyView::onBatch);
    view.setDevices({ { m_loop.name(), QStringLiteral("scratch") } });
    QSignalSpy ready(&view, &LatencyView::probeReady);
    view.show(); // loads the probe, on a job
    QVERIFY(ready.wait(20000));
    QCOMPARE(ready.first().first().toBool(), true);
    sampler.start();
    LatencyHeatMap *chart = view.heatMap(m_loop.name());
    QVERIFY(chart);
    QCOMPARE(chart->title(), QStringLiteral("scratch"));
    // The first batch names the device's number, the next starts its charted intervals.
    QTRY_VERIFY_WITH_TIMEOUT(chart->intervalCount() >= 1, 10000);
    // A marker (as the Statistics tab hands them on) is drawn on the device's heat map at its time.
    view.addMarker({ 1, double(QDateTime::currentMSecsSinceEpoch()) / 1000, QStringLiteral("fio start"),
        MarkerKind::WorkloadStart });
    QProcess fio;
    fio.start(QStringLiteral("fio"), fioRandomArgs(m_loop.devicePath(), QStringLiteral("randread"), 2, 4));
    QTRY_VERIFY_WITH_TIMEOUT(fio.state() == QProcess::NotRunning, 30000);
    QCOMPARE(fio.exitCode(), 0);
    const int afterFio = chart->intervalCount();
    QTRY_VERIFY_WITH_TIMEOUT(chart->intervalCount() >= afterFio + 2, 5000); // the last I/Os are in an interval
    sampler.stop();
    QCOMPARE(chart->drawnMarkerKeys().size(), 1);
    QVERIFY(chart->drawnMarkerKeys().first() < 0);
    quint64 charted = 0;
    int busy = 0;
    for (int i = 0; i < chart->intervalCount(); ++i) {
        charted += chart->intervalIos(i);
        busy += chart->intervalIos(i) > 0 ? 1 : 0;
    }
    const qint64 fioCount = fioIos(fio.readAllStandardOutput(), QStringLiteral("read"));
    qInfo(
        "fio %lld I/Os, charted %llu over %d intervals (%d with I/O)", fioCount, charted, chart->intervalCount(), busy);
    QVERIFY(charted <= quint64(fioCount) && charted * 100 >= quint64(fioCount) * 99);
    QVERIFY(busy >= 5); // 2 s of fio at 300 ms intervals
    QVERIFY2(!view.statusText().contains(QLatin1String("need")), qPrintable(view.statusText()));
}

// A normal user's tab: the probe in dmtune-helper (started directly here, as root; pkexec starts it for a user),
// asked at each tick without blocking it; the heat map charts what fio did, and a device selected later is watched
// through a watch line of the same helper.
void TestLiveLatencyView::chartsThroughTheHelper()
{
    Sampler sampler(m_sys);
    sampler.setWatched({ m_loop.name() });
    QVERIFY(sampler.setInterval(300));
    LatencyView view;
    view.resize(1000, 600);
    view.setHelperCommand({ DMTUNE_BINARY_PATH("/app/dmtune-helper/dmtune-helper"), {} });
    view.readThroughHelper();
    QVERIFY(view.readsThroughHelper());
    connect(&sampler, &Sampler::samplesAvailable, &view, &LatencyView::onBatch);
    view.setDevices({ { m_loop.name(), QStringLiteral("scratch") } });
    view.show(); // no in-process probe once the helper reads
    sampler.start();
    LatencyHeatMap *chart = view.heatMap(m_loop.name());
    QVERIFY(chart);
    QTRY_VERIFY_WITH_TIMEOUT(chart->intervalCount() >= 1, 15000);
    QVERIFY(!view.probeLoaded());
    QVERIFY2(view.statusText().contains(QLatin1String("dmtune-helper")), qPrintable(view.statusText()));
    QProcess fio;
    fio.start(QStringLiteral("fio"), fioRandomArgs(m_loop.devicePath(), QStringLiteral("randread"), 2, 4));
    QTRY_VERIFY_WITH_TIMEOUT(fio.state() == QProcess::NotRunning, 30000);
    QCOMPARE(fio.exitCode(), 0);
    const int afterFio = chart->intervalCount();
    QTRY_VERIFY_WITH_TIMEOUT(chart->intervalCount() >= afterFio + 2, 5000);
    quint64 charted = 0;
    int busy = 0;
    for (int i = 0; i < chart->intervalCount(); ++i) {
        charted += chart->intervalIos(i);
        busy += chart->intervalIos(i) > 0 ? 1 : 0;
    }
    const qint64 fioCount = fioIos(fio.readAllStandardOutput(), QStringLiteral("read"));
    qInfo("through the helper: fio %lld I/Os, charted %llu over %d intervals (%d with I/O)", fioCount, charted,
        chart->intervalCount(), busy);
    QVERIFY(charted <= quint64(fioCount) && charted * 100 >= quint64(fioCount) * 99);
    QVERIFY(busy >= 4);

    // Another selection: the same helper watches it (a watch line), and it charts from zero.
    view.setDevices({ { m_loop.name(), QStringLiteral("again") } });
    LatencyHeatMap *again = view.heatMap(m_loop.name());
    QVERIFY(again && again != chart);
    QTRY_VERIFY_WITH_TIMEOUT(again->intervalCount() >= 2, 10000);
    sampler.stop();
    QVERIFY(view.readsThroughHelper());
}

void TestLiveLatencyView::helperFailureSaysWhy()
{
    Sampler sampler(m_sys);
    sampler.setWatched({ m_loop.name() });
    QVERIFY(sampler.setInterval(200));
    LatencyView view;
    view.setHelperCommand({ QStringLiteral("/nonexistent/pkexec"), {} });
    view.readThroughHelper();
    connect(&sampler, &Sampler::samplesAvailable, &view, &LatencyView::onBatch);
    view.setDevices({ { m_loop.name(), QStringLiteral("scratch") } });
    sampler.start();
    QTRY_VERIFY_WITH_TIMEOUT(!view.readsThroughHelper(), 10000);
    sampler.stop();
    QVERIFY2(
        view.statusText().contains(QLatin1String("/nonexistent/pkexec did not start")), qPrintable(view.statusText()));
    QCOMPARE(view.heatMap(m_loop.name())->intervalCount(), 0);
}

QTEST_MAIN(TestLiveLatencyView)
#include "tst_live_latencyview.moc"
