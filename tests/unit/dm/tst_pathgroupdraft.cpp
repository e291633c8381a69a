// PathGroupDraft, the path-group editor's rules without widgets: moves, new groups, group order,
// selector changes and their per-path arguments, features, and the drafts it refuses.
#include "core/dm/grammar/pathgroupdraft.h"

#include <QTest>

using namespace dmtune;

namespace {

const QString twoGroups = QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");

MultipathTable parsed(const QString &text)
{
    const auto table = parseMultipathTable(text);
    if (!table)
        qFatal("bad test table %s: %s", qPrintable(text), qPrintable(table.errorMessage()));
    return table.value();
}

// A small language for the rows: "move DEV GROUP [ROW]", "new DEV", "add DEV GROUP [ROW]", "group FROM TO", "selector
// GROUP NAME", "selargs GROUP WORDS...", "arg DEV INDEX VALUE", "initial N", "queue on|off", "retries N", "delay N",
// "retain on|off", "hw WORDS...". Groups and rows are 0-based as in the draft's API, "initial" 1-based.
Status run(PathGroupDraft &draft, const QString &operation)
{
    const QStringList w = operation.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QString &op = w.value(0);
    if (op == QLatin1String("move"))
        return draft.movePath(w.value(1), w.value(2).toInt(), w.size() > 3 ? w.value(3).toInt() : -1);
    if (op == QLatin1String("new"))
        return draft.movePathToNewGroup(w.value(1));
    if (op == QLatin1String("add"))
        return draft.addPath(w.value(1), w.value(2).toInt(), w.size() > 3 ? w.value(3).toInt() : -1);
    if (op == QLatin1String("group"))
        return draft.moveGroup(w.value(1).toInt(), w.value(2).toInt());
    if (op == QLatin1String("selector"))
        return draft.setSelector(w.value(1).toInt(), w.value(2));
    if (op == QLatin1String("selargs"))
        return draft.setSelectorArgs(w.value(1).toInt(), w.mid(2));
    if (op == QLatin1String("arg"))
        return draft.setPathArg(w.value(1), w.value(2).toInt(), w.value(3));
    if (op == QLatin1String("initial"))
        return draft.setInitialGroup(w.value(1).toInt());
    // The features, as the editor sets them: read, change one, set.
    MultipathFeatures f = draft.features();
    const bool on = w.value(1) == QLatin1String("on");
    if (op == QLatin1String("queue"))
        draft.setFeatures((f.queueIfNoPath = on, f));
    else if (op == QLatin1String("retries"))
        draft.setFeatures((f.pgInitRetries = w.value(1).toInt(), f));
    else if (op == QLatin1String("delay"))
        draft.setFeatures((f.pgInitDelayMsecs = w.value(1).toInt(), f));
    else if (op == QLatin1String("retain"))
        draft.setFeatures((f.retainAttachedHwHandler = on, f));
    else if (op == QLatin1String("hw"))
        draft.setHwHandler(w.mid(1));
    else
        return Status::failure(QStringLiteral("test: unknown operation ") + operation);
    return Status::success();
}

} // namespace

class TestPathGroupDraft : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void edits_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("operations");
        QTest::addColumn<QString>("expected");

        QTest::newRow("no edit") << twoGroups << QStringList() << twoGroups;
        QTest::newRow("move path to the other group")
            << twoGroups << QStringList { QStringLiteral("move 8:16 1") }
            << QStringLiteral("0 0 2 1 round-robin 0 1 1 8:0 1 round-robin 0 3 1 8:32 1 8:48 1 8:16 1");
        QTest::newRow("move path to the front of the other group")
            << twoGroups << QStringList { QStringLiteral("move 8:16 1 0") }
            << QStringLiteral("0 0 2 1 round-robin 0 1 1 8:0 1 round-robin 0 3 1 8:16 1 8:32 1 8:48 1");
        QTest::newRow("reorder within a group")
            << twoGroups << QStringList { QStringLiteral("move 8:16 0 0") }
            << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:16 1 8:0 1 round-robin 0 2 1 8:32 1 8:48 1");
        QTest::newRow("move down within a group")
            << twoGroups << QStringList { QStringLiteral("move 8:32 1 2") }
            << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:48 1 8:32 1");
        QTest::newRow("new group")
            << twoGroups << QStringList { QStringLiteral("new 8:48") }
            << QStringLiteral(
                   "0 0 3 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 1 1 8:32 1 round-robin 0 1 1 8:48 1");
        QTest::newRow("one path per group")
            << twoGroups << QStringList { QStringLiteral("new 8:16"), QStringLiteral("new 8:48") }
            << QStringLiteral("0 0 4 1 round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:32 1 round-robin 0 1 1 8:16 1 "
                              "round-robin 0 1 1 8:48 1");
        QTest::newRow("emptied group is removed")
            << twoGroups << QStringList { QStringLiteral("move 8:32 0"), QStringLiteral("move 8:48 0") }
            << QStringLiteral("0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1");
        QTest::newRow("emptied initial group: the initial group follows")
            << twoGroups
            << QStringList { QStringLiteral("initial 2"), QStringLiteral("move 8:32 0"), QStringLiteral("move 8:48 0") }
            << QStringLiteral("0 0 1 1 round-robin 0 4 1 8:0 1 8:16 1 8:32 1 8:48 1");
        QTest::newRow("group before the initial one removed")
            << QStringLiteral("0 0 3 3 round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:16 1 round-robin 0 1 1 8:32 1")
            << QStringList { QStringLiteral("move 8:0 1") }
            << QStringLiteral("0 0 2 2 round-robin 0 2 1 8:16 1 8:0 1 round-robin 0 1 1 8:32 1");
        QTest::newRow("swap groups: the initial group follows")
            << twoGroups << QStringList { QStringLiteral("group 0 1") }
            << QStringLiteral("0 0 2 2 round-robin 0 2 1 8:32 1 8:48 1 round-robin 0 2 1 8:0 1 8:16 1");
        QTest::newRow("selector to service-time: two args per path")
            << twoGroups << QStringList { QStringLiteral("selector 0 service-time") }
            << QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 round-robin 0 2 1 8:32 1 8:48 1");
        QTest::newRow("service-time to queue-length keeps repeat_count")
            << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 3 50 8:16 1 20")
            << QStringList { QStringLiteral("selector 0 queue-length") }
            << QStringLiteral("0 0 1 1 queue-length 0 2 1 8:0 3 8:16 1");
        QTest::newRow("round trip keeps what carries over")
            << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 50 8:16 1 20")
            << QStringList { QStringLiteral("selector 0 round-robin"), QStringLiteral("selector 0 service-time") }
            << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1");
        QTest::newRow("selector to io-affinity: a CPU mask")
            << twoGroups << QStringList { QStringLiteral("selector 1 io-affinity") }
            << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 io-affinity 0 2 1 8:32 1 8:48 1");
        QTest::newRow("historical-service-time with selector args")
            << twoGroups
            << QStringList { QStringLiteral("selector 0 historical-service-time"), QStringLiteral("selargs 0 2 10") }
            << QStringLiteral(
                   "0 0 2 1 historical-service-time 2 2 10 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
        QTest::newRow("move converts args to the target selector")
            << QStringLiteral("0 0 2 1 service-time 0 1 2 8:0 1 40 round-robin 0 2 1 8:16 1 8:32 1")
            << QStringList { QStringLiteral("move 8:16 0") }
            << QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 40 8:16 1 1 round-robin 0 1 1 8:32 1");
        QTest::newRow("relative throughput edited") << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1")
                                                    << QStringList { QStringLiteral("arg 8:16 1 80") }
                                                    << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 80");
        QTest::newRow("features in kernel order")
            << twoGroups
            << QStringList { QStringLiteral("retain on"), QStringLiteral("delay 100"), QStringLiteral("retries 5"),
                   QStringLiteral("queue on") }
            << QStringLiteral("6 queue_if_no_path pg_init_retries 5 pg_init_delay_msecs 100 retain_attached_hw_handler "
                              "0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
        QTest::newRow("features off again")
            << QStringLiteral("3 queue_if_no_path pg_init_retries 5 0 1 1 round-robin 0 1 1 8:0 1")
            << QStringList { QStringLiteral("queue off"), QStringLiteral("retries 0") }
            << QStringLiteral("0 0 1 1 round-robin 0 1 1 8:0 1");
        QTest::newRow("queue_mode kept") << QStringLiteral("2 queue_mode bio 0 1 1 round-robin 0 1 1 8:0 1")
                                         << QStringList { QStringLiteral("queue on") }
                                         << QStringLiteral(
                                                "3 queue_if_no_path queue_mode bio 0 1 1 round-robin 0 1 1 8:0 1");
        QTest::newRow("hardware handler")
            << twoGroups << QStringList { QStringLiteral("hw alua") }
            << QStringLiteral("0 1 alua 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
        QTest::newRow("hardware handler with args, then none")
            << twoGroups << QStringList { QStringLiteral("hw emc 1"), QStringLiteral("hw") } << twoGroups;
        // a disk the map does not have (the editor checked its LUN first)
        QTest::newRow("add a path at the end of a group")
            << twoGroups << QStringList { QStringLiteral("add 8:64 1") }
            << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 3 1 8:32 1 8:48 1 8:64 1");
        QTest::newRow("add a path first in a group")
            << twoGroups << QStringList { QStringLiteral("add 8:64 0 0") }
            << QStringLiteral("0 0 2 1 round-robin 0 3 1 8:64 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1");
        QTest::newRow("add a path as a new group, service-time args")
            << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1")
            << QStringList { QStringLiteral("add 8:64 1") }
            << QStringLiteral("0 0 2 1 service-time 0 2 2 8:0 1 1 8:16 1 1 service-time 0 1 2 8:64 1 1");
    }

    void edits()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, operations);
        QFETCH(QString, expected);
        PathGroupDraft draft(parsed(table));
        for (const QString &operation : operations) {
            const Status done = run(draft, operation);
            QVERIFY2(done, qPrintable(operation + QStringLiteral(": ") + done.errorMessage()));
        }
        QCOMPARE(draft.tableText(), expected);
        const Status valid = draft.validate();
        QVERIFY2(valid, qPrintable(valid.errorMessage()));
        QCOMPARE(draft.isModified(), expected != table);
        QCOMPARE(draft.current(), parsed(table));
    }

    void selectorArgCount_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<int>("perPath");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("round-robin") << QStringLiteral("round-robin") << 1 << QStringList { QStringLiteral("1") };
        QTest::newRow("queue-length") << QStringLiteral("queue-length") << 1 << QStringList { QStringLiteral("1") };
        QTest::newRow("service-time") << QStringLiteral("service-time") << 2
                                      << QStringList { QStringLiteral("1"), QStringLiteral("1") };
        QTest::newRow("historical-service-time")
            << QStringLiteral("historical-service-time") << 1 << QStringList { QStringLiteral("1") };
        QTest::newRow("io-affinity") << QStringLiteral("io-affinity") << 1 << QStringList { QStringLiteral("1") };
    }

    void selectorArgCount()
    {
        QFETCH(QString, selector);
        QFETCH(int, perPath);
        QFETCH(QStringList, args);
        PathGroupDraft draft(parsed(QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1")));
        QVERIFY(draft.setSelector(0, selector));
        const PathGroupSpec &group = draft.table().groups.at(0);
        QCOMPARE(group.selector, selector);
        QCOMPARE(group.perPathArgCount, perPath);
        for (const PathSpec &path : group.paths)
            QCOMPARE(path.args, args);
        QVERIFY(draft.validate());
        QCOMPARE(PathGroupDraft::pathArgNames(selector).size(), perPath);
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("operations");
        QTest::addColumn<QString>("replacement"); // setTable() with this text, when not empty
        QTest::addColumn<QString>("error");

        QTest::newRow("relative throughput above 100")
            << QStringLiteral("0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1")
            << QStringList { QStringLiteral("arg 8:0 1 101") } << QString() << QStringLiteral("relative throughput");
        QTest::newRow("repeat count not a number") << twoGroups << QStringList { QStringLiteral("arg 8:0 0 lots") }
                                                   << QString() << QStringLiteral("repeat count");
        QTest::newRow("empty CPU mask") << twoGroups
                                        << QStringList { QStringLiteral("selector 0 io-affinity"),
                                               QStringLiteral("arg 8:0 0 0") }
                                        << QString() << QStringLiteral("CPU mask");
        QTest::newRow("pg_init_retries above 50") << twoGroups << QStringList { QStringLiteral("retries 51") }
                                                  << QString() << QStringLiteral("pg_init_retries");
        QTest::newRow("pg_init_delay_msecs above 60000") << twoGroups << QStringList { QStringLiteral("delay 60001") }
                                                         << QString() << QStringLiteral("pg_init_delay_msecs");
        QTest::newRow("hst base weight above 1023")
            << twoGroups
            << QStringList { QStringLiteral("selector 0 historical-service-time"), QStringLiteral("selargs 0 5000") }
            << QString() << QStringLiteral("base weight");
        QTest::newRow("selector name that is not a name")
            << twoGroups << QStringList { QStringLiteral("selector 0 round+robin") } << QString()
            << QStringLiteral("selector");
        QTest::newRow("path missing") << twoGroups << QStringList()
                                      << QStringLiteral(
                                             "0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 1 1 8:32 1")
                                      << QStringLiteral("8:48");
        QTest::newRow("path twice")
            << twoGroups << QStringList()
            << QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 3 1 8:32 1 8:48 1 8:0 1")
            << QStringLiteral("in group 1 and in group 2");
        QTest::newRow("initial group out of range")
            << twoGroups << QStringList()
            << QStringLiteral("0 0 2 3 round-robin 0 2 1 8:0 1 8:16 1 round-robin 0 2 1 8:32 1 8:48 1")
            << QStringLiteral("initial");
    }

    void invalid()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, operations);
        QFETCH(QString, replacement);
        QFETCH(QString, error);
        PathGroupDraft draft(parsed(table));
        for (const QString &operation : operations)
            static_cast<void>(run(draft, operation)); // each may be refused or not: validate() says what is wrong
        if (!replacement.isEmpty()) {
            // Not through the parser: setTable takes what a caller built, right or wrong.
            MultipathTable edited = draft.table();
            const auto reparsed = parseMultipathTable(replacement);
            if (reparsed) {
                edited = reparsed.value();
            } else {
                // The parser refuses it too (initial group 3 of 2): build it by hand.
                edited.initialGroup = 3;
            }
            draft.setTable(edited);
        }
        const Status valid = draft.validate();
        QVERIFY2(!valid, qPrintable(draft.tableText()));
        QVERIFY2(valid.errorMessage().contains(error, Qt::CaseInsensitive), qPrintable(valid.errorMessage()));
    }

    void emptyGroupRefused()
    {
        PathGroupDraft draft(parsed(twoGroups));
        MultipathTable edited = draft.table();
        edited.groups[1].paths.clear();
        edited.groups[0].paths << PathSpec { QStringLiteral("8:32"), { QStringLiteral("1") } }
                               << PathSpec { QStringLiteral("8:48"), { QStringLiteral("1") } };
        draft.setTable(edited);
        const Status valid = draft.validate();
        QVERIFY(!valid);
        QVERIFY2(valid.errorMessage().contains(QLatin1String("group 2 has no path")), qPrintable(valid.errorMessage()));
    }

    void refusedEdits()
    {
        PathGroupDraft draft(parsed(twoGroups));
        QVERIFY(!draft.movePath(QStringLiteral("8:99"), 0));
        QVERIFY(!draft.movePath(QStringLiteral("8:0"), 5));
        QVERIFY(!draft.moveGroup(0, 2));
        QVERIFY(!draft.setSelector(3, QStringLiteral("round-robin")));
        QVERIFY(!draft.setSelector(0, QString()));
        QVERIFY(!draft.setPathArgs(QStringLiteral("8:0"), { QStringLiteral("1"), QStringLiteral("2") }));
        QVERIFY(!draft.setPathArg(QStringLiteral("8:0"), 1, QStringLiteral("2")));
        QVERIFY(!draft.setInitialGroup(0));
        QVERIFY(!draft.setInitialGroup(3));
        QVERIFY(!draft.addPath(QStringLiteral("8:16"), 1)); // already in group 1
        QVERIFY(!draft.addPath(QStringLiteral("8:64"), 3)); // no such group
        QVERIFY(!draft.addPath(QStringLiteral("8:64"), -1));
        QVERIFY(!draft.addPath(QString(), 0));
        QCOMPARE(draft.tableText(), twoGroups); // nothing changed by the refusals
        QVERIFY(!draft.isModified());
    }

    void origins()
    {
        PathGroupDraft draft(parsed(twoGroups));
        QVERIFY(draft.movePathToNewGroup(QStringLiteral("8:0")));
        QCOMPARE(draft.groupCount(), 3);
        QCOMPARE(draft.originOf(0), 0);
        QCOMPARE(draft.originOf(1), 1);
        QCOMPARE(draft.originOf(2), -1);
        QVERIFY(draft.moveGroup(2, 0));
        QCOMPARE(draft.originOf(0), -1);
        QCOMPARE(draft.originOf(1), 0);
        QCOMPARE(draft.find(QStringLiteral("8:0")).group, 0);
        QCOMPARE(draft.find(QStringLiteral("8:48")).row, 1);
        QVERIFY(!draft.find(QStringLiteral("8:99")).isValid());
    }

    void rebaseKeepsEdits()
    {
        PathGroupDraft draft(parsed(twoGroups));
        QVERIFY(draft.movePath(QStringLiteral("8:16"), 1));
        const QString edited = draft.tableText();
        const MultipathTable reloaded = parsed(QStringLiteral("1 queue_if_no_path ") + twoGroups.mid(2));
        draft.rebase(reloaded);
        QCOMPARE(draft.tableText(), edited);
        QCOMPARE(draft.current(), reloaded);
        QVERIFY(draft.isModified());
        QVERIFY(draft.validate());
    }

    void notes()
    {
        PathGroupDraft draft(
            parsed(QStringLiteral("0 0 2 1 round-robin 0 2 1 8:0 5 8:16 1 round-robin 0 2 1 8:32 1 8:48 1")));
        MultipathFeatures features = draft.features();
        features.pgInitRetries = 3;
        draft.setFeatures(features);
        const QStringList notes = draft.notes({ QStringLiteral("8:32"), QStringLiteral("8:48") });
        QCOMPARE(notes.size(), 3);
        QVERIFY(notes.at(0).contains(QLatin1String("repeat_count 1")));
        QVERIFY(notes.at(1).contains(QLatin1String("Group 2: all its paths are failed")));
        QVERIFY(notes.at(2).contains(QLatin1String("hardware handler")));
        draft.setHwHandler({ QStringLiteral("alua") });
        QCOMPARE(draft.notes().size(), 1);
    }

    void features_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<bool>("queue");
        QTest::addColumn<int>("retries");
        QTest::addColumn<int>("delay");
        QTest::addColumn<bool>("retain");
        QTest::addColumn<QString>("mode");
        QTest::newRow("none") << QStringList() << false << 0 << -1 << false << QString();
        QTest::newRow("all") << QStringList { QStringLiteral("queue_if_no_path"), QStringLiteral("pg_init_retries"),
            QStringLiteral("50"), QStringLiteral("pg_init_delay_msecs"), QStringLiteral("0"),
            QStringLiteral("retain_attached_hw_handler"), QStringLiteral("queue_mode"), QStringLiteral("bio") }
                             << true << 50 << 0 << true << QStringLiteral("bio");
        QTest::newRow("upper case") << QStringList { QStringLiteral("QUEUE_IF_NO_PATH") } << true << 0 << -1 << false
                                    << QString();
    }

    void features()
    {
        QFETCH(QStringList, words);
        QFETCH(bool, queue);
        QFETCH(int, retries);
        QFETCH(int, delay);
        QFETCH(bool, retain);
        QFETCH(QString, mode);
        const MultipathFeatures f = MultipathFeatures::fromWords(words);
        QCOMPARE(f.queueIfNoPath, queue);
        QCOMPARE(f.pgInitRetries, retries);
        QCOMPARE(f.pgInitDelayMsecs, delay);
        QCOMPARE(f.retainAttachedHwHandler, retain);
        QCOMPARE(f.queueMode, mode);
        QCOMPARE(MultipathFeatures::fromWords(f.toWords()), f);
    }
};

QTEST_GUILESS_MAIN(TestPathGroupDraft)
#include "tst_pathgroupdraft.moc"
