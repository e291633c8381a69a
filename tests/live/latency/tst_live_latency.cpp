// live (root, a scratch loop device): the block-layer latency probe on this machine's kernel. Its histograms
// count the I/Os /proc/diskstats counts, its device times lie inside fio's completion latencies, and
// dmtunectl stat --histogram prints them (text and JSON) or refuses in one line.
#include "core/latency/blocklatencyprobe.h"
#include "core/latency/latencystream.h"
#include "core/recordings/recordedlatency.h"
#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingreplay.h"
#include "latencychecks.h"
#include "tests/common/testpaths.h"
#include "tests/live/scratchloop.h"
#include "tests/live/workloads/livesupport.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace dmtune;
using namespace dmtune::latencytest;
using namespace Qt::StringLiterals;
using dmtune::live::ProgramRun;
using dmtune::live::runProgram;

namespace {

const QString Dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");

BlockDeviceNumber numberOf(const QString &devicePath)
{
    struct stat st { };
    if (::stat(QFile::encodeName(devicePath).constData(), &st) != 0)
        return {};
    return { major(st.st_rdev), minor(st.st_rdev) };
}

} // namespace

class TestLiveLatency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void histogramsCountWhatDiskstatsCounts();
    void statHistogramJsonBesideFio();
    void statHistogramText();
    void runRecordsLatency();
    void refusedInOneLine_data();
    void refusedInOneLine();
    void refusedWithoutRoot();
    void helperStreamsWhatDiskstatsCounts();
    void helperFailuresInOneLine();

private:
    SysfsRoot m_sys;
    live::ScratchLoop m_loop;
};

void TestLiveLatency::initTestCase()
{
    if (const QString why = live::ScratchLoop::unavailableReason({ QStringLiteral("fio"), QStringLiteral("losetup") });
        !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY2(m_loop.create(64 << 20), qPrintable(m_loop.error()));
    // The probe must load here (root, BTF): a machine that cannot run it fails this test rather than skip.
    QVERIFY2(BlockLatencyProbe::unavailableReason().isEmpty(), qPrintable(BlockLatencyProbe::unavailableReason()));
}

void TestLiveLatency::histogramsCountWhatDiskstatsCounts()
{
    auto probe = BlockLatencyProbe::open();
    QVERIFY2(probe, qPrintable(probe.errorMessage()));
    const BlockDeviceNumber loop = numberOf(m_loop.devicePath());
    QVERIFY(probe.value()->setWatched({ loop }));
    const qint64 before = diskstatsIos(m_loop.name());
    const ProgramRun fio
        = runProgram(QStringLiteral("fio"), fioRandomArgs(m_loop.devicePath(), QStringLiteral("randrw"), 2, 8));
    QCOMPARE(fio.exitCode, 0);
    const qint64 counted = diskstatsIos(m_loop.name()) - before;
    const DeviceLatency latency = probe.value()->read(loop);
    const quint64 unfinished = probe.value()->unfinishedRequests(loop);
    const quint64 missed = probe.value()->missedEvents();
    qInfo("diskstats %lld I/Os; probe %llu (queue %llu), lost %llu, unfinished %llu, missed events %llu", counted,
        latency.device.total(), latency.queue.total(), latency.lost, unfinished, missed);
    QVERIFY(counted > 1000);
    // Every I/O diskstats counted is in the histogram, or known to the probe as one whose completion it did not
    // see (lost, or still pending in its table): nothing counted twice, nothing unaccounted.
    const quint64 accounted = latency.device.total() + latency.lost + unfinished;
    QVERIFY(accounted <= quint64(counted) && accounted + missed >= quint64(counted));
    // On a kernel that runs the probe for every event that is all of them; where it is not, few are lost.
    QVERIFY2(
        latency.device.total() * 100 >= quint64(counted) * 99, "more than 1 % of the I/Os are not in the histogram");
    // The exact sum of the times agrees with the histogram: the mean lies inside the populated buckets.
    QVERIFY(latency.device.meanUs() >= latency.device.percentileUs(0)
        && latency.device.meanUs() <= latency.device.percentileUs(1));

    // Unwatched, it counts nothing more.
    QVERIFY(probe.value()->setWatched({}));
    QCOMPARE(probe.value()->read(loop).device.total(), quint64(0));
}

void TestLiveLatency::statHistogramJsonBesideFio()
{
    QProcess stat;
    stat.start(Dmtunectl,
        { QStringLiteral("stat"), m_loop.name(), QStringLiteral("--histogram"), QStringLiteral("--json"),
            QStringLiteral("-i"), QStringLiteral("8"), QStringLiteral("-c"), QStringLiteral("1") });
    // The document's head is written once the probe is attached; the one report covers fio's 2 s whole.
    QVERIFY(stat.waitForReadyRead(20000));
    const ProgramRun fio
        = runProgram(QStringLiteral("fio"), fioRandomArgs(m_loop.devicePath(), QStringLiteral("randread"), 2, 1));
    QCOMPARE(fio.exitCode, 0);
    QVERIFY(stat.waitForFinished(20000));
    QCOMPARE(stat.exitCode(), 0);
    const QByteArray err = stat.readAllStandardError();
    const QJsonDocument doc = QJsonDocument::fromJson(stat.readAllStandardOutput());
    const QJsonObject disk = doc[QStringLiteral("sysstat")][QStringLiteral("hosts")][0][QStringLiteral("statistics")][0]
                                [QStringLiteral("disk")][0]
                                    .toObject();
    QCOMPARE(disk[QStringLiteral("disk_device")].toString(), m_loop.name());
    const QJsonArray bounds = disk[QStringLiteral("histogram")][QStringLiteral("bounds_us")].toArray();
    const QJsonArray counts = disk[QStringLiteral("histogram")][QStringLiteral("counts")].toArray();
    QCOMPARE(bounds.size(), latencybuckets::Count);
    QCOMPARE(counts.size(), latencybuckets::Count);
    qint64 sum = 0;
    for (const QJsonValue &c : counts)
        sum += c.toInteger();
    QCOMPARE(sum, disk[QStringLiteral("ios")].toInteger());
    // fio was the only I/O on the scratch device. Those the probe did not see complete (lost, or unfinished
    // in its table when the report was made) are not in the histogram.
    const qint64 fioCount = fioIos(fio.out.toUtf8(), QStringLiteral("read"));
    const qint64 lost = disk[QStringLiteral("lost")].toInteger();
    QVERIFY2(sum + lost <= fioCount && sum * 100 >= fioCount * 99,
        qPrintable(QStringLiteral("probe %1 (+%2 lost), fio %3, %4")
                       .arg(sum)
                       .arg(lost)
                       .arg(fioCount)
                       .arg(QString::fromLocal8Bit(err))));
    // Device time (issue -> complete) is part of fio's completion latency: never above it by more than a bucket.
    const QMap<double, double> fioUs = fioClatPercentilesUs(fio.out.toUtf8(), QStringLiteral("read"));
    QCOMPARE(fioUs.size(), 4);
    double previous = 0;
    for (const auto &[fraction, key] : { std::pair { 0.5, "p50_us" }, std::pair { 0.9, "p90_us" },
             std::pair { 0.99, "p99_us" }, std::pair { 0.999, "p99_9_us" } }) {
        const double probeUs = disk[QString::fromLatin1(key)].toDouble();
        qInfo("%s: probe %.1f us, fio %.1f us", key, probeUs, fioUs.value(fraction));
        QVERIFY(probeUs > 0 && probeUs >= previous);
        QVERIFY(latencybuckets::bucketOf(quint64(probeUs * 1000))
            <= latencybuckets::bucketOf(quint64(fioUs.value(fraction) * 1000)) + 1);
        previous = probeUs;
    }
    // iostat's own fields are still there, unchanged in name.
    QVERIFY(disk.contains(QStringLiteral("r/s")) && disk.contains(QStringLiteral("r_await")));
}

void TestLiveLatency::statHistogramText()
{
    QProcess stat;
    stat.start(Dmtunectl,
        { QStringLiteral("stat"), m_loop.devicePath(), QStringLiteral("--histogram"), QStringLiteral("-i"),
            QStringLiteral("3"), QStringLiteral("-c"), QStringLiteral("1") });
    QVERIFY(stat.waitForReadyRead(20000));
    QCOMPARE(runProgram(QStringLiteral("fio"), fioRandomArgs(m_loop.devicePath(), QStringLiteral("randwrite"), 1, 4))
                 .exitCode,
        0);
    QVERIFY(stat.waitForFinished(20000));
    QCOMPARE(stat.exitCode(), 0);
    const QString text = QString::fromLocal8Bit(stat.readAllStandardOutput());
    QVERIFY2(text.contains(QStringLiteral("p99.9_us")), qPrintable(text));
    // The device line: a count and five numbers, no "-" (fio wrote through it).
    bool found = false;
    for (const QString &line : text.split(u'\n')) {
        const QStringList words = line.split(u' ', Qt::SkipEmptyParts);
        if (words.size() == 9 && words[0] == m_loop.name() && words[1] == QLatin1String("device")) {
            found = true;
            QVERIFY2(words[2].toLongLong() > 100 && !words.contains(QStringLiteral("-")), qPrintable(line));
        }
    }
    QVERIFY2(found, qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("from_us")));
}

// dmtunectl run --record --histogram: the recording's latency frames count every I/O its counters count, and
// the run's summary, record show and the reader agree on the workload's distribution.
void TestLiveLatency::runRecordsLatency()
{
    const QString path = QDir::temp().filePath(QStringLiteral("dmtune-latency-%1.dmrec").arg(::getpid()));
    const ProgramRun run = runProgram(Dmtunectl,
        { QStringLiteral("run"), QStringLiteral("rand-read-4k-24jobs"), QStringLiteral("--numjobs"),
            QStringLiteral("1"), QStringLiteral("--iodepth"), QStringLiteral("4"), QStringLiteral("--runtime"),
            QStringLiteral("2"), QStringLiteral("--device"), m_loop.name(), QStringLiteral("--record"), path,
            QStringLiteral("--histogram"), QStringLiteral("--json") });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject summary
        = QJsonDocument::fromJson(run.out.mid(run.out.lastIndexOf(u"\n{"_s) + 1).toUtf8()).object();
    const QJsonObject summaryLatency
        = summary.value(u"devices"_s).toObject().value(m_loop.name()).toObject().value(u"latency"_s).toObject();
    const Result<Recording> rec = readRecording(path);
    QFile::remove(path);
    QVERIFY2(rec, qPrintable(rec.errorMessage()));
    QVERIFY(rec->hasLatency);
    quint64 counted = 0;
    quint64 probed = 0;
    for (const SampleBatch &b : replayBatches(*rec)) {
        for (const DeviceSample &d : b.devices) {
            if (d.name() == m_loop.name())
                counted += d.deltas[DiskField::ReadIos] + d.deltas[DiskField::WriteIos]
                    + d.deltas[DiskField::DiscardIos] + d.deltas[DiskField::FlushIos];
        }
    }
    for (const RecordedBatch &b : rec->batches) {
        for (const RecordedLatency &l : b.latency)
            probed += l.latency.device.total() + l.latency.lost;
    }
    qInfo("recording: %llu I/Os in the counters, %llu in the latency frames", counted, probed);
    QVERIFY(counted > 1000);
    // Never more than the counters; fewer only by the probe's recursion misses (a completion interrupting another
    // on the same CPU), which the recording does not keep: a handful in a hundred thousand, never 0.1 %.
    QVERIFY2(probed <= counted && (counted - probed) * 1000 < counted,
        qPrintable(QStringLiteral("%1 probed, %2 counted").arg(probed).arg(counted)));
    const DeviceLatency window = workloadLatency(*rec).value(m_loop.name());
    QVERIFY(window.device.total() > 1000);
    QCOMPARE(summaryLatency.value(u"ios"_s).toDouble(), double(window.device.total()));
    QVERIFY(std::abs(summaryLatency.value(u"p99_us"_s).toDouble() - window.device.percentileUs(0.99)) < 0.01);
}

void TestLiveLatency::refusedInOneLine_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("with --csv") << QStringList { QStringLiteral("--csv") } << 2
                                << QStringLiteral("--histogram and --csv exclude each other");
    QTest::newRow("a captured tree") << QStringList { QStringLiteral("--sysfs-root"), QStringLiteral("@TREE@") } << 1
                                     << QStringLiteral("not a tree under --sysfs-root");
    QTest::newRow("--dm-stats without a map") << QStringList { QStringLiteral("--dm-stats") } << 2
                                              << QStringLiteral("--dm-stats counts the maps named in DEV");
    QTest::newRow("--dm-stats on a loop device") << QStringList { QStringLiteral("--dm-stats"),
        QStringLiteral("@LOOP@") } << 1 << QStringLiteral("is not a device-mapper map: dm-stats counts dm maps only");
}

void TestLiveLatency::refusedInOneLine()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir tree; // a captured tree's shape: a block directory
    QVERIFY(tree.isValid() && QDir(tree.path()).mkpath(QStringLiteral("block/sda")));
    args.replaceInStrings(QStringLiteral("@TREE@"), tree.path());
    args.replaceInStrings(QStringLiteral("@LOOP@"), m_loop.name());
    const ProgramRun r
        = runProgram(Dmtunectl, QStringList { QStringLiteral("stat"), QStringLiteral("--histogram") } + args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void TestLiveLatency::refusedWithoutRoot()
{
    if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
        QSKIP("setpriv not installed");
    // A copy anyone may run: the build tree may sit in a directory only root can enter.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QFile::setPermissions(dir.path(),
        QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther | QFile::ReadGroup
            | QFile::ExeGroup));
    const QString copy = dir.filePath(QStringLiteral("dmtunectl"));
    QVERIFY(QFile::copy(Dmtunectl, copy));
    const ProgramRun r = runProgram(QStringLiteral("setpriv"),
        { QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups"), copy,
            QStringLiteral("stat"), m_loop.name(), QStringLiteral("--histogram"), QStringLiteral("-c"),
            QStringLiteral("1") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.count(u'\n') == 1 && r.err.contains(QLatin1String("need root")), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

// A normal user's path: dmtune-helper (here started directly, as root; pkexec does that for a user) loads the probe
// and answers each read with the cumulative histograms, which count what /proc/diskstats counts.
void TestLiveLatency::helperStreamsWhatDiskstatsCounts()
{
    const HelperLatencyProbe::Command helper { DMTUNE_BINARY_PATH("/app/dmtune-helper/dmtune-helper"), {} };
    const BlockDeviceNumber loop = numberOf(m_loop.devicePath());
    auto started = HelperLatencyProbe::start(helper, { loop });
    QVERIFY2(started, qPrintable(started.errorMessage()));
    const auto first = started.value()->read();
    QVERIFY2(first, qPrintable(first.errorMessage()));
    QCOMPARE(first->devices.keys(), QList<BlockDeviceNumber> { loop });
    const qint64 before = diskstatsIos(m_loop.name());
    const ProgramRun fio
        = runProgram(QStringLiteral("fio"), fioRandomArgs(m_loop.devicePath(), QStringLiteral("randread"), 2, 4));
    QCOMPARE(fio.exitCode, 0);
    const qint64 counted = diskstatsIos(m_loop.name()) - before;
    const auto after = started.value()->read();
    QVERIFY2(after, qPrintable(after.errorMessage()));
    const DeviceLatency interval = after->devices.value(loop).since(first->devices.value(loop));
    qInfo("diskstats %lld I/Os; through the helper %llu, lost %llu, missed events %llu, p50 %.1f us", counted,
        interval.device.total(), interval.lost, after->missedEvents, interval.device.percentileUs(0.5));
    QVERIFY(counted > 1000);
    QVERIFY(interval.device.total() + interval.lost <= quint64(counted));
    QVERIFY(interval.device.total() + interval.lost + after->missedEvents >= quint64(counted));
    QCOMPARE(interval.device.total(), quint64(fioIos(fio.out.toUtf8(), QStringLiteral("read"))) - interval.lost);
}

void TestLiveLatency::helperFailuresInOneLine()
{
    const BlockDeviceNumber loop = numberOf(m_loop.devicePath());
    // No such program (pkexec not installed): one line naming it.
    auto missing = HelperLatencyProbe::start({ QStringLiteral("/nonexistent/pkexec"), {} }, { loop });
    QVERIFY(!missing);
    QVERIFY2(missing.errorMessage().contains(QLatin1String("/nonexistent/pkexec did not start")),
        qPrintable(missing.errorMessage()));
    // A program that ends without answering (pkexec refused): one line with its exit status.
    auto refused = HelperLatencyProbe::start(
        { QStringLiteral("/bin/sh"), { QStringLiteral("-c"), QStringLiteral("exit 126") } }, { loop });
    QVERIFY(!refused);
    QVERIFY2(refused.errorMessage().contains(QLatin1String("ended"))
            && refused.errorMessage().contains(QLatin1String("126")),
        qPrintable(refused.errorMessage()));
    // A helper that cannot watch the device: its own line.
    const HelperLatencyProbe::Command helper { DMTUNE_BINARY_PATH("/app/dmtune-helper/dmtune-helper"), {} };
    auto tooMany = HelperLatencyProbe::start(helper, {});
    QVERIFY(!tooMany);
    QVERIFY2(!tooMany.errorMessage().contains(u'\n'), qPrintable(tooMany.errorMessage()));
}

QTEST_GUILESS_MAIN(TestLiveLatency)
#include "tst_live_latency.moc"
