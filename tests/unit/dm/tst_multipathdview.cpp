// multipathd's `show maps json` parsed, and compared with the kernel's table and status.
// fixtures/multipathd-show-maps.json is multipathd 0.9.4's reply in the lab VM (4 scsi_debug
// paths, path_grouping_policy failover, no_path_retry 12); multipathd-path-failed.json the same map right after
// "fail path sdd", with the kernel's lines and multipath -ll's text of that moment in multipath-path-failed.txt.
#include "core/discovery/snapshotjson.h"
#include "core/dm/multipathd/multipathdview.h"
#include "core/dm/multipathd/multipathdviewjob.h"
#include "tests/common/multipathlines.h"
#include "tests/common/testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <semaphore>

using namespace dmtune;

namespace {
QString fixture(const QString &name)
{
    QFile file(DMTUNE_SOURCE_PATH(DMTUNE_FIXTURES "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return QString::fromUtf8(file.readAll());
}

// fixtures/multipath-path-failed.txt: "KEY: text" lines (table, status, ll, topology), '#' comments.
QStringList fixtureLines(const QString &name, const QString &key)
{
    QStringList out;
    const QString prefix = key + QStringLiteral(": ");
    for (const QString &line : fixture(name).split(QLatin1Char('\n'))) {
        if (line.startsWith(prefix))
            out.append(line.mid(prefix.size()));
    }
    return out;
}

MultipathdMapView viewOf(const QString &json)
{
    const auto maps = parseMultipathdMapsJson(json);
    if (!maps || maps->size() != 1)
        qFatal("fixture does not parse: %s", qPrintable(maps.errorMessage()));
    return maps->first();
}

MultipathdMapView labView()
{
    const auto maps = parseMultipathdMapsJson(fixture(QStringLiteral("multipathd-show-maps.json")));
    if (!maps || maps->size() != 1)
        qFatal("fixture does not parse: %s", qPrintable(maps.errorMessage()));
    return maps->first();
}
} // namespace

class TestMultipathdView : public QObject {
    Q_OBJECT

private:
    // The kernel's table and status that agree with the fixture (from `dmsetup table/status`).
    QString m_table;
    QString m_status;

private Q_SLOTS:
    void initTestCase()
    {
        const MultipathdMapView v = labView();
        QStringList groups;
        QStringList statusGroups;
        for (const MultipathdGroupView &g : v.groups) {
            QStringList paths;
            QStringList statusPaths;
            for (const MultipathdPathView &p : g.paths) {
                paths << p.devT << QStringLiteral("1");
                statusPaths << p.devT
                            << (p.dmState == QLatin1String("active") ? QStringLiteral("A") : QStringLiteral("F"))
                            << QStringLiteral("0") << QStringLiteral("0") << QStringLiteral("1");
            }
            groups << QStringLiteral("service-time 0 %1 1 %2").arg(g.paths.size()).arg(paths.join(QLatin1Char(' ')));
            const QChar state = g.dmState == QLatin1String("active") ? QLatin1Char('A')
                : g.dmState == QLatin1String("disabled")             ? QLatin1Char('D')
                                                                     : QLatin1Char('E');
            statusGroups << QStringLiteral("%1 0 %2 2 %3")
                                .arg(state)
                                .arg(g.paths.size())
                                .arg(statusPaths.join(QLatin1Char(' ')));
        }
        m_table = QStringLiteral("%1 %2 %3 1 %4")
                      .arg(v.features, v.hwhandler)
                      .arg(v.groups.size())
                      .arg(groups.join(QLatin1Char(' ')));
        m_status = QStringLiteral("2 0 1 0 %1 1 %2").arg(v.groups.size()).arg(statusGroups.join(QLatin1Char(' ')));
    }

    void parsesTheLabMap()
    {
        const MultipathdMapView v = labView();
        QCOMPARE(v.name, QStringLiteral("mpatha"));
        QCOMPARE(v.sysfs, QStringLiteral("dm-0"));
        QCOMPARE(v.queueing, QStringLiteral("12 chk"));
        QCOMPARE(v.features, QStringLiteral("1 queue_if_no_path"));
        QCOMPARE(v.hwhandler, QStringLiteral("1 alua"));
        QCOMPARE(v.groups.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(v.groups.at(i).number, i + 1);
            QCOMPARE(v.groups.at(i).selector, QStringLiteral("service-time 0"));
            QCOMPARE(v.groups.at(i).paths.size(), 1);
            QVERIFY(v.groups.at(i).paths.first().devT.contains(QLatin1Char(':')));
            QVERIFY(v.groups.at(i).paths.first().dev.startsWith(QLatin1String("sd")));
            QCOMPARE(v.groups.at(i).paths.first().checker, QStringLiteral("tur"));
        }
        QCOMPARE(v.groups.first().dmState, QStringLiteral("active"));
    }

    // list --json and map show --json get multipathd's priorities and checker states per group and path,
    // matched by group index and path devnum; what multipathd does not know is left alone.
    void annotatesMapJson()
    {
        const MultipathdMapView v = labView();
        QJsonArray groups;
        for (const MultipathdGroupView &g : v.groups) {
            QJsonArray paths { QJsonObject { { QStringLiteral("devnum"), g.paths.first().devT } } };
            if (g.number == 1)
                paths.append(QJsonObject { { QStringLiteral("devnum"), QStringLiteral("9:9") } }); // not multipathd's
            groups.append(QJsonObject { { QStringLiteral("index"), g.number }, { QStringLiteral("paths"), paths } });
        }
        groups.append(QJsonObject { { QStringLiteral("index"), 5 }, { QStringLiteral("paths"), QJsonArray {} } });
        QJsonObject map { { QStringLiteral("name"), v.name }, { QStringLiteral("groups"), groups } };
        addMultipathdView(&map, v);
        const QJsonArray out = map.value(QStringLiteral("groups")).toArray();
        QCOMPARE(out.size(), 5);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject g = out.at(i).toObject();
            QCOMPARE(g.value(QStringLiteral("priority")).toInt(-2), v.groups.at(i).priority);
            const QJsonObject p = g.value(QStringLiteral("paths")).toArray().first().toObject();
            QCOMPARE(p.value(QStringLiteral("priority")).toInt(-2), v.groups.at(i).paths.first().priority);
            QCOMPARE(p.value(QStringLiteral("checker_state")).toString(), v.groups.at(i).paths.first().checkerState);
            QCOMPARE(p.value(QStringLiteral("device_state")).toString(), QStringLiteral("running"));
        }
        QVERIFY(!out.at(0)
                     .toObject()
                     .value(QStringLiteral("paths"))
                     .toArray()
                     .at(1)
                     .toObject()
                     .contains(QStringLiteral("priority")));
        QVERIFY(!out.at(4).toObject().contains(QStringLiteral("priority")));
        // ALUA in the lab: the optimized group first, with the higher priority.
        QVERIFY(out.at(0).toObject().value(QStringLiteral("priority")).toInt()
            > out.at(3).toObject().value(QStringLiteral("priority")).toInt());
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not JSON") << QStringLiteral("fail") << QStringLiteral("multipathd JSON:");
        QTest::newRow("no maps") << QStringLiteral("{\"major_version\": 0}") << QStringLiteral("neither");
        QTest::newRow("maps not a list") << QStringLiteral("{\"maps\": 3}") << QStringLiteral("not a list");
        QTest::newRow("newer format") << QStringLiteral("{\"major_version\": 1, \"maps\": []}")
                                      << QStringLiteral("version 1");
        QTest::newRow("nameless map") << QStringLiteral("{\"maps\": [{\"uuid\": \"x\"}]}")
                                      << QStringLiteral("without \"name\"");
    }

    void rejects()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        const auto parsed = parseMultipathdMapsJson(json);
        QVERIFY(!parsed);
        QVERIFY2(parsed.errorMessage().contains(error), qPrintable(parsed.errorMessage()));
    }

    void singleMapForm()
    {
        const auto parsed = parseMultipathdMapsJson(QStringLiteral(
            "{\"major_version\": 0, \"minor_version\": 1, \"map\": {\"name\": \"mpathb\", \"path_groups\": []}}"));
        QVERIFY2(parsed, qPrintable(parsed.errorMessage()));
        QCOMPARE(parsed->size(), 1);
        QVERIFY(findMultipathdMap(parsed.value(), QStringLiteral("mpathb")));
        const auto missing = findMultipathdMap(parsed.value(), QStringLiteral("mpatha"));
        QVERIFY(!missing);
        QCOMPARE(missing.errorMessage(), QStringLiteral("multipathd does not manage mpatha (it has: mpathb)"));
    }

    void compare_data()
    {
        QTest::addColumn<QString>("tableEdit"); // "from|to" replacements in the kernel's table text
        QTest::addColumn<QString>("statusEdit");
        QTest::addColumn<QStringList>("differences"); // substrings, in order

        QTest::newRow("agree") << QString() << QString() << QStringList();
        QTest::newRow("queueing off behind multipathd's back")
            << QStringLiteral("1 queue_if_no_path |0 ") << QString()
            << QStringList { QStringLiteral("features: kernel 0, multipathd 1 queue_if_no_path"),
                   QStringLiteral("queueing: kernel queue_if_no_path off, multipathd \"12 chk\"") };
        QTest::newRow("path failed with dmsetup")
            << QString() << QStringLiteral(" A 0 0 1| F 1 0 1")
            << QStringList { QStringLiteral(": kernel F (failed), multipathd active") };
        QTest::newRow("group disabled") << QString() << QStringLiteral("E 0 1|D 0 1")
                                        << QStringList { QStringLiteral(
                                               "group 2: kernel D (disabled), multipathd enabled") };
        QTest::newRow("reloaded as round-robin")
            << QStringLiteral("service-time 0|round-robin 0") << QString()
            << QStringList { QStringLiteral("group 1: kernel selector round-robin 0, multipathd service-time 0") };
    }

    void compare()
    {
        QFETCH(QString, tableEdit);
        QFETCH(QString, statusEdit);
        QFETCH(QStringList, differences);
        QString table = m_table;
        QString status = m_status;
        // One replacement, the first occurrence only: enough to make one difference.
        const auto edit = [](QString &text, const QString &spec) {
            if (spec.isEmpty())
                return;
            const QStringList parts = spec.split(QLatin1Char('|'));
            const qsizetype at = text.indexOf(parts.at(0));
            QVERIFY2(at >= 0, qPrintable(parts.at(0) + QStringLiteral(" not in ") + text));
            text.replace(at, parts.at(0).size(), parts.at(1));
        };
        edit(table, tableEdit);
        edit(status, statusEdit);
        const auto t = parseMultipathTable(table);
        const auto s = parseMultipathStatus(status);
        QVERIFY2(t, qPrintable(t.errorMessage() + QStringLiteral(": ") + table));
        QVERIFY2(s, qPrintable(s.errorMessage() + QStringLiteral(": ") + status));
        const QStringList found = compareMultipathdView(labView(), t.value(), s.value());
        QCOMPARE(found.size(), differences.size());
        for (qsizetype i = 0; i < differences.size(); ++i)
            QVERIFY2(found.at(i).contains(differences.at(i)), qPrintable(found.at(i)));
    }

    // The lab right after "multipathd fail path sdd": multipathd's copy of the kernel's states agrees (F, failed),
    // but its group 2 priority (0) and sdd's checker state (faulty) are not what multipath -ll printed at the same
    // moment (prio=50, "failed ready running"): map show says so instead of a bare "agrees".
    void pathFailedThroughMultipathd()
    {
        const QString text = QStringLiteral("multipath-path-failed.txt");
        const auto table = parseMultipathTableLine(fixtureLines(text, QStringLiteral("table")).value(0));
        const auto status = parseMultipathStatusLine(fixtureLines(text, QStringLiteral("status")).value(0));
        QVERIFY2(table && status, qPrintable(table.errorMessage() + status.errorMessage()));
        const MultipathdMapView view = viewOf(fixture(QStringLiteral("multipathd-path-failed.json")));
        QCOMPARE(view.groups.at(1).priority, 0);
        QCOMPARE(view.groups.at(1).paths.first().checkerState, QStringLiteral("faulty"));

        QCOMPARE(compareMultipathdView(view, table.value(), status.value()), QStringList());
        const QStringList notes = explainMultipathdView(view, status.value());
        QCOMPARE(notes,
            (QStringList { QStringLiteral("group 2: multipathd priority 0, the average over the paths its checker "
                                          "calls up (none); its paths' own: sdd 50"),
                QStringLiteral("path 8:48 (sdd): failed, multipathd's checker state faulty: a path failed through "
                               "multipathd (path fail) stays failed and unchecked until it is reinstated; multipath "
                               "-ll runs the checker itself and prints what the device answers") }));
        // What multipath -ll printed: the group's priority is its path's own (50), the path "failed ready".
        const QStringList ll = fixtureLines(text, QStringLiteral("ll"));
        QVERIFY2(ll.value(4).contains(QLatin1String("prio=50")), qPrintable(ll.value(4)));
        QVERIFY2(ll.value(5).contains(QLatin1String("sdd 8:48 failed ready running")), qPrintable(ll.value(5)));
        const QStringList topology = fixtureLines(text, QStringLiteral("topology"));
        QVERIFY2(topology.value(4).contains(QLatin1String("prio=0")), qPrintable(topology.value(4)));
        QVERIFY2(
            topology.value(5).contains(QLatin1String("sdd 8:48 failed faulty running")), qPrintable(topology.value(5)));

        QCOMPARE(multipathdComparisonLines({}, notes),
            (QStringList { QStringLiteral("multipathd: agrees with the kernel (table, group and path states); where "
                                          "multipathd's numbers are not what multipath -ll prints:"),
                QStringLiteral("  ") + notes.at(0), QStringLiteral("  ") + notes.at(1) }));
        QCOMPARE(multipathdComparisonLines({}, {}),
            QStringList { QStringLiteral("multipathd: agrees with the kernel (table, group and path states)") });
        QCOMPARE(multipathdComparisonLines({ QStringLiteral("x") }, { QStringLiteral("y") }),
            (QStringList { QStringLiteral("multipathd differs from the kernel:"), QStringLiteral("  x"),
                QStringLiteral("where multipathd's numbers are not what multipath -ll prints:"),
                QStringLiteral("  y") }));

        // Before the failure (the lab fixture, every path ready): nothing to explain.
        QCOMPARE(explainMultipathdView(labView(), parseMultipathStatus(m_status).value()), QStringList());
    }

    // A checker state that contradicts the kernel's A/F is a difference, even where multipathd's copy of A/F agrees.
    void checkerContradictsKernel_data()
    {
        QTest::addColumn<QString>("json"); // fixture
        QTest::addColumn<QString>("jsonEdit"); // "from|to", the first occurrence
        QTest::addColumn<QString>("statusEdit");
        QTest::addColumn<QStringList>("differences");
        const QString failed = QStringLiteral("multipathd-path-failed.json");
        QTest::newRow("failed path that checks ready")
            << failed << QStringLiteral("\"faulty\"|\"ready\"") << QString()
            << QStringList { QStringLiteral("path 8:48 (sdd): kernel F (failed), multipathd's checker ready") };
        QTest::newRow("active path that checks faulty")
            << failed << QStringLiteral("\"ready\"|\"faulty\"") << QString()
            << QStringList { QStringLiteral("path 8:16 (sdb): kernel A (active), multipathd's checker faulty") };
        QTest::newRow("active path that checks i/o pending")
            << failed << QStringLiteral("\"ready\"|\"i/o pending\"") << QString() << QStringList();
        QTest::newRow("reinstated behind multipathd's back")
            << failed << QString() << QStringLiteral("8:48 F 1|8:48 A 1")
            << QStringList { QStringLiteral("path 8:48 (sdd): kernel A (active), multipathd failed") };
    }

    void checkerContradictsKernel()
    {
        QFETCH(QString, json);
        QFETCH(QString, jsonEdit);
        QFETCH(QString, statusEdit);
        QFETCH(QStringList, differences);
        const auto edit = [](QString text, const QString &spec) {
            if (spec.isEmpty())
                return text;
            const QStringList parts = spec.split(QLatin1Char('|'));
            const qsizetype at = text.indexOf(parts.at(0));
            if (at < 0)
                qFatal("%s not in the text", qPrintable(parts.at(0)));
            return text.replace(at, parts.at(0).size(), parts.at(1));
        };
        const QString text = QStringLiteral("multipath-path-failed.txt");
        const auto table = parseMultipathTableLine(fixtureLines(text, QStringLiteral("table")).value(0));
        const auto status
            = parseMultipathStatusLine(edit(fixtureLines(text, QStringLiteral("status")).value(0), statusEdit));
        QVERIFY(table && status);
        QCOMPARE(
            compareMultipathdView(viewOf(edit(fixture(json), jsonEdit)), table.value(), status.value()), differences);
    }

    // The GUI's question to multipathd runs as a job: off the caller's thread, and a newer question (another map
    // selected while multipathd is slow to answer) supersedes the older one.
    void askedAsAJob()
    {
        QObject owner;
        JobTracker jobs(&owner);
        const MultipathdMapView lab = labView();
        QThread *const caller = QThread::currentThread();
        std::atomic<int> onCaller { 0 };
        std::binary_semaphore slow(0);
        std::atomic<int> asked { 0 };
        const MultipathdMapsQuery query = [&]() -> Result<QList<MultipathdMapView>> {
            if (QThread::currentThread() == caller)
                ++onCaller;
            if (++asked == 1)
                slow.acquire(); // the first answer comes late (multipathd busy)
            return QList<MultipathdMapView> { lab };
        };
        QList<std::optional<MultipathdMapView>> answers;
        const auto record = [&answers](const std::optional<MultipathdMapView> &v) { answers.append(v); };
        askMultipathdMapView(jobs, lab.name, record, query);
        QTRY_COMPARE(asked.load(), 1);
        askMultipathdMapView(jobs, QStringLiteral("nosuchmap"), record, query);
        QTRY_COMPARE(answers.size(), 1);
        QVERIFY(!answers.first().has_value()); // the latest question's answer: multipathd does not manage it
        slow.release();
        QTRY_VERIFY(jobs.isIdle());
        QCOMPARE(answers.size(), 1); // the superseded answer is dropped
        QCOMPARE(onCaller.load(), 0);

        askMultipathdMapView(jobs, lab.name, record, query);
        QTRY_COMPARE(answers.size(), 2);
        QVERIFY(answers.last().has_value());
        QCOMPARE(answers.last()->name, lab.name);
        askMultipathdMapView(jobs, lab.name, record,
            [] { return Result<QList<MultipathdMapView>>::failure(QStringLiteral("multipathd is not running")); });
        QTRY_COMPARE(answers.size(), 3);
        QVERIFY(!answers.last().has_value());
    }
};

QTEST_GUILESS_MAIN(TestMultipathdView)
#include "tst_multipathdview.moc"
