// vm (real kernel): fio on a request-based multipath map while the Sampler watches the map and its
// paths. Merges show on the map's series and never on its paths' (request-based dm merges in the
// map's queue, then clones whole requests onto the paths), and the charts show both.
// Runs inside the lab VM (tests/vm/lab/klab.sh); skips elsewhere.
#include "tests/vm/multipath/vmsupport.h"

#include "core/stats/sampler.h"
#include "core/stats/seriesstore.h"
#include "core/sysfs/sysfsroot.h"
#include "widgets/charts/chartspec.h"
#include "widgets/charts/livestatsview.h"

#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <unistd.h>

using namespace dmtune;

namespace {
struct Totals {
    double writeMerges = 0; // sum of wrqm/s x interval = merged writes
    double writes = 0;
    double maxWareqSz = 0;
};
} // namespace

class TestVmStats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void mergesOnTheMapNotOnThePaths();
    void cleanupTestCase();

private:
    vm::MergingMap m_lab;
    QString m_out;
    SysfsRoot m_sys;
};

void TestVmStats::initTestCase()
{
    m_out = qEnvironmentVariable("KLAB_OUT");
    if (m_out.isEmpty())
        QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R stats' as root");
    QVERIFY(::geteuid() == 0);
    const QString problem = m_lab.setUp(m_sys); // mq-deadline on the map: its own queue does the merging
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(m_sys.write(QStringLiteral("block/%1/queue/nomerges").arg(m_lab.dm), QStringLiteral("0")));
}

void TestVmStats::mergesOnTheMapNotOnThePaths()
{
    const QStringList devices = QStringList { m_lab.dm } + m_lab.paths;
    Sampler sampler(m_sys);
    SeriesStore store;
    connect(&sampler, &Sampler::samplesAvailable, this, [&store](const SampleBatch &b) { store.append(b); });
    LiveStatsView view(&sampler, &store);
    view.resize(1400, 1000);
    view.setWindowSeconds(60);
    view.setDevices(devices);
    sampler.setWatched(devices);
    QVERIFY(sampler.setInterval(500));

    QHash<QString, Totals> totals;
    connect(&sampler, &Sampler::samplesAvailable, this, [&totals](const SampleBatch &batch) {
        for (const DeviceSample &s : batch.devices) {
            Totals &t = totals[s.name()];
            const IostatMetrics m = s.metrics(batch.elapsedSeconds);
            t.writeMerges += m[Metric::WriteMergesPerSec] * batch.elapsedSeconds;
            t.writes += m[Metric::WritesPerSec] * batch.elapsedSeconds;
            t.maxWareqSz = qMax(t.maxWareqSz, m[Metric::WriteRequestSize]);
        }
    });
    sampler.start();
    view.show();

    // Batched submission lets 4k direct writes meet in the map's queue (STYLE.md, lab README).
    QProcess fio;
    fio.start(QStringLiteral("fio"),
        { QStringLiteral("--name=seqwrite"), QStringLiteral("--filename=/dev/mapper/") + m_lab.map,
            QStringLiteral("--rw=write"), QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"),
            QStringLiteral("--ioengine=libaio"), QStringLiteral("--iodepth=64"),
            QStringLiteral("--iodepth_batch_submit=32"), QStringLiteral("--iodepth_batch_complete_min=16"),
            QStringLiteral("--size=48m"), QStringLiteral("--time_based"), QStringLiteral("--runtime=4"),
            QStringLiteral("--output-format=json") });
    QVERIFY(fio.waitForStarted());
    view.addMarker(
        QDateTime::currentMSecsSinceEpoch() / 1000.0, QStringLiteral("fio start"), MarkerKind::WorkloadStart);
    QTRY_VERIFY_WITH_TIMEOUT(fio.state() == QProcess::NotRunning, 60000);
    view.addMarker(QDateTime::currentMSecsSinceEpoch() / 1000.0, QStringLiteral("fio stop"), MarkerKind::WorkloadStop);
    QCOMPARE(fio.exitCode(), 0);
    // One more interval after the last I/O: until the sampler has delivered a batch read after fio ended.
    QSignalSpy afterFio(&sampler, &Sampler::samplesAvailable);
    QVERIFY(afterFio.wait(20000));
    sampler.stop();

    for (const QString &d : devices)
        qInfo("%s: writes %.0f, merged writes %.0f, max wareq-sz %.1f kB", qPrintable(d), totals[d].writes,
            totals[d].writeMerges, totals[d].maxWareqSz);
    // The map merged, and its requests were larger than 4 kB...
    QVERIFY2(totals[m_lab.dm].writeMerges > 0, "no write merges on the map");
    QVERIFY(totals[m_lab.dm].maxWareqSz > 4.0);
    // ...and the paths carried the I/O without a single merge of their own.
    double pathWrites = 0;
    for (const QString &p : std::as_const(m_lab.paths)) {
        QCOMPARE(totals[p].writeMerges, 0.0);
        pathWrites += totals[p].writes;
    }
    QVERIFY(pathWrites > 0);
    // Every device has a series in the history the charts draw from.
    for (const QString &d : devices)
        QVERIFY2(store.sampleCount(d) > 0, qPrintable(d));
    const QString png = m_out + QStringLiteral("/merges.png");
    QVERIFY(view.exportChart(ChartPanelKind::Merges, png));
    QVERIFY(QFileInfo(png).size() > 5000);
    QVERIFY(view.exportCsv(m_out + QStringLiteral("/samples.csv")));
}

void TestVmStats::cleanupTestCase()
{
    m_lab.restore(m_sys);
}

QTEST_MAIN(TestVmStats)
#include "tst_vm_stats.moc"
