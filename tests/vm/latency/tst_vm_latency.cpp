// vm (Debian's kernel): the latency probe on the lab's mpatha (4 scsi_debug paths, request-based multipath).
// With scsi_debug answering after 2 ms, dmtunectl stat --histogram puts the map's percentiles within one bucket
// of fio's own completion latencies; under mixed load the map's and each path's histograms account for every
// I/O /proc/diskstats counts, the paths' add up to the map's, and the map's scheduler shows queue time.
// On a bio-based (linear) map, stat --histogram counts with dm-stats: the same 2 ms in fio and in the histogram,
// every bucket equal to a dmstats region of the same bounds, other programs' regions and a live dmtune's left, a
// dead dmtune's removed. A request-based map is refused.
// Runs inside the lab VM (tests/vm/lab/klab.sh); skips elsewhere.
#include "core/latency/blocklatencyprobe.h"
#include "core/latency/dmstatslatency.h"
#include "core/stats/sampler.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/testpaths.h"
#include "tests/live/latency/latencychecks.h"
#include "tests/vm/multipath/vmsupport.h"
#include "widgets/charts/latencyheatmap.h"
#include "widgets/charts/latencyview.h"

#include <QJsonArray>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <unistd.h>

using namespace dmtune;
using namespace dmtune::latencytest;
using namespace Qt::StringLiterals;

namespace {

const QString Dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
const QString NdelayFile = QStringLiteral("/sys/bus/pseudo/drivers/scsi_debug/ndelay");

bool writeFile(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toLatin1()) == text.size();
}

BlockDeviceNumber numberOf(const SysfsRoot &sys, const QString &name)
{
    const QStringList dev = sys.readOr(u"block/%1/dev"_s.arg(name)).split(u':');
    return { dev.value(0).toUInt(), dev.value(1).toUInt() };
}

// dmsetup message NAME 0 @stats_list: one line per region, "ID: START+LEN STEP PROGRAM AUX ...".
QString statsList(const QString &map)
{
    return vm::run(u"dmsetup"_s, { u"message"_s, map, u"0"_s, u"@stats_list"_s }).out;
}

} // namespace

class TestVmLatency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void mapPercentilesMatchFio();
    void mapAndPathsAccountForEveryIo();
    void dmStatsOnLinearMapAgreesWithDmstats();
    void dmStatsRefusesRequestBasedMap();
    void latencyTabCountsLinearMapWithDmStats();
    void cleanupTestCase();

private:
    SysfsRoot m_sys;
    vm::MergingMap m_lab;
    QString m_ndelay; // scsi_debug's, restored at the end
};

void TestVmLatency::initTestCase()
{
    if (qEnvironmentVariable("KLAB_OUT").isEmpty())
        QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R latency' as root");
    QVERIFY(::geteuid() == 0);
    const QString problem = m_lab.setUp(m_sys);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QFile ndelay(NdelayFile);
    QVERIFY(ndelay.open(QIODevice::ReadOnly));
    m_ndelay = QString::fromLatin1(ndelay.readAll()).trimmed();
    QVERIFY(!m_ndelay.isEmpty());
}

void TestVmLatency::mapPercentilesMatchFio()
{
    QVERIFY(writeFile(NdelayFile, u"2000000"_s)); // every SCSI command answers after 2 ms
    QProcess stat;
    stat.start(Dmtunectl,
        QStringList { u"stat"_s, m_lab.dm } + m_lab.paths
            + QStringList { u"--histogram"_s, u"--json"_s, u"-i"_s, u"12"_s, u"-c"_s, u"1"_s });
    QVERIFY(stat.waitForReadyRead(30000)); // the document's head: the probe is attached
    const vm::Run fio = vm::run(u"fio"_s, fioRandomArgs(u"/dev/"_s + m_lab.dm, u"randread"_s, 5, 1));
    QVERIFY2(fio.exitCode == 0, qPrintable(fio.err));
    QVERIFY(stat.waitForFinished(30000));
    QVERIFY(writeFile(NdelayFile, m_ndelay));
    const QByteArray out = stat.readAllStandardOutput();
    vm::saveFile(qEnvironmentVariable("KLAB_OUT") + u"/stat-histogram.json"_s, QString::fromUtf8(out));
    QCOMPARE(stat.exitCode(), 0);
    const QJsonArray disks
        = QJsonDocument::fromJson(out)[u"sysstat"_s][u"hosts"_s][0][u"statistics"_s][0][u"disk"_s].toArray();
    QCOMPARE(disks.size(), 1 + m_lab.paths.size());
    const QJsonObject map = disks[0].toObject();
    QCOMPARE(map[u"disk_device"_s].toString(), m_lab.dm);
    const QMap<double, double> fioUs = fioClatPercentilesUs(fio.out.toUtf8(), u"read"_s);
    const qint64 fioCount = fioIos(fio.out.toUtf8(), u"read"_s);
    QCOMPARE(map[u"ios"_s].toInteger() + map[u"lost"_s].toInteger(), fioCount);
    // p99.9 of fewer than 5,000 I/Os rests on a handful of them: compared only when there are enough.
    for (const auto &[fraction, key] : { std::pair { 0.5, "p50_us" }, std::pair { 0.9, "p90_us" },
             std::pair { 0.99, "p99_us" }, std::pair { 0.999, "p99_9_us" } }) {
        const double probeUs = map[QString::fromLatin1(key)].toDouble();
        qInfo("%s of %s: probe %.1f us, fio %.1f us (%lld I/Os)", key, qPrintable(m_lab.dm), probeUs,
            fioUs.value(fraction), fioCount);
        if (fraction > 0.99 && fioCount < 5000)
            continue;
        QVERIFY2(bucketsApart(probeUs, fioUs.value(fraction)) <= 1, key);
    }
    QVERIFY(map[u"p50_us"_s].toDouble() >= 2000); // the 2 ms are there, not an artefact of the bounds
    // The paths that carried the I/O took the same 2 ms, less dm's own time above them.
    qint64 pathIos = 0;
    for (qsizetype i = 1; i < disks.size(); ++i) {
        const QJsonObject path = disks[i].toObject();
        pathIos += path[u"ios"_s].toInteger() + path[u"lost"_s].toInteger();
        if (path[u"ios"_s].toInteger() > 100)
            QVERIFY2(bucketsApart(path[u"p50_us"_s].toDouble(), fioUs.value(0.5)) <= 1,
                qPrintable(path[u"disk_device"_s].toString()));
    }
    QCOMPARE(pathIos, fioCount);
    // Where the time goes: each clone lives inside its map request, so the map's mean is never below the
    // share-weighted mean of its paths; the difference is dm's own time.
    const QJsonObject above = map[u"above_paths"_s].toObject();
    qInfo("above the paths: map %.1f us, paths %.1f us, above %.1f us", above[u"map_mean_us"_s].toDouble(),
        above[u"paths_mean_us"_s].toDouble(), above[u"above_us"_s].toDouble());
    QCOMPARE(above[u"map_mean_us"_s].toDouble(), map[u"mean_us"_s].toDouble());
    QVERIFY(above[u"above_us"_s].toDouble() >= 0);
    QVERIFY(qAbs(above[u"map_mean_us"_s].toDouble() - above[u"paths_mean_us"_s].toDouble()
                - above[u"above_us"_s].toDouble())
        < 0.02);
    QCOMPARE(
        above[u"path_ios"_s].toInteger(), pathIos - [&] {
            qint64 lost = 0;
            for (qsizetype i = 1; i < disks.size(); ++i)
                lost += disks[i][u"lost"_s].toInteger();
            return lost;
        }());
}

void TestVmLatency::mapAndPathsAccountForEveryIo()
{
    auto probe = BlockLatencyProbe::open();
    QVERIFY2(probe, qPrintable(probe.errorMessage()));
    const QStringList devices = QStringList { m_lab.dm } + m_lab.paths;
    QList<BlockDeviceNumber> numbers;
    for (const QString &d : devices)
        numbers.append(numberOf(m_sys, d));
    QVERIFY(probe.value()->setWatched(numbers));
    QHash<QString, qint64> before;
    for (const QString &d : devices)
        before.insert(d, diskstatsIos(d));
    const vm::Run fio = vm::run(u"fio"_s, fioRandomArgs(u"/dev/"_s + m_lab.dm, u"randrw"_s, 3, 16));
    QVERIFY2(fio.exitCode == 0, qPrintable(fio.err));
    const quint64 missed = probe.value()->missedEvents();
    quint64 pathsAccounted = 0;
    quint64 mapAccounted = 0;
    for (qsizetype i = 0; i < devices.size(); ++i) {
        const qint64 counted = diskstatsIos(devices[i]) - before.value(devices[i]);
        const DeviceLatency latency = probe.value()->read(numbers[i]);
        const quint64 accounted = latency.device.total() + latency.lost + probe.value()->unfinishedRequests(numbers[i]);
        qInfo("%s: diskstats %lld, histogram %llu (queue %llu), lost %llu, accounted %llu, missed events %llu",
            qPrintable(devices[i]), counted, latency.device.total(), latency.queue.total(), latency.lost, accounted,
            missed);
        QVERIFY2(accounted <= quint64(counted) && accounted + missed >= quint64(counted), qPrintable(devices[i]));
        if (i == 0) {
            mapAccounted = accounted;
            QVERIFY(counted > 1000);
            // mq-deadline on the map's queue: its requests are inserted, then dispatched.
            QVERIFY(latency.queue.total() > 0);
        } else {
            pathsAccounted += accounted;
        }
    }
    // Request-based multipath clones each of the map's requests onto exactly one path.
    QCOMPARE(pathsAccounted, mapAccounted);
}

void TestVmLatency::dmStatsOnLinearMapAgreesWithDmstats()
{
    const QString map = u"dmtune-lintest"_s;
    const QString path = m_lab.paths.value(0);
    const QString sectors = m_sys.readOr(u"block/%1/size"_s.arg(path));
    vm::Run r
        = vm::run(u"dmsetup"_s, { u"create"_s, map, u"--table"_s, u"0 %1 linear /dev/%2 0"_s.arg(sectors, path) });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString dm
        = vm::run(u"dmsetup"_s, { u"info"_s, u"-c"_s, u"--noheadings"_s, u"-o"_s, u"blkdevname"_s, map }).out.trimmed();
    QVERIFY2(dm.startsWith(u"dm-"_s), qPrintable(dm));
    QVERIFY(isBioBasedDmDevice(m_sys, dm));

    // Regions dmtune must leave: another program's, and a dmtune instance that is running (pid 1 as it runs).
    const auto initStart = parseProcStatStartTime(m_sys.readProc(u"1/stat"_s).value());
    QVERIFY(initStart);
    const QString liveDmtune = DmStatsInstance { 1, *initStart, 5 }.userData();
    // And one it must remove: an instance whose process has exited.
    QProcess gone;
    gone.start(u"true"_s, {});
    QVERIFY(gone.waitForStarted());
    const qint64 gonePid = gone.processId();
    QVERIFY(gone.waitForFinished());
    const QString deadDmtune = DmStatsInstance { gonePid, 1, 1 }.userData();
    for (const QStringList &args : { QStringList { u"--programid"_s, u"otherprog"_s, u"--bounds"_s, u"1ms,2ms"_s },
             QStringList { u"--programid"_s, u"dmtune"_s, u"--userdata"_s, liveDmtune },
             QStringList { u"--programid"_s, u"dmtune"_s, u"--userdata"_s, deadDmtune } }) {
        r = vm::run(u"dmstats"_s, QStringList { u"create"_s } + args + QStringList { map });
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    QVERIFY(writeFile(NdelayFile, u"2000000"_s)); // every SCSI command answers after 2 ms
    QProcess stat;
    stat.start(Dmtunectl, { u"stat"_s, dm, u"--histogram"_s, u"--json"_s, u"-i"_s, u"12"_s, u"-c"_s, u"1"_s });
    QByteArray err;
    for (int i = 0; i < 300 && !err.contains("dm-stats: created"); ++i) {
        stat.waitForReadyRead(100);
        err += stat.readAllStandardError();
    }
    QVERIFY2(err.contains("dm-stats: created"), err.constData());
    const QString ours = DmStatsInstance { stat.processId(), 0, 0 }.userData().section(u'.', 0, 0) + u'.';
    const QString during = statsList(map);
    QVERIFY2(during.contains(u" dmtune "_s + ours), qPrintable(during));
    QVERIFY2(!during.contains(deadDmtune), qPrintable(during)); // the dead instance's region went first
    // A reference region of dmstats' own, with the probe's bounds, created after dmtune's: both see only fio.
    QStringList bounds;
    for (int b = 1; b < latencybuckets::Count; ++b)
        bounds.append(u"%1ns"_s.arg(qint64(latencybuckets::lowerUs(b) * 1000)));
    r = vm::run(u"dmstats"_s,
        { u"create"_s, u"--programid"_s, u"reference"_s, u"--precise"_s, u"--bounds"_s, bounds.join(u','), map });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const vm::Run fio = vm::run(u"fio"_s, fioRandomArgs(u"/dev/"_s + dm, u"randread"_s, 4, 1));
    QVERIFY2(fio.exitCode == 0, qPrintable(fio.err));
    QVERIFY(stat.waitForFinished(30000));
    QVERIFY(writeFile(NdelayFile, m_ndelay));
    err += stat.readAllStandardError();
    const QByteArray out = stat.readAllStandardOutput();
    vm::saveFile(qEnvironmentVariable("KLAB_OUT") + u"/stat-dmstats.json"_s, QString::fromUtf8(out));
    vm::saveFile(qEnvironmentVariable("KLAB_OUT") + u"/stat-dmstats.err"_s, QString::fromUtf8(err));
    QVERIFY2(stat.exitCode() == 0, err.constData());
    const QJsonObject disk
        = QJsonDocument::fromJson(out)[u"sysstat"_s][u"hosts"_s][0][u"statistics"_s][0][u"disk"_s][0].toObject();
    QCOMPARE(disk[u"disk_device"_s].toString(), dm);
    const qint64 fioCount = fioIos(fio.out.toUtf8(), u"read"_s);
    QCOMPARE(disk[u"ios"_s].toInteger(), fioCount);

    // Every bucket as dmstats reports its own region (its fields are joined by ':').
    const vm::Run report = vm::run(u"dmstats"_s,
        { u"report"_s, u"--histogram"_s, u"--programid"_s, u"reference"_s, u"-o"_s, u"hist_count"_s, u"--noheadings"_s,
            map });
    QVERIFY2(report.exitCode == 0, qPrintable(report.err));
    const QStringList reference = report.out.trimmed().split(u':');
    QStringList dmtune;
    for (const auto &count : disk[u"histogram"_s][u"counts"_s].toArray())
        dmtune.append(QString::number(count.toInteger()));
    qInfo("dmstats report: %s", qPrintable(report.out.trimmed()));
    QCOMPARE(dmtune, reference);

    const QMap<double, double> fioUs = fioClatPercentilesUs(fio.out.toUtf8(), u"read"_s);
    for (const auto &[fraction, key] : { std::pair { 0.5, "p50_us" }, std::pair { 0.9, "p90_us" } }) {
        const double dmStatsUs = disk[QString::fromLatin1(key)].toDouble();
        qInfo("%s of %s: dm-stats %.1f us, fio %.1f us (%lld I/Os)", key, qPrintable(dm), dmStatsUs,
            fioUs.value(fraction), fioCount);
        QVERIFY2(bucketsApart(dmStatsUs, fioUs.value(fraction)) <= 1, key);
    }
    QVERIFY(disk[u"p50_us"_s].toDouble() >= 2000);

    // After stat: its region is gone; the other program's, the live dmtune's and the reference are untouched.
    const QString after = statsList(map);
    const vm::Run list = vm::run(u"dmstats"_s, { u"list"_s, u"--allprograms"_s, map });
    vm::saveFile(qEnvironmentVariable("KLAB_OUT") + u"/dmstats-list.txt"_s, list.out + after);
    QVERIFY2(!after.contains(ours) && !after.contains(deadDmtune), qPrintable(after));
    QVERIFY2(after.contains(u"otherprog - histogram:1,2"_s), qPrintable(after));
    QVERIFY2(after.contains(u" dmtune "_s + liveDmtune), qPrintable(after));
    QVERIFY2(list.out.contains(u"otherprog"_s) && list.out.contains(u"reference"_s), qPrintable(list.out));
    qsizetype dmtuneRows = 0; // ProgID is the last column
    for (const QString &line : list.out.split(u'\n')) {
        const QStringList columns = line.split(u' ', Qt::SkipEmptyParts);
        dmtuneRows += !columns.isEmpty() && columns.last() == u"dmtune"_s ? 1 : 0;
    }
    QCOMPARE(dmtuneRows, 1); // the live instance's region
    r = vm::run(u"dmsetup"_s, { u"remove"_s, map });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
}

void TestVmLatency::dmStatsRefusesRequestBasedMap()
{
    const QString before = statsList(m_lab.map);
    const vm::Run r = vm::run(Dmtunectl, { u"stat"_s, m_lab.dm, u"--dm-stats"_s, u"-c"_s, u"1"_s });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(u"is a request-based map"_s), qPrintable(r.err));
    QCOMPARE(r.err.count(u'\n'), 1);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(statsList(m_lab.map), before);
}

// The Latency tab on a linear map: the button plans, the question shows the plan, Yes creates the region; the heat
// map charts every I/O fio did; another selection deletes the region.
void TestVmLatency::latencyTabCountsLinearMapWithDmStats()
{
    const QString map = u"dmtune-lintab"_s;
    const QString path = m_lab.paths.value(0);
    vm::Run r = vm::run(u"dmsetup"_s,
        { u"create"_s, map, u"--table"_s,
            u"0 %1 linear /dev/%2 0"_s.arg(m_sys.readOr(u"block/%1/size"_s.arg(path)), path) });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString dm
        = vm::run(u"dmsetup"_s, { u"info"_s, u"-c"_s, u"--noheadings"_s, u"-o"_s, u"blkdevname"_s, map }).out.trimmed();
    Sampler sampler(m_sys);
    sampler.setWatched({ dm });
    QVERIFY(sampler.setInterval(300));
    LatencyView view;
    connect(&sampler, &Sampler::samplesAvailable, &view, &LatencyView::onBatch);
    view.setDevices({ { dm, map } });
    QCOMPARE(view.dmStatsCandidates(), QStringList { dm });
    QSignalSpy planned(&view, &LatencyView::dmStatsPlanned);
    QSignalSpy started(&view, &LatencyView::dmStatsStarted);
    view.planDmStats();
    QVERIFY(planned.wait(20000));
    const auto plan = planned.first().first().value<OperationPlan>();
    QVERIFY2(plan.runnable(), qPrintable(plan.refusals.join(u'\n')));
    QVERIFY(statsList(map).trimmed().isEmpty()); // planning created nothing
    auto *question = view.findChild<QMessageBox *>();
    QVERIFY(question);
    QVERIFY2(question->informativeText().contains(u"create a dm-stats region over all of"_s),
        qPrintable(question->informativeText()));
    question->button(QMessageBox::Yes)->click();
    QVERIFY(started.wait(20000));
    QCOMPARE(started.first().first().toBool(), true);
    QVERIFY(view.countsWithDmStats());
    const QString ours = u" dmtune dmtune-instance=%1."_s.arg(::getpid());
    QVERIFY2(statsList(map).contains(ours), qPrintable(statsList(map)));

    sampler.start();
    LatencyHeatMap *chart = view.heatMap(dm);
    QVERIFY(chart);
    QTRY_VERIFY_WITH_TIMEOUT(chart->intervalCount() >= 1, 15000);
    QProcess fio; // the event loop runs meanwhile: the sampler ticks, the reads run on their jobs
    fio.start(u"fio"_s, fioRandomArgs(u"/dev/"_s + dm, u"randread"_s, 3, 4));
    QTRY_VERIFY_WITH_TIMEOUT(fio.state() == QProcess::NotRunning, 60000);
    QCOMPARE(fio.exitCode(), 0);
    const qint64 fioCount = fioIos(fio.readAllStandardOutput(), u"read"_s);
    const auto charted = [chart] {
        quint64 ios = 0;
        for (int i = 0; i < chart->intervalCount(); ++i)
            ios += chart->intervalIos(i);
        return ios;
    };
    QTRY_COMPARE_WITH_TIMEOUT(charted(), quint64(fioCount), 15000);
    qInfo("Latency tab, dm-stats on %s: fio %lld I/Os, charted %llu over %d intervals", qPrintable(dm), fioCount,
        charted(), chart->intervalCount());
    QVERIFY(chart->intervalCount() >= 5); // 3 s of fio at 300 ms ticks (slower under emulation)
    sampler.stop();

    // Another selection: the region goes (on a job).
    view.setDevices({});
    QVERIFY(!view.countsWithDmStats());
    QTRY_VERIFY_WITH_TIMEOUT(!statsList(map).contains(ours), 15000);
    r = vm::run(u"dmsetup"_s, { u"remove"_s, map });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
}

void TestVmLatency::cleanupTestCase()
{
    if (!m_ndelay.isEmpty())
        writeFile(NdelayFile, m_ndelay);
    m_lab.restore(m_sys);
}

QTEST_MAIN(TestVmLatency)
#include "tst_vm_latency.moc"
