// vm (real kernel): fio on a request-based multipath map (mq-deadline on the map) recorded with the Sampler
// into a RecordingWriter, with the configuration snapshot (map table through libdevmapper). Reopened, the
// recording has the map's and every path's series; merges on the map, none on the paths; the report shows
// them. The recording and its reports are left in $KLAB_OUT. Runs inside the lab VM; skips elsewhere.
#include "tests/common/mustsucceed.h"
#include "tests/vm/multipath/vmsupport.h"

#include "core/discovery/snapshotbuilder.h"
#include "core/dm/backend/libdevmapperbackend.h"
#include "core/recordings/comparison.h"
#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingreplay.h"
#include "core/stats/sampler.h"
#include "widgets/charts/chartspec.h"
#include "widgets/reports/report.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QSysInfo>
#include <QTest>

#include <unistd.h>

using namespace dmtune;

class TestVmRecording : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void recordsTheMapAndItsPaths();
    void cleanupTestCase();

private:
    vm::MergingMap m_lab;
    QString m_out;
    SysfsRoot m_sys;
};

void TestVmRecording::initTestCase()
{
    m_out = qEnvironmentVariable("KLAB_OUT");
    if (m_out.isEmpty())
        QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R recording' as root");
    QVERIFY(::geteuid() == 0);
    const QString problem = m_lab.setUp(m_sys);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestVmRecording::recordsTheMapAndItsPaths()
{
    const QStringList devices = QStringList { m_lab.dm } + m_lab.paths;
    LibDevmapperBackend dm(m_sys);
    DeviceMapperState dmState;
    dmState.available = dm.availability().available;
    dmState.driverVersion = dm.driverVersion();
    const DeviceSnapshot snapshot = buildSnapshot(m_sys, enumerateBlockDirectory(m_sys), &dm, dmState);
    RecordingMeta meta;
    meta.title = QStringLiteral("mpath 2x2, mq-deadline on the map");
    meta.host = QSysInfo::machineHostName();
    meta.kernel = snapshot.kernelRelease;
    meta.started = QDateTime::currentDateTimeUtc();
    meta.intervalSeconds = 0.5;
    meta.devices = devices;
    meta.configuration = captureConfiguration(m_sys, snapshot, devices);
    const QString path = m_out + QStringLiteral("/mpath.dmrec");
    auto writer = RecordingWriter::create(path, meta);
    QVERIFY2(writer, qPrintable(writer.errorMessage()));
    RecordingWriter &w = *writer.value();

    Sampler sampler(m_sys);
    sampler.setWatched(devices);
    QVERIFY(sampler.setInterval(500));
    connect(&sampler, &Sampler::samplesAvailable, this, [&w](const SampleBatch &b) { QVERIFY(w.addBatch(b)); });
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.start();
    // An idle second before fio: until two intervals of 0.5 s are recorded.
    QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= 2, 20000);
    const QStringList argv { QStringLiteral("--name=seqwrite"), QStringLiteral("--filename=/dev/mapper/") + m_lab.map,
        QStringLiteral("--rw=write"), QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"),
        QStringLiteral("--ioengine=libaio"), QStringLiteral("--iodepth=64"),
        QStringLiteral("--iodepth_batch_submit=32"), QStringLiteral("--iodepth_batch_complete_min=16"),
        QStringLiteral("--size=48m"), QStringLiteral("--time_based"), QStringLiteral("--runtime=4"),
        QStringLiteral("--output-format=json") };
    QProcess fio;
    test::mustSucceed(w.addMarker(QDateTime::currentMSecsSinceEpoch() / 1000.0, RecordingWriter::fioStartLabel()));
    fio.start(QStringLiteral("fio"), argv);
    QVERIFY(fio.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(fio.state() == QProcess::NotRunning, 60000);
    test::mustSucceed(w.addMarker(QDateTime::currentMSecsSinceEpoch() / 1000.0, RecordingWriter::fioEndLabel()));
    QCOMPARE(fio.exitCode(), 0);
    // The intervals after the last I/O: until two more are recorded.
    const qsizetype atFioEnd = batches.count();
    QTRY_VERIFY_WITH_TIMEOUT(batches.count() >= atFioEnd + 2, 20000);
    sampler.stop();
    const QByteArray out = fio.readAllStandardOutput();
    QVERIFY(w.addFioResult(
        QJsonDocument::fromJson(out.mid(out.indexOf('{'))).object(), QStringList { QStringLiteral("fio") } + argv));
    QVERIFY(w.finish());

    const Result<Recording> rec = readRecording(path);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QCOMPARE(rec->deviceNames(), devices);
    qInfo(
        "%lld device-samples, %.1f bytes each in sample frames", rec->deviceSamples, rec->sampleBytesPerDeviceSample());
    QVERIFY(rec->sampleBytesPerDeviceSample() <= 64);
    // The configuration has the map with its table, and the paths' tunables.
    const QJsonArray maps = rec->meta.configuration.value(QStringLiteral("maps")).toArray();
    QCOMPARE(maps.size(), 1);
    QVERIFY(!maps[0].toObject().value(QStringLiteral("table")).toString().isEmpty());
    // Every device has its series, replayed.
    const auto histories = replayHistories(rec.value());
    for (const QString &d : devices)
        QVERIFY2(histories.value(d).size() >= 8, qPrintable(d));
    const Comparison stats = compareRecordings({ rec.value() });
    const ComparisonRow *mapMerges = stats.find(m_lab.dm, Metric::WriteMergesPerSec);
    QVERIFY(mapMerges && mapMerges->stats[0] && mapMerges->stats[0]->mean > 0);
    // Round-robin writes through the active group's two paths; the other group's stay idle.
    int busyPaths = 0;
    for (const QString &p : std::as_const(m_lab.paths)) {
        const ComparisonRow *writes = stats.find(p, Metric::WritesPerSec);
        busyPaths += writes && writes->stats[0]->mean > 0;
        const ComparisonRow *merges = stats.find(p, Metric::WriteMergesPerSec);
        QVERIFY2(!merges || merges->stats[0]->max == 0, qPrintable(p)); // left out when 0 throughout
    }
    QCOMPARE(busyPaths, 2);
    const Result<Report> report = buildReport({ rec.value() });
    QVERIFY2(report, qPrintable(report.errorMessage()));
    QVERIFY(writeReport(report.value(), m_out + QStringLiteral("/mpath.html")));
    QVERIFY(writeReport(report.value(), m_out + QStringLiteral("/mpath.pdf")));
    QVERIFY(report->charts.value(int(ChartPanelKind::Merges)).image.save(m_out + QStringLiteral("/mpath-merges.png")));
}

void TestVmRecording::cleanupTestCase()
{
    m_lab.restore(m_sys);
}

QTEST_MAIN(TestVmRecording)
#include "tst_vm_recording.moc"
