// operationRisks / reloadRisks: which operations on the lab's 2 x 2 map can cause I/O errors;
// identityRisks: which reloads would put another LUN into it.
// Tables and statuses in the kernel's own text (see fixtures/multipath-*.txt).
#include "core/dm/mapsafety.h"

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

    // The lab's map: scsi_debug LUN 0 behind 8:0..8:48 (uuid as setup-multipath.sh makes it); 8:64 is
    // LUN 1 of scsi_debug, 252:0 a null_blk device (no WWID), 8:80 a path of LUN 0 the map does not have yet.
    void identityRisks_data()
    {
        QTest::addColumn<QString>("uuid");
        QTest::addColumn<QString>("proposed");
        QTest::addColumn<QStringList>("expected"); // each risk contains these words, in order

        const QString lun0 = QStringLiteral("naa.33333330000007d0");
        const QString lab = QStringLiteral("mpath-33333330000007d0");
        QTest::newRow("regroup own paths")
            << lab << QStringLiteral("0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1") << QStringList();
        QTest::newRow("drop paths") << lab << QStringLiteral("0 0 1 1 round-robin 0 1 1 8:0 1") << QStringList();
        QTest::newRow("another LUN") << lab << QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:64 1")
                                     << QStringList { QStringLiteral(
                                            "sde (8:64) is LUN naa.33333330000007d1, not LUN %1 of mpatha: the map "
                                            "would spread its writes over two different disks")
                                                          .arg(lun0) };
        QTest::newRow("a disk without WWID")
            << lab << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 1 1 252:0 1")
            << QStringList {
                   QStringLiteral("nullb0 (252:0) reports no WWID: nothing shows that it is LUN %1 of mpatha").arg(lun0)
               };
        QTest::newRow("a disk sysfs does not know") << lab << QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:240 1")
                                                    << QStringList { QStringLiteral("8:240 reports no WWID") };
        QTest::newRow("a new path of the same LUN")
            << lab << QStringLiteral("0 0 1 1 round-robin 0 3 1 8:0 1 8:16 1 8:80 1") << QStringList();
        QTest::newRow("multipathd's uuid (ID_SERIAL form)")
            << QStringLiteral("mpath-333333330000007d0") << QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:80 1")
            << QStringList();
        QTest::newRow("no uuid: the paths' LUN")
            << QString() << QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:64 1")
            << QStringList { QStringLiteral("is LUN naa.33333330000007d1, not LUN %1").arg(lun0) };
        QTest::newRow("two foreign paths, each named")
            << lab << QStringLiteral("0 0 2 1 round-robin 0 1 1 8:64 1 round-robin 0 1 1 252:0 1")
            << QStringList { QStringLiteral("sde (8:64) is LUN naa.33333330000007d1"),
                   QStringLiteral("nullb0 (252:0) reports no WWID") };
    }

    void identityRisks()
    {
        QFETCH(QString, uuid);
        QFETCH(QString, proposed);
        QFETCH(QStringList, expected);
        const MultipathTable current = table(rr2x2);
        const auto path = [](const char *device, const char *name, const char *wwid) {
            return PathIdentity { QLatin1String(device), QLatin1String(name),
                *wwid ? QStringList { QLatin1String(wwid) } : QStringList() };
        };
        MapIdentity identity { QStringLiteral("mpatha"), uuid,
            { path("8:0", "sda", "naa.33333330000007d0"), path("8:16", "sdb", "naa.33333330000007d0"),
                path("8:32", "sdc", "naa.33333330000007d0"), path("8:48", "sdd", "naa.33333330000007d0"),
                path("8:64", "sde", "naa.33333330000007d1"), path("252:0", "nullb0", ""),
                path("8:80", "sdf", "333333330000007d0"), path("8:240", "", "") } };
        const QStringList risks = dmtune::identityRisks(identity, current, table(proposed));
        QCOMPARE(risks.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i)
            QVERIFY2(risks.at(i).contains(expected.at(i)), qPrintable(risks.at(i)));
    }

    // The UUID "mpath-3" + a 16-digit NAA 6 parses as half a name (udev's ID_SERIAL form), the paths'
    // "naa." + the same digits as a whole one: the risk names the map's LUN once.
    void mapLunNamedOnce()
    {
        const MultipathTable current = table(QStringLiteral("0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1"));
        const MultipathTable proposed = table(QStringLiteral("0 0 1 1 round-robin 0 3 1 8:0 1 8:16 1 8:64 1"));
        const MapIdentity identity { QStringLiteral("mpatha"), QStringLiteral("mpath-36001405aaaaaaaaa"),
            { { QStringLiteral("8:0"), QStringLiteral("sda"), { QStringLiteral("naa.6001405aaaaaaaaa") } },
                { QStringLiteral("8:16"), QStringLiteral("sdb"), { QStringLiteral("naa.6001405aaaaaaaaa") } },
                { QStringLiteral("8:64"), QStringLiteral("sde"), { QStringLiteral("naa.6001405bbbbbbbbb") } } } };
        const QStringList risks = dmtune::identityRisks(identity, current, proposed);
        QCOMPARE(risks.size(), 1);
        QVERIFY2(risks.first().contains(QStringLiteral(
                     "sde (8:64) is LUN naa.6001405bbbbbbbbb, not LUN naa.6001405aaaaaaaaa of mpatha: ")),
            qPrintable(risks.first()));
    }

    void identityUnknownMap()
    {
        // mpathn of the lab: null_blk paths, a uuid made by hand; a new path cannot be told apart
        const MultipathTable current = table(QStringLiteral("0 0 1 1 queue-length 0 2 1 252:0 1 252:1 1"));
        const MultipathTable proposed = table(QStringLiteral("0 0 1 1 queue-length 0 3 1 252:0 1 252:1 1 8:64 1"));
        const MapIdentity identity { QStringLiteral("mpathn"), QStringLiteral("mpath-lab-nullblk"),
            { { QStringLiteral("252:0"), QStringLiteral("nullb0"), {} },
                { QStringLiteral("252:1"), QStringLiteral("nullb1"), {} },
                { QStringLiteral("8:64"), QStringLiteral("sde"), { QStringLiteral("naa.33333330000007d1") } } } };
        QStringList risks = dmtune::identityRisks(identity, current, proposed);
        QCOMPARE(risks.size(), 1);
        QVERIFY2(risks.first().contains(QStringLiteral("sde (8:64) is LUN naa.33333330000007d1, not LUN lab-nullblk")),
            qPrintable(risks.first()));
        // its own paths regrouped: nothing to judge
        QVERIFY(dmtune::identityRisks(identity, current,
            table(QStringLiteral("0 0 2 1 queue-length 0 1 1 252:0 1 "
                                 "queue-length 0 1 1 252:1 1")))
                    .isEmpty());
        // no uuid and no WWID at all: the map's LUN is unknown
        const MapIdentity unknown { QStringLiteral("mpathn"), QString(), identity.paths };
        risks = dmtune::identityRisks(unknown, current, proposed);
        QCOMPARE(risks.size(), 1);
        QVERIFY2(risks.first().contains(QStringLiteral("the LUN of mpathn is unknown")), qPrintable(risks.first()));
        QVERIFY2(risks.first().contains(QStringLiteral("naa.33333330000007d1")), qPrintable(risks.first()));
    }
};

QTEST_GUILESS_MAIN(TestMapSafety)
#include "tst_mapsafety.moc"
