// The pure half of a sweep: --param parsing (names as `set` takes them), the points in run order, the request's
// checks and JSON form, and the mean and spread over repeats, on numbers measured with dmtunectl sweep (a direct-I/O
// loop device, batched-write-4k for 3 s, nomerges 0 and 2, 2 repeats) and in the lab VM.
#include "core/experiments/sweep.h"
#include "core/experiments/sweepseries.h"

#include <QJsonArray>
#include <QtTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

namespace {

SweepRequest twoByTwo()
{
    SweepRequest r;
    r.device = u"mpatha"_s;
    r.withPaths = true;
    r.parameters
        = { { u"device/queue_depth"_s, { u"2"_s, u"32"_s } }, { u"queue/nr_requests"_s, { u"64"_s, u"256"_s } } };
    r.workloads = { *fioTemplate(u"batched-write-4k"_s), *fioTemplate(u"seq-write-4k-64jobs"_s) };
    return r;
}

SweepMeasurement measured(int point, int repeat, double iops, const QJsonObject &device)
{
    SweepMeasurement m;
    m.point = point;
    m.repeat = repeat;
    m.fio = { { u"name"_s, u"batched-write-4k"_s }, { u"write_iops"_s, iops } };
    m.devices = { { u"loop0"_s, device } };
    return m;
}

} // namespace

class TstSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesParameters_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<QString>("error");
        QTest::newRow("seed 002") << u"queue_depth=2,8,32"_s << u"device/queue_depth"_s
                                  << QStringList { u"2"_s, u"8"_s, u"32"_s } << QString();
        QTest::newRow("full key, spaces")
            << u"queue/nomerges=0, 2"_s << u"queue/nomerges"_s << QStringList { u"0"_s, u"2"_s } << QString();
        QTest::newRow("one value") << u"scheduler=none"_s << u"queue/scheduler"_s << QStringList { u"none"_s }
                                   << QString();
        QTest::newRow("no =") << u"nomerges"_s << QString() << QStringList() << u"is not ATTRIBUTE=V1,V2"_s;
        QTest::newRow("unknown") << u"bogus=1,2"_s << QString() << QStringList() << u"unknown attribute 'bogus'"_s;
        QTest::newRow("read-only") << u"hw_sector_size=512,4096"_s << QString() << QStringList() << u"read-only"_s;
        QTest::newRow("empty value") << u"nomerges=0,,2"_s << QString() << QStringList() << u"an empty value"_s;
        QTest::newRow("twice") << u"nomerges=0,2,0"_s << QString() << QStringList() << u"the value 0 is given twice"_s;
        // A map's path selector: not a sysfs attribute, swept by reloading the map's table.
        QTest::newRow("selector") << u"selector=round-robin,service-time"_s << u"selector"_s
                                  << QStringList { u"round-robin"_s, u"service-time"_s } << QString();
        QTest::newRow("path_selector, as multipath.conf says it")
            << u"path_selector=queue-length"_s << u"selector"_s << QStringList { u"queue-length"_s } << QString();
        QTest::newRow("selector unknown") << u"selector=round-robin,fastest"_s << QString() << QStringList()
                                          << u"selector: unknown path selector 'fastest' (round-robin"_s;
        QTest::newRow("selector with its per-path arguments")
            << u"selector=service-time:1:4,queue-length:1,round-robin"_s << u"selector"_s
            << QStringList { u"service-time:1:4"_s, u"queue-length:1"_s, u"round-robin"_s } << QString();
        QTest::newRow("selector with too many arguments")
            << u"selector=round-robin:1:2"_s << QString() << QStringList()
            << u"selector: 'round-robin:1:2': round-robin takes at most 1 per-path number(s) as round-robin:ARG"_s;
        QTest::newRow("selector with an empty argument") << u"selector=service-time::4"_s << QString() << QStringList()
                                                         << u"service-time takes at most 2 per-path number(s)"_s;
        // The words go into a table line: nothing but numbers, whatever the kernel would make of the rest.
        QTest::newRow("selector argument that is no number")
            << u"selector=service-time:1:4 0 1 8:16"_s << QString() << QStringList()
            << u"service-time takes at most 2 per-path number(s)"_s;
        QTest::newRow("selector argument with a newline")
            << u"selector=queue-length:1\n2"_s << QString() << QStringList() << u"per-path number(s)"_s;
        QTest::newRow("selector twice") << u"selector=queue-length,queue-length"_s << QString() << QStringList()
                                        << u"the value queue-length is given twice"_s;
    }
    void parsesParameters()
    {
        QFETCH(QString, text);
        QFETCH(QString, attribute);
        QFETCH(QStringList, values);
        QFETCH(QString, error);
        const auto parsed = parseSweepParameter(text);
        if (!error.isEmpty()) {
            QVERIFY(!parsed);
            QVERIFY2(parsed.errorMessage().contains(error), qPrintable(parsed.errorMessage()));
            return;
        }
        QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
        QCOMPARE(parsed->attribute, attribute);
        QCOMPARE(parsed->values, values);
    }

    // The first parameter varies slowest, the workload fastest.
    void pointsInRunOrder()
    {
        const SweepRequest r = twoByTwo();
        const QList<SweepPoint> points = sweepPoints(r);
        QCOMPARE(points.size(), 8);
        QStringList labels;
        for (const SweepPoint &p : points) {
            QCOMPARE(p.index, labels.size());
            labels << sweepPointLabel(r, p);
        }
        QCOMPARE(labels.first(), u"queue_depth=2 nr_requests=64 batched-write-4k"_s);
        QCOMPARE(labels.at(1), u"queue_depth=2 nr_requests=64 seq-write-4k-64jobs"_s);
        QCOMPARE(labels.at(2), u"queue_depth=2 nr_requests=256 batched-write-4k"_s);
        QCOMPARE(labels.last(), u"queue_depth=32 nr_requests=256 seq-write-4k-64jobs"_s);
        QCOMPARE(sweepRecordingName(points.at(2), 3), u"point-03-repeat-3.dmrec"_s);
    }

    void checksTheRequest_data()
    {
        QTest::addColumn<int>("change");
        QTest::addColumn<QString>("error");
        QTest::newRow("valid") << 0 << QString();
        QTest::newRow("three parameters") << 1 << u"one or two parameters"_s;
        QTest::newRow("same attribute twice") << 2 << u"swept twice"_s;
        QTest::newRow("no workload") << 3 << u"give a workload"_s;
        QTest::newRow("repeat 0") << 4 << u"--repeat takes 1 to 100"_s;
        QTest::newRow("too many runs") << 5 << u"more than 1000 runs"_s;
        QTest::newRow("settle -1") << 6 << u"0 to 600 seconds"_s;
    }
    void checksTheRequest()
    {
        QFETCH(int, change);
        QFETCH(QString, error);
        SweepRequest r = twoByTwo();
        switch (change) {
        case 1:
            r.parameters.append({ u"queue/nomerges"_s, { u"0"_s } });
            break;
        case 2:
            r.parameters[1].attribute = r.parameters[0].attribute;
            break;
        case 3:
            r.workloads.clear();
            break;
        case 4:
            r.repeats = 0;
            break;
        case 5:
            r.repeats = 100;
            for (int i = 0; i < 10; ++i)
                r.parameters[0].values << QString::number(64 + i);
            break;
        case 6:
            r.settleSeconds = -1;
            break;
        default:
            break;
        }
        const Status valid = validateSweepRequest(r);
        if (error.isEmpty()) {
            QVERIFY2(valid, qPrintable(valid.errorMessage()));
            return;
        }
        QVERIFY(!valid);
        QVERIFY2(valid.errorMessage().contains(error), qPrintable(valid.errorMessage()));
    }

    void requestRoundTrips()
    {
        SweepRequest r = twoByTwo();
        r.repeats = 3;
        r.warmupSeconds = 2;
        r.settleSeconds = 0;
        r.recordDir = u"/tmp/sweep"_s;
        FioJob file;
        file.id = u"custom"_s;
        file.jobFile = u"/tmp/seq002.fio"_s;
        file.title = u"seq002.fio"_s;
        r.workloads.append(file);
        const auto back = sweepRequestFromJson(sweepRequestToJson(r));
        QVERIFY2(back, qPrintable(back.errorMessage()));
        QCOMPARE(
            back->workloads.last().jobFile, u"/tmp/seq002.fio"_s); // a job file stays one, not a template's defaults
        QCOMPARE(sweepPointLabel(back.value(), { 0, { { u"device/queue_depth"_s, u"2"_s } }, 2 }),
            u"queue_depth=2 seq002.fio"_s);
        QCOMPARE(sweepRequestToJson(back.value()), sweepRequestToJson(r));
        QJsonObject broken = sweepRequestToJson(r);
        broken.insert(u"repeats"_s, 0);
        QVERIFY(!sweepRequestFromJson(broken));
    }

    // Means and sample standard deviations, as `dmtunectl sweep` printed them for these runs.
    void meanAndSpread_data()
    {
        QTest::addColumn<QList<double>>("iops");
        QTest::addColumn<QList<double>>("wrqm");
        QTest::addColumn<double>("meanIops");
        QTest::addColumn<double>("spreadIops");
        QTest::addColumn<double>("meanWrqm");
        QTest::addColumn<double>("spreadWrqm");
        // loop0, nomerges=0: "IOPS 172913 ±3431", %wrqm 87.5 both times
        QTest::newRow("loop nomerges=0") << QList<double> { 170487, 175339 } << QList<double> { 87.5, 87.5 } << 172913.0
                                         << 3430.88 << 87.5 << 0.0;
        // loop0, nomerges=2: "IOPS 114804 ±8347", no merges
        QTest::newRow("loop nomerges=2") << QList<double> { 120706, 108902 } << QList<double> { 0, 0 } << 114804.0
                                         << 8346.69 << 0.0 << 0.0;
        QTest::newRow("one repeat: no spread")
            << QList<double> { 14723 } << QList<double> { 0.4 } << 14723.0 << 0.0 << 0.4 << 0.0;
        QTest::newRow("three repeats") << QList<double> { 1000, 1100, 1200 } << QList<double> { 70, 75, 80 } << 1100.0
                                       << 100.0 << 75.0 << 5.0;
    }
    void meanAndSpread()
    {
        QFETCH(QList<double>, iops);
        QFETCH(QList<double>, wrqm);
        QFETCH(double, meanIops);
        QFETCH(double, spreadIops);
        QFETCH(double, meanWrqm);
        QFETCH(double, spreadWrqm);
        SweepRequest r;
        r.device = u"loop0"_s;
        r.parameters = { { u"queue/nomerges"_s, { u"0"_s, u"2"_s } } };
        r.workloads = { *fioTemplate(u"batched-write-4k"_s) };
        r.repeats = int(iops.size());
        const QList<SweepPoint> points = sweepPoints(r);
        QList<SweepMeasurement> runs;
        for (int i = 0; i < iops.size(); ++i)
            runs << measured(1, i + 1, iops.at(i), { { u"w/s"_s, iops.at(i) }, { u"wrqm"_s, wrqm.at(i) } });
        const QList<SweepPointResult> results = summarizeSweep(points, runs);
        QCOMPARE(results.size(), 1); // point 1 only: point 0 has no measurement (a stopped sweep)
        const SweepPointResult &p = results.first();
        QCOMPARE(p.point.index, 1);
        QCOMPARE(p.repeats, int(iops.size()));
        QCOMPARE(p.fio.value(u"write_iops"_s).toDouble(), meanIops);
        QCOMPARE(p.fioSpread.value(u"write_iops"_s).toDouble(), spreadIops);
        QCOMPARE(p.fio.value(u"name"_s).toString(), u"batched-write-4k"_s);
        const QJsonObject loop = p.devices.value(u"loop0"_s).toObject();
        QCOMPARE(loop.value(u"wrqm"_s).toDouble(), meanWrqm);
        QCOMPARE(p.devicesSpread.value(u"loop0"_s).toObject().value(u"wrqm"_s).toDouble(), spreadWrqm);

        SweepOutcome outcome;
        outcome.results = results;
        outcome.restored = { u"loop0 queue/nomerges 2 -> 0"_s };
        const QJsonObject json = sweepResultsToJson(r, outcome);
        const QJsonObject point = json.value(u"points"_s).toArray().first().toObject();
        QCOMPARE(point.value(u"params"_s).toObject().value(u"queue/nomerges"_s).toString(), u"2"_s);
        QCOMPARE(
            point.value(u"devices"_s).toObject().value(u"loop0"_s).toObject().value(u"w/s"_s).toDouble(), meanIops);
        QCOMPARE(json.value(u"restored"_s).toArray().first().toString(), u"loop0 queue/nomerges 2 -> 0"_s);

        const QStringList csv = sweepResultsCsv(r, results).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(csv.first(), u"point,queue/nomerges,workload,source,metric,mean,spread,repeats"_s);
        QVERIFY2(csv.contains(
                     u"2,2,batched-write-4k,fio,write_iops,%1,%2,%3"_s.arg(meanIops).arg(spreadIops).arg(iops.size())),
            qPrintable(csv.join(u'\n')));
        QVERIFY(
            csv.contains(u"2,2,batched-write-4k,loop0,wrqm,%1,%2,%3"_s.arg(meanWrqm).arg(spreadWrqm).arg(iops.size())));
    }

    // sweep.json holds the runs; the results are computed again from them, a run outside the sweep is refused.
    void manifestRoundTrips()
    {
        SweepRequest r;
        r.device = u"loop0"_s;
        r.parameters = { { u"queue/nomerges"_s, { u"0"_s, u"2"_s } } };
        r.workloads = { *fioTemplate(u"batched-write-4k"_s) };
        r.repeats = 2;
        const QList<SweepMeasurement> runs { measured(0, 1, 170487, { { u"wrqm"_s, 87.5 } }),
            measured(0, 2, 175339, { { u"wrqm"_s, 87.5 } }), measured(1, 1, 120706, { { u"wrqm"_s, 0.0 } }) };
        SweepOutcome outcome;
        outcome.results = summarizeSweep(sweepPoints(r), runs);
        outcome.stopped = true;
        outcome.restored = { u"loop0 queue/nomerges 2 -> 0"_s };
        const QJsonObject written = sweepManifest(r, runs, outcome);
        const auto read = readSweepManifest(written);
        QVERIFY2(read, qPrintable(read.errorMessage()));
        QCOMPARE(read->runs.size(), 3);
        QCOMPARE(sweepResultsToJson(read->request, read->outcome), sweepResultsToJson(r, outcome));
        QVERIFY(read->outcome.stopped);

        QJsonObject outside = written;
        QJsonArray list = outside.value(u"runs"_s).toArray();
        QJsonObject run = list.first().toObject();
        run.insert(u"point"_s, 3);
        list.append(run);
        outside.insert(u"runs"_s, list);
        QVERIFY(readSweepManifest(outside).errorMessage().contains(u"point 3"_s));
        QVERIFY(!readSweepManifest(sweepResultsToJson(r, outcome))); // no format: not a sweep.json
    }

    // A job file's path with a comma is quoted (RFC 4180).
    void csvQuotes()
    {
        SweepRequest r;
        r.device = u"loop0"_s;
        r.parameters = { { u"queue/nomerges"_s, { u"0"_s } } };
        FioJob job;
        job.id = u"custom"_s;
        job.jobFile = u"/tmp/a,\"b\".fio"_s;
        r.workloads = { job };
        const QList<SweepPointResult> results
            = summarizeSweep(sweepPoints(r), { measured(0, 1, 10, { { u"w/s"_s, 10.0 } }) });
        const QString csv = sweepResultsCsv(r, results);
        QVERIFY2(csv.contains(u"1,0,\"/tmp/a,\"\"b\"\".fio\",fio,write_iops,10,0,1"_s), qPrintable(csv));
    }

    // The chart's series: one per workload and value of the second parameter, x the index of the first
    // parameter's value, the mean and spread scaled to the metric's unit; the devices the sweep's own first.
    void chartSeries()
    {
        SweepRequest r = twoByTwo(); // queue_depth 2,32 x nr_requests 64,256 x 2 workloads = 8 points
        r.device = u"loop0"_s; // as measured() names it
        const QList<SweepPoint> points = sweepPoints(r);
        QList<SweepMeasurement> runs;
        for (const SweepPoint &p : points) {
            for (int repeat = 1; repeat <= 2; ++repeat) {
                SweepMeasurement m = measured(p.index, repeat, 1000.0 * (p.index + 1) + repeat,
                    { { u"w/s"_s, 100.0 }, { u"wrqm"_s, 10.0 * p.index + repeat } });
                m.fio.insert(u"write_bytes_per_second"_s, 1048576.0 * (p.index + 1));
                m.devices.insert(u"sdb"_s, QJsonObject { { u"w/s"_s, 50.0 }, { u"wrqm"_s, 0.0 } });
                runs << m;
            }
        }
        const QList<SweepPointResult> results = summarizeSweep(points, runs);
        QCOMPARE(sweepDevices(u"loop0"_s, results), QStringList({ u"loop0"_s, u"sdb"_s }));

        const SweepChartData wrqm = sweepChartData(r, results, *sweepMetric(u"wrqm"_s), u"loop0"_s);
        QCOMPARE(wrqm.xTitle, u"queue_depth"_s);
        QCOMPARE(wrqm.xLabels, QStringList({ u"2"_s, u"32"_s }));
        QCOMPARE(wrqm.yTitle, u"%wrqm (%) of loop0"_s);
        QCOMPARE(wrqm.series.size(), 4);
        QCOMPARE(wrqm.series.at(0).name, u"batched-write-4k nr_requests=64"_s);
        QCOMPARE(wrqm.series.at(1).name, u"seq-write-4k-64jobs nr_requests=64"_s);
        QCOMPARE(wrqm.series.at(2).name, u"batched-write-4k nr_requests=256"_s);
        // batched-write-4k at nr_requests=64: points 0 (queue_depth 2) and 4 (queue_depth 32).
        QCOMPARE(wrqm.series.at(0).x, QList<int>({ 0, 1 }));
        QCOMPARE(wrqm.series.at(0).mean, QList<double>({ 1.5, 41.5 }));
        QVERIFY(qAbs(wrqm.series.at(0).spread.at(0) - 0.71) < 0.01);

        const SweepChartData bandwidth
            = sweepChartData(r, results, *sweepMetric(u"write_bytes_per_second"_s), u"loop0"_s);
        QCOMPARE(bandwidth.yTitle, u"fio write bandwidth (MiB/s)"_s);
        QCOMPARE(bandwidth.series.at(1).mean, QList<double>({ 2.0, 6.0 })); // points 1 and 5, in MiB/s

        QVERIFY(sweepMetricIsZero(results, *sweepMetric(u"wrqm"_s), u"sdb"_s));
        QVERIFY(sweepMetricIsZero(results, *sweepMetric(u"rrqm"_s), u"loop0"_s));
        QVERIFY(!sweepMetricIsZero(results, *sweepMetric(u"wrqm"_s), u"loop0"_s));
        QVERIFY(!sweepValue(results.first(), *sweepMetric(u"wrqm"_s), u"sdz"_s).present);
        QVERIFY(sweepChartData(r, results, *sweepMetric(u"wrqm"_s), u"sdz"_s).series.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstSweep)
#include "tst_sweep.moc"
