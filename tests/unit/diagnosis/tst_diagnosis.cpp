// The diagnosis rules (core/diagnosis, docs/diagnosis.md) as pure functions over (configuration, metrics): one
// _data() row per situation, with the numbers `dmtunectl diagnose --json` measured in the lab VM (Debian's 6.1,
// mpatha over 4 scsi_debug paths in 2 groups of 2, 8 fio jobs of 4K sequential writes; tests/vm/diagnosis) where
// the lab can produce the situation, and the seeds' own numbers where it cannot (seed 001's softirq).
#include "core/diagnosis/diagnosis.h"
#include "core/diagnosis/diagnosisreader.h"
#include "core/stats/metriccatalog.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

// "w/s=1234 wkB/s=4936 w_await=3.1": iostat's names (column or JSON key), the rest 0.
IostatMetrics metrics(const QString &spec)
{
    IostatMetrics m;
    for (const QString &pair : spec.split(u' ', Qt::SkipEmptyParts)) {
        Metric metric {};
        const QString name = pair.section(u'=', 0, 0);
        if (!MetricCatalog::fromName(name, &metric))
            qFatal("unknown metric %s", qPrintable(name));
        m[metric] = pair.section(u'=', 1).toDouble();
    }
    return m;
}

// "sdb A 1 192 none | sdc A 1 192 none | sdd A 2 192 none | sde A 2 192 none": name, dm state, group,
// queue_depth, scheduler per path.
QList<DiagnosedPath> paths(const QString &spec)
{
    QList<DiagnosedPath> out;
    for (const QString &one : spec.split(u'|', Qt::SkipEmptyParts)) {
        const QStringList f = one.split(u' ', Qt::SkipEmptyParts);
        DiagnosedPath p;
        p.name = f.value(0);
        p.dmState = f.value(1);
        p.group = f.value(2).toInt();
        p.queueDepth = f.value(3).toLongLong();
        p.scheduler = f.value(4);
        p.maxSectorsKb = 512;
        out << p;
    }
    return out;
}

QStringList codes(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

const QString fourPaths = u"sdb A 1 192 none | sdc A 1 192 none | sdd A 2 192 none | sde A 2 192 none"_s;
const QString fourPathsQd2 = u"sdb A 1 2 none | sdc A 1 2 none | sdd A 2 2 none | sde A 2 2 none"_s;

} // namespace

class TstDiagnosis : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rules_data()
    {
        QTest::addColumn<bool>("requestBased");
        QTest::addColumn<qint64>("nrRequests");
        QTest::addColumn<QString>("pathSpec");
        QTest::addColumn<QString>("mapMetrics"); // empty: configuration only
        QTest::addColumn<QStringList>("pathMetrics"); // per path, in pathSpec's order
        QTest::addColumn<double>("softirqShare"); // the busiest CPU; < 0: not measured
        QTest::addColumn<qint64>("maxSectorsKb");
        QTest::addColumn<bool>("queueIfNoPath");
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QStringList>("expected");

        const QStringList none { QString(), QString(), QString(), QString() };
        const QString idle = u"w/s=0"_s;
        const QStringList idlePaths { idle, idle, idle, idle };
        const QString rr = u"round-robin"_s;
        QTest::newRow("healthy, idle") << true << 256LL << fourPaths << u""_s << none << -1.0 << 512LL << false << rr
                                       << QStringList {};
        QTest::newRow("healthy, idle, measured")
            << true << 256LL << fourPaths << idle << idlePaths << 0.01 << 512LL << false << rr << QStringList {};

        // Lab, queue_depth 192: 8 jobs of 4K sequential writes, group 1 (sda, sdb) in use, nothing merges.
        const QString qd192Map = u"w/s=14722.73 wkB/s=58933.51 wrqm/s=0 w_await=2.36 aqu-sz=34.76"_s;
        const QStringList qd192Paths { u"w/s=7366.19 wkB/s=29464.76 w_await=1.80 aqu-sz=13.24"_s,
            u"w/s=7367.19 wkB/s=29468.75 w_await=1.81 aqu-sz=13.32"_s, idle, idle };
        QTest::newRow("lab qd192: seed 002") << true << 256LL << fourPaths << qd192Map << qd192Paths << 0.05 << 512LL
                                             << false << rr << QStringList { u"map-not-merging"_s };
        QTest::newRow("lab qd192, nr_requests 512 > 2 x 192")
            << true << 512LL << fourPaths << qd192Map << qd192Paths << 0.05 << 512LL << false << rr << QStringList {};
        QTest::newRow("lab qd192, group 2 failed: still 2 paths in use")
            << true << 256LL << u"sdb A 1 192 none | sdc A 1 192 none | sdd F 2 192 none | sde F 2 192 none"_s
            << qd192Map << qd192Paths << 0.05 << 512LL << false << rr << QStringList { u"map-not-merging"_s };
        QTest::newRow("lab qd192 numbers on a bio-based map")
            << false << 256LL << fourPaths << qd192Map << qd192Paths << 0.05 << 512LL << false << rr << QStringList {};

        // Lab, queue_depth 2: the same writes merge on the map (10.3 kB requests), none on the paths.
        const QString qd2Map = u"w/s=3512.08 wkB/s=48645.82 wrqm/s=8638.07 w_await=1.34 aqu-sz=4.70"_s;
        const QStringList qd2Paths { u"w/s=1804.42 wkB/s=24348.85 w_await=0.68 aqu-sz=1.23"_s,
            u"w/s=1804.42 wkB/s=24296.98 w_await=0.68 aqu-sz=1.23"_s, idle, idle };
        QTest::newRow("lab qd2: merges") << true << 256LL << fourPathsQd2 << qd2Map << qd2Paths << 0.05 << 512LL
                                         << false << rr << QStringList { u"merges-on-map-only"_s };

        // Another run of the same: the requests that merge waited above the paths for it (1.79 - 0.76 ms).
        QTest::newRow("lab qd2, second run: merges, and time above the paths")
            << true << 256LL << fourPathsQd2 << u"w/s=1975.58 wkB/s=39717.69 wrqm/s=7917.60 w_await=1.79 aqu-sz=3.53"_s
            << QStringList { u"w/s=1039.66 wkB/s=19499.10 w_await=0.76 aqu-sz=0.79"_s,
                   u"w/s=1039.66 wkB/s=20218.58 w_await=0.76 aqu-sz=0.78"_s, idle, idle }
            << 0.05 << 512LL << false << rr << QStringList { u"time-above-paths"_s, u"merges-on-map-only"_s };

        // Lab, queue_depth 2, 8 jobs of 4K random writes: 110 requests in the map, under 2 on each path.
        const QString randomMap = u"w/s=6791.43 wkB/s=28435.05 wrqm/s=316.33 w_await=16.17 aqu-sz=109.82"_s;
        const QStringList randomPaths { u"w/s=3625.47 wkB/s=14219.52 w_await=0.44 aqu-sz=1.58"_s,
            u"w/s=3625.14 wkB/s=14215.53 w_await=0.44 aqu-sz=1.58"_s, idle, idle };
        QTest::newRow("lab qd2 random writes: time above the paths")
            << true << 256LL << fourPathsQd2 << randomMap << randomPaths << 0.05 << 512LL << false << rr
            << QStringList { u"time-above-paths"_s };

        // Lab, group 1 under service-time with its second path said to be 9 times faster (random writes, qd 192).
        const QString serviceTimeMap = u"w/s=6925.88 wkB/s=27703.51 wrqm/s=0 w_await=2.36 aqu-sz=16.33"_s;
        const QStringList serviceTimePaths { u"w/s=584.17 wkB/s=2336.66 w_await=1.98 aqu-sz=1.16"_s,
            u"w/s=6342.04 wkB/s=25368.17 w_await=1.83 aqu-sz=11.58"_s, idle, idle };
        QTest::newRow("lab service-time 1:9: unequal load")
            << true << 256LL << fourPaths << serviceTimeMap << serviceTimePaths << 0.05 << 512LL << false
            << u"service-time"_s << QStringList { u"map-not-merging"_s, u"unequal-path-load"_s };
        QTest::newRow("lab service-time numbers, ratio under 3")
            << true << 1024LL << fourPaths << serviceTimeMap
            << QStringList { u"w/s=2584.17 wkB/s=10336.66 w_await=1.98"_s, u"w/s=4342.04 wkB/s=17368.17 w_await=1.83"_s,
                   idle, idle }
            << 0.05 << 512LL << false << u"service-time"_s << QStringList {};

        // Seed 001: r/s, rrqm/s, max_sectors_kb (then the default) and ksoftirqd's 96 % are the seed's; the
        // requests at the 512 kB limit give rkB/s.
        const QString seed001 = u"r/s=180 rkB/s=92160 rrqm/s=25000 r_await=40 aqu-sz=7.2"_s;
        const QStringList seed001Paths { u"r/s=180 rkB/s=92160 r_await=38"_s, idle, idle, idle };
        const QString failover = u"sdb A 1 192 none | sdc A 2 192 none | sdd A 3 192 none | sde A 4 192 none"_s;
        QTest::newRow("seed 001: softirq")
            << true << 512LL << failover << seed001 << seed001Paths << 0.96 << 512LL << false << rr
            << QStringList { u"softirq-long-sg-lists"_s, u"merges-on-map-only"_s };
        QTest::newRow("seed 001 after the fix: max_sectors_kb 128")
            << true << 512LL << failover << u"r/s=720 rkB/s=92160 rrqm/s=22320 r_await=10 aqu-sz=7.2"_s
            << QStringList { u"r/s=720 rkB/s=92160 r_await=9"_s, idle, idle, idle } << 0.20 << 128LL << false << rr
            << QStringList { u"merges-on-map-only"_s };
        QTest::newRow("seed 001 numbers, CPUs not measured")
            << true << 512LL << failover << seed001 << seed001Paths << -1.0 << 512LL << false << rr
            << QStringList { u"merges-on-map-only"_s };

        // Configuration only.
        QTest::newRow("lab: mq-deadline on a path")
            << true << 256LL << u"sdb A 1 192 mq-deadline | sdc A 1 192 none | sdd A 2 192 none | sde A 2 192 none"_s
            << u""_s << none << -1.0 << 512LL << false << rr << QStringList { u"scheduler-on-paths"_s };
        QTest::newRow("bio-based map, mq-deadline on a path")
            << false << 256LL << u"sdb A 1 192 mq-deadline | sdc A 1 192 none | sdd A 2 192 none | sde A 2 192 none"_s
            << u""_s << none << -1.0 << 512LL << false << rr << QStringList {};
        QTest::newRow("lab: queue_if_no_path, every path failed")
            << true << 256LL << u"sdb F 1 192 none | sdc F 1 192 none | sdd F 2 192 none | sde F 2 192 none"_s << u""_s
            << none << -1.0 << 512LL << true << rr << QStringList { u"queueing-without-paths"_s };
        QTest::newRow("queue_if_no_path, one path left")
            << true << 256LL << u"sdb F 1 192 none | sdc F 1 192 none | sdd A 2 192 none | sde F 2 192 none"_s << u""_s
            << none << -1.0 << 512LL << true << rr << QStringList {};
        QTest::newRow("every path failed, no queueing")
            << true << 256LL << u"sdb F 1 192 none | sdc F 1 192 none | sdd F 2 192 none | sde F 2 192 none"_s << u""_s
            << none << -1.0 << 512LL << false << rr << QStringList {};
    }
    void rules()
    {
        QFETCH(bool, requestBased);
        QFETCH(qint64, nrRequests);
        QFETCH(QString, pathSpec);
        QFETCH(QString, mapMetrics);
        QFETCH(QStringList, pathMetrics);
        QFETCH(double, softirqShare);
        QFETCH(qint64, maxSectorsKb);
        QFETCH(bool, queueIfNoPath);
        QFETCH(QString, selector);
        QFETCH(QStringList, expected);

        DiagnosisInput input;
        DiagnosedMap map;
        map.name = u"mpatha"_s;
        map.device = u"dm-0"_s;
        map.requestBased = requestBased;
        map.nrRequests = nrRequests;
        map.maxSectorsKb = maxSectorsKb;
        map.scheduler = u"mq-deadline"_s;
        map.groupInUse = 1;
        map.selector = selector;
        map.queueIfNoPath = queueIfNoPath;
        map.paths = paths(pathSpec);
        QHash<QString, IostatMetrics> measured;
        if (!mapMetrics.isEmpty()) {
            measured.insert(map.device, metrics(mapMetrics));
            for (qsizetype i = 0; i < map.paths.size(); ++i)
                measured.insert(map.paths.at(i).name, metrics(pathMetrics.value(i)));
        }
        input.maps << map;
        attachMetrics(&input, measured, mapMetrics.isEmpty() ? 0.0 : 3.0);
        if (softirqShare >= 0)
            input.cpus = QList<CpuSoftirqLoad> { { 0, 0.02, 10 }, { 3, softirqShare, 5000 } };

        const QList<Finding> findings = diagnose(input);
        QCOMPARE(codes(findings), expected);
        for (const Finding &f : findings) {
            // Every finding names its device, says what it saw with numbers, and where the knowledge comes from.
            QCOMPARE(f.device, u"mpatha"_s);
            QVERIFY(f.message.contains(u"mpatha"_s));
            QVERIFY(!f.source.isEmpty());
            const QJsonObject json = findingToJson(f);
            QCOMPARE(json.value("code"_L1).toString(), f.code);
            QCOMPARE(json.value("numbers"_L1).toObject().size(), f.numbers.size());
        }
    }
    void ignoredKnobSettings_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<int>>("lines");
        QTest::newRow("udev rule") << u"# from a 2015 tuning guide\nACTION==\"add|change\", KERNEL==\"dm-*\", "
                                      u"ATTR{dm/rq_based_seq_io_merge_deadline}=\"20\"\n"_s
                                   << QList<int> { 2 };
        QTest::newRow("commented out") << u"# ATTR{dm/rq_based_seq_io_merge_deadline}=\"20\"\n"_s << QList<int> {};
        QTest::newRow("tuned profile")
            << u"[main]\nsummary=old\n\n[sysfs]\n/sys/block/dm-*/dm/rq_based_seq_io_merge_deadline=20\n"
               u"; /sys/block/dm-*/dm/rq_based_seq_io_merge_deadline=40\n"_s
            << QList<int> { 5 };
        QTest::newRow("Debian's 60-multipath.rules")
            << u"SUBSYSTEM!=\"block\", GOTO=\"end_mpath\"\n"_s << QList<int> {};
    }
    void ignoredKnobSettings()
    {
        QFETCH(QString, text);
        QFETCH(QList<int>, lines);
        const QList<IgnoredKnobSetting> found = dmtune::ignoredKnobSettings(u"/etc/x"_s, text);
        QList<int> got;
        for (const IgnoredKnobSetting &s : found) {
            got << s.line;
            QCOMPARE(s.knob, u"rq_based_seq_io_merge_deadline"_s);
            QCOMPARE(s.file, u"/etc/x"_s);
        }
        QCOMPARE(got, lines);
    }

    // A setting found in the configuration is a finding of its own, with the experiment on the first map.
    void ignoredKnob()
    {
        DiagnosisInput input;
        DiagnosedMap map;
        map.name = u"mpatha"_s;
        map.device = u"dm-0"_s;
        map.groupInUse = 1;
        map.paths = paths(fourPaths);
        input.maps << map;
        QVERIFY(diagnose(input).isEmpty());
        input.ignoredKnobs << IgnoredKnobSetting { u"rq_based_seq_io_merge_deadline"_s,
            u"/etc/udev/rules.d/99-x.rules"_s, 2, u"ATTR{dm/rq_based_seq_io_merge_deadline}=\"20\""_s };
        const QList<Finding> findings = diagnose(input);
        QCOMPARE(codes(findings), QStringList { u"ignored-knob"_s });
        QVERIFY(findings.first().message.startsWith(
            u"/etc/udev/rules.d/99-x.rules:2 sets rq_based_seq_io_merge_deadline"_s));
        QVERIFY(findings.first().experiment);
        QCOMPARE(findings.first().experiment->device, u"mpatha"_s);
        QCOMPARE(findings.first().experiment->values, (QStringList { u"2"_s, u"8"_s, u"32"_s, u"192 (now)"_s }));
        // The ready sweep: "(now)" is the text's, not a value; a value listed twice goes once.
        ProposedSweep sweep = *findings.first().experiment;
        QCOMPARE(sweepCommand(sweep),
            u"dmtunectl sweep mpatha --param device/queue_depth=2,8,32,192 --with-paths %1"_s.arg(sweep.workload));
        sweep.values = { u"2"_s, u"8"_s, u"8 (now)"_s };
        sweep.device = u"my map"_s;
        QVERIFY2(sweepCommand(sweep).startsWith(u"dmtunectl sweep 'my map' --param device/queue_depth=2,8 "_s),
            qPrintable(sweepCommand(sweep)));
    }

    // The formula, by hand: 16.17 - (3625.47 x 0.44 + 3625.14 x 0.44) / 7250.61 = 15.73 ms.
    void timeAbovePathsFormula()
    {
        DiagnosedMap map;
        map.paths = paths(fourPathsQd2);
        QVERIFY(std::isnan(timeAbovePathsMs(map)));
        map.metrics = metrics(u"w/s=6791.43 w_await=16.17"_s);
        QVERIFY(std::isnan(timeAbovePathsMs(map))); // paths unmeasured
        map.paths[0].metrics = metrics(u"w/s=3625.47 w_await=0.44"_s);
        map.paths[1].metrics = metrics(u"w/s=3625.14 w_await=0.44"_s);
        map.paths[2].metrics = metrics(u"w/s=0"_s);
        map.paths[3].metrics = metrics(u"w/s=0"_s);
        QCOMPARE(qRound(timeAbovePathsMs(map) * 100), 1573);
        // Reads and writes weigh by their counts: (2 x 100 + 10 x 300) / 400 = 8 ms on the map.
        map.metrics = metrics(u"r/s=100 r_await=2 w/s=300 w_await=10"_s);
        QCOMPARE(awaitOf(*map.metrics), 8.0);
    }

    void nvmeHead()
    {
        DiagnosisInput input;
        input.nvmeHeads << HeadWithoutStatistics { u"nvme0n1"_s, u"nvme0n1 counts no I/O"_s };
        const QList<Finding> findings = diagnose(input);
        QCOMPARE(codes(findings), QStringList { u"nvme-head-without-statistics"_s });
        QCOMPARE(findings.first().severity, FindingSeverity::Info);
        QVERIFY(!findings.first().experiment);
    }
};

QTEST_GUILESS_MAIN(TstDiagnosis)
#include "tst_diagnosis.moc"
