// The latency stream between dmtune-helper and a normal user's dmtune: the request and reading lines, both ways,
// and what a strict reader refuses (the helper runs as root: its input is untrusted; so is its output to us).
#include "core/latency/latencystream.h"

#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

class TestLatencyStream : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void requestRoundTrips();
    void requestRefused_data();
    void requestRefused();
    void readingRoundTrips();
    void readingRefused_data();
    void readingRefused();
    void watchLine_data();
    void watchLine();
};

void TestLatencyStream::requestRoundTrips()
{
    const QList<BlockDeviceNumber> devices { { 8, 16 }, { 253, 0 }, { 7, 1 } };
    const QByteArray line = latencyRequestJson(devices);
    QCOMPARE(line,
        QByteArray(R"({"latency":{"devices":["8:16","253:0","7:1"]}})"
                   "\n"));
    QVERIFY(isLatencyRequest(line));
    const auto parsed = parseLatencyRequest(line);
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed.value(), devices);
    // A tuning transaction's request is not a latency request.
    QVERIFY(!isLatencyRequest(R"({"changes":[],"dry_run":false})"));
}

void TestLatencyStream::requestRefused_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("error");
    QTest::newRow("not JSON") << QByteArray("{\"latency\": ") << u"not a JSON object"_s;
    QTest::newRow("another key beside") << QByteArray(R"({"latency":{"devices":["8:0"]},"changes":[]})")
                                        << u"must be {\"latency\""_s;
    QTest::newRow("another key inside") << QByteArray(R"({"latency":{"devices":["8:0"],"root":"/tmp"}})")
                                        << u"must be {\"latency\""_s;
    QTest::newRow("no devices") << QByteArray(R"({"latency":{"devices":[]}})") << u"1 to 128 devices, not 0"_s;
    QTest::newRow("a name, not a number")
        << QByteArray(R"({"latency":{"devices":["sda"]}})") << u"'sda' is not a new MAJ:MIN"_s;
    QTest::newRow("twice") << QByteArray(R"({"latency":{"devices":["8:0","8:0"]}})") << u"'8:0' is not a new"_s;
    QTest::newRow("negative") << QByteArray(R"({"latency":{"devices":["-8:0"]}})") << u"'-8:0' is not"_s;
    QTest::newRow("a number, not a string") << QByteArray(R"({"latency":{"devices":[8]}})") << u"'' is not"_s;
    QByteArray many = R"({"latency":{"devices":[)";
    for (int i = 0; i < 129; ++i)
        many += (i ? "," : "") + QByteArray("\"8:") + QByteArray::number(i) + '"';
    QTest::newRow("129 devices") << many + "]}}" << u"1 to 128 devices, not 129"_s;
}

void TestLatencyStream::requestRefused()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, error);
    const auto parsed = parseLatencyRequest(line);
    QVERIFY(!parsed);
    QVERIFY2(parsed.errorMessage().contains(error), qPrintable(parsed.errorMessage()));
}

void TestLatencyStream::readingRoundTrips()
{
    LatencyReading reading;
    reading.missedEvents = 3;
    DeviceLatency sdb;
    sdb.device.counts[0] = 1;
    sdb.device.counts[21] = 12345;
    sdb.device.counts[63] = 2;
    sdb.device.sumNs = 9007199254740992ULL; // 2^53: the largest a JSON number holds exactly
    sdb.queue.counts[5] = 7;
    sdb.queue.sumNs = 29000;
    sdb.lost = 4;
    reading.devices.insert({ 8, 16 }, sdb);
    reading.devices.insert({ 253, 0 }, DeviceLatency {});
    const QByteArray line = latencyReadingJson(reading);
    QVERIFY(line.endsWith('\n') && line.count('\n') == 1);
    const auto parsed = parseLatencyReading(line);
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->missedEvents, quint64(3));
    QCOMPARE(parsed->devices.size(), 2);
    const DeviceLatency back = parsed->devices.value({ 8, 16 });
    QCOMPARE(back.device.counts, sdb.device.counts);
    QCOMPARE(back.device.sumNs, sdb.device.sumNs);
    QCOMPARE(back.queue.counts, sdb.queue.counts);
    QCOMPARE(back.queue.sumNs, sdb.queue.sumNs);
    QCOMPARE(back.lost, quint64(4));
    QCOMPARE(parsed->devices.value({ 253, 0 }).device.total(), quint64(0));
}

void TestLatencyStream::readingRefused_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("error");
    const auto device = [](const char *histogram) {
        return QByteArray(R"({"missed":0,"devices":[{"dev":"8:16","lost":0,"device":)") + histogram
            + R"(,"queue":{"sum_ns":0,"buckets":[]}}]})";
    };
    QTest::newRow("not JSON") << QByteArray("garbage") << u"not {missed, devices}"_s;
    QTest::newRow("the helper's error object") << QByteArray(R"({"error":"no BTF"})") << u"not {missed, devices}"_s;
    QTest::newRow("bucket out of range") << device(R"({"sum_ns":1,"buckets":[[64,1]]})") << u"in order"_s;
    QTest::newRow("buckets out of order") << device(R"({"sum_ns":1,"buckets":[[5,1],[4,1]]})") << u"in order"_s;
    QTest::newRow("bucket twice") << device(R"({"sum_ns":1,"buckets":[[5,1],[5,1]]})") << u"in order"_s;
    QTest::newRow("negative count") << device(R"({"sum_ns":1,"buckets":[[5,-1]]})") << u"in order"_s;
    QTest::newRow("fractional count") << device(R"({"sum_ns":1,"buckets":[[5,1.5]]})") << u"in order"_s;
    QTest::newRow("sum beyond 2^53") << device(R"({"sum_ns":1e300,"buckets":[]})") << u"sum_ns is not a count"_s;
    QTest::newRow("a third key") << device(R"({"sum_ns":1,"buckets":[],"x":1})") << u"not {sum_ns, buckets}"_s;
    QTest::newRow("device twice") << QByteArray(
        R"({"missed":0,"devices":[)"
        R"({"dev":"8:16","lost":0,"device":{"sum_ns":0,"buckets":[]},"queue":{"sum_ns":0,"buckets":[]}},)"
        R"({"dev":"8:16","lost":0,"device":{"sum_ns":0,"buckets":[]},"queue":{"sum_ns":0,"buckets":[]}}]})")
                                  << u"a device is not"_s;
}

void TestLatencyStream::readingRefused()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, error);
    const auto parsed = parseLatencyReading(line);
    QVERIFY(!parsed);
    QVERIFY2(parsed.errorMessage().contains(error), qPrintable(parsed.errorMessage()));
}

void TestLatencyStream::watchLine_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("devices"); // the parsed numbers joined by spaces, or "error: ..."
    QTest::newRow("two devices") << latencyWatchLine({ { 8, 16 }, { 253, 0 } }) << u"8:16 253:0"_s;
    QTest::newRow("none (the tab shows nothing)") << latencyWatchLine({}) << QString();
    QTest::newRow("read is not a watch line") << QByteArray("read\n") << u"error: not a watch line"_s;
    QTest::newRow("no newline") << QByteArray("watch 8:0") << u"error: not a watch line"_s;
    QTest::newRow("a name") << QByteArray("watch sda\n") << u"error: watch: 'sda' is not a new MAJ:MIN"_s;
    QTest::newRow("twice") << QByteArray("watch 8:0 8:0\n") << u"error: watch: '8:0' is not a new MAJ:MIN"_s;
    QTest::newRow("two spaces") << QByteArray("watch 8:0  8:1\n") << u"error: watch: '' is not a new MAJ:MIN"_s;
    QByteArray many = "watch";
    for (int i = 0; i < 129; ++i)
        many += " 8:" + QByteArray::number(i);
    QTest::newRow("129 devices") << many + '\n' << u"error: watch: at most 128 devices"_s;
}

void TestLatencyStream::watchLine()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, devices);
    const auto parsed = parseLatencyWatchLine(line);
    if (devices.startsWith(u"error: "_s)) {
        QVERIFY(!parsed);
        QCOMPARE(parsed.errorMessage(), devices.mid(7));
        return;
    }
    QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
    QStringList names;
    for (BlockDeviceNumber d : parsed.value())
        names.append(u"%1:%2"_s.arg(d.major).arg(d.minor));
    QCOMPARE(names.join(u' '), devices);
}

QTEST_GUILESS_MAIN(TestLatencyStream)
#include "tst_latencystream.moc"
