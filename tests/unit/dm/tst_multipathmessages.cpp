// Multipath message texts: built, checked and parsed as dm-mpath.c multipath_message() reads them.
#include "core/dm/grammar/multipathmessages.h"

#include <QTest>

using namespace dmtune;

class TestMultipathMessages : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void builders();
    void rejectsBadArguments();
    void parse_data();
    void parse();
    void parseRejects_data();
    void parseRejects();
};

void TestMultipathMessages::builders()
{
    QCOMPARE(failPathMessage(QStringLiteral("8:16")).value(), QStringLiteral("fail_path 8:16"));
    QCOMPARE(reinstatePathMessage(QStringLiteral("/dev/sdb")).value(), QStringLiteral("reinstate_path /dev/sdb"));
    QCOMPARE(switchGroupMessage(1).value(), QStringLiteral("switch_group 1"));
    QCOMPARE(enableGroupMessage(2, 2).value(), QStringLiteral("enable_group 2"));
    QCOMPARE(disableGroupMessage(2, 4).value(), QStringLiteral("disable_group 2"));
    QCOMPARE(queueIfNoPathMessage(), QStringLiteral("queue_if_no_path"));
    QCOMPARE(failIfNoPathMessage(), QStringLiteral("fail_if_no_path"));
    MultipathMessage message { MultipathMessageKind::SwitchGroup, {}, 3 };
    QCOMPARE(formatMultipathMessage(message).value(), QStringLiteral("switch_group 3"));
}

void TestMultipathMessages::rejectsBadArguments()
{
    QVERIFY(!failPathMessage(QStringLiteral("sdb")).ok());
    QVERIFY(!failPathMessage(QStringLiteral("8:16 8:32")).ok());
    QVERIFY(!failPathMessage(QString()).ok());
    const auto zero = switchGroupMessage(0);
    QVERIFY(!zero.ok());
    QCOMPARE(zero.errorMessage(), QStringLiteral("switch_group: group 0 out of range 1-1024"));
    QCOMPARE(disableGroupMessage(3, 2).errorMessage(), QStringLiteral("disable_group: group 3 out of range 1-2"));
    QVERIFY(!enableGroupMessage(1025).ok());
    QVERIFY(!enableGroupMessage(-1).ok());
}

void TestMultipathMessages::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("device");
    QTest::addColumn<int>("group");
    QTest::addColumn<QString>("canonical");

    QTest::newRow("fail_path") << "fail_path 8:16" << int(MultipathMessageKind::FailPath) << "8:16" << 0
                               << "fail_path 8:16";
    QTest::newRow("reinstate_path, path") << "reinstate_path /dev/sdb" << int(MultipathMessageKind::ReinstatePath)
                                          << "/dev/sdb" << 0 << "reinstate_path /dev/sdb";
    QTest::newRow("switch_group") << "switch_group 2" << int(MultipathMessageKind::SwitchGroup) << "" << 2
                                  << "switch_group 2";
    QTest::newRow("enable_group") << "enable_group 1" << int(MultipathMessageKind::EnableGroup) << "" << 1
                                  << "enable_group 1";
    QTest::newRow("disable_group, extra blanks")
        << "  disable_group   2 " << int(MultipathMessageKind::DisableGroup) << "" << 2 << "disable_group 2";
    QTest::newRow("upper case (strcasecmp)")
        << "QUEUE_IF_NO_PATH" << int(MultipathMessageKind::QueueIfNoPath) << "" << 0 << "queue_if_no_path";
    QTest::newRow("fail_if_no_path") << "fail_if_no_path" << int(MultipathMessageKind::FailIfNoPath) << "" << 0
                                     << "fail_if_no_path";
}

void TestMultipathMessages::parse()
{
    QFETCH(QString, text);
    QFETCH(int, kind);
    QFETCH(QString, device);
    QFETCH(int, group);
    QFETCH(QString, canonical);
    const auto message = parseMultipathMessage(text);
    QVERIFY2(message.ok(), qPrintable(message.errorMessage()));
    QCOMPARE(int(message->kind), kind);
    QCOMPARE(message->device, device);
    QCOMPARE(message->group, group);
    QCOMPARE(formatMultipathMessage(message.value()).value(), canonical);
}

void TestMultipathMessages::parseRejects_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty") << ""
                           << "empty message";
    QTest::newRow("unknown") << "reset_paths"
                             << "unknown multipath message \"reset_paths\"";
    QTest::newRow("fail_path without device") << "fail_path"
                                              << "fail_path takes 2 word(s), got 1";
    QTest::newRow("queue_if_no_path with argument") << "queue_if_no_path 1"
                                                    << "takes 1 word(s), got 2";
    QTest::newRow("switch_group 0") << "switch_group 0"
                                    << "is not a group number (1-1024)";
    QTest::newRow("switch_group x") << "switch_group x"
                                    << "\"x\" is not a group number";
    QTest::newRow("fail_path bad device") << "fail_path sdb"
                                          << "\"sdb\" is not a device";
}

void TestMultipathMessages::parseRejects()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    const auto message = parseMultipathMessage(text);
    QVERIFY(!message.ok());
    QVERIFY2(message.errorMessage().contains(error), qPrintable(message.errorMessage()));
}

QTEST_GUILESS_MAIN(TestMultipathMessages)
#include "tst_multipathmessages.moc"
