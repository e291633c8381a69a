// iostat's output formats reproduced byte for byte from real iostat -x output captured on this machine
// (fixtures/iostat-x-t-json.txt and iostat-x-t-text.txt: `iostat -d -x -t [-o JSON] vda loop0 1 2`).
#include "core/stats/iostatformat.h"
#include "tests/common/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <cstdio>

using namespace dmtune;
using namespace dmtune::iostatformat;

namespace {

QString readFixture(const char *name)
{
    QFile f(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    return QString::fromUtf8(f.readAll());
}

DeviceRow rowFromJson(const QJsonObject &disk)
{
    DeviceRow row;
    row.device = disk.value(u"disk_device").toString();
    for (Metric m : MetricCatalog::all()) {
        if (MetricCatalog::info(m).iostatColumn)
            row.metrics[m] = disk.value(MetricCatalog::jsonKey(m)).toDouble();
    }
    return row;
}

} // namespace

class TestIostatFormat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixed2RoundsLikePrintf_data();
    void fixed2RoundsLikePrintf();
    void fixed2MatchesPrintfEverywhere();
    void jsonIsIostatsByteForByte();
    void jsonStreamIsValidJson();
    void textIsIostatsByteForByte();
    void csvHasIostatColumns();
};

void TestIostatFormat::fixed2RoundsLikePrintf_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("exact tie down") << 0.125 << "0.12"; // 1 ms over 8 requests: a real await
    QTest::newRow("exact tie up") << 0.375 << "0.38";
    QTest::newRow("below tie") << 2.675 << "2.67"; // 2.67499999999999982236431605997495353221893310546875
    QTest::newRow("zero") << 0.0 << "0.00";
    QTest::newRow("big") << 722304.0 << "722304.00";
    QTest::newRow("tiny") << 0.004999 << "0.00";
}

void TestIostatFormat::fixed2RoundsLikePrintf()
{
    QFETCH(double, value);
    QTEST(fixed2(value), "expected");
}

void TestIostatFormat::fixed2MatchesPrintfEverywhere()
{
    // The JSON must print what iostat's printf prints; QString::number(v, 'f', 2) would not on exact ties.
    auto *rng = QRandomGenerator::global();
    char buffer[64];
    for (int i = 0; i < 200000; ++i) {
        const double v = i < 100000 ? double(rng->bounded(10'000'000)) / 8000.0 : rng->generateDouble() * 1e6;
        std::snprintf(buffer, sizeof buffer, "%.2f", v);
        if (fixed2(v) != QLatin1String(buffer))
            QFAIL(qPrintable(
                QStringLiteral("%1: printf %2, fixed2 %3").arg(v, 0, 'g', 17).arg(QLatin1String(buffer), fixed2(v))));
    }
}

void TestIostatFormat::jsonIsIostatsByteForByte()
{
    const QString real = readFixture("iostat-x-t-json.txt");
    const QJsonObject host = QJsonDocument::fromJson(real.toUtf8())
                                 .object()
                                 .value(u"sysstat")
                                 .toObject()
                                 .value(u"hosts")
                                 .toArray()
                                 .first()
                                 .toObject();
    QVERIFY(!host.isEmpty());
    HostInfo info;
    info.nodename = host.value(u"nodename").toString();
    info.sysname = host.value(u"sysname").toString();
    info.release = host.value(u"release").toString();
    info.machine = host.value(u"machine").toString();
    info.cpus = host.value(u"number-of-cpus").toInt();
    info.date = host.value(u"date").toString();

    QString ours = jsonBegin(info);
    const QJsonArray statistics = host.value(u"statistics").toArray();
    QCOMPARE(statistics.size(), 2);
    for (qsizetype i = 0; i < statistics.size(); ++i) {
        const QJsonObject entry = statistics[i].toObject();
        QList<DeviceRow> rows;
        for (const auto disk : entry.value(u"disk").toArray())
            rows.append(rowFromJson(disk.toObject()));
        if (i > 0)
            ours += jsonSeparator();
        ours += jsonStatistics(entry.value(u"timestamp").toString(), rows);
    }
    ours += jsonEnd();
    // dmtune adds the in-flight pair to each disk object; without it, the document is iostat's.
    static const QRegularExpression inflight(QStringLiteral(", \"inflight_r\": \\d+, \"inflight_w\": \\d+"));
    QCOMPARE(ours.count(inflight), 4);
    ours.remove(inflight);
    QCOMPARE(ours, real);
}

void TestIostatFormat::jsonStreamIsValidJson()
{
    HostInfo info;
    info.nodename = QStringLiteral("host \"quoted\"");
    info.cpus = 4;
    DeviceRow row { QStringLiteral("sda"), IostatMetrics() };
    row.metrics[Metric::InflightWrites] = 12;
    DeviceRow unread = row; // its in-flight split was not read: null, not a number
    unread.metrics[Metric::InflightReads] = unread.metrics[Metric::InflightWrites] = std::nan("");
    for (int entries : { 0, 1, 3 }) {
        QString doc = jsonBegin(info);
        for (int i = 0; i < entries; ++i) {
            if (i)
                doc += jsonSeparator();
            doc += jsonStatistics(QStringLiteral("11/30/26 03:08:45"),
                i == 1 ? QList<DeviceRow> {} : QList<DeviceRow> { row, row, unread });
        }
        doc += jsonEnd();
        QJsonParseError error {};
        const QJsonDocument parsed = QJsonDocument::fromJson(doc.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + u'\n' + doc));
        const QJsonObject h = parsed.object()[u"sysstat"].toObject()[u"hosts"].toArray()[0].toObject();
        QCOMPARE(h[u"nodename"].toString(), info.nodename);
        QCOMPARE(h[u"statistics"].toArray().size(), entries);
        if (entries) {
            const QJsonArray disks = h[u"statistics"].toArray()[0].toObject()[u"disk"].toArray();
            QCOMPARE(disks[1].toObject()[u"inflight_w"].toInt(), 12);
            QVERIFY(disks[2].toObject()[u"inflight_r"].isNull());
            QVERIFY(disks[2].toObject()[u"inflight_w"].isNull());
        }
    }
}

void TestIostatFormat::textIsIostatsByteForByte()
{
    const QStringList real = readFixture("iostat-x-t-text.txt").split(u'\n');
    HostInfo info;
    // "Linux 6.18.44-fc-v595 (vm) \t11/30/26 \t_x86_64_\t(2 CPU)"
    static const QRegularExpression banner(
        QStringLiteral("^(\\S+) (\\S+) \\((\\S+)\\) \\t(\\S+) \\t_(\\S+)_\\t\\((\\d+) CPU\\)$"));
    const auto m = banner.match(real[0]);
    QVERIFY(m.hasMatch());
    info.sysname = m.captured(1);
    info.release = m.captured(2);
    info.nodename = m.captured(3);
    info.date = m.captured(4);
    info.machine = m.captured(5);
    info.cpus = m.captured(6).toInt();
    QCOMPARE(textBanner(info), real[0] + u'\n');
    QCOMPARE(textHeader(), real[3] + u'\n');
    // Rebuild each device line from its own numbers: same widths, same digits.
    int rows = 0;
    for (const QString &line : real) {
        if (!line.startsWith(QLatin1String("loop0")) && !line.startsWith(QLatin1String("vda")))
            continue;
        const QStringList cells = line.split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(cells.size(), 23);
        DeviceRow row;
        row.device = cells[0];
        int i = 1;
        for (Metric metric : MetricCatalog::all()) {
            if (MetricCatalog::info(metric).iostatColumn)
                row.metrics[metric] = cells[i++].toDouble();
        }
        QCOMPARE(textRow(row), line + u'\n');
        ++rows;
    }
    QCOMPARE(rows, 4);
}

void TestIostatFormat::csvHasIostatColumns()
{
    QCOMPARE(csvHeader(),
        QStringLiteral("timestamp,Device,r/s,rkB/s,rrqm/s,%rrqm,r_await,rareq-sz,w/s,wkB/s,wrqm/s,%wrqm,w_await,"
                       "wareq-sz,d/s,dkB/s,drqm/s,%drqm,d_await,dareq-sz,f/s,f_await,aqu-sz,%util,inflight_r,"
                       "inflight_w\n"));
    DeviceRow row { QStringLiteral("dm-0"), IostatMetrics() };
    row.metrics[Metric::WriteRequestSize] = 32.125;
    row.metrics[Metric::InflightReads] = 3;
    const QString line = csvRow(QStringLiteral("2026-11-30T03:08:45.123+00:00"), row);
    QCOMPARE(line.count(u','), 25);
    QVERIFY(line.startsWith(QStringLiteral("2026-11-30T03:08:45.123+00:00,dm-0,0.00,")));
    QVERIFY(line.contains(QStringLiteral(",32.12,")));
    QVERIFY(line.endsWith(QStringLiteral(",3,0\n")));
    row.metrics[Metric::InflightReads] = row.metrics[Metric::InflightWrites] = std::nan(""); // not read
    QVERIFY(csvRow(QStringLiteral("t"), row)
                .endsWith(QStringLiteral(",32.12,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,,\n")));
}

QTEST_GUILESS_MAIN(TestIostatFormat)
#include "tst_iostatformat.moc"
