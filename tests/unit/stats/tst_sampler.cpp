// The Sampler against a temporary sys/proc tree whose counter files the test rewrites between ticks.
#include "core/stats/iostatformat.h"
#include "core/stats/sampler.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <QSet>

#include <cmath>
#include <map>
#include <random>

using namespace dmtune;

namespace {

// sys/block/<dev>/{stat,dev,inflight} and proc/diskstats, kept consistent: what the kernel shows.
class CounterTree {
public:
    CounterTree()
    {
        QDir(m_dir.path()).mkpath(QStringLiteral("sys/block"));
        QDir(m_dir.path()).mkpath(QStringLiteral("proc"));
        writeDiskstats();
    }
    SysfsRoot root(bool withProc = true) const
    {
        return SysfsRoot(
            m_dir.path() + QStringLiteral("/sys"), withProc ? m_dir.path() + QStringLiteral("/proc") : QString());
    }
    // counters: the 11, 15 or 17 counter fields as text.
    void set(const QString &name, const QString &devnum, const QString &counters, bool partitionOf = false)
    {
        m_lines[name] = { devnum, counters };
        const QString dir
            = partitionOf ? QStringLiteral("sys/class/block/") + name : QStringLiteral("sys/block/") + name;
        QDir(m_dir.path()).mkpath(dir);
        write(dir + QStringLiteral("/stat"), counters + u'\n');
        write(dir + QStringLiteral("/dev"), devnum + u'\n');
        writeDiskstats();
    }
    void setInflightText(const QString &name, const QString &text)
    {
        write(QStringLiteral("sys/block/%1/inflight").arg(name), text);
    }
    void setInflight(const QString &name, int reads, int writes)
    {
        write(QStringLiteral("sys/block/%1/inflight").arg(name), QStringLiteral("%1 %2\n").arg(reads).arg(writes));
    }
    void remove(const QString &name)
    {
        m_lines.erase(name);
        QDir(m_dir.path() + QStringLiteral("/sys/block/") + name).removeRecursively();
        writeDiskstats();
    }
    void writeRawDiskstats(const QString &text) { write(QStringLiteral("proc/diskstats"), text); }

private:
    void writeDiskstats()
    {
        QString text;
        for (const auto &[name, line] : m_lines) {
            const QStringList mm = line.first.split(u':');
            text += QStringLiteral("%1 %2 %3 %4\n").arg(mm[0], 4).arg(mm[1], 7).arg(name, line.second);
        }
        write(QStringLiteral("proc/diskstats"), text);
    }
    void write(const QString &relative, const QString &text)
    {
        QFile f(m_dir.path() + u'/' + relative);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
    }

    QTemporaryDir m_dir;
    std::map<QString, std::pair<QString, QString>> m_lines; // name -> (maj:min, counters)
};

QString counters20(quint64 reads, quint64 writes, quint64 sectorsWritten = 0, quint64 ioTicks = 0, quint64 inFlight = 0)
{
    return QStringLiteral("%1 0 %2 %3 %4 0 %5 %6 %7 %8 %9 0 0 0 0 0 0")
        .arg(reads)
        .arg(reads * 8)
        .arg(reads) // 1 ms per read
        .arg(writes)
        .arg(sectorsWritten)
        .arg(writes * 2)
        .arg(inFlight)
        .arg(ioTicks)
        .arg(ioTicks);
}

QStringList names(const SampleBatch &batch)
{
    QStringList list;
    for (const auto &d : batch.devices)
        list.append(d.name());
    return list;
}

} // namespace

class TestSampler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void firstBatchCoversFirstInterval();
    void ratesUseRealElapsedTime();
    void deviceAppearsAndVanishes();
    void deltasSurviveChurn();
    void backwardsCountersGiveZero();
    void watchAllSkipsPartitions();
    void watchesListInItsOrder();
    void perDeviceFilesWithoutProc();
    void sourcesAgree();
    void mixedFieldCounts();
    void inflightSplit();
    void malformedDiskstatsFails();
    void intervalRange();
    void openAttributeFilesRereadAndCap();
    void intervalChangesWhileRunning();
};

void TestSampler::firstBatchCoversFirstInterval()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(1000000, 0)); // a million reads since boot
    Sampler sampler(tree.root());
    QSignalSpy appeared(&sampler, &Sampler::deviceAppeared);
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.sampleNow(); // baseline
    QCOMPARE(appeared.size(), 1);
    QCOMPARE(batches.size(), 0);
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(1000010, 0));
    sampler.sampleNow();
    QCOMPARE(batches.size(), 1);
    const auto batch = batches.takeFirst().first().value<SampleBatch>();
    QCOMPARE(batch.sequence, quint64(1));
    QCOMPARE(batch.devices.size(), 1);
    QCOMPARE(batch.devices[0].deltas[DiskField::ReadIos], quint64(10)); // not a million
    QCOMPARE(batch.devices[0].counters[DiskField::ReadIos], quint64(1000010));
    QCOMPARE(batch.devices[0].counters.devnum, DiskCounters::makeDevnum(8, 0));
    QCOMPARE(batch.devices[0].metrics(batch.elapsedSeconds)[Metric::ReadAwait], 1.0);
    QCOMPARE(batch.devices[0].metrics(batch.elapsedSeconds)[Metric::ReadRequestSize], 4.0);
}

void TestSampler::ratesUseRealElapsedTime()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(0, 0));
    Sampler sampler(tree.root());
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    QElapsedTimer outer;
    outer.start();
    sampler.sampleNow();
    const qint64 innerStart = outer.nsecsElapsed();
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(0, 300, 2400, 150));
    QTest::qSleep(250);
    const qint64 innerEnd = outer.nsecsElapsed();
    sampler.sampleNow();
    const qint64 outerEnd = outer.nsecsElapsed();
    QCOMPARE(batches.size(), 1);
    const auto batch = batches.first().first().value<SampleBatch>();
    // The elapsed time is the real time between the two reads: at least the sleep, at most the whole span.
    QVERIFY2(
        batch.elapsedSeconds * 1e9 >= double(innerEnd - innerStart), qPrintable(QString::number(batch.elapsedSeconds)));
    QVERIFY2(batch.elapsedSeconds * 1e9 <= double(outerEnd), qPrintable(QString::number(batch.elapsedSeconds)));
    const IostatMetrics m = batch.devices[0].metrics(batch.elapsedSeconds);
    QCOMPARE(m[Metric::WritesPerSec], 300 / batch.elapsedSeconds);
    QCOMPARE(m[Metric::WriteKBPerSec], 1200 / batch.elapsedSeconds);
    QCOMPARE(m[Metric::Utilization], 150 / batch.elapsedSeconds / 10);
    QVERIFY(batch.monotonicNs > 0);
    QVERIFY(qAbs(batch.wallMs - QDateTime::currentMSecsSinceEpoch()) < 5000);
}

void TestSampler::deviceAppearsAndVanishes()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10));
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), counters20(10, 10));
    Sampler sampler(tree.root());
    QSignalSpy appeared(&sampler, &Sampler::deviceAppeared);
    QSignalSpy vanished(&sampler, &Sampler::deviceVanished);
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.sampleNow();
    QCOMPARE(appeared.size(), 2);

    tree.set(QStringLiteral("sdc"), QStringLiteral("8:32"), counters20(500, 0));
    tree.remove(QStringLiteral("sdb"));
    sampler.sampleNow();
    QCOMPARE(vanished.size(), 1);
    QCOMPARE(vanished.takeFirst().first().toString(), QStringLiteral("sdb"));
    QCOMPARE(appeared.size(), 3);
    QCOMPARE(appeared.last().first().toString(), QStringLiteral("sdc"));
    // sdc has no previous snapshot yet: it is not in this batch (no rate since boot), sdb ended before it.
    QCOMPARE(names(batches.takeFirst().first().value<SampleBatch>()), QStringList { QStringLiteral("sda") });

    tree.set(QStringLiteral("sdc"), QStringLiteral("8:32"), counters20(520, 0));
    sampler.sampleNow();
    const auto batch = batches.takeFirst().first().value<SampleBatch>();
    QCOMPARE(names(batch), (QStringList { QStringLiteral("sda"), QStringLiteral("sdc") }));
    QCOMPARE(batch.find(QStringLiteral("sdc"))->deltas[DiskField::ReadIos], quint64(20));
    QCOMPARE(appeared.size(), 3);
    QCOMPARE(vanished.size(), 0);

    // stop() ends every series.
    sampler.stop();
    QCOMPARE(vanished.size(), 2);
}

// Devices come and go at random between ticks, with steady stretches between: every batch holds exactly the
// devices present at both reads, in read order, each with the increase since the previous read. This is what
// the in-place batch (previous counters taken from the batch's own slots while the device list is unchanged)
// must never get wrong.
void TestSampler::deltasSurviveChurn()
{
    CounterTree tree;
    std::mt19937 random(7);
    QStringList pool;
    for (char c = 'a'; c <= 'l'; ++c)
        pool << QStringLiteral("sd") + QLatin1Char(c);
    std::map<QString, quint64> reads; // cumulative, per name, kept while a device is away
    QSet<QString> present;
    const auto devnum = [&](const QString &name) { return QStringLiteral("8:%1").arg(16 * pool.indexOf(name)); };
    for (const QString &name : pool) {
        if (random() % 2) {
            present.insert(name);
            tree.set(name, devnum(name), counters20(reads[name], 0));
        }
    }
    Sampler sampler(tree.root());
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.sampleNow();
    for (int tick = 0; tick < 150; ++tick) {
        const QSet<QString> before = present;
        std::map<QString, quint64> increase;
        const bool churn = tick % 10 >= 7; // three ticks of churn, then seven steady ones
        for (const QString &name : pool) {
            if (churn && random() % 4 == 0) {
                if (present.remove(name)) {
                    tree.remove(name);
                    continue;
                }
                present.insert(name);
            }
            if (!present.contains(name))
                continue;
            increase[name] = random() % 100;
            reads[name] += increase[name];
            tree.set(name, devnum(name), counters20(reads[name], 0));
        }
        sampler.sampleNow();
        QCOMPARE(batches.size(), tick + 1);
        const auto batch = batches.last().first().value<SampleBatch>();
        QStringList expected;
        for (const QString &name : pool) { // diskstats order here is the names' order
            if (before.contains(name) && present.contains(name))
                expected << name;
        }
        QStringList got;
        for (const DeviceSample &d : batch.devices) {
            got << d.name();
            QCOMPARE(d.deltas[DiskField::ReadIos], increase[d.name()]);
            QCOMPARE(d.counters[DiskField::ReadIos], reads[d.name()]);
        }
        QCOMPARE(got, expected);
    }
}

void TestSampler::backwardsCountersGiveZero()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(100, 100, 800, 50));
    Sampler sampler(tree.root());
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.sampleNow();
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(5, 3, 24, 2)); // recreated under the same name
    sampler.sampleNow();
    const auto recreated = batches.first().first().value<SampleBatch>();
    const IostatMetrics m = recreated.devices[0].metrics(recreated.elapsedSeconds);
    for (Metric metric : MetricCatalog::all())
        QCOMPARE(m[metric], 0.0);
}

void TestSampler::watchAllSkipsPartitions()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10));
    tree.set(QStringLiteral("sda1"), QStringLiteral("8:1"), counters20(10, 10), true);
    tree.set(QStringLiteral("vda"), QStringLiteral("254:0"), counters20(10, 10));
    Sampler sampler(tree.root());
    QSignalSpy appeared(&sampler, &Sampler::deviceAppeared);
    sampler.watchAll();
    sampler.sampleNow();
    QCOMPARE(appeared.size(), 2);
    QCOMPARE(sampler.lastSource(), CounterSource::Diskstats);

    Sampler withPartitions(tree.root());
    QSignalSpy appearedAll(&withPartitions, &Sampler::deviceAppeared);
    withPartitions.watchAll(true);
    withPartitions.sampleNow();
    QCOMPARE(appearedAll.size(), 3);
}

void TestSampler::watchesListInItsOrder()
{
    CounterTree tree;
    for (int i = 0; i < 12; ++i)
        tree.set(QStringLiteral("sd%1").arg(QChar(u'a' + i)), QStringLiteral("8:%1").arg(i * 16), counters20(i, i));
    tree.set(QStringLiteral("sdb1"), QStringLiteral("8:17"), counters20(1, 1), true);
    for (CounterSource source : { CounterSource::Diskstats, CounterSource::BlockStat }) {
        Sampler sampler(tree.root());
        sampler.setSource(source);
        sampler.setWatched(
            { QStringLiteral("sdk"), QStringLiteral("sdb1"), QStringLiteral("sda"), QStringLiteral("nope") });
        QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
        sampler.sampleNow();
        sampler.sampleNow();
        QCOMPARE(sampler.lastSource(), source);
        QCOMPARE(names(batches.first().first().value<SampleBatch>()),
            (QStringList { QStringLiteral("sdk"), QStringLiteral("sdb1"), QStringLiteral("sda") }));
    }
    // Auto: 3 watched of 13 lines is few enough for the per-device files once diskstats' size is known.
    Sampler sampler(tree.root());
    sampler.setWatched({ QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc") });
    sampler.sampleNow();
    QCOMPARE(sampler.lastSource(), CounterSource::Diskstats);
    sampler.sampleNow();
    QCOMPARE(sampler.lastSource(), CounterSource::BlockStat);
    // 7 watched cost more than the 13 lines (CounterReader::diskstatsLinesPerStatFile = 2).
    QStringList seven;
    for (int i = 0; i < 7; ++i)
        seven.append(QStringLiteral("sd%1").arg(QChar(u'a' + i)));
    sampler.setWatched(seven);
    sampler.sampleNow();
    sampler.sampleNow();
    QCOMPARE(sampler.lastSource(), CounterSource::Diskstats);
}

void TestSampler::perDeviceFilesWithoutProc()
{
    // A captured tree has no /proc: the per-device stat files are the only source.
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10));
    Sampler sampler(tree.root(false));
    QSignalSpy appeared(&sampler, &Sampler::deviceAppeared);
    QSignalSpy failed(&sampler, &Sampler::samplingFailed);
    sampler.sampleNow();
    QCOMPARE(failed.size(), 0);
    QCOMPARE(appeared.size(), 1);
    QCOMPARE(sampler.lastSource(), CounterSource::BlockStat);
}

void TestSampler::sourcesAgree()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10, 80, 5, 2));
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), counters20(10, 10, 80, 5));
    QList<SampleBatch> results;
    for (CounterSource source : { CounterSource::Diskstats, CounterSource::BlockStat }) {
        Sampler sampler(tree.root());
        sampler.setSource(source);
        QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
        sampler.sampleNow();
        sampler.sampleNow();
        results.append(batches.first().first().value<SampleBatch>());
    }
    QCOMPARE(results[0].devices.size(), 2);
    QCOMPARE(results[1].devices.size(), 2);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(results[0].devices[i].counters.fields, results[1].devices[i].counters.fields);
        QCOMPARE(results[0].devices[i].counters.devnum, results[1].devices[i].counters.devnum);
    }
}

void TestSampler::mixedFieldCounts()
{
    // One file may mix shapes (a captured diskstats from different kernels is not, but nothing forbids it).
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("1 0 8 1 2 0 16 2 0 3 3"));
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), QStringLiteral("1 0 8 1 2 0 16 2 0 3 3 4 0 64 4"));
    tree.set(QStringLiteral("sdc"), QStringLiteral("8:32"), QStringLiteral("1 0 8 1 2 0 16 2 0 3 3 4 0 64 4 5 5"));
    Sampler sampler(tree.root());
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.sampleNow();
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), QStringLiteral("2 0 16 2 4 0 32 4 0 6 6"));
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), QStringLiteral("2 0 16 2 4 0 32 4 0 6 6 8 0 128 8"));
    tree.set(QStringLiteral("sdc"), QStringLiteral("8:32"), QStringLiteral("2 0 16 2 4 0 32 4 0 6 6 8 0 128 8 10 10"));
    sampler.sampleNow();
    const auto batch = batches.first().first().value<SampleBatch>();
    QCOMPARE(batch.devices.size(), 3);
    QCOMPARE(batch.devices[0].counters.fieldCount, 11);
    QCOMPARE(batch.devices[1].counters.fieldCount, 15);
    QCOMPARE(batch.devices[2].counters.fieldCount, 17);
    QCOMPARE(batch.devices[0].deltas[DiskField::DiscardIos], quint64(0));
    QCOMPARE(batch.devices[1].deltas[DiskField::DiscardIos], quint64(4));
    QCOMPARE(batch.devices[1].deltas[DiskField::FlushIos], quint64(0));
    QCOMPARE(batch.devices[2].deltas[DiskField::FlushIos], quint64(5));
}

void TestSampler::inflightSplit()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10));
    tree.set(QStringLiteral("sdb"), QStringLiteral("8:16"), counters20(10, 10));
    tree.setInflight(QStringLiteral("sda"), 3, 29);
    tree.setInflight(QStringLiteral("sdb"), 4, 4); // stale: diskstats says nothing is in flight
    Sampler sampler(tree.root());
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    sampler.sampleNow();
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10, 0, 0, 32));
    sampler.sampleNow();
    const auto batch = batches.first().first().value<SampleBatch>();
    QCOMPARE(batch.devices[0].metrics(batch.elapsedSeconds)[Metric::InflightReads], 3.0);
    QCOMPARE(batch.devices[0].metrics(batch.elapsedSeconds)[Metric::InflightWrites], 29.0);
    // Field 9 is 0: the split is {0, 0} without reading the file (its sum is field 9).
    QCOMPARE(batch.devices[1].metrics(batch.elapsedSeconds)[Metric::InflightReads], 0.0);
    QCOMPARE(batch.devices[1].metrics(batch.elapsedSeconds)[Metric::InflightWrites], 0.0);

    // The file is kept open and read again from offset 0: a new split is seen, as is a tar-padded one.
    tree.setInflight(QStringLiteral("sda"), 7, 1);
    sampler.sampleNow();
    QCOMPARE(batches.last().first().value<SampleBatch>().devices[0].inflight, (std::array<quint32, 2> { 7, 1 }));
    tree.setInflightText(QStringLiteral("sda"), QStringLiteral("       2       6\n") + QString(40, QChar(0)));
    sampler.sampleNow();
    QCOMPARE(batches.last().first().value<SampleBatch>().devices[0].inflight, (std::array<quint32, 2> { 2, 6 }));

    // Not read: a busy device's split is unknown (NaN), never a made-up 0; an idle one's is still {0, 0}.
    sampler.setReadInflight(false);
    sampler.sampleNow();
    const auto unread = batches.last().first().value<SampleBatch>();
    QCOMPARE(unread.devices[0].inflight, (std::array<quint32, 2> { InflightUnknown, InflightUnknown }));
    QVERIFY(std::isnan(unread.devices[0].metrics(unread.elapsedSeconds)[Metric::InflightReads]));
    QVERIFY(std::isnan(unread.devices[0].metrics(unread.elapsedSeconds)[Metric::InflightWrites]));
    QCOMPARE(unread.devices[1].metrics(unread.elapsedSeconds)[Metric::InflightWrites], 0.0);
}

void TestSampler::malformedDiskstatsFails()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10));
    Sampler sampler(tree.root());
    sampler.setSource(CounterSource::Diskstats);
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    QSignalSpy failed(&sampler, &Sampler::samplingFailed);
    sampler.sampleNow();
    tree.writeRawDiskstats(QStringLiteral("   8       0 sda 1 2 3\n"));
    sampler.sampleNow();
    QCOMPARE(failed.size(), 1);
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("diskstats line 1: sda: 6 fields")),
        qPrintable(failed.first().first().toString()));
    QCOMPARE(batches.size(), 0);
    // The baseline survives the bad read: the next good read is a batch over the whole time since it.
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(20, 10));
    sampler.sampleNow();
    QCOMPARE(batches.size(), 1);
    QCOMPARE(batches.first().first().value<SampleBatch>().devices[0].deltas[DiskField::ReadIos], quint64(10));

    // A file that is malformed from the first read on says so too.
    tree.writeRawDiskstats(QStringLiteral("   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n   8       1 sda1 x\n"));
    Sampler fresh(tree.root());
    fresh.setSource(CounterSource::Diskstats);
    QSignalSpy freshFailed(&fresh, &Sampler::samplingFailed);
    fresh.sampleNow();
    QCOMPARE(freshFailed.size(), 1);
    QCOMPARE(freshFailed.first().first().toString(),
        QStringLiteral("diskstats line 2: sda1: counter 1 'x' is not an unsigned integer"));
}

void TestSampler::intervalRange()
{
    Sampler sampler(SysfsRoot(QStringLiteral("/nonexistent")));
    QCOMPARE(sampler.interval(), 1000);
    QVERIFY(!sampler.setInterval(99));
    QVERIFY(!sampler.setInterval(60001));
    QCOMPARE(sampler.interval(), 1000);
    QVERIFY(sampler.setInterval(100));
    QVERIFY(sampler.setInterval(60000));
    QCOMPARE(sampler.interval(), 60000);
}

void TestSampler::intervalChangesWhileRunning()
{
    CounterTree tree;
    tree.set(QStringLiteral("sda"), QStringLiteral("8:0"), counters20(10, 10));
    Sampler sampler(tree.root());
    QSignalSpy batches(&sampler, &Sampler::samplesAvailable);
    QVERIFY(sampler.setInterval(100));
    sampler.start();
    QVERIFY(sampler.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(batches.size() >= 2, 5000);
    // A loaded machine may deliver a tick late (never early): bounds that survive a busy CI runner.
    for (const auto &args : std::as_const(batches)) {
        const double e = args.first().value<SampleBatch>().elapsedSeconds;
        QVERIFY2(e > 0.08 && e < 0.5, qPrintable(QString::number(e)));
    }
    QVERIFY(sampler.setInterval(300));
    batches.clear();
    QTRY_VERIFY_WITH_TIMEOUT(batches.size() >= 2, 5000);
    // The first tick after the change may cover the rest of the old period plus a new one; the next is 0.3 s.
    const double last = batches.last().first().value<SampleBatch>().elapsedSeconds;
    QVERIFY2(last > 0.25 && last < 1.0, qPrintable(QString::number(last)));
    sampler.stop();
    QVERIFY(!sampler.isRunning());
}

void TestSampler::openAttributeFilesRereadAndCap()
{
    QTemporaryDir dir;
    auto write = [&](const QString &name, const QByteArray &text) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    };
    const QByteArray a = QFile::encodeName(dir.filePath(QStringLiteral("a")));
    const QByteArray b = QFile::encodeName(dir.filePath(QStringLiteral("b")));
    const QByteArray c = QFile::encodeName(dir.filePath(QStringLiteral("c")));
    write(QStringLiteral("a"), "1 2\n");
    write(QStringLiteral("b"), "3 4\n");
    write(QStringLiteral("c"), QByteArray(10000, 'x')); // longer than the first buffer
    OpenAttributeFiles files(2);
    QByteArray buffer;
    QVERIFY(files.read(a, &buffer));
    QCOMPARE(buffer, QByteArray("1 2\n"));
    write(QStringLiteral("a"), "10 20\n"); // rewritten in place, as sysfs regenerates it: read anew
    QVERIFY(files.read(a, &buffer));
    QCOMPARE(buffer, QByteArray("10 20\n"));
    QVERIFY(files.read(b, &buffer));
    QCOMPARE(files.openCount(), 2);
    QVERIFY(files.read(c, &buffer)); // the cache is full: read, not kept
    QCOMPARE(buffer.size(), 10000); // longer than the first buffer
    QCOMPARE(files.openCount(), 2);
    // Files not read for two ticks are closed.
    files.nextTick();
    QVERIFY(files.read(a, &buffer));
    files.nextTick();
    files.nextTick();
    QCOMPARE(files.openCount(), 1);
    QVERIFY(files.read(c, &buffer));
    QCOMPARE(files.openCount(), 2);
    QVERIFY(!files.read(QFile::encodeName(dir.filePath(QStringLiteral("none"))), &buffer));
    files.closeAll();
    QCOMPARE(files.openCount(), 0);
}

QTEST_GUILESS_MAIN(TestSampler)
#include "tst_sampler.moc"
