// The counter stream's wire form (remote/samplestream.h): what the agent's writer sends, the near side's reader
// gives back exactly (the devices' numbers too: the Latency tab's key), over device churn; a message that cannot be
// read is refused with one line; an agent that sends no numbers gives 0.
#include "core/remote/samplestream.h"
#include "core/remote/z85.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace dmtune;

namespace {

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

DeviceSample sample(const QString &name, quint64 seed)
{
    DeviceSample d;
    d.counters.name = name;
    QRandomGenerator rng { quint32(seed) };
    for (std::size_t f = 0; f < DiskFieldCount; ++f) {
        if (DiskField(f) != DiskField::InFlight)
            d.deltas.fields[f] = rng.bounded(100000u) * (f % 3 == 0 ? 1000ull : 1ull);
    }
    d.inflight = { rng.bounded(64u), seed % 5 == 0 ? InflightUnknown : rng.bounded(64u) };
    return d;
}

SampleBatch batch(const QStringList &names, quint64 seq)
{
    SampleBatch b;
    b.sequence = seq;
    b.wallMs = 1764680000000 + qint64(seq) * 1000;
    b.monotonicNs = 5000000000 + qint64(seq) * 1000000000;
    b.elapsedSeconds = 1.000123;
    for (qsizetype i = 0; i < names.size(); ++i) {
        b.devices.append(sample(names.at(i), seq * 131 + quint64(i)));
        // A number of the name (the same in every tick), majors over 255 and minors over 255 included.
        const auto h = quint32(qHash(names.at(i)));
        b.devices.last().counters.devnum = DiskCounters::makeDevnum(h % 300, (h >> 12) % 1100);
    }
    return b;
}

} // namespace

class TestSampleStream : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Ticks whose device sets change (a path vanishes, a map appears): every tick decodes to the same deltas and
    // split, "names" goes only with a change.
    void roundTrip()
    {
        const QList<QStringList> ticks { { S("sda"), S("sdb"), S("dm-0") }, { S("sda"), S("sdb"), S("dm-0") },
            { S("sda"), S("dm-0") }, { S("sda"), S("dm-0"), S("dm-1"), S("sdc") },
            { S("sda"), S("dm-0"), S("dm-1"), S("sdc") }, {}, { S("nvme0n1") } };
        SampleStreamWriter writer;
        SampleStreamReader reader;
        QStringList previous { S("(none)") };
        for (qsizetype t = 0; t < ticks.size(); ++t) {
            const SampleBatch sent = batch(ticks.at(t), quint64(t) + 1);
            const QJsonObject message = writer.encode(7, sent);
            QCOMPARE(message.value(QLatin1String("type")).toString(), S("samples"));
            QCOMPARE(message.value(QLatin1String("id")).toInteger(), 7);
            QCOMPARE(message.contains(QLatin1String("names")), ticks.at(t) != previous);
            previous = ticks.at(t);
            const Result<SampleBatch> got = reader.decode(message);
            QVERIFY2(got.ok(), qPrintable(got.errorMessage()));
            QCOMPARE(got->sequence, sent.sequence);
            QCOMPARE(got->wallMs, sent.wallMs);
            QCOMPARE(got->monotonicNs, sent.monotonicNs);
            QCOMPARE(got->elapsedSeconds, 1.000123);
            QCOMPARE(got->devices.size(), sent.devices.size());
            for (qsizetype i = 0; i < sent.devices.size(); ++i) {
                QCOMPARE(got->devices.at(i).name(), sent.devices.at(i).name());
                QCOMPARE(got->devices.at(i).counters.devnum, sent.devices.at(i).counters.devnum);
                QVERIFY(got->devices.at(i).deltas.fields == sent.devices.at(i).deltas.fields);
                QVERIFY(got->devices.at(i).inflight == sent.devices.at(i).inflight);
            }
            QCOMPARE(reader.names(), ticks.at(t));
        }
    }

    // An agent from before the numbers ("names" alone): the samples read, each device's number unknown (0).
    void namesWithoutNumbers()
    {
        SampleStreamWriter writer;
        QJsonObject message = writer.encode(1, batch({ S("sda"), S("dm-0") }, 1));
        QVERIFY(message.contains(QLatin1String("devs")));
        message.remove(QLatin1String("devs"));
        SampleStreamReader reader;
        const Result<SampleBatch> got = reader.decode(message);
        QVERIFY2(got.ok(), qPrintable(got.errorMessage()));
        QCOMPARE(got->devices.size(), 2);
        QCOMPARE(got->devices.at(1).counters.devnum, quint64(0));
    }

    // A steady device (same deltas each tick) costs a few bytes a tick, a busy changing one tens.
    void compact()
    {
        SampleStreamWriter writer;
        SampleBatch steady = batch({ S("sda") }, 1);
        writer.encode(1, steady);
        steady.sequence = 2;
        QVERIFY(writer.encode(1, steady).value(QLatin1String("size")).toInteger() <= 4);
        const qint64 busy = writer.encode(1, batch({ S("sda") }, 3)).value(QLatin1String("size")).toInteger();
        QVERIFY2(busy > 10 && busy < 60, qPrintable(QString::number(busy)));
    }

    // ZeroMQ RFC 32's test vector, and a round trip of every length 0..9 (the padding cut off by size).
    void z85()
    {
        const QByteArray hello = QByteArray::fromHex("864FD26FB559F75B");
        QCOMPARE(z85Encode(hello), QByteArray("HelloWorld"));
        const Result<QByteArray> back = z85Decode("HelloWorld", 8);
        QVERIFY(back.ok());
        QCOMPARE(*back, hello);
        for (int n = 0; n < 10; ++n) {
            const QByteArray bytes = QByteArray::fromHex("00ff7f80fe01c3a5").repeated(2).left(n);
            const QByteArray text = z85Encode(bytes);
            QCOMPARE(text.size(), (n + 3) / 4 * 5);
            QVERIFY(!text.contains('"') && !text.contains('\\'));
            const Result<QByteArray> decoded = z85Decode(text, n);
            QVERIFY2(decoded.ok(), qPrintable(decoded.errorMessage()));
            QCOMPARE(*decoded, bytes);
        }
        QVERIFY(!z85Decode("Hello", 0).ok()); // 4 bytes of padding: not what an encoder writes
        QVERIFY(!z85Decode("Hell", 3).ok());
    }

    void refused_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("data before names")
            << S(R"({"type":"samples","id":1,"elapsed_us":1000000,"size":4,"data":"00000"})")
            << S("data before the device names");
        QTest::newRow("not Z85") << S(
            R"({"type":"samples","names":["sda"],"elapsed_us":1000000,"size":4,"data":"~~~~~"})")
                                 << S("a character outside the alphabet at 0");
        QTest::newRow("Z85 group over 32 bits")
            << S(R"({"type":"samples","names":["sda"],"elapsed_us":1000000,"size":4,"data":"%%%%%"})")
            << S("over 32 bits");
        QTest::newRow("size beyond the data")
            << S(R"({"type":"samples","names":[],"elapsed_us":1000000,"size":9,"data":"00000"})")
            << S("9 bytes announced for 5 characters");
        QTest::newRow("no size") << S(R"({"type":"samples","names":[],"elapsed_us":1000000,"data":""})")
                                 << S("no \"size\"");
        QTest::newRow("bytes end early") << S(
            R"({"type":"samples","names":["sda","sdb"],"elapsed_us":1000000,"size":0,"data":""})")
                                         << S("the data ends before device 1 of 2");
        QTest::newRow("bytes left over") << S(
            R"({"type":"samples","names":[],"elapsed_us":1000000,"size":2,"data":"00961"})")
                                         << S("2 bytes after the last device");
        QTest::newRow("names not a list")
            << S(R"({"type":"samples","names":"sda","elapsed_us":1000000,"size":0,"data":""})")
            << S("\"names\" is not an array");
        QTest::newRow("a name not a string")
            << S(R"({"type":"samples","names":[3],"elapsed_us":1000000,"size":0,"data":""})") << S("not a string");
        QTest::newRow("devs of another length")
            << S(R"({"type":"samples","names":["sda"],"devs":[],"elapsed_us":1000000,"size":0,"data":""})")
            << S("\"devs\" and \"names\" differ in length");
        QTest::newRow("a dev not MAJ:MIN")
            << S(R"({"type":"samples","names":["sda"],"devs":["8-0"],"elapsed_us":1000000,"size":0,"data":""})")
            << S("a device number that is not MAJ:MIN");
        QTest::newRow("a dev not a string")
            << S(R"({"type":"samples","names":["sda"],"devs":[2048],"elapsed_us":1000000,"size":0,"data":""})")
            << S("a device number that is not MAJ:MIN");
        QTest::newRow("no interval") << S(R"({"type":"samples","names":[],"size":0,"data":""})") << S("elapsed_us");
        QTest::newRow("no data") << S(R"({"type":"samples","names":[],"elapsed_us":5})") << S("no \"data\"");
    }
    void refused()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        SampleStreamReader reader;
        const Result<SampleBatch> got = reader.decode(QJsonDocument::fromJson(json.toUtf8()).object());
        QVERIFY(!got.ok());
        QVERIFY2(got.errorMessage().contains(error), qPrintable(got.errorMessage()));
        QVERIFY(!got.errorMessage().contains(QLatin1Char('\n')));
    }
};

QTEST_GUILESS_MAIN(TestSampleStream)
#include "tst_samplestream.moc"
