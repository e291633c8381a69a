// tableDiff: what a reload changes, one line per difference, from kernel table text.
#include "core/dm/grammar/tablediff.h"

#include <QTest>

using namespace dmtune;

namespace {
MultipathTable table(const QString &params)
{
    const auto parsed = parseMultipathTable(params);
    if (!parsed)
        qFatal("bad table in test: %s", qPrintable(parsed.errorMessage()));
    return parsed.value();
}

const QString rr2x2 = QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
} // namespace

class TestTableDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void diff_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QStringList>("lines");

        QTest::newRow("equal") << rr2x2 << rr2x2 << QStringList();
        QTest::newRow("selector")
            << rr2x2
            << QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1")
            << QStringList { QStringLiteral("group 1: selector round-robin 0 -> service-time 0"),
                   QStringLiteral("group 1: 8:0 args 1 -> 1 1"), QStringLiteral("group 1: 8:16 args 1 -> 1 1"),
                   QStringLiteral("group 2: selector round-robin 0 -> service-time 0"),
                   QStringLiteral("group 2: 8:32 args 1 -> 1 1"), QStringLiteral("group 2: 8:48 args 1 -> 1 1") };
        QTest::newRow("features") << rr2x2
                                  << QStringLiteral(
                                         "3 queue_if_no_path pg_init_retries 50 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 "
                                         "round-robin 0 2 1 8:32 1 8:48 1")
                                  << QStringList { QStringLiteral(
                                         "features: 0 -> 3 queue_if_no_path pg_init_retries 50") };
        QTest::newRow("hardware handler and initial group")
            << rr2x2 << QStringLiteral("0 1 alua 2 2 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1")
            << QStringList { QStringLiteral("hardware handler: 0 -> 1 alua"), QStringLiteral("initial group: 1 -> 2") };
        QTest::newRow("merge into one group")
            << rr2x2 << QStringLiteral("0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1")
            << QStringList { QStringLiteral("groups: 2 -> 1"), QStringLiteral("group 1: + 8:32 (moved from group 2)"),
                   QStringLiteral("group 1: + 8:48 (moved from group 2)"),
                   QStringLiteral("group 2: removed (round-robin 0: 8:32 8:48)") };
        QTest::newRow("path removed and added")
            << rr2x2 << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:64 1 round-robin 0 2 1 8:32 1 8:48 1")
            << QStringList { QStringLiteral("group 1: + 8:64 (path added)"),
                   QStringLiteral("group 1: - 8:16 (path removed)") };
        QTest::newRow("order") << rr2x2
                               << QStringLiteral(
                                      "0 0 2 1 round-robin 0 2 1 8:16 1 8:0 1 round-robin 0 2 1 8:32 1 8:48 1")
                               << QStringList { QStringLiteral("group 1: path order 8:0 8:16 -> 8:16 8:0") };
        QTest::newRow("swap groups") << rr2x2
                                     << QStringLiteral(
                                            "0 0 2 1 round-robin 0 2 1 8:32 1 8:48 1 round-robin 0 2 1 8:0 1 8:16 1")
                                     << QStringList { QStringLiteral("group 1: + 8:32 (moved from group 2)"),
                                            QStringLiteral("group 1: + 8:48 (moved from group 2)"),
                                            QStringLiteral("group 1: - 8:0 (moved to group 2)"),
                                            QStringLiteral("group 1: - 8:16 (moved to group 2)"),
                                            QStringLiteral("group 2: + 8:0 (moved from group 1)"),
                                            QStringLiteral("group 2: + 8:16 (moved from group 1)"),
                                            QStringLiteral("group 2: - 8:32 (moved to group 1)"),
                                            QStringLiteral("group 2: - 8:48 (moved to group 1)") };
        QTest::newRow("group added") << QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1") << rr2x2
                                     << QStringList { QStringLiteral("groups: 1 -> 2"),
                                            QStringLiteral("group 2: added (round-robin 0: 8:32 8:48)") };
    }

    void diff()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QStringList, lines);
        QCOMPARE(tableDiffLines(table(a), table(b)), lines);
        QCOMPARE(tableDiff(table(a), table(b)), lines.join(QLatin1Char('\n')));
    }
};

QTEST_GUILESS_MAIN(TestTableDiff)
#include "tst_tablediff.moc"
