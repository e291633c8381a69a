// operationRisks / reloadRisks: which operations on the lab's 2 x 2 map can cause I/O errors.
// Tables and statuses in the kernel's own text (see fixtures/multipath-*.txt).
#include "dm/mapsafety.h"

#include <QTest>

Q_DECLARE_METATYPE(dmtune::MultipathMessage)

using namespace dmtune;

namespace {
MultipathTable table(const QString &params)
{
    const auto parsed = parseMultipathTable(params);
    if (!parsed)
        qFatal("bad table in test: %s", qPrintable(parsed.errorMessage()));
    return parsed.value();
}

MultipathStatus status(const QString &params)
{
    const auto parsed = parseMultipathStatus(params);
    if (!parsed)
        qFatal("bad status in test: %s", qPrintable(parsed.errorMessage()));
    return parsed.value();
}

const QString rr2x2 = QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
const QString rr2x2Queue
    = QStringLiteral("1 queue_if_no_path 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
// group 1 in use, every path active
const QString allActive = QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0");
// 8:16 failed: 8:0 is the last active path of group 1
const QString oneOfGroup1Failed = QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 F 1 E 0 2 0 8:32 A 0 8:48 A 0");
// only 8:48 left
const QString lastPath = QStringLiteral("2 0 0 0 2 2 E 0 2 0 8:0 F 1 8:16 F 1 A 0 2 0 8:32 F 1 8:48 A 0");
// nothing active, queueing
const QString nonePath = QStringLiteral("2 1 0 0 2 1 E 0 2 0 8:0 F 1 8:16 F 1 E 0 2 0 8:32 F 1 8:48 F 1");
// before any I/O: no group in use, group 1 next
const QString fresh = QStringLiteral("2 0 0 0 2 1 E 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0");

MultipathMessage fail(const QString &device)
{
    return { MultipathMessageKind::FailPath, device, 0 };
}

MultipathMessage group(MultipathMessageKind kind, int number)
{
    return { kind, {}, number };
}
} // namespace

class TestMapSafety : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void operationRisks_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("status");
        QTest::addColumn<MultipathMessage>("operation");
        // Substrings, one per expected risk; empty: safe.
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("fail one of four") << rr2x2 << allActive << fail(QStringLiteral("8:16")) << QStringList();
        QTest::newRow("fail last of group, no queueing")
            << rr2x2 << oneOfGroup1Failed << fail(QStringLiteral("8:0"))
            << QStringList { QStringLiteral("leaves group 1 without an active path while queue_if_no_path is off") };
        QTest::newRow("fail last of group, queueing")
            << rr2x2Queue << oneOfGroup1Failed << fail(QStringLiteral("8:0")) << QStringList();
        QTest::newRow("fail last path, no queueing")
            << rr2x2 << lastPath << fail(QStringLiteral("8:48"))
            << QStringList { QStringLiteral("last active path of the map while queue_if_no_path is off") };
        QTest::newRow("fail last path, queueing")
            << rr2x2Queue << lastPath << fail(QStringLiteral("8:48"))
            << QStringList { QStringLiteral("last active path of the map: I/O queues") };
        QTest::newRow("fail an already failed path")
            << rr2x2 << lastPath << fail(QStringLiteral("8:0")) << QStringList();
        QTest::newRow("fail a path not in the map")
            << rr2x2 << allActive << fail(QStringLiteral("8:64")) << QStringList();
        QTest::newRow("reinstate") << rr2x2 << lastPath
                                   << MultipathMessage { MultipathMessageKind::ReinstatePath, QStringLiteral("8:0"), 0 }
                                   << QStringList();
        QTest::newRow("disable the active group")
            << rr2x2 << allActive << group(MultipathMessageKind::DisableGroup, 1)
            << QStringList { QStringLiteral("disables the active group: I/O fails over") };
        QTest::newRow("disable the next group before any I/O")
            << rr2x2 << fresh << group(MultipathMessageKind::DisableGroup, 1)
            << QStringList { QStringLiteral("disables the active group") };
        QTest::newRow("disable another group")
            << rr2x2 << allActive << group(MultipathMessageKind::DisableGroup, 2) << QStringList();
        QTest::newRow("disable the active group, nothing else usable")
            << rr2x2 << QStringLiteral("2 0 0 0 2 1 A 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 F 1 8:48 F 1")
            << group(MultipathMessageKind::DisableGroup, 1)
            << QStringList { QStringLiteral("no other group has an active path") };
        QTest::newRow("disable an already disabled group")
            << rr2x2 << QStringLiteral("2 0 0 0 2 1 D 0 2 0 8:0 A 0 8:16 A 0 E 0 2 0 8:32 A 0 8:48 A 0")
            << group(MultipathMessageKind::DisableGroup, 1) << QStringList();
        QTest::newRow("enable") << rr2x2 << allActive << group(MultipathMessageKind::EnableGroup, 1) << QStringList();
        QTest::newRow("switch to a group without paths")
            << rr2x2 << lastPath << group(MultipathMessageKind::SwitchGroup, 1) << QStringList();
        QTest::newRow("queueing off, paths active")
            << rr2x2Queue << allActive << MultipathMessage { MultipathMessageKind::FailIfNoPath, {}, 0 }
            << QStringList();
        QTest::newRow("queueing off, nothing active")
            << rr2x2Queue << nonePath << MultipathMessage { MultipathMessageKind::FailIfNoPath, {}, 0 }
            << QStringList { QStringLiteral("queued I/O fails with errors now") };
        QTest::newRow("queueing off, one active")
            << rr2x2Queue << lastPath << MultipathMessage { MultipathMessageKind::FailIfNoPath, {}, 0 }
            << QStringList { QStringLiteral("one active path left") };
        QTest::newRow("queueing off when already off")
            << rr2x2 << nonePath << MultipathMessage { MultipathMessageKind::FailIfNoPath, {}, 0 } << QStringList();
        QTest::newRow("queueing on") << rr2x2 << nonePath
                                     << MultipathMessage { MultipathMessageKind::QueueIfNoPath, {}, 0 }
                                     << QStringList();
    }

    void operationRisks()
    {
        QFETCH(QString, table);
        QFETCH(QString, status);
        QFETCH(MultipathMessage, operation);
        QFETCH(QStringList, expected);
        const QStringList risks = dmtune::operationRisks(::table(table), ::status(status), operation);
        QCOMPARE(risks.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QVERIFY2(risks.at(i).contains(expected.at(i)), qPrintable(risks.at(i)));
    }

    void reloadRisks_data()
    {
        QTest::addColumn<QString>("current");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("proposed");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("round-robin to service-time")
            << rr2x2 << allActive
            << QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 2 2 8:32 1 1 8:48 1 1")
            << QStringList();
        QTest::newRow("one group of four")
            << rr2x2 << allActive << QStringLiteral("0 0 1 1 queue-length 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1")
            << QStringList();
        QTest::newRow("no path") << rr2x2 << allActive << QStringLiteral("0 0 0 0")
                                 << QStringList { QStringLiteral("no path: all I/O fails") };
        QTest::newRow("no path, queueing") << rr2x2Queue << allActive << QStringLiteral("1 queue_if_no_path 0 0 0")
                                           << QStringList { QStringLiteral("no path: all I/O queues") };
        QTest::newRow("only failed paths kept")
            << rr2x2 << lastPath << QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1")
            << QStringList { QStringLiteral("none of the new table's paths is active now") };
        QTest::newRow("only new paths") << rr2x2 << allActive << QStringLiteral("0 0 1 1 round-robin 0 1 1 8:64 1")
                                        << QStringList { QStringLiteral(
                                               "keeps none of the paths that are active now") };
        QTest::newRow("drops queue_if_no_path")
            << rr2x2Queue << allActive << rr2x2 << QStringList { QStringLiteral("drops queue_if_no_path") };
        QTest::newRow("a group of failed paths without queueing")
            << rr2x2 << oneOfGroup1Failed
            << QStringLiteral("0 0 2 1 round-robin 0 1 1 8:16 1 round-robin 0 3 1 8:0 1 8:32 1 8:48 1")
            << QStringList { QStringLiteral("group 1 of the new table has no active path") };
        QTest::newRow("same, with queueing")
            << rr2x2 << oneOfGroup1Failed
            << QStringLiteral("1 queue_if_no_path 0 2 1 round-robin 0 1 1 8:16 1 round-robin 0 3 1 8:0 1 8:32 1 8:48 1")
            << QStringList();
        QTest::newRow("adds alua") << rr2x2 << allActive
                                   << QStringLiteral("0 1 alua 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 "
                                                     "8:32 1 8:48 1")
                                   << QStringList { QStringLiteral("hardware handler changes (none -> alua)") };
        QTest::newRow("unchanged") << rr2x2 << allActive << rr2x2 << QStringList();
    }

    void reloadRisks()
    {
        QFETCH(QString, current);
        QFETCH(QString, status);
        QFETCH(QString, proposed);
        QFETCH(QStringList, expected);
        const QStringList risks = dmtune::reloadRisks(table(current), ::status(status), table(proposed));
        QCOMPARE(risks.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QVERIFY2(risks.at(i).contains(expected.at(i)), qPrintable(risks.at(i)));
    }
};

QTEST_GUILESS_MAIN(TestMapSafety)
#include "tst_mapsafety.moc"
