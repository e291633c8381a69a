// PcpSource on a real pmlogger archive (fixtures/pcp/lab: recorded by tst_vm_pcp in the lab VM while fio ran
// on the multipath map mpatha over sda..sdd; PCP 6.0.3, kernel 6.1): records, names, units, the time window
// in PCP's own syntax, interpolation, and what a bad archive or window says. The values asserted are
// pmdumplog's reading of the same archive. No pmcd needed: libpcp reads archives itself.
#include "core/metrics/pcpsource.h"
#include "core/metrics/sourcerecording.h"
#include "core/recordings/recordingreader.h"
#include "core/recordings/recordingreplay.h"
#include "tests/common/testpaths.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

const QString Archive = DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/pcp/lab");

// 2026-12-05 18:59:52.062748 UTC and 19:00:09.987252 UTC: the archive's first and last records.
constexpr qint64 FirstRecordNs = 1796497192062748000;
constexpr qint64 LastRecordNs = 1796497209987252000;

QList<CounterFrame> readAll(PcpSource &source)
{
    QList<CounterFrame> frames;
    for (int i = 0; i < 1000; ++i) {
        auto frame = source.fetch();
        if (!frame)
            break;
        frames.append(frame.value());
    }
    return frames;
}

} // namespace

class TestPcpSource : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void archiveRecords();
    void interpolated();
    void window_data();
    void window();
    void badArchiveOrWindow_data();
    void badArchiveOrWindow();
    void scsiPaths_data();
    void scsiPaths();
    void missingCountersAreUnknown();
    void archiveAsRecording();
};

void TestPcpSource::initTestCase()
{
    qputenv("TZ", "UTC");
    qputenv("PCP_DERIVED_CONFIG", "");
}

void TestPcpSource::archiveRecords()
{
    auto opened = PcpSource::openArchive(Archive, {});
    QVERIFY2(opened, qPrintable(opened.errorMessage()));
    PcpSource &source = *opened.value();
    QCOMPARE(source.hostName(), u"klab"_s);
    QCOMPARE(source.host().release, u"6.1.0-57-amd64"_s);
    QCOMPARE(source.host().cpus, 2);
    QVERIFY(source.description().contains(u"the archive's own samples"_s));

    const QList<CounterFrame> frames = readAll(source);
    QVERIFY(source.atEnd());
    QCOMPARE(frames.size(), 19); // pmdumplog lists 19 records of disk.dm.read
    QCOMPARE(frames.first().timeNs, FirstRecordNs);
    QCOMPARE(frames.last().timeNs, LastRecordNs);
    const CounterFrame &last = frames.last();
    QCOMPARE(last.devices.size(), 5);
    QCOMPARE(last.dmNames.value(u"dm-0"_s), u"mpatha"_s); // hinv.map.dmname
    const DiskCounters *map = last.find(u"dm-0"_s);
    QVERIFY(map);
    QCOMPARE((*map)[DiskField::ReadIos], quint64(19043)); // fio's own count of the run's reads
    QCOMPARE((*map)[DiskField::ReadSectors], quint64(76172 * 2)); // read_bytes is in kB
    QCOMPARE((*map)[DiskField::TimeInQueue], quint64(23832));
    QCOMPARE(map->fieldCount, 17);
    QCOMPARE((*last.find(u"sda"_s))[DiskField::WriteIos], quint64(9530));
    QCOMPARE((*last.find(u"sdd"_s))[DiskField::WriteIos], quint64(9532));
    for (const bool has : last.hasField)
        QVERIFY(has);
    // The in-flight split is unknown, but known to be {0, 0} where nothing was in flight.
    QCOMPARE(last.inflight.value(u"dm-0"_s, { 9, 9 }), (std::array<quint32, 2> { 0, 0 }));
    // The map is named mpatha, not by its WWID: its paths are not linked (said in the limits).
    QVERIFY(last.pathsOf.isEmpty());
    QVERIFY(source.limits().join(u' ').contains(u"user_friendly_names"_s));

    // The same numbers as the pmcd's: one interval's rates from the source's own clock.
    const SampleBatch batch = batchBetween(frames.at(5), frames.at(6), { u"dm-0"_s });
    QCOMPARE(batch.devices.size(), 1);
    QCOMPARE(batch.elapsedSeconds, double(frames.at(6).timeNs - frames.at(5).timeNs) / 1e9);
    const DeviceSample &d = batch.devices.first();
    const double reads = double(d.deltas[DiskField::ReadIos]);
    QVERIFY(reads > 0);
    QCOMPARE(d.metrics(batch.elapsedSeconds)[Metric::ReadsPerSec], reads / batch.elapsedSeconds);
    QVERIFY(std::isnan(d.metrics(batch.elapsedSeconds)[Metric::InflightReads]) || d.inflight[0] == 0);
}

void TestPcpSource::interpolated()
{
    auto opened = PcpSource::openArchive(Archive, { {}, {}, 1000 });
    QVERIFY2(opened, qPrintable(opened.errorMessage()));
    QVERIFY(opened.value()->description().contains(u"interpolated every 1 s"_s));
    const QList<CounterFrame> frames = readAll(*opened.value());
    // From the label's start (18:59:51.989470) every second to the end (19:00:10.172241): 19 points.
    QCOMPARE(frames.size(), 19);
    for (int i = 1; i < frames.size(); ++i)
        QCOMPARE(frames.at(i).timeNs - frames.at(i - 1).timeNs, qint64(1'000'000'000));
    QVERIFY(frames.first().devices.isEmpty()); // before the first record: no values (pcp iostat's NODATA)
    QCOMPARE(frames.at(1).devices.size(), 5);
}

void TestPcpSource::window_data()
{
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("finish");
    QTest::addColumn<qint64>("fromNs");
    QTest::addColumn<qint64>("toNs");
    // As pcp's -S/-T: a finish of +10s is 10 s after the start asked for.
    QTest::newRow("relative to the start")
        << u"+5s"_s << u"+10s"_s << qint64(1796497196989470000) << qint64(1796497206989470000);
    QTest::newRow("absolute, @ ctime") << u"@ Sat Dec  5 19:00:00 2026"_s << QString() << qint64(1796497200000000000)
                                       << LastRecordNs;
    QTest::newRow("relative to the end") << u"-3s"_s << QString() << qint64(1796497207172241000) << LastRecordNs;
}

void TestPcpSource::window()
{
    QFETCH(QString, start);
    QFETCH(QString, finish);
    QFETCH(qint64, fromNs);
    QFETCH(qint64, toNs);
    auto opened = PcpSource::openArchive(Archive, { start, finish, 0 });
    QVERIFY2(opened, qPrintable(opened.errorMessage()));
    QCOMPARE(opened.value()->windowStartNs(), fromNs);
    const QList<CounterFrame> frames = readAll(*opened.value());
    QVERIFY(!frames.isEmpty());
    for (const CounterFrame &frame : frames)
        QVERIFY2(frame.timeNs >= fromNs && frame.timeNs <= toNs, qPrintable(QString::number(frame.timeNs)));
}

void TestPcpSource::badArchiveOrWindow_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("finish");
    QTest::addColumn<QString>("says");
    QTest::newRow("no such archive") << u"/nonexistent/archive"_s << QString() << QString() << u"pcp archive"_s;
    QTest::newRow("not an archive") << DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/../tst_pcpsource.cpp") << QString()
                                    << QString() << u"pcp archive"_s;
    QTest::newRow("start is no time") << Archive << u"yesterday-ish"_s << QString() << u"--start/--finish"_s;
    QTest::newRow("finish before start") << Archive << u"@ Sat Dec  5 19:00:05 2026"_s
                                         << u"@ Sat Dec  5 19:00:00 2026"_s << u"--finish is before --start"_s;
}

void TestPcpSource::badArchiveOrWindow()
{
    QFETCH(QString, path);
    QFETCH(QString, start);
    QFETCH(QString, finish);
    QFETCH(QString, says);
    const auto opened = PcpSource::openArchive(path, { start, finish, 0 });
    QVERIFY(!opened);
    QVERIFY2(opened.errorMessage().contains(says), qPrintable(opened.errorMessage()));
    QVERIFY(!opened.errorMessage().contains(u'\n'));
}

void TestPcpSource::scsiPaths_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("paths");
    QTest::newRow("as PCP 6 says it") << u"sdc sda sdb sdd"_s << QStringList { u"sdc"_s, u"sda"_s, u"sdb"_s, u"sdd"_s };
    QTest::newRow("commas, repeats") << u"sda,sdb, sda"_s << QStringList { u"sda"_s, u"sdb"_s };
    QTest::newRow("not kernel names") << u"../x sda /dev/sdb SDC"_s << QStringList { u"sda"_s };
    QTest::newRow("empty") << QString() << QStringList {};
}

void TestPcpSource::scsiPaths()
{
    QFETCH(QString, value);
    QFETCH(QStringList, paths);
    QCOMPARE(parsePcpScsiPaths(value), paths);
}

void TestPcpSource::missingCountersAreUnknown()
{
    CounterFrame before;
    CounterFrame after;
    DiskCounters d { u"sda"_s };
    d.fieldCount = 11;
    before.devices = { d };
    d[DiskField::ReadIos] = 100;
    d[DiskField::TimeInQueue] = 500;
    after.devices = { d };
    after.timeNs = 1'000'000'000;
    after.hasField.fill(true);
    after.hasField[std::size_t(DiskField::TimeInQueue)] = false;
    after.hasField[std::size_t(DiskField::DiscardIos)] = false;
    const SampleBatch batch = batchBetween(before, after);
    IostatMetrics m = batch.devices.first().metrics(batch.elapsedSeconds);
    withoutMissingFields(after.hasField, &m);
    QCOMPARE(m[Metric::ReadsPerSec], 100.0);
    QVERIFY(std::isnan(m[Metric::AverageQueueSize])); // never a made-up 0
    QVERIFY(std::isnan(m[Metric::DiscardsPerSec]));
    QVERIFY(std::isnan(m[Metric::InflightReads])); // no split given
    QCOMPARE(m[Metric::Utilization], 0.0); // had, and idle
}

void TestPcpSource::archiveAsRecording()
{
    // The archive's intervals, written as a recording and replayed, are the intervals read from the archive.
    auto direct = PcpSource::openArchive(Archive, {});
    QVERIFY(direct);
    const QList<CounterFrame> frames = readAll(*direct.value());
    auto source = PcpSource::openArchive(Archive, {});
    QVERIFY(source);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"lab.dmrec"_s);
    const auto written = recordFromSource(*source.value(), { u"mpatha"_s, u"sda"_s }, path, u"lab"_s);
    QVERIFY2(written, qPrintable(written.errorMessage()));
    QCOMPARE(written->devices, (QStringList { u"dm-0"_s, u"sda"_s }));
    QCOMPARE(written->batches, frames.size() - 1);
    QCOMPARE(written->gaps, 0);

    const auto recording = readRecording(path);
    QVERIFY2(recording, qPrintable(recording.errorMessage()));
    QVERIFY(recording->complete);
    QCOMPARE(recording->meta.host, u"klab"_s);
    QCOMPARE(recording->meta.kernel, u"6.1.0-57-amd64"_s);
    QVERIFY(recording->meta.configuration[u"source"_s][u"description"_s].toString().contains(u"pcp archive"_s));
    QCOMPARE(recording->meta.configuration[u"source"_s][u"dm_names"_s][u"dm-0"_s].toString(), u"mpatha"_s);
    const QList<SampleBatch> replayed = replayBatches(recording.value());
    QCOMPARE(replayed.size(), frames.size() - 1);
    quint64 reads = 0;
    for (qsizetype i = 0; i < replayed.size(); ++i) {
        const SampleBatch expected = batchBetween(frames.at(i), frames.at(i + 1), { u"dm-0"_s, u"sda"_s });
        QCOMPARE(replayed.at(i).devices.size(), 2);
        QCOMPARE(replayed.at(i).elapsedSeconds, expected.elapsedSeconds);
        for (int d = 0; d < 2; ++d) {
            QCOMPARE(replayed.at(i).devices.at(d).name(), expected.devices.at(d).name());
            QCOMPARE(replayed.at(i).devices.at(d).deltas.fields, expected.devices.at(d).deltas.fields);
        }
        reads += replayed.at(i).devices.at(0).deltas[DiskField::ReadIos];
    }
    QCOMPARE(reads, quint64(19043)); // every read of the run, as the archive's last disk.dm.read

    auto unknown = PcpSource::openArchive(Archive, {});
    QVERIFY(unknown);
    const auto refused = recordFromSource(*unknown.value(), { u"nosuch"_s }, dir.filePath(u"x.dmrec"_s), {});
    QVERIFY(!refused);
    QVERIFY2(refused.errorMessage().contains(u"has no device nosuch"_s), qPrintable(refused.errorMessage()));
    QVERIFY(!QFile::exists(dir.filePath(u"x.dmrec"_s)));
}

QTEST_GUILESS_MAIN(TestPcpSource)
#include "tst_pcpsource.moc"
