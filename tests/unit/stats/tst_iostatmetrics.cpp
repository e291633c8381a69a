// The pure iostat arithmetic against sysstat's own iostat: every row is a real pair of /proc/diskstats
// snapshots and the disk object iostat 12.6.1 printed for exactly those two snapshots over a known interval
// (fixtures/iostat-oracle, made by fixtures/capture-oracle-cases.sh). Equal means: every one of the 22 values
// prints the same with 2 decimals.
#include "core/stats/iostatformat.h"
#include "core/stats/iostatmetrics.h"
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace dmtune;

Q_DECLARE_METATYPE(dmtune::DiskCounters)

namespace {

struct OracleCase {
    double intervalSeconds = 0;
    QList<DiskCounters> before;
    QList<DiskCounters> after;
    QStringList sinceBoot; // iostat's first report: counters since boot over the fake uptime (1000 s)
    QStringList interval; // iostat's second report: (before, after) over the interval
};

OracleCase loadCase(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    OracleCase c;
    QString section;
    QString before, after;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n');
    for (const QString &line : lines) {
        if (line.startsWith(u'#') || line.isEmpty())
            continue;
        if (line.startsWith(u'[')) {
            section = line;
            continue;
        }
        if (line.startsWith(QLatin1String("interval-cs ")))
            c.intervalSeconds = line.mid(12).toInt() / 100.0;
        else if (section == QLatin1String("[before]"))
            before += line + u'\n';
        else if (section == QLatin1String("[after]"))
            after += line + u'\n';
        else if (section == QLatin1String("[iostat-since-boot]"))
            c.sinceBoot.append(line);
        else if (section == QLatin1String("[iostat]"))
            c.interval.append(line);
    }
    const auto b = parseDiskstats(before);
    const auto a = parseDiskstats(after);
    if (!b || !a)
        qFatal("%s: %s%s", qPrintable(path), qPrintable(b.errorMessage()), qPrintable(a.errorMessage()));
    c.before = b.value();
    c.after = a.value();
    return c;
}

const DiskCounters *findDevice(const QList<DiskCounters> &list, const QString &name)
{
    for (const auto &c : list) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

QStringList keysInOrder(const QString &jsonLine)
{
    static const QRegularExpression key(QStringLiteral("\"([^\"]+)\":"));
    QStringList keys;
    for (auto it = key.globalMatch(jsonLine); it.hasNext();)
        keys.append(it.next().captured(1));
    return keys;
}

} // namespace

class TestIostatMetrics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesSysstat_data();
    void matchesSysstat();
    void jsonKeysAreIostats();
    void backwardsCountersClampToZero_data();
    void backwardsCountersClampToZero();
    void zeroIntervalGivesZeroRates();
    void inflightPassesThrough();
};

void TestIostatMetrics::matchesSysstat_data()
{
    QTest::addColumn<DiskCounters>("prev");
    QTest::addColumn<DiskCounters>("cur");
    QTest::addColumn<double>("dtSeconds");
    QTest::addColumn<QString>("iostat");

    const QDir dir(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/iostat-oracle"));
    const QStringList files = dir.entryList({ QStringLiteral("*.txt") }, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 6);
    for (const QString &file : files) {
        const OracleCase c = loadCase(dir.filePath(file));
        QVERIFY(c.intervalSeconds > 0);
        QCOMPARE(c.interval.size(), c.after.size());
        QCOMPARE(c.sinceBoot.size(), c.before.size());
        for (const QString &line : c.interval) {
            const QString name = QJsonDocument::fromJson(line.toUtf8()).object().value(u"disk_device").toString();
            const DiskCounters *prev = findDevice(c.before, name);
            const DiskCounters *cur = findDevice(c.after, name);
            QVERIFY2(prev && cur, qPrintable(name));
            QTest::addRow("%s %s", qPrintable(file.chopped(4)), qPrintable(name))
                << *prev << *cur << c.intervalSeconds << line;
        }
        for (const QString &line : c.sinceBoot) {
            const QString name = QJsonDocument::fromJson(line.toUtf8()).object().value(u"disk_device").toString();
            const DiskCounters *cur = findDevice(c.before, name);
            QVERIFY2(cur, qPrintable(name));
            DiskCounters zero;
            zero.name = name;
            QTest::addRow("%s %s since boot", qPrintable(file.chopped(4)), qPrintable(name))
                << zero << *cur << 1000.0 << line;
        }
    }
}

void TestIostatMetrics::matchesSysstat()
{
    QFETCH(DiskCounters, prev);
    QFETCH(DiskCounters, cur);
    QFETCH(double, dtSeconds);
    QFETCH(QString, iostat);

    const QJsonObject expected = QJsonDocument::fromJson(iostat.toUtf8()).object();
    QVERIFY(!expected.isEmpty());
    const IostatMetrics ours = IostatMetrics::compute(prev, cur, dtSeconds);
    QStringList differences;
    int compared = 0;
    for (Metric m : MetricCatalog::all()) {
        if (!MetricCatalog::info(m).iostatColumn)
            continue;
        const QString key = MetricCatalog::jsonKey(m);
        QVERIFY2(expected.contains(key), qPrintable(key));
        const QString theirs = iostatformat::fixed2(expected.value(key).toDouble());
        const QString mine = iostatformat::fixed2(ours[m]);
        ++compared;
        if (theirs != mine)
            differences.append(QStringLiteral("%1: iostat %2, dmtune %3").arg(key, theirs, mine));
    }
    QCOMPARE(compared, 22);
    QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QStringLiteral("; "))));
}

void TestIostatMetrics::jsonKeysAreIostats()
{
    // iostat's disk object keys, in iostat's order, are dmtune's followed by the in-flight pair.
    const OracleCase c = loadCase(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/iostat-oracle/merged-writes.txt"));
    QStringList theirs = keysInOrder(c.interval.first());
    QStringList ours = keysInOrder(iostatformat::jsonDisk({ QStringLiteral("loop0"), IostatMetrics() }));
    QCOMPARE(ours.takeLast(), QStringLiteral("inflight_w"));
    QCOMPARE(ours.takeLast(), QStringLiteral("inflight_r"));
    QCOMPARE(ours, theirs);
}

void TestIostatMetrics::backwardsCountersClampToZero_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("expected");

    // Real loop0 lines of fixtures/iostat-oracle/merged-writes.txt, in reverse order: as if the device had
    // been deleted and recreated between two ticks. Every counter that moved went back: clamped to 0.
    const QString early = QStringLiteral(
        "7 0 loop0 139227 0 1117224 24216 65235 458252 4187648 10606 0 5492 34907 2 0 163840 23 31 61");
    const QString late = QStringLiteral(
        "7 0 loop0 139227 0 1117224 24216 87807 616277 5632256 13427 3 6476 37728 2 0 163840 23 31 61");
    QTest::newRow("reset w/s") << late << early << "w/s"
                               << "0.00";
    QTest::newRow("reset wkB/s") << late << early << "wkB/s"
                                 << "0.00";
    QTest::newRow("reset w_await (0/0)") << late << early << "w_await"
                                         << "0.00";
    QTest::newRow("reset util") << late << early << "util"
                                << "0.00";
    // Only the weighted time went back (a kernel accounting glitch): aqu-sz is 0, the rest is computed.
    const QString glitch
        = QStringLiteral("7 0 loop0 139227 0 1117224 24216 87807 616277 5632256 13427 3 6476 1000 2 0 163840 23 31 61");
    QTest::newRow("glitch aqu-sz") << early << glitch << "aqu-sz"
                                   << "0.00";
    QTest::newRow("glitch w/s") << early << glitch << "w/s"
                                << "22572.00";
    QTest::newRow("glitch wareq-sz") << early << glitch << "wareq-sz"
                                     << "32.00";
}

void TestIostatMetrics::backwardsCountersClampToZero()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    QFETCH(QString, metric);
    const auto prev = parseDiskstatsLine(before);
    const auto cur = parseDiskstatsLine(after);
    QVERIFY(prev && cur);
    Metric m {};
    QVERIFY(MetricCatalog::fromName(metric, &m));
    QTEST(iostatformat::fixed2(IostatMetrics::compute(*prev, *cur, 1.0)[m]), "expected");
}

void TestIostatMetrics::zeroIntervalGivesZeroRates()
{
    const auto prev = parseDiskstatsLine(
        u"7 0 loop0 139227 0 1117224 24216 65235 458252 4187648 10606 0 5492 34907 2 0 163840 23 31 61");
    const auto cur = parseDiskstatsLine(
        u"7 0 loop0 139227 0 1117224 24216 87807 616277 5632256 13427 3 6476 37728 2 0 163840 23 31 61");
    const IostatMetrics m = IostatMetrics::compute(*prev, *cur, 0.0);
    QCOMPARE(m[Metric::WritesPerSec], 0.0);
    QCOMPARE(m[Metric::Utilization], 0.0);
    QCOMPARE(m[Metric::AverageQueueSize], 0.0);
    // Ratios do not depend on time.
    QCOMPARE(iostatformat::fixed2(m[Metric::WriteRequestSize]), QStringLiteral("32.00"));
    QCOMPARE(iostatformat::fixed2(m[Metric::WriteMergedPercent]), QStringLiteral("87.50"));
}

void TestIostatMetrics::inflightPassesThrough()
{
    DiskCounters zero;
    const IostatMetrics m = IostatMetrics::compute(zero, zero, 1.0, 3, 29);
    QCOMPARE(m[Metric::InflightReads], 3.0);
    QCOMPARE(m[Metric::InflightWrites], 29.0);
    QCOMPARE(m[Metric::ReadsPerSec], 0.0);
}

QTEST_GUILESS_MAIN(TestIostatMetrics)
#include "tst_iostatmetrics.moc"
