// Prometheus HTTP API answers into frames and instance lists. Fixtures: range-two-instances, range-lagging,
// targets*, up, label-instance-values, empty, error-bad-data are answers of prometheus 2.42 scraping
// node_exporter 1.5 on this machine; range-dm-names, range-dmmultipath and range-nan/inf/negative are built by
// fixtures/prometheus/construct.py in the same shape (dm names and node_exporter 1.12's dmmultipath collector,
// which this machine cannot show).
#include "core/metrics/prometheusparse.h"
#include "tests/common/testpaths.h"

#include <QFile>
#include <QSet>
#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

using Fields = QList<quint64>; // the 17 DiskFields in order

namespace {

QByteArray fixture(const QString &name)
{
    QFile f(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/prometheus/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

// A constructed device of construct.py: field i (0-based) reads base + i + 1, InFlight reads ioNow.
Fields constructed(quint64 base, quint64 ioNow)
{
    Fields fields;
    for (quint64 i = 0; i < DiskFieldCount; ++i)
        fields.append(i == quint64(DiskField::InFlight) ? ioNow : base + i + 1);
    return fields;
}

} // namespace

class TestPrometheusParse : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void goodFrame_data();
    void goodFrame();
    void dmNamesAndPaths_data();
    void dmNamesAndPaths();
    void laggingSeriesAreLeftOut();
    void mapWithoutKernelNameIsSaid();
    void rejects_data();
    void rejects();
    void targets();
    void instanceLists();
    void durations_data();
    void durations();
    void seriesTableCoversEveryCounter();
    void scrapeBeforeTheNewest();
};

void TestPrometheusParse::goodFrame_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QString>("device");
    QTest::addColumn<Fields>("fields");
    QTest::addColumn<int>("fieldCount");
    QTest::addColumn<quint64>("devnum");
    QTest::addColumn<qint64>("timeMs");
    QTest::addColumn<int>("deviceCount");
    QTest::addColumn<bool>("inflightKnown");

    // Captured: vda of instance 19101, whose raw samples read e.g. read_bytes 37960672256 (/512 = 74141938),
    // read_time_seconds 725.1030000000001 (x1000 = 725103 ms), write_time_seconds 2057.6620000000003.
    const Fields vda { 2014842, 33444, 74141938, 725103, 10624586, 92405, 577398136, 2057662, 0, 373332, 2852407,
        499742, 91, 214858040, 67530, 37138, 2111 };
    QTest::newRow("captured vda") << u"range-two-instances.json"_s << u"127.0.0.1:19101"_s << u"vda"_s << vda << 17
                                  << DiskCounters::makeDevnum(254, 0) << qint64(1796496827487) << 2 << true;
    // The other instance of the same answer: its own scrape time (same host, so the same counters).
    QTest::newRow("other instance") << u"range-two-instances.json"_s << u"127.0.0.1:19102"_s << u"vda"_s << vda << 17
                                    << DiskCounters::makeDevnum(254, 0) << qint64(1796496827286) << 2 << true;
    const Fields loop0 { 11913690, 12232212, 240119500, 792532, 9268458, 30202150, 333390688, 1855616, 0, 357608,
        2649909, 571, 0, 10156124, 717, 1841, 1044 };
    QTest::newRow("captured loop0") << u"range-two-instances.json"_s << u"127.0.0.1:19101"_s << u"loop0"_s << loop0
                                    << 17 << DiskCounters::makeDevnum(7, 0) << qint64(1796496827487) << 2 << true;
    // Two requests in flight: the split is unknown.
    QTest::newRow("dm-0 busy") << u"range-dm-names.json"_s << u"lvmhost:9100"_s << u"dm-0"_s << constructed(2000, 2)
                               << 17 << DiskCounters::makeDevnum(254, 0) << qint64(1796496900000) << 2 << false;
    QTest::newRow("path sdb") << u"range-dmmultipath.json"_s << u"mpathhost:9100"_s << u"sdb"_s << constructed(200, 0)
                              << 17 << DiskCounters::makeDevnum(8, 16) << qint64(1796496900000) << 6 << true;
}

void TestPrometheusParse::goodFrame()
{
    QFETCH(QString, file);
    QFETCH(QString, instance);
    QFETCH(QString, device);
    QFETCH(Fields, fields);
    QFETCH(bool, inflightKnown);
    const Result<PrometheusDiskFrame> parsed = parsePrometheusDiskFrame(fixture(file), instance);
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QVERIFY2(parsed->notes.isEmpty(), qPrintable(parsed->notes.join(u'\n')));
    const CounterFrame &frame = parsed->frame;
    QTEST(frame.timeNs / 1'000'000, "timeMs");
    QCOMPARE(frame.timeNs % 1'000'000, 0);
    QTEST(int(frame.devices.size()), "deviceCount");
    const DiskCounters *d = frame.find(device);
    QVERIFY(d);
    QTEST(d->fieldCount, "fieldCount");
    QTEST(d->devnum, "devnum");
    QCOMPARE(Fields(d->fields.begin(), d->fields.end()), fields);
    QCOMPARE(frame.inflight.contains(device), inflightKnown);
    if (inflightKnown)
        QCOMPARE(frame.inflight.value(device), (std::array<quint32, 2> { 0, 0 }));
}

void TestPrometheusParse::dmNamesAndPaths_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QStringList>("dmNames"); // "dm-N=name", sorted
    QTest::addColumn<QStringList>("paths"); // "dm-N=path,path", sorted
    QTest::addColumn<bool>("hasDmMultipath");

    QTest::newRow("captured, no dm") << u"range-two-instances.json"_s << u"127.0.0.1:19101"_s << QStringList()
                                     << QStringList() << false;
    QTest::newRow("node_disk_device_mapper_info") << u"range-dm-names.json"_s << u"lvmhost:9100"_s
                                                  << QStringList { u"dm-0=vg0-data"_s } << QStringList() << false;
    // sdb's "running" series ended a scrape before its "offline" one: listed once. dm-1 has no disk series of
    // its own here but is still named and has paths.
    QTest::newRow("node_dmmultipath") << u"range-dmmultipath.json"_s << u"mpathhost:9100"_s
                                      << QStringList { u"dm-0=mpatha"_s, u"dm-1=mpathb"_s }
                                      << QStringList { u"dm-0=sda,sdb"_s, u"dm-1=sdc,sdd"_s } << true;
}

void TestPrometheusParse::dmNamesAndPaths()
{
    QFETCH(QString, file);
    QFETCH(QString, instance);
    const Result<PrometheusDiskFrame> parsed = parsePrometheusDiskFrame(fixture(file), instance);
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QStringList names, paths;
    for (auto it = parsed->frame.dmNames.constBegin(); it != parsed->frame.dmNames.constEnd(); ++it)
        names.append(it.key() + u'=' + it.value());
    for (auto it = parsed->frame.pathsOf.constBegin(); it != parsed->frame.pathsOf.constEnd(); ++it)
        paths.append(it.key() + u'=' + it.value().join(u','));
    names.sort();
    paths.sort();
    QTEST(names, "dmNames");
    QTEST(paths, "paths");
    QTEST(parsed->hasDmMultipath, "hasDmMultipath");
}

void TestPrometheusParse::laggingSeriesAreLeftOut()
{
    // Captured: node_exporter restarted with vda excluded; vda's series end two scrapes before loop0's.
    const Result<PrometheusDiskFrame> parsed
        = parsePrometheusDiskFrame(fixture(u"range-lagging.json"_s), u"127.0.0.1:19101"_s);
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->frame.timeNs, qint64(1796496834487) * 1'000'000);
    QVERIFY(parsed->frame.find(u"loop0"_s));
    QVERIFY(!parsed->frame.find(u"vda"_s));
    QCOMPARE(parsed->frame.find(u"loop0"_s)->fields[0], quint64(11913690));
    QCOMPARE(parsed->notes.size(), 1);
    QVERIFY2(
        parsed->notes.constFirst().startsWith(u"vda is left out: some of its series end at 2026-12-05T18:53:50.487Z, "
                                              "before the newest scrape at 2026-12-05T18:53:54.487Z"_s),
        qPrintable(parsed->notes.constFirst()));
}

void TestPrometheusParse::mapWithoutKernelNameIsSaid()
{
    // A path_state series whose map no info series names (not what node_exporter emits, but possible with
    // relabelling that drops series): its paths are not guessed onto a device.
    const QByteArray json = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"node_disk_reads_completed_total","device":"sda","instance":"h"},"values":[[100,"1"]]},
        {"metric":{"__name__":"node_dmmultipath_path_state","device":"mpathz","instance":"h","path":"sda","state":"running"},
         "values":[[100,"1"]]}]}})";
    const Result<PrometheusDiskFrame> parsed = parsePrometheusDiskFrame(json, u"h"_s);
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QVERIFY(parsed->frame.pathsOf.isEmpty());
    QVERIFY(parsed->hasDmMultipath);
    // sda lacks most series: left out, said; the map's paths: said.
    QCOMPARE(parsed->notes.size(), 2);
    QVERIFY(parsed->notes.at(0).startsWith(u"sda is left out: it lacks"_s));
    QVERIFY(parsed->notes.at(1).startsWith(u"map mpathz's paths are left out"_s));
}

void TestPrometheusParse::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("instance");
    QTest::addColumn<QString>("error");

    const QString wanted = u"127.0.0.1:19101"_s;
    QTest::newRow("NaN") << fixture(u"range-nan.json"_s) << wanted
                         << u"node_disk_reads_merged_total{device=\"vda\"} of instance 127.0.0.1:19101 reads NaN at "
                            "2026-12-05T18:53:47.487Z: not a counter value"_s;
    QTest::newRow("+Inf") << fixture(u"range-inf.json"_s) << wanted << u"reads +Inf at"_s;
    QTest::newRow("negative") << fixture(u"range-negative.json"_s) << wanted << u"reads -3 at"_s;
    QTest::newRow("error answer") << fixture(u"error-bad-data.json"_s) << wanted
                                  << u"Prometheus error (bad_data): invalid parameter \"query\": 1:26: parse error: "
                                     "unexpected end of input inside braces"_s;
    const QByteArray whole = fixture(u"range-two-instances.json"_s);
    QTest::newRow("truncated") << whole.left(whole.size() / 2) << wanted << u"Prometheus answer is not valid JSON ("_s;
    QTest::newRow("empty body") << QByteArray() << wanted << u"Prometheus answer is not valid JSON ("_s;
    QTest::newRow("empty result") << fixture(u"empty.json"_s) << u"nosuch:9100"_s
                                  << u"no node_disk_* counters of instance nosuch:9100 in the answer"_s;
    QTest::newRow("other instances only")
        << whole << u"nosuch:9100"_s
        << u"no node_disk_* counters of instance nosuch:9100 in the answer (it has 127.0.0.1:19101, 127.0.0.1:19102)"_s;
    QTest::newRow("vector, not matrix") << fixture(u"up.json"_s) << wanted
                                        << u"Prometheus answered a vector where a matrix was expected"_s;
    QTest::newRow("no status") << QByteArray(R"({"data":{}})") << wanted
                               << u"Prometheus answer has no \"status\":\"success\""_s;
}

void TestPrometheusParse::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, instance);
    QFETCH(QString, error);
    const Result<PrometheusDiskFrame> parsed = parsePrometheusDiskFrame(json, instance);
    QVERIFY(!parsed);
    QVERIFY2(parsed.errorMessage().contains(error), qPrintable(parsed.errorMessage()));
    QVERIFY(!parsed.errorMessage().contains(u'\n'));
}

void TestPrometheusParse::targets()
{
    const Result<QList<PrometheusTarget>> up = parsePrometheusTargets(fixture(u"targets.json"_s));
    QVERIFY2(up, qPrintable(up.errorMessage()));
    QCOMPARE(up->size(), 2);
    QCOMPARE(up->at(0).instance, u"127.0.0.1:19101"_s);
    QCOMPARE(up->at(1).instance, u"127.0.0.1:19102"_s);
    QCOMPARE(up->at(0).job, u"node"_s);
    QCOMPARE(up->at(0).health, u"up"_s);
    QCOMPARE(up->at(0).scrapeUrl, u"http://127.0.0.1:19101/metrics"_s);
    QCOMPARE(up->at(0).scrapeIntervalSeconds, 1.0);

    const Result<QList<PrometheusTarget>> oneDown = parsePrometheusTargets(fixture(u"targets-one-down.json"_s));
    QVERIFY2(oneDown, qPrintable(oneDown.errorMessage()));
    QCOMPARE(oneDown->size(), 2);
    QCOMPARE(oneDown->at(0).instance, u"127.0.0.1:19102"_s);
    QCOMPARE(oneDown->at(0).health, u"down"_s);
    QVERIFY(oneDown->at(0).lastError.contains(u"connection refused"_s));
    QCOMPARE(oneDown->at(1).health, u"up"_s);

    QVERIFY(!parsePrometheusTargets(fixture(u"error-bad-data.json"_s)));
    QVERIFY(!parsePrometheusTargets(fixture(u"up.json"_s))); // no activeTargets
}

void TestPrometheusParse::instanceLists()
{
    const QStringList both { u"127.0.0.1:19101"_s, u"127.0.0.1:19102"_s };
    const Result<QStringList> up = parsePrometheusVectorInstances(fixture(u"up.json"_s));
    QVERIFY2(up, qPrintable(up.errorMessage()));
    QCOMPARE(*up, both);
    const Result<QStringList> values = parsePrometheusLabelValues(fixture(u"label-instance-values.json"_s));
    QVERIFY2(values, qPrintable(values.errorMessage()));
    QCOMPARE(*values, both);
    QVERIFY(!parsePrometheusVectorInstances(fixture(u"range-two-instances.json"_s))); // a matrix
    QVERIFY(!parsePrometheusLabelValues(fixture(u"up.json"_s))); // not a list
    QCOMPARE(parsePrometheusLabelValues(fixture(u"error-bad-data.json"_s)).errorMessage(),
        prometheusErrorMessage(fixture(u"error-bad-data.json"_s)));
}

void TestPrometheusParse::durations_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("seconds");
    QTest::newRow("1s") << u"1s"_s << 1.0;
    QTest::newRow("15s") << u"15s"_s << 15.0;
    QTest::newRow("1m30s") << u"1m30s"_s << 90.0;
    QTest::newRow("500ms") << u"500ms"_s << 0.5;
    QTest::newRow("1h1m1s1ms") << u"1h1m1s1ms"_s << 3661.001;
    QTest::newRow("2d") << u"2d"_s << 172800.0;
    QTest::newRow("empty") << QString() << 0.0;
    QTest::newRow("no unit") << u"15"_s << 0.0;
    QTest::newRow("bad unit") << u"15x"_s << 0.0;
    QTest::newRow("no number") << u"s"_s << 0.0;
}

void TestPrometheusParse::durations()
{
    QFETCH(QString, text);
    QTEST(parsePrometheusDuration(text), "seconds");
}

void TestPrometheusParse::seriesTableCoversEveryCounter()
{
    // Every DiskField but InFlight (node_disk_io_now, a gauge) has exactly one series.
    QSet<int> fields;
    for (const PrometheusDiskSeries &s : prometheusDiskSeries()) {
        QVERIFY(QLatin1StringView(s.name).startsWith("node_disk_"_L1));
        QVERIFY(s.field != DiskField::InFlight);
        fields.insert(int(s.field));
    }
    QCOMPARE(fields.size(), int(DiskFieldCount) - 1);
}

// The scrape before the newest, from the same answer: what the fleet's first table is computed against.
void TestPrometheusParse::scrapeBeforeTheNewest()
{
    const QByteArray answer = fixture(u"range-two-instances.json"_s);
    const auto newest = parsePrometheusDiskFrame(answer, u"127.0.0.1:19101"_s);
    QVERIFY(newest);
    const auto before = parsePrometheusDiskFrame(answer, u"127.0.0.1:19101"_s, newest->frame.timeNs / 1'000'000 - 1);
    QVERIFY2(before, qPrintable(before.errorMessage()));
    QCOMPARE(before->frame.timeNs, qint64(1796496826487) * 1'000'000); // the raw samples' previous timestamp
    QVERIFY2(before->notes.isEmpty(), qPrintable(before->notes.join(u'\n')));
    QCOMPARE(before->frame.devices.size(), newest->frame.devices.size());
    const DiskCounters *then = before->frame.find(u"vda"_s);
    const DiskCounters *now = newest->frame.find(u"vda"_s);
    QVERIFY(then && now);
    // The raw samples at …826.487 (the host was idle: the same as at …827.487).
    QCOMPARE((*then)[DiskField::ReadIos], quint64(2014842));
    QCOMPARE((*then)[DiskField::WriteIos], quint64(10624586));
    QCOMPARE((*then)[DiskField::ReadIos], (*now)[DiskField::ReadIos]);
    // Nothing older than the answer's first sample: no frame.
    QVERIFY(!parsePrometheusDiskFrame(answer, u"127.0.0.1:19101"_s, 1796496800000));
}

QTEST_GUILESS_MAIN(TestPrometheusParse)
#include "tst_prometheusparse.moc"
