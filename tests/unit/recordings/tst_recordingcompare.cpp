// Comparison of recordings: statistics on known series, alignment at the workload start, device slots across
// recordings of different devices, and the configuration diff.
#include "core/recordings/comparison.h"
#include "core/recordings/configdiff.h"
#include "core/recordings/recordingreader.h"
#include "syntheticbatches.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace dmtune;
using namespace dmtune::test;
using namespace Qt::StringLiterals;

class TestRecordingCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stats_data();
    void stats();
    void deltas();
    void slots_data();
    void slots();
    void comparesTheWorkloadWindow();
    void diffsConfigurations();
    void distinctNames_data();
    void distinctNames();

private:
    Recording record(const QString &title, const QString &device, quint64 mergesPerInterval, const QJsonObject &config);
    QTemporaryDir m_dir;
};

void TestRecordingCompare::stats_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("p50");
    QTest::addColumn<double>("p95");
    QTest::addColumn<double>("max");
    QList<double> hundred;
    for (int i = 100; i >= 1; --i)
        hundred.append(i);
    QTest::newRow("1..100 reversed") << hundred << 50.5 << 50.0 << 95.0 << 100.0;
    QTest::newRow("one") << QList<double> { 7 } << 7.0 << 7.0 << 7.0 << 7.0;
    QTest::newRow("outlier") << QList<double> { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 100 } << 5.95
                             << 1.0 << 1.0 << 100.0;
    QTest::newRow("four") << QList<double> { 4, 1, 3, 2 } << 2.5 << 2.0 << 4.0 << 4.0;
}

void TestRecordingCompare::stats()
{
    QFETCH(QList<double>, values);
    QFETCH(double, mean);
    QFETCH(double, p50);
    QFETCH(double, p95);
    QFETCH(double, max);
    const MetricStats s = metricStats(values);
    QCOMPARE(s.count, values.size());
    QCOMPARE(s.mean, mean);
    QCOMPARE(s.p50, p50);
    QCOMPARE(s.p95, p95);
    QCOMPARE(s.max, max);
    QCOMPARE(metricStats({}).count, 0);
    // An in-flight split that was not read (NaN) is not a sample.
    const MetricStats unread = metricStats({ 2, std::nan(""), 4 });
    QCOMPARE(unread.count, 2);
    QCOMPARE(unread.mean, 3.0);
    QCOMPARE(unread.max, 4.0);
}

void TestRecordingCompare::deltas()
{
    QCOMPARE(deltaPercent(150, 100), 50.0);
    QCOMPARE(deltaPercent(0, 200), -100.0);
    QCOMPARE(deltaPercent(0, 0), 0.0);
    QVERIFY(std::isnan(deltaPercent(5, 0)));
}

void TestRecordingCompare::slots_data()
{
    QTest::addColumn<QList<QStringList>>("lists");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("same") << QList<QStringList> { { QStringLiteral("dm-0"), QStringLiteral("sda") },
        { QStringLiteral("sda"), QStringLiteral("dm-0") } }
                          << QStringList { QStringLiteral("dm-0"), QStringLiteral("sda") };
    QTest::newRow("other loop") << QList<QStringList> { { QStringLiteral("loop0") }, { QStringLiteral("loop3") } }
                                << QStringList { QStringLiteral("loop0 / loop3") };
    QTest::newRow("2 paths vs 4") << QList<QStringList> { { QStringLiteral("dm-0"), QStringLiteral("sda"),
                                                              QStringLiteral("sdb") },
        { QStringLiteral("dm-1"), QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"),
            QStringLiteral("sdd") } }
                                  << QStringList { QStringLiteral("sda"), QStringLiteral("sdb"),
                                         QStringLiteral("dm-0 / dm-1"), QStringLiteral("sdc"), QStringLiteral("sdd") };
}

void TestRecordingCompare::slots()
{
    QFETCH(QList<QStringList>, lists);
    QFETCH(QStringList, labels);
    QStringList got;
    for (const DeviceSlot &s : deviceSlots(lists))
        got.append(s.label);
    QCOMPARE(got, labels);
}

Recording TestRecordingCompare::record(
    const QString &title, const QString &device, quint64 mergesPerInterval, const QJsonObject &config)
{
    return writeSyntheticRecording(
        m_dir.filePath(title + QStringLiteral(".dmrec")), title, { device }, mergesPerInterval, config);
}

void TestRecordingCompare::comparesTheWorkloadWindow()
{
    const QList<Recording> recs { record(QStringLiteral("merging"), QStringLiteral("loop0"), 800, {}),
        record(QStringLiteral("nomerges"), QStringLiteral("loop3"), 0, {}) };
    const Comparison c = compareRecordings(recs);
    QCOMPARE(c.recordings, QStringList({ QStringLiteral("merging"), QStringLiteral("nomerges") }));
    QCOMPARE(c.windowSeconds.value(0), 10.0);
    const ComparisonRow *merges = c.find(QStringLiteral("loop0 / loop3"), Metric::WriteMergesPerSec);
    QVERIFY(merges);
    QVERIFY(merges->stats[0] && merges->stats[1]);
    // Only the 10 busy intervals: merges alternate 800 and 1600 per second.
    QCOMPARE(merges->stats[0]->count, 10);
    QCOMPARE(merges->stats[0]->mean, 1200.0);
    QCOMPARE(merges->stats[0]->p50, 800.0);
    QCOMPARE(merges->stats[0]->p95, 1600.0);
    QCOMPARE(merges->stats[0]->max, 1600.0);
    QCOMPARE(merges->stats[1]->mean, 0.0);
    QCOMPARE(deltaPercent(merges->stats[1]->mean, merges->stats[0]->mean), -100.0);
    const ComparisonRow *writes = c.find(QStringLiteral("loop0 / loop3"), Metric::WritesPerSec);
    QVERIFY(writes);
    QCOMPARE(writes->stats[1]->mean, 1000.0);
    // Metrics that are zero in every recording are left out.
    QVERIFY(!c.find(QStringLiteral("loop0 / loop3"), Metric::ReadsPerSec));
}

void TestRecordingCompare::diffsConfigurations()
{
    const auto config = [](const QString &device, const QString &nomerges, const QString &kernel) {
        return QJsonObject { { QStringLiteral("host"), QStringLiteral("lab") }, { QStringLiteral("kernel"), kernel },
            { QStringLiteral("captured"), kernel }, // volatile: never a difference
            { QStringLiteral("devices"),
                QJsonArray { QJsonObject { { QStringLiteral("name"), device },
                    { QStringLiteral("scheduler"), QStringLiteral("mq-deadline") },
                    { QStringLiteral("tunables"),
                        QJsonObject { { QStringLiteral("queue/nomerges"), nomerges },
                            { QStringLiteral("queue/nr_requests"), QStringLiteral("256") } } } } } } };
    };
    const QList<Recording> recs { record(QStringLiteral("a"), QStringLiteral("loop0"), 1,
                                      config(QStringLiteral("loop0"), QStringLiteral("0"), QStringLiteral("6.1"))),
        record(QStringLiteral("b"), QStringLiteral("loop3"), 1,
            config(QStringLiteral("loop3"), QStringLiteral("2"), QStringLiteral("6.1"))),
        record(QStringLiteral("c"), QStringLiteral("loop3"), 1,
            config(QStringLiteral("loop3"), QStringLiteral("2"), QStringLiteral("6.5"))) };
    const ConfigDiff diff = configurationDiff(recs);
    QStringList keys;
    for (const ConfigDiffRow &r : diff.rows)
        keys.append(r.key);
    QCOMPARE(keys, QStringList({ QStringLiteral("kernel"), QStringLiteral("loop0 / loop3 / tunable queue/nomerges") }));
    QCOMPARE(diff.rows[1].values, QStringList({ QStringLiteral("0"), QStringLiteral("2"), QStringLiteral("2") }));
    QCOMPARE(diff.rows[0].values, QStringList({ QStringLiteral("6.1"), QStringLiteral("6.1"), QStringLiteral("6.5") }));
    QVERIFY(diff.comparedKeys >= 5); // host, kernel, scheduler, two tunables

    // A value the capture could not read (an empty driver_version) reads "(unknown)", as a null one does.
    QJsonObject unknown = config(QStringLiteral("loop0"), QStringLiteral("0"), QStringLiteral("6.1"));
    QJsonObject known = unknown;
    unknown.insert(QStringLiteral("device_mapper"), QJsonObject { { QStringLiteral("driver_version"), QString() } });
    known.insert(QStringLiteral("device_mapper"),
        QJsonObject { { QStringLiteral("driver_version"), QStringLiteral("4.47.0") } });
    const ConfigDiff versions
        = configurationDiff({ record(QStringLiteral("dm-unknown"), QStringLiteral("loop0"), 1, unknown),
            record(QStringLiteral("dm-known"), QStringLiteral("loop0"), 1, known) });
    QCOMPARE(versions.rows.size(), 1);
    QCOMPARE(versions.rows[0].key, QStringLiteral("device_mapper / driver_version"));
    QCOMPARE(versions.rows[0].values, QStringList({ QStringLiteral("(unknown)"), QStringLiteral("4.47.0") }));
}

void TestRecordingCompare::distinctNames_data()
{
    // Each recording: "title|start (UTC, ISO)|file"; the names expected side by side.
    QTest::addColumn<QStringList>("recordings");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("different titles: unchanged")
        << QStringList { u"4K reads|2026-12-06T10:00:00|/r/a.dmrec"_s, u"4K writes|2026-12-06T10:00:00|/r/b.dmrec"_s }
        << QStringList { u"4K reads"_s, u"4K writes"_s };
    QTest::newRow("one template twice: the start times")
        << QStringList { u"4K sequential writes|2026-12-06T10:00:05|/r/a.dmrec"_s,
               u"4K sequential writes|2026-12-06T10:02:41|/r/b.dmrec"_s, u"4K reads|2026-12-06T10:04:00|/r/c.dmrec"_s }
        << QStringList { u"4K sequential writes (10:00:05)"_s, u"4K sequential writes (10:02:41)"_s, u"4K reads"_s };
    QTest::newRow("on different days: the dates too")
        << QStringList { u"seq|2026-12-05T10:00:05|/r/a.dmrec"_s, u"seq|2026-12-06T10:00:05|/r/b.dmrec"_s }
        << QStringList { u"seq (2026-12-05 10:00:05)"_s, u"seq (2026-12-06 10:00:05)"_s };
    QTest::newRow("the same second: the file names") << QStringList { u"seq|2026-12-06T10:00:05|/r/a.dmrec"_s,
        u"seq|2026-12-06T10:00:05|/s/b.dmrec"_s } << QStringList { u"seq (a.dmrec)"_s, u"seq (b.dmrec)"_s };
    QTest::newRow("one file opened twice: the places") << QStringList { u"seq|2026-12-06T10:00:05|/r/a.dmrec"_s,
        u"seq|2026-12-06T10:00:05|/r/a.dmrec"_s } << QStringList { u"seq (#1)"_s, u"seq (#2)"_s };
}

void TestRecordingCompare::distinctNames()
{
    QFETCH(QStringList, recordings);
    QFETCH(QStringList, names);
    QList<Recording> list;
    for (const QString &spec : recordings) {
        const QStringList parts = spec.split(u'|');
        Recording r;
        r.meta.title = parts[0];
        r.meta.started = QDateTime::fromString(parts[1] + u'Z', Qt::ISODate); // UTC
        r.path = parts[2];
        list.append(r);
    }
    QCOMPARE(distinctRecordingNames(list), names);
    // The comparison's and the configuration diff's headers are these names.
    QCOMPARE(configurationDiff(list).recordings, names);
}

QTEST_GUILESS_MAIN(TestRecordingCompare)
#include "tst_recordingcompare.moc"
