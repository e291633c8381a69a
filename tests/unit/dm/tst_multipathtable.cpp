// Multipath table grammar: real lines (lab VM, multipathd, the kernel's own table output) parse,
// format back to the same text, and malformed lines are rejected with a message naming the word.
#include "core/dm/grammar/multipathtable.h"
#include "tests/common/multipathlines.h"
#include "tests/common/testpaths.h"

#include <QFile>
#include <QTest>

using namespace dmtune;

namespace {
// Blank-separated words, to keep the data rows short.
QStringList w(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}
} // namespace

class TestMultipathTable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parseLine_data();
    void parseLine();
    void rejectsMalformed_data();
    void rejectsMalformed();
    void errorNamesWordAndColumn();
    void fixtureLinesRoundTrip();
    void featureHelpers();
    void checkFindsInconsistentEdits();
    void targetLine();
};

void TestMultipathTable::parseLine_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("features");
    QTest::addColumn<QStringList>("hwHandler");
    QTest::addColumn<int>("initialGroup");
    QTest::addColumn<QStringList>("selectors");
    QTest::addColumn<QList<int>>("pathCounts");
    QTest::addColumn<QStringList>("firstPath"); // device + args of the first path of group 1

    const QStringList none;
    // lab/README.md and guest/selftest.sh: scsi_debug LUN over 4 hosts, created with dmsetup.
    QTest::newRow("lab: 2 groups round-robin")
        << "0 131072 multipath 0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1" << none << none
        << 1 << w("round-robin round-robin") << QList<int> { 2, 2 } << w("8:0 1");
    QTest::newRow("lab: round-robin repeat 1000 (constructor text)")
        << "0 131072 multipath 0 0 2 1 round-robin 0 2 1 8:0 1000 8:16 1000 round-robin 0 2 1 8:32 1000 8:48 1000"
        << none << none << 1 << w("round-robin round-robin") << QList<int> { 2, 2 } << w("8:0 1000");
    QTest::newRow("lab: service-time, queue_if_no_path")
        << "0 131072 multipath 1 queue_if_no_path 0 1 1 service-time 0 4 2 8:0 1 1 8:16 1 1 8:32 1 1 8:48 1 1"
        << w("queue_if_no_path") << none << 1 << w("service-time") << QList<int> { 4 } << w("8:0 1 1");
    QTest::newRow("lab: queue-length") << "0 131072 multipath 0 0 1 1 queue-length 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1"
                                       << none << none << 1 << w("queue-length") << QList<int> { 4 } << w("8:0 1");
    QTest::newRow("lab: null_blk queue-length")
        << "0 2097152 multipath 0 0 1 1 queue-length 0 2 1 252:0 1 252:1 1" << none << none << 1 << w("queue-length")
        << QList<int> { 2 } << w("252:0 1");
    QTest::newRow("lab: NVMe/TCP, one path per group")
        << "0 2097152 multipath 0 0 2 1 round-robin 0 1 1 259:0 1 round-robin 0 1 1 259:1 1" << none << none << 1
        << w("round-robin round-robin") << QList<int> { 1, 1 } << w("259:0 1");
    // Seed report: service-time over one STEC skd device, written by hand with a device path.
    QTest::newRow("seed: service-time /dev/skd0")
        << "0 1563037696 multipath 0 0 1 1 service-time 0 1 2 /dev/skd0 1000 1" << none << none << 1
        << w("service-time") << QList<int> { 1 } << w("/dev/skd0 1000 1");
    // multipathd (lab/guest/multipathd.sh): failover groups, alua, service-time; the kernel prints
    // service-time's two per-path words (repeat count, relative throughput).
    QTest::newRow("multipathd: alua failover, kernel output")
        << "0 65536 multipath 1 queue_if_no_path 1 alua 4 1 service-time 0 1 2 8:0 1 1 service-time 0 1 2 8:48 1 1 "
           "service-time 0 1 2 8:16 1 1 service-time 0 1 2 8:32 1 1"
        << w("queue_if_no_path") << w("alua") << 1 << w("service-time service-time service-time service-time")
        << QList<int> { 1, 1, 1, 1 } << w("8:0 1 1");
    QTest::newRow("multipathd: alua failover, one per-path word")
        << "0 65536 multipath 1 queue_if_no_path 1 alua 4 1 service-time 0 1 1 8:0 1 service-time 0 1 1 8:48 1 "
           "service-time 0 1 1 8:16 1 service-time 0 1 1 8:32 1"
        << w("queue_if_no_path") << w("alua") << 1 << w("service-time service-time service-time service-time")
        << QList<int> { 1, 1, 1, 1 } << w("8:0 1");
    QTest::newRow("multipathd: no_path_retry off (0 features)")
        << "0 65536 multipath 0 1 alua 2 2 service-time 0 1 2 8:0 1 1 service-time 0 1 2 8:16 1 1" << none << w("alua")
        << 2 << w("service-time service-time") << QList<int> { 1, 1 } << w("8:0 1 1");
    QTest::newRow("pg_init_retries 50, alua")
        << "0 2097152 multipath 3 queue_if_no_path pg_init_retries 50 1 alua 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 "
           "service-time 0 2 2 8:32 1 1 8:48 1 1"
        << w("queue_if_no_path pg_init_retries 50") << w("alua") << 1 << w("service-time service-time")
        << QList<int> { 2, 2 } << w("8:0 1 1");
    QTest::newRow("pg_init_delay_msecs, retain_attached_hw_handler, rdac")
        << "0 2097152 multipath 5 pg_init_retries 5 pg_init_delay_msecs 2000 retain_attached_hw_handler 1 rdac 1 1 "
           "round-robin 0 2 1 8:0 1 8:16 1"
        << w("pg_init_retries 5 pg_init_delay_msecs 2000 retain_attached_hw_handler") << w("rdac") << 1
        << w("round-robin") << QList<int> { 2 } << w("8:0 1");
    // bio-based maps always retain the attached handler, so the kernel prints both features.
    QTest::newRow("queue_mode bio, kernel output")
        << "0 131072 multipath 3 retain_attached_hw_handler queue_mode bio 0 1 1 round-robin 0 1 1 8:0 1"
        << w("retain_attached_hw_handler queue_mode bio") << none << 1 << w("round-robin") << QList<int> { 1 }
        << w("8:0 1");
    // Debian 6.1 in the lab VM: created with "2 queue_mode bio 0 ...", printed with the alua
    // handler scsi_dh had attached, which bio-based maps retain.
    QTest::newRow("lab 6.1: queue_mode bio retains alua")
        << "0 131072 multipath 3 retain_attached_hw_handler queue_mode bio 1 alua 1 1 round-robin 0 2 1 8:0 1 8:16 1"
        << w("retain_attached_hw_handler queue_mode bio") << w("alua") << 1 << w("round-robin") << QList<int> { 2 }
        << w("8:0 1");
    QTest::newRow("queue_mode mq") << "0 131072 multipath 2 queue_mode mq 0 1 1 round-robin 0 2 1 8:0 1 8:16 1"
                                   << w("queue_mode mq") << none << 1 << w("round-robin") << QList<int> { 2 }
                                   << w("8:0 1");
    QTest::newRow("queue_mode rq") << "0 131072 multipath 2 queue_mode rq 0 1 1 queue-length 0 1 0 8:0"
                                   << w("queue_mode rq") << none << 1 << w("queue-length") << QList<int> { 1 }
                                   << w("8:0");
    QTest::newRow("hardware handler with args (emc 1)")
        << "0 131072 multipath 0 2 emc 1 1 1 round-robin 0 2 1 8:0 1 8:16 1" << none << w("emc 1") << 1
        << w("round-robin") << QList<int> { 2 } << w("8:0 1");
    // historical-service-time prints "2 <base weight> <threshold>" and "0" per path in its table.
    QTest::newRow("historical-service-time, kernel output")
        << "0 131072 multipath 0 0 1 1 historical-service-time 2 972 0 2 1 8:0 0 8:16 0" << none << none << 1
        << w("historical-service-time") << QList<int> { 2 } << w("8:0 0");
    QTest::newRow("historical-service-time, no args")
        << "0 131072 multipath 0 0 1 1 historical-service-time 0 2 0 8:0 8:16" << none << none << 1
        << w("historical-service-time") << QList<int> { 2 } << w("8:0");
    // io-affinity: a CPU mask per path, printed by the kernel with %*pb.
    QTest::newRow("io-affinity") << "0 131072 multipath 0 0 1 1 io-affinity 0 2 1 8:0 1 8:16 2" << none << none << 1
                                 << w("io-affinity") << QList<int> { 2 } << w("8:0 1");
    QTest::newRow("io-affinity, 64-CPU masks")
        << "0 131072 multipath 0 0 1 1 io-affinity 0 2 1 8:0 00000000,0000000f 8:16 ffffffff,fffffff0" << none << none
        << 1 << w("io-affinity") << QList<int> { 2 } << w("8:0 00000000,0000000f");
    QTest::newRow("no groups") << "0 2048 multipath 1 queue_if_no_path 0 0 0" << w("queue_if_no_path") << none << 0
                               << none << QList<int> {} << none;
}

void TestMultipathTable::parseLine()
{
    QFETCH(QString, line);
    QFETCH(QStringList, features);
    QFETCH(QStringList, hwHandler);
    QFETCH(int, initialGroup);
    QFETCH(QStringList, selectors);
    QFETCH(QList<int>, pathCounts);
    QFETCH(QStringList, firstPath);

    const auto table = parseMultipathTableLine(line);
    QVERIFY2(table.ok(), qPrintable(table.errorMessage()));
    QCOMPARE(table->features, features);
    QCOMPARE(table->hwHandler, hwHandler);
    QCOMPARE(table->initialGroup, initialGroup);
    QStringList actualSelectors;
    QList<int> actualCounts;
    for (const PathGroupSpec &group : table->groups) {
        actualSelectors.append(group.selector);
        actualCounts.append(int(group.paths.size()));
        for (const PathSpec &path : group.paths)
            QCOMPARE(int(path.args.size()), group.perPathArgCount);
    }
    QCOMPARE(actualSelectors, selectors);
    QCOMPARE(actualCounts, pathCounts);
    if (!firstPath.isEmpty()) {
        const PathSpec &path = table->groups.first().paths.first();
        QCOMPARE(QStringList { path.device } + path.args, firstPath);
    }

    // Round trip: the canonical text is the kernel's text.
    const QString params = line.section(QLatin1Char(' '), 3);
    QCOMPARE(formatMultipathTable(table.value()), params);
    QVERIFY(checkMultipathTable(table.value()));
}

void TestMultipathTable::rejectsMalformed_data()
{
    QTest::addColumn<QString>("params");
    QTest::addColumn<QString>("error"); // a part of the message

    QTest::newRow("empty") << ""
                           << "empty text: expected the number of feature words";
    QTest::newRow("blank") << "   "
                           << "empty text";
    QTest::newRow("second group missing") << "0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1"
                                          << "truncated after word 12: expected the path selector of priority group 2";
    QTest::newRow("second path missing") << "0 0 1 1 round-robin 0 2 1 8:0 1"
                                         << "expected the device of path 2 in priority group 1";
    QTest::newRow("path args cut") << "0 0 1 1 service-time 0 1 2 8:0 1"
                                   << "expected 2 word(s) for the arguments of path 1 in priority group 1, only 1 left";
    QTest::newRow("features cut") << "5 queue_if_no_path"
                                  << "expected 5 word(s) for the features, only 1 left";
    QTest::newRow("too many feature words") << "9 a b c d e f g h i 0 0 0"
                                            << "word 1 \"9\"";
    QTest::newRow("path count too large") << "0 0 1 1 round-robin 0 2000 1 8:0 1"
                                          << "the number of paths of priority group 1 (1-1024)";
    QTest::newRow("path count zero") << "0 0 1 1 round-robin 0 0 1"
                                     << "the number of paths";
    QTest::newRow("group count too large") << "0 0 1025 1"
                                           << "the number of priority groups (0-1024)";
    QTest::newRow("hw count larger than the text") << "0 1000 alua"
                                                   << "only 1 left";
    QTest::newRow("non-numeric group count") << "0 0 x 1"
                                             << "word 3 \"x\" (column 5)";
    QTest::newRow("negative") << "0 0 -1 1"
                              << "word 3 \"-1\"";
    QTest::newRow("huge number") << "0 0 99999999999999999999999 1"
                                 << "the number of priority groups";
    QTest::newRow("initial group too large") << "0 0 1 2 round-robin 0 1 1 8:0 1"
                                             << "initial priority group is larger";
    QTest::newRow("initial group zero") << "0 0 1 0 round-robin 0 1 1 8:0 1"
                                        << "must be 0 exactly when there are no groups";
    QTest::newRow("unknown feature") << "1 bogus 0 0 0"
                                     << "word 2 \"bogus\" (column 3): unknown multipath feature";
    QTest::newRow("pg_init_retries out of range") << "2 pg_init_retries 51 0 0 0"
                                                  << "pg_init_retries must be between 1 and 50";
    QTest::newRow("pg_init_retries zero") << "2 pg_init_retries 0 0 0 0"
                                          << "pg_init_retries must be between 1 and 50";
    QTest::newRow("pg_init_retries without value") << "1 pg_init_retries 0 0 0"
                                                   << "needs a value";
    QTest::newRow("pg_init_delay_msecs out of range") << "2 pg_init_delay_msecs 60001 0 0 0"
                                                      << "pg_init_delay_msecs must be";
    QTest::newRow("bad queue_mode") << "2 queue_mode fast 0 0 0"
                                    << "queue_mode must be bio, rq or mq";
    QTest::newRow("words after the last group") << "0 0 1 1 round-robin 0 1 1 8:0 1 8:16 1"
                                                << "word 11 \"8:16\" (column 33): unexpected word after the last of 1";
    QTest::newRow("device name instead of maj:min") << "0 0 1 1 round-robin 0 1 1 sda 1"
                                                    << "expected a device";
    QTest::newRow("major out of range") << "0 0 1 1 round-robin 0 1 1 4096:0 1"
                                        << "expected a device";
    QTest::newRow("relative throughput above 100") << "0 0 1 1 service-time 0 1 2 8:0 1 101"
                                                   << "relative throughput";
    QTest::newRow("service-time 3 per-path args") << "0 0 1 1 service-time 0 1 3 8:0 1 1 1"
                                                  << "at most 2 argument(s)";
    QTest::newRow("round-robin 2 per-path args") << "0 0 1 1 round-robin 0 1 2 8:0 1 1"
                                                 << "at most 1 argument(s)";
    QTest::newRow("round-robin repeat count not a number") << "0 0 1 1 round-robin 0 1 1 8:0 x"
                                                           << "invalid repeat count";
    QTest::newRow("io-affinity without mask") << "0 0 1 1 io-affinity 0 1 0 8:0"
                                              << "exactly one argument";
    QTest::newRow("io-affinity empty mask") << "0 0 1 1 io-affinity 0 1 1 8:0 0,0"
                                            << "invalid CPU mask";
    QTest::newRow("io-affinity not hex") << "0 0 1 1 io-affinity 0 1 1 8:0 0xg"
                                         << "invalid CPU mask";
    QTest::newRow("numeric selector") << "0 0 1 1 1 0 1 1 8:0 1"
                                      << "expected a path selector name";
    QTest::newRow("hst base weight 1024") << "0 0 1 1 historical-service-time 1 1024 1 0 8:0"
                                          << "base weight";
    QTest::newRow("hst 3 selector args") << "0 0 1 1 historical-service-time 3 1 1 1 1 0 8:0"
                                         << "at most 2 selector arguments";
    // The status example from the task brief, fed to the table parser: a status is not a table.
    QTest::newRow("a status line") << "2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0"
                                   << "unknown multipath feature";
}

void TestMultipathTable::rejectsMalformed()
{
    QFETCH(QString, params);
    QFETCH(QString, error);
    const auto table = parseMultipathTable(params);
    QVERIFY(!table.ok());
    QVERIFY2(table.errorMessage().contains(error), qPrintable(table.errorMessage()));
}

void TestMultipathTable::errorNamesWordAndColumn()
{
    const auto table = parseMultipathTable(u"0 0 x 1");
    QCOMPARE(table.errorMessage(),
        QStringLiteral("word 3 \"x\" (column 5): expected the number of priority groups (0-1024)"));
    const auto line = parseMultipathTableLine(u"0 1024 linear 8:0 0");
    QCOMPARE(line.errorMessage(), QStringLiteral("target type is \"linear\", not multipath"));
    const auto badLine = parseMultipathTableLine(u"0 131072 multipath 0 0 1 1 round-robin 0 1 1 8:0");
    QVERIFY(badLine.errorMessage().startsWith(QStringLiteral("multipath table: truncated after word 9")));
}

// Every line of the fixture (table lines as dmsetup prints them, trailing blank included).
void TestMultipathTable::fixtureLinesRoundTrip()
{
    QFile file(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/multipath-tables.txt"));
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    int count = 0;
    while (!file.atEnd()) {
        const QString raw = QString::fromUtf8(file.readLine()).remove(QLatin1Char('\n'));
        if (raw.trimmed().isEmpty() || raw.startsWith(QLatin1Char('#')))
            continue;
        const auto line = parseTargetLine(raw);
        QVERIFY2(line.ok(), qPrintable(raw));
        const auto table = parseMultipathTable(line->params);
        QVERIFY2(table.ok(), qPrintable(raw + QStringLiteral(": ") + table.errorMessage()));
        DmTargetLine formatted = line.value();
        formatted.params = formatMultipathTable(table.value());
        QCOMPARE(formatTargetLine(formatted), raw.trimmed());
        ++count;
    }
    QVERIFY(count >= 5);
}

void TestMultipathTable::featureHelpers()
{
    const auto table
        = parseMultipathTable(u"3 queue_if_no_path pg_init_retries 50 1 alua 1 1 service-time 0 1 2 8:0 1 1");
    QVERIFY(table.ok());
    QVERIFY(table->queueIfNoPath());
    QCOMPARE(table->featureValue(u"pg_init_retries"), QStringLiteral("50"));
    QVERIFY(table->featureValue(u"pg_init_delay_msecs").isEmpty());
    const auto plain = parseMultipathTable(u"0 0 1 1 round-robin 0 1 1 8:0 1");
    QVERIFY(plain.ok());
    QVERIFY(!plain->queueIfNoPath());
}

void TestMultipathTable::checkFindsInconsistentEdits()
{
    auto table = parseMultipathTable(u"0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1");
    QVERIFY(table.ok());
    MultipathTable edited = table.value();
    edited.groups[0].paths[1].args.clear(); // one path without its repeat count
    QVERIFY(!checkMultipathTable(edited));
    edited = table.value();
    edited.groups[0].paths.append({ QStringLiteral("8:32"), { QStringLiteral("1") } });
    QVERIFY(checkMultipathTable(edited));
    QCOMPARE(formatMultipathTable(edited), QStringLiteral("0 0 1 1 round-robin 0 3 1 8:0 1 8:16 1 8:32 1"));
    edited.groups[0].paths[2].device = QStringLiteral("sdc");
    QVERIFY(!checkMultipathTable(edited));
}

void TestMultipathTable::targetLine()
{
    // dmsetup prints the kernel's trailing blank; the params keep their inner text as is.
    const auto line = parseTargetLine(u"0 131072 multipath 0 0 1 1 round-robin 0 1 1 8:0 1 ");
    QVERIFY(line.ok());
    QCOMPARE(line->start, quint64(0));
    QCOMPARE(line->length, quint64(131072));
    QCOMPARE(line->targetType, QStringLiteral("multipath"));
    QCOMPARE(line->params, QStringLiteral("0 0 1 1 round-robin 0 1 1 8:0 1"));
    QCOMPARE(formatTargetLine(line.value()), QStringLiteral("0 131072 multipath 0 0 1 1 round-robin 0 1 1 8:0 1"));
    QVERIFY(!parseTargetLine(u"").ok());
    QVERIFY(!parseTargetLine(u"0 131072").ok());
    QVERIFY(!parseTargetLine(u"x 131072 linear").ok());
    QVERIFY(!parseTargetLine(u"0 18446744073709551616 linear 8:0 0").ok()); // 2^64
    QVERIFY(parseTargetLine(u"0 18446744073709551615 error").ok());
    const auto lines = parseTargetLines(u"0 1024 linear 8:0 0\n\n1024 1024 linear 8:16 0\n");
    QVERIFY(lines.ok());
    QCOMPARE(lines->size(), 2);
    QCOMPARE(formatTargetLine(lines->at(1)), QStringLiteral("1024 1024 linear 8:16 0"));
    QVERIFY(parseTargetLines(u"0 1024 linear 8:0 0\nbogus").errorMessage().startsWith(QStringLiteral("line 2:")));
}

QTEST_GUILESS_MAIN(TestMultipathTable)
#include "tst_multipathtable.moc"
