// /proc/stat's cpuN lines and /proc/softirqs' BLOCK row, parsed from real text (this 2-CPU machine, a 4-CPU
// lab VM), and the share of time in softirq between two readings.
#include "core/diagnosis/softirqstats.h"

#include <QTest>

using namespace dmtune;
using namespace Qt::StringLiterals;

class TstSoftirqStats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void procStat_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("cpus"); // -1: refused
        QTest::addColumn<quint64>("softirq0");
        QTest::addColumn<quint64>("total0");
        QTest::newRow("Debian 12, 2 CPUs") << u"cpu  59507 0 18445 27980 498 0 247 0 0 0\n"
                                              u"cpu0 27972 0 8183 17066 45 0 54 0 0 0\n"
                                              u"cpu1 31535 0 10262 10913 453 0 193 0 0 0\n"
                                              u"intr 408700 0 0 0\nctxt 1234\nbtime 1764858000\nprocesses 100\n"_s
                                           << 2 << quint64(54) << quint64(27972 + 8183 + 17066 + 45 + 54);
        QTest::newRow("lab VM, 4 CPUs, 6.1")
            << u"cpu  1200 0 3400 90000 10 0 620 0 0 0\n"
               u"cpu0 300 0 900 22000 2 0 610 0 0 0\ncpu1 300 0 800 23000 3 0 4 0 0 0\n"
               u"cpu2 300 0 900 22000 2 0 3 0 0 0\ncpu3 300 0 800 23000 3 0 3 0 0 0\n"_s
            << 4 << quint64(610) << quint64(300 + 900 + 22000 + 2 + 610);
        QTest::newRow("2.6-era line with 7 columns") << u"cpu0 1 2 3 4 5 6 7\n"_s << 1 << quint64(7) << quint64(28);
        QTest::newRow("no cpu lines") << u"intr 1 2 3\n"_s << -1 << quint64(0) << quint64(0);
        QTest::newRow("a cpu line cut short") << u"cpu0 1 2 3\n"_s << -1 << quint64(0) << quint64(0);
        QTest::newRow("not a number") << u"cpu0 1 2 3 4 5 6 x\n"_s << -1 << quint64(0) << quint64(0);
    }
    void procStat()
    {
        QFETCH(QString, text);
        QFETCH(int, cpus);
        QFETCH(quint64, softirq0);
        QFETCH(quint64, total0);
        const auto parsed = parseProcStatCpus(text);
        if (cpus < 0) {
            QVERIFY(!parsed);
            QVERIFY(parsed.errorMessage().startsWith(u"/proc/stat"_s));
            return;
        }
        QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
        QCOMPARE(parsed->size(), cpus);
        QCOMPARE(parsed->first().cpu, 0);
        QCOMPARE(parsed->first().softirq, softirq0);
        QCOMPARE(parsed->first().total, total0);
    }

    void softirqs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("cpu");
        QTest::addColumn<qint64>("block"); // -1: refused
        const QString machine = u"                    CPU0       CPU1       \n"
                                u"          HI:          0          0\n"
                                u"       TIMER:      14578      16292\n"
                                u"      NET_TX:          3          1\n"
                                u"      NET_RX:       2912       3214\n"
                                u"       BLOCK:          0      80428\n"
                                u"    IRQ_POLL:          0          0\n"
                                u"     TASKLET:          4          0\n"
                                u"       SCHED:      28161      24823\n"
                                u"     HRTIMER:          1          2\n"
                                u"         RCU:      31580      40001\n"_s;
        QTest::newRow("this machine, CPU1") << machine << 1 << qint64(80428);
        QTest::newRow("this machine, CPU0") << machine << 0 << qint64(0);
        QTest::newRow("CPUs 0 and 2 online")
            << u"                    CPU0       CPU2\n       BLOCK:        17         99\n"_s << 2 << qint64(99);
        QTest::newRow("no BLOCK row") << u"                    CPU0\n          HI:          0\n"_s << 0 << qint64(-1);
        QTest::newRow("columns missing") << u"                    CPU0       CPU1\n       BLOCK:        17\n"_s << 0
                                         << qint64(-1);
        QTest::newRow("empty") << QString() << 0 << qint64(-1);
    }
    void softirqs()
    {
        QFETCH(QString, text);
        QFETCH(int, cpu);
        QFETCH(qint64, block);
        const auto parsed = parseSoftirqsRow(text, u"BLOCK");
        if (block < 0) {
            QVERIFY(!parsed);
            QVERIFY(parsed.errorMessage().startsWith(u"/proc/softirqs"_s));
            return;
        }
        QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
        QCOMPARE(parsed->value(cpu), quint64(block));
    }

    void shareBetweenReadings()
    {
        const QList<CpuTimes> before { { 0, 1000, 10 }, { 1, 1000, 10 }, { 2, 1000, 0 } };
        // CPU 0 spent 96 of its 100 ticks in softirq (seed 001's ksoftirqd/4); CPU 2 went offline.
        const QList<CpuTimes> after { { 0, 1100, 106 }, { 1, 1100, 12 } };
        const auto load = softirqLoad(before, after, { { 0, 500 }, { 1, 7 } }, { { 0, 10500 }, { 1, 7 } }, 2.0);
        QCOMPARE(load.size(), 2);
        QCOMPARE(load.at(0).cpu, 0);
        QCOMPARE(load.at(0).softirqShare, 0.96);
        QCOMPARE(load.at(0).blockSoftirqsPerSec, 5000.0);
        QCOMPARE(load.at(1).softirqShare, 0.02);
        QCOMPARE(load.at(1).blockSoftirqsPerSec, 0.0);
    }
};

QTEST_GUILESS_MAIN(TstSoftirqStats)
#include "tst_softirqstats.moc"
