// The host's change log (params/changelog.h): its lines read back as entries, and who a charted value's change is
// told to be from: a dmtune program that wrote that value then, this window's own write (no marker), or nobody.
#include "core/params/changelog.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace dmtune;
using namespace Qt::StringLiterals;

class TestChangeLog : public QObject {
    Q_OBJECT

    // What `dmtunectl set loop3 queue/nomerges=2` (pid 4242) and the GUI's helper (pid 5000, for the GUI 77) wrote.
    static QByteArray sampleLog()
    {
        return R"({"t":1000.5,"tool":"dmtunectl","pid":4242,"ppid":1,"device":"loop3","attribute":"queue/nomerges","old":"0","new":"2"}
{"t":1010.0,"tool":"dmtune-helper","pid":5000,"ppid":77,"device":"loop3","attribute":"queue/nomerges","old":"2","new":"1"}
{"t":1020.0,"tool":"dmtune","pid":77,"ppid":1,"device":"loop3","attribute":"queue/read_ahead_kb","old":"128","new":"4096"}
{"t":1030.0,"tool":"dmtunectl","pid":4300,"ppid":1,"device":"loop3","attribute":"queue/nomerges"
not json at all
)"_ba;
    }

private Q_SLOTS:
    void parsesWholeLinesOnly()
    {
        const QList<ChangeLogEntry> entries = parseChangeLog(sampleLog());
        QCOMPARE(entries.size(), 3); // the cut line and the foreign one skipped
        QCOMPARE(entries.first().tool, u"dmtunectl"_s);
        QCOMPARE(entries.first().pid, 4242);
        QCOMPARE(entries.first().newValue, u"2"_s);
        QCOMPARE(entries.at(1).parentPid, 77);
        // And a written line reads back as it was.
        const ChangeLogEntry e { 1.25, u"dmtunectl"_s, 9, 8, u"sdb"_s, u"device/queue_depth"_s, u"32"_s, u"2"_s };
        const QList<ChangeLogEntry> back = parseChangeLog(changeLogLine(e));
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.first().attribute, e.attribute);
        QCOMPARE(back.first().oldValue, e.oldValue);
        QCOMPARE(back.first().epochSeconds, e.epochSeconds);
    }

    void labelsTheChange_data()
    {
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<QString>("oldValue");
        QTest::addColumn<QString>("newValue");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<QString>("label");
        QTest::newRow("dmtunectl set, in the interval") << u"queue/nomerges"_s << u"0"_s << u"2"_s << 999.0 << 1001.0
                                                        << u"loop3 nomerges 0 -> 2 (dmtunectl, pid 4242)"_s;
        QTest::newRow("the log's time a second after the read (slack)")
            << u"queue/nomerges"_s << u"0"_s << u"2"_s << 998.0 << 999.8
            << u"loop3 nomerges 0 -> 2 (dmtunectl, pid 4242)"_s;
        QTest::newRow("the same value long before: nobody of dmtune now")
            << u"queue/nomerges"_s << u"0"_s << u"2"_s << 2000.0 << 2002.0
            << u"loop3 nomerges 0 -> 2 (changed outside dmtune)"_s;
        QTest::newRow("another value than the log's") << u"queue/nomerges"_s << u"0"_s << u"1"_s << 999.0 << 1001.0
                                                      << u"loop3 nomerges 0 -> 1 (changed outside dmtune)"_s;
        QTest::newRow("this window's helper")
            << u"queue/nomerges"_s << u"2"_s << u"1"_s << 1009.0 << 1011.0 << QString();
        QTest::newRow("this window itself")
            << u"queue/read_ahead_kb"_s << u"128"_s << u"4096"_s << 1019.0 << 1021.0 << QString();
    }
    void labelsTheChange()
    {
        QFETCH(QString, attribute);
        QFETCH(QString, oldValue);
        QFETCH(QString, newValue);
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(QString, label);
        QCOMPARE(
            externalChangeLabel(u"loop3"_s, attribute, oldValue, newValue, from, to, parseChangeLog(sampleLog()), 77),
            label);
    }

    void appendsNewFilesNeverThroughALink()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(u"state/dmtune/changes.jsonl"_s);
        const ChangeLogEntry e { 5, u"dmtunectl"_s, 1, 1, u"sdb"_s, u"queue/nomerges"_s, u"0"_s, u"2"_s };
        QVERIFY(appendChangeLog(log, { e }));
        QVERIFY(appendChangeLog(log, { e, e }));
        const auto read = readChangeLog(log);
        QVERIFY(read);
        QCOMPARE(read->size(), 3);
        // A link where the log should be is refused, and what it points to is left alone.
        const QString target = dir.filePath(u"target"_s);
        const QString linked = dir.filePath(u"linked.jsonl"_s);
        QVERIFY(QFile::link(target, linked));
        QVERIFY(!appendChangeLog(linked, { e }));
        QVERIFY(!QFileInfo::exists(target));
        QVERIFY(!readChangeLog(linked));
        QVERIFY(
            readChangeLog(dir.filePath(u"none.jsonl"_s)) && readChangeLog(dir.filePath(u"none.jsonl"_s))->isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestChangeLog)
#include "tst_changelog.moc"
