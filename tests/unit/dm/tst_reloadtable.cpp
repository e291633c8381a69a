// The table of a multipath.reload request (dm/reloadtable.h): what dmtunectl map reload --table/--selector
// --group, the GUI and a remote agent send is turned into the same table with the same errors.
#include "core/dm/reloadtable.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include <QTest>

using namespace dmtune;

namespace {
const DmTargetLine mapLine { 0, 2097152, QStringLiteral("multipath"),
    QStringLiteral("1 queue_if_no_path 1 alua 1 1 service-time 0 2 2 8:16 1 1 8:32 1 1") };
}

class TestReloadTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fromText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("table"); // formatted; empty: an error
        QTest::addColumn<QString>("error"); // part of the error
        QTest::newRow("params only") << QStringLiteral("0 0 1 1 round-robin 0 1 1 8:16 1")
                                     << QStringLiteral("0 0 1 1 round-robin 0 1 1 8:16 1") << QString();
        QTest::newRow("a whole line, as dmsetup table prints it")
            << QStringLiteral("0 2097152 multipath 0 0 1 1 round-robin 0 1 1 8:16 1  ")
            << QStringLiteral("0 0 1 1 round-robin 0 1 1 8:16 1") << QString();
        QTest::newRow("a line of another extent") << QStringLiteral("0 1024 multipath 0 0 1 1 round-robin 0 1 1 8:16 1")
                                                  << QString() << QStringLiteral("covers 0+1024, the map 0+2097152");
        QTest::newRow("the kernel's grammar") << QStringLiteral("0 0 1 1 round-robin 0 1 2 8:16 1") << QString()
                                              << QStringLiteral("arguments of path 1 in priority group 1");
    }
    void fromText()
    {
        QFETCH(QString, text);
        QFETCH(QString, table);
        QFETCH(QString, error);
        const auto parsed = reloadTableFromText(text, mapLine);
        QCOMPARE(parsed.ok(), error.isEmpty());
        if (parsed)
            QCOMPARE(formatMultipathTable(parsed.value()), table);
        else
            QVERIFY2(parsed.errorMessage().contains(error), qPrintable(parsed.errorMessage()));
    }

    void fromGroups_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QList<QStringList>>("groups");
        QTest::addColumn<QStringList>("features"); // "keep": the map's
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("error");
        const QStringList keep { QStringLiteral("keep") };
        QTest::newRow("names, /dev paths and numbers; features and handler kept")
            << QStringLiteral("round-robin")
            << QList<QStringList> { { QStringLiteral("sdb"), QStringLiteral("8:32") }, { QStringLiteral("sdd") } }
            << keep
            << QStringLiteral("1 queue_if_no_path 1 alua 2 1 round-robin 0 2 1 8:16 1 8:32 1 round-robin 0 1 1 8:48 1")
            << QString();
        QTest::newRow("features given: none")
            << QStringLiteral("service-time") << QList<QStringList> { { QStringLiteral("sdb") } } << QStringList()
            << QStringLiteral("0 1 alua 1 1 service-time 0 1 2 8:16 1 1") << QString();
        QTest::newRow("historical-service-time prints 0 per path")
            << QStringLiteral("historical-service-time") << QList<QStringList> { { QStringLiteral("sdc") } } << keep
            << QStringLiteral("1 queue_if_no_path 1 alua 1 1 historical-service-time 0 1 1 8:32 0") << QString();
        QTest::newRow("io-affinity gets CPU 0's mask")
            << QStringLiteral("io-affinity") << QList<QStringList> { { QStringLiteral("sdc") } } << keep
            << QStringLiteral("1 queue_if_no_path 1 alua 1 1 io-affinity 0 1 1 8:32 1") << QString();
        QTest::newRow("unknown selector")
            << QStringLiteral("fastest") << QList<QStringList> { { QStringLiteral("sdb") } } << keep << QString()
            << QStringLiteral("unknown selector 'fastest'");
        QTest::newRow("unknown device") << QStringLiteral("round-robin")
                                        << QList<QStringList> { { QStringLiteral("sdb"), QStringLiteral("sdz") } }
                                        << keep << QString() << QStringLiteral("sdz");
        QTest::newRow("an empty group") << QStringLiteral("round-robin")
                                        << QList<QStringList> { { QStringLiteral("sdb") }, {} } << keep << QString()
                                        << QStringLiteral("group 2 names no device");
        QTest::newRow("no group") << QStringLiteral("round-robin") << QList<QStringList> {} << keep << QString()
                                  << QStringLiteral("at least one group");
        QTest::newRow("a feature the kernel does not know")
            << QStringLiteral("round-robin") << QList<QStringList> { { QStringLiteral("sdb") } }
            << QStringList { QStringLiteral("turbo") } << QString() << QStringLiteral("turbo");
    }
    void fromGroups()
    {
        QFETCH(QString, selector);
        QFETCH(QList<QStringList>, groups);
        QFETCH(QStringList, features);
        QFETCH(QString, table);
        QFETCH(QString, error);
        test::FakeSysfs sys; // sda..sdd (8:0..8:48): the names a request's groups give
        test::buildMultipathFixture(sys);
        const auto current = parseMultipathTable(mapLine.params);
        QVERIFY(current.ok());
        ReloadGroups request { selector, groups, std::nullopt };
        if (features != QStringList { QStringLiteral("keep") })
            request.features = features;
        const auto built = reloadTableFromGroups(SysfsRoot(sys.root(), QString()), current.value(), request);
        QCOMPARE(built.ok(), error.isEmpty());
        if (built)
            QCOMPARE(formatMultipathTable(built.value()), table);
        else
            QVERIFY2(built.errorMessage().contains(error), qPrintable(built.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TestReloadTable)
#include "tst_reloadtable.moc"
