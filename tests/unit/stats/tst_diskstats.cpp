// Parsers of /proc/diskstats, /sys/block/X/stat, inflight and dev; the delta rules.
#include "core/stats/diskcounters.h"

#include <QRandomGenerator>
#include <QTest>

using namespace dmtune;

Q_DECLARE_METATYPE(dmtune::DiskCounters)

class TestDiskstats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesLine_data();
    void parsesLine();
    void rejectsMalformedLine_data();
    void rejectsMalformedLine();
    void byteParserAgreesOnRandomLines();
    void parsesWholeFile();
    void reportsLineNumberOfBadLine();
    void parsesBlockStat_data();
    void parsesBlockStat();
    void rejectsMalformedBlockStat();
    void parsesInflightAndDev();
    void deltas_data();
    void deltas();
};

void TestDiskstats::parsesLine_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("major");
    QTest::addColumn<int>("minor");
    QTest::addColumn<int>("fieldCount");
    QTest::addColumn<quint64>("writeMerges");
    QTest::addColumn<quint64>("timeInQueue");
    QTest::addColumn<quint64>("flushTicks");

    // Real lines of this machine's /proc/diskstats (kernel 6.18: 20 fields), and the same cut to the 18 and
    // 14 fields older kernels print.
    QTest::newRow("20 fields") << QStringLiteral(
        " 254       0 vda 47691 8259 3403610 37459 35125 16293 3144360 9564 0 11932 47844 9717 56 543912 662 3715 158")
                               << "vda" << 254 << 0 << 17 << quint64(16293) << quint64(47844) << quint64(158);
    QTest::newRow("18 fields") << QStringLiteral(
        "   7       0 loop0 0 0 0 0 28837 201889 1845696 4640 2 1536 4640 0 0 0 0")
                               << "loop0" << 7 << 0 << 15 << quint64(201889) << quint64(4640) << quint64(0);
    QTest::newRow("14 fields") << QStringLiteral(
        "   8      16 sdb 139131 0 1113048 24197 51198 358402 3276800 8132 0 4600 32330")
                               << "sdb" << 8 << 16 << 11 << quint64(358402) << quint64(32330) << quint64(0);
    QTest::newRow("tabs, trailing newline")
        << QStringLiteral("253\t1\tdm-1\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n") << "dm-1" << 253 << 1 << 17
        << quint64(6) << quint64(11) << quint64(17);
    QTest::newRow("64-bit counters") << QStringLiteral(
        "259 0 nvme0n1 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 4294967295")
                                     << "nvme0n1" << 259 << 0 << 17 << quint64(0) << quint64(0)
                                     << quint64(4294967295ULL);
}

void TestDiskstats::parsesLine()
{
    QFETCH(QString, line);
    const auto parsed = parseDiskstatsLine(line);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
    QTEST(parsed->name, "name");
    QTEST(int(parsed->majorNumber()), "major");
    QTEST(int(parsed->minorNumber()), "minor");
    QTEST(parsed->fieldCount, "fieldCount");
    QTEST((*parsed)[DiskField::WriteMerges], "writeMerges");
    QTEST((*parsed)[DiskField::TimeInQueue], "timeInQueue");
    QTEST((*parsed)[DiskField::FlushTicks], "flushTicks");

    // The sampler's byte parser agrees, reusing a DiskCounters that held another line before.
    DiskCounters reused = *parseDiskstatsLine(u"8 0 sdz 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9 9");
    QByteArrayView name;
    const QByteArray bytes = line.toLatin1();
    QVERIFY(parseDiskstatsLineInto(bytes, &reused, &name).isEmpty());
    QCOMPARE(QString::fromLatin1(name), parsed->name);
    QCOMPARE(reused.fields, parsed->fields);
    QCOMPARE(reused.fieldCount, parsed->fieldCount);
    QCOMPARE(reused.devnum, parsed->devnum);
}

void TestDiskstats::rejectsMalformedLine_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("messagePart");

    QTest::newRow("empty") << QString() << "expected 'major minor name";
    QTest::newRow("no counters") << QStringLiteral("8 0 sda") << "3 fields, expected 14, 18 or 20";
    QTest::newRow("13 fields") << QStringLiteral("8 0 sda 1 2 3 4 5 6 7 8 9 10") << "13 fields, expected 14, 18 or 20";
    QTest::newRow("16 fields") << QStringLiteral("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13") << "16 fields";
    QTest::newRow("19 fields") << QStringLiteral("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16") << "19 fields";
    QTest::newRow("21 fields") << QStringLiteral("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18")
                               << "more than 17 counters";
    QTest::newRow("word") << QStringLiteral("8 0 sda 1 2 x3 4 5 6 7 8 9 10 11") << "counter 3 'x3' is not an unsigned";
    QTest::newRow("negative") << QStringLiteral("8 0 sda 1 2 3 4 5 6 7 8 -9 10 11") << "counter 9 '-9'";
    QTest::newRow("overflow") << QStringLiteral("8 0 sda 18446744073709551616 2 3 4 5 6 7 8 9 10 11")
                              << "counter 1 '18446744073709551616'";
    QTest::newRow("bad major") << QStringLiteral("x 0 sda 1 2 3 4 5 6 7 8 9 10 11") << "bad device number 'x 0'";
    QTest::newRow("name missing") << QStringLiteral("8 0") << "expected 'major minor name";
}

void TestDiskstats::rejectsMalformedLine()
{
    QFETCH(QString, line);
    QFETCH(QString, messagePart);
    const auto parsed = parseDiskstatsLine(line);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.errorMessage().contains(messagePart), qPrintable(parsed.errorMessage()));
    DiskCounters c;
    QByteArrayView name;
    QCOMPARE(parseDiskstatsLineInto(line.toLatin1(), &c, &name), parsed.errorMessage());
}

void TestDiskstats::byteParserAgreesOnRandomLines()
{
    // The sampler's byte parser reads 8 digits at a time; the QString parser one by one. Random lines with
    // numbers of every length (20 digits and overflow included) and stray characters must get the same
    // counters, or the same error.
    QRandomGenerator rng(20261130);
    const char junk[] = " \tx-:/9";
    for (int i = 0; i < 20000; ++i) {
        QByteArray line = "  8   " + QByteArray::number(rng.bounded(20)) + " sd" + char('a' + rng.bounded(26));
        const int counters = rng.bounded(10) == 0 ? rng.bounded(20) : QList<int> { 11, 15, 17 }[rng.bounded(3)];
        for (int k = 0; k < counters; ++k) {
            line += QByteArray(1 + rng.bounded(3), ' ');
            const int digits = 1 + rng.bounded(21);
            for (int d = 0; d < digits; ++d)
                line += char('0' + rng.bounded(10));
            if (rng.bounded(200) == 0)
                line += junk[rng.bounded(int(sizeof junk) - 1)];
        }
        if (rng.bounded(2))
            line += "   ";
        const auto generic = parseDiskstatsLine(QString::fromLatin1(line));
        DiskCounters fast;
        QByteArrayView name;
        const QString error = parseDiskstatsLineInto(line, &fast, &name);
        QCOMPARE(error, generic.errorMessage());
        if (generic) {
            QCOMPARE(fast.fields, generic->fields);
            QCOMPARE(fast.fieldCount, generic->fieldCount);
        }
    }
}

void TestDiskstats::parsesWholeFile()
{
    const QString text = QStringLiteral(
        "   7       0 loop0 0 0 0 0 8322 58298 532736 2238 4 636 2238 0 0 0 0 0 0\n"
        "\n"
        " 254       0 vda 47691 8259 3403610 37459 35125 16293 3144360 9564 0 11932 47844 9717 56 543912 662 3715 158\n"
        " 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
    const auto parsed = parseDiskstats(text);
    QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->size(), 3);
    QCOMPARE(parsed->at(0).name, QStringLiteral("loop0"));
    QCOMPARE(parsed->at(0)[DiskField::InFlight], quint64(4));
    QCOMPARE(parsed->at(1)[DiskField::DiscardSectors], quint64(543912));
    QCOMPARE(parsed->at(2).name, QStringLiteral("zram0"));
    QVERIFY(parseDiskstats(QString())->isEmpty());
}

void TestDiskstats::reportsLineNumberOfBadLine()
{
    const auto parsed = parseDiskstats(u"8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 1 sda1 1 2 3 4\n");
    QVERIFY(!parsed.ok());
    // Kernels before 2.6.25 printed 4 counters for partitions; this parser wants the full set.
    QVERIFY2(parsed.errorMessage().startsWith(QStringLiteral("diskstats line 2: sda1: 7 fields")),
        qPrintable(parsed.errorMessage()));
}

void TestDiskstats::parsesBlockStat_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("fieldCount");
    QTest::addColumn<quint64>("ioTicks");
    QTest::addColumn<quint64>("discardIos");
    QTest::addColumn<quint64>("flushIos");
    // Real /sys/block/vda/stat (17 counters, padded as the kernel pads them), and cut to 15 and 11.
    QTest::newRow("17") << QStringLiteral(
        "   32870     6818  2479770    12814    25925    12720  2381360     8196        0    10140    21596     6387   "
        "    56   344584      427     3714      158\n")
                        << 17 << quint64(10140) << quint64(6387) << quint64(3714);
    QTest::newRow("15") << QStringLiteral("   32870     6818  2479770    12814    25925    12720  2381360     8196     "
                                          "   0    10140    21596     6387       56   344584      427\n")
                        << 15 << quint64(10140) << quint64(6387) << quint64(0);
    QTest::newRow("11") << QStringLiteral(
        "   32870     6818  2479770    12814    25925    12720  2381360     8196        0    10140    21596\n")
                        << 11 << quint64(10140) << quint64(0) << quint64(0);
}

void TestDiskstats::parsesBlockStat()
{
    QFETCH(QString, text);
    const auto parsed = parseBlockStat(text, QStringLiteral("vda"), DiskCounters::makeDevnum(254, 0));
    QVERIFY2(parsed.ok(), qPrintable(parsed.errorMessage()));
    QCOMPARE(parsed->name, QStringLiteral("vda"));
    QCOMPARE(parsed->majorNumber(), 254u);
    QTEST(parsed->fieldCount, "fieldCount");
    QTEST((*parsed)[DiskField::IoTicks], "ioTicks");
    QTEST((*parsed)[DiskField::DiscardIos], "discardIos");
    QTEST((*parsed)[DiskField::FlushIos], "flushIos");
}

void TestDiskstats::rejectsMalformedBlockStat()
{
    const auto twelve = parseBlockStat(u"1 2 3 4 5 6 7 8 9 10 11 12\n", QStringLiteral("sdz"));
    QVERIFY(!twelve.ok());
    QCOMPARE(twelve.errorMessage(), QStringLiteral("sdz/stat: 12 counters, expected 11, 15 or 17"));
    const auto empty = parseBlockStat(u"", QStringLiteral("sdz"));
    QVERIFY(!empty.ok());
    QVERIFY(empty.errorMessage().contains(QStringLiteral("0 counters")));
}

void TestDiskstats::parsesInflightAndDev()
{
    const auto inflight = parseInflight(u"       3       29\n");
    QVERIFY(inflight.ok());
    QCOMPARE(inflight.value()[0], 3u);
    QCOMPARE(inflight.value()[1], 29u);
    QVERIFY(!parseInflight(u"3").ok());
    QVERIFY(!parseInflight(u"3 4 5").ok());
    QVERIFY(!parseInflight(u"a b").ok());

    const auto dev = parseDevnum(u"8:16\n");
    QVERIFY(dev.ok());
    QCOMPARE(dev.value(), DiskCounters::makeDevnum(8, 16));
    QVERIFY(!parseDevnum(u"8-16").ok());
    QVERIFY(!parseDevnum(u":1").ok());
}

namespace {
DiskCounters counters(std::initializer_list<quint64> values)
{
    DiskCounters c;
    c.name = QStringLiteral("sda");
    std::size_t i = 0;
    for (quint64 v : values)
        c.fields[i++] = v;
    c.fieldCount = 17;
    return c;
}
} // namespace

void TestDiskstats::deltas_data()
{
    QTest::addColumn<DiskCounters>("prev");
    QTest::addColumn<DiskCounters>("cur");
    QTest::addColumn<int>("field");
    QTest::addColumn<quint64>("expected");

    const auto base = counters({ 100, 10, 800, 50, 200, 20, 1600, 70, 3, 500, 900, 0, 0, 0, 0, 5, 2 });
    QTest::newRow("forward") << base << counters({ 110, 10, 880, 60, 200, 20, 1600, 70, 0, 510, 920, 0, 0, 0, 0, 5, 2 })
                             << int(DiskField::ReadIos) << quint64(10);
    QTest::newRow("in flight is not a delta")
        << base << counters({ 110, 10, 880, 60, 200, 20, 1600, 70, 9, 510, 920, 0, 0, 0, 0, 5, 2 })
        << int(DiskField::InFlight) << quint64(0);
    QTest::newRow("counter back: clamped")
        << base << counters({ 110, 10, 880, 60, 200, 20, 1600, 70, 0, 510, 890, 0, 0, 0, 0, 5, 2 })
        << int(DiskField::TimeInQueue) << quint64(0);
    // A device deleted and recreated between two ticks: everything restarts from 0.
    QTest::newRow("reset: clamped") << base << counters({ 4, 0, 32, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0 })
                                    << int(DiskField::ReadIos) << quint64(0);
    QTest::newRow("reset: ticks clamped, not wrapped")
        << counters({ 100, 10, 800, 4294967000ULL, 200, 20, 1600, 70, 3, 500, 900, 0, 0, 0, 0, 5, 2 })
        << counters({ 4, 0, 32, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0 }) << int(DiskField::ReadTicks) << quint64(0);
    // The kernel's millisecond fields are 32-bit: after ~49.7 days of reading they wrap.
    QTest::newRow("u32 ticks wrap") << counters({ 100, 10, 800, 4294967000ULL, 200, 20, 1600, 70, 3, 500, 900, 0, 0, 0,
        0, 5, 2 }) << counters({ 110, 10, 880, 200, 200, 20, 1600, 70, 0, 510, 920, 0, 0, 0, 0, 5, 2 })
                                    << int(DiskField::ReadTicks) << quint64(496);
    QTest::newRow("sectors do not wrap at 32 bits")
        << counters({ 100, 10, 4294967000ULL, 50, 200, 20, 1600, 70, 3, 500, 900, 0, 0, 0, 0, 5, 2 })
        << counters({ 110, 10, 200, 60, 200, 20, 1600, 70, 0, 510, 920, 0, 0, 0, 0, 5, 2 })
        << int(DiskField::ReadSectors) << quint64(0);
}

void TestDiskstats::deltas()
{
    QFETCH(DiskCounters, prev);
    QFETCH(DiskCounters, cur);
    QFETCH(int, field);
    QTEST(counterDeltas(prev, cur).fields[std::size_t(field)], "expected");
}

QTEST_GUILESS_MAIN(TestDiskstats)
#include "tst_diskstats.moc"
