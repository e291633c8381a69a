// tst_live_sweep: `dmtunectl sweep` on loop devices made by the test (root):
//   * nomerges over 0 and 2 under batched-write-4k: merges at 0, none at all at 2 (the kernel's nomerges=2), the
//     old nomerges back afterwards;
//   * the scheduler over none and mq-deadline: each run recorded, the scheduler and nr_requests (reset by every
//     scheduler change) back afterwards;
//   * an ext4 device: without --destroy-data-on, or with it naming another device, nothing is written (not even
//     the first point's value) and fsck finds the file system intact; a value the catalog refuses, one line.
//   * a job file with a job aimed at another device: refused even with --force, nothing written.
//   * the consent model: --force does not answer the data risk of a write over ext4 (refused, exit 1,
//     fsck clean, the witness file intact); --dry-run with it unanswered exits 1 with the line that says how to
//     answer it, 0 once --destroy-data-on names the device; the sweep with --destroy-data-on naming the device
//     runs. A sweep on an empty device needs no answer (nomergesTwoTakesMergesToZero).
#include "livesupport.h"
#include "tests/live/scratchloop.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace dmtune;
using namespace dmtune::live;
using namespace Qt::StringLiterals;

class TstLiveSweep : public QObject {
    Q_OBJECT

    SysfsRoot m_sys;

    QString queue(const ScratchLoop &loop, const QString &attribute) const
    {
        return m_sys.readOr(u"block/%1/queue/%2"_s.arg(loop.name(), attribute)).trimmed();
    }

    static QJsonObject point(const QJsonObject &sweep, const QString &attribute, const QString &value)
    {
        for (const QJsonValue &p : sweep.value("points"_L1).toArray()) {
            if (p.toObject().value("params"_L1).toObject().value(attribute).toString() == value)
                return p.toObject();
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString reason = ScratchLoop::unavailableReason(ext4WitnessTools);
        if (!reason.isEmpty())
            QSKIP(qPrintable(reason));
    }

    void nomergesTwoTakesMergesToZero()
    {
        ScratchLoop loop;
        const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20);
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s)); // not the kernel's default: restored as found
        const QStringList args { u"sweep"_s, loop.name(), u"--param"_s, u"nomerges=0,2"_s, u"batched-write-4k"_s,
            u"--runtime"_s, u"2"_s, u"--settle"_s, u"0"_s, u"--json"_s };
        const ProgramRun r = runProgram(dmtunectl, args, {}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject sweep = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(sweep.value("points"_L1).toArray().size(), 2);
        const QJsonObject merging
            = point(sweep, u"queue/nomerges"_s, u"0"_s).value("devices"_L1).toObject().value(loop.name()).toObject();
        const QJsonObject none
            = point(sweep, u"queue/nomerges"_s, u"2"_s).value("devices"_L1).toObject().value(loop.name()).toObject();
        qInfo() << "nomerges=0: %wrqm" << merging.value("wrqm"_L1).toDouble() << "wareq-sz"
                << merging.value("wareq-sz"_L1).toDouble() << "| nomerges=2: %wrqm" << none.value("wrqm"_L1).toDouble()
                << "w/s" << none.value("w/s"_L1).toDouble();
        QVERIFY2(merging.value("wrqm"_L1).toDouble() > 50, qPrintable(r.out));
        QVERIFY(merging.value("wareq-sz"_L1).toDouble() > 8);
        QVERIFY(none.value("w/s"_L1).toDouble() > 100);
        QCOMPARE(none.value("wrqm/s"_L1).toDouble(), 0.0);
        QCOMPARE(none.value("wareq-sz"_L1).toDouble(), 4.0);
        QCOMPARE(queue(loop, u"nomerges"_s), u"1"_s);
        QCOMPARE(sweep.value("restored"_L1).toArray().first().toString(), u"%1 nomerges 2 -> 1"_s.arg(loop.name()));
    }

    void schedulerSweepRecordsAndRestores()
    {
        ScratchLoop loop;
        const QString problem = loop.createWithMqDeadline(m_sys, 256LL << 20);
        if (!problem.isEmpty())
            QSKIP(qPrintable(problem));
        QVERIFY(loop.setQueue(m_sys, u"nr_requests"_s, u"64"_s));
        QTemporaryDir dir;
        const QString records = dir.filePath(u"records"_s);
        const QStringList args { u"sweep"_s, loop.devicePath(), u"--param"_s, u"scheduler=none,mq-deadline"_s,
            u"batched-write-4k"_s, u"--runtime"_s, u"1"_s, u"--settle"_s, u"0"_s, u"--record-dir"_s, records };
        const ProgramRun r = runProgram(dmtunectl, args, {}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"point 1/2: scheduler=none batched-write-4k"_s), qPrintable(r.out));
        // The last point's scheduler is the old one; nr_requests, reset by each scheduler change, goes back.
        QVERIFY2(
            r.out.contains(u"restored: %1 nr_requests 256 -> 64"_s.arg(loop.name())), qPrintable(r.out.right(600)));
        QCOMPARE(QDir(records).entryList({ u"*.dmrec"_s }, QDir::Files),
            (QStringList { u"point-01-repeat-1.dmrec"_s, u"point-02-repeat-1.dmrec"_s }));
        // The first recording's configuration has the point's scheduler.
        const ProgramRun show
            = runProgram(dmtunectl, { u"record"_s, u"show"_s, records + u"/point-01-repeat-1.dmrec"_s, u"--json"_s });
        QVERIFY2(show.exitCode == 0, qPrintable(show.err));
        QVERIFY2(show.out.contains(u"sweep point 1/2: scheduler=none batched-write-4k, repeat 1"_s),
            qPrintable(show.out.left(2000)));
        QVERIFY(queue(loop, u"scheduler"_s).contains(u"[mq-deadline]"_s));
        QCOMPARE(queue(loop, u"nr_requests"_s), u"64"_s);

        // The results reopen from the record directory, as they were printed.
        const ProgramRun opened = runProgram(dmtunectl, { u"sweep"_s, u"--open"_s, records });
        QVERIFY2(opened.exitCode == 0, qPrintable(opened.err));
        const QString table = r.out.mid(r.out.indexOf(u"\npoint 1: "_s) + 1);
        QCOMPARE(opened.out, table.left(table.indexOf(u"restored: "_s)));
        const ProgramRun json = runProgram(dmtunectl, { u"sweep"_s, u"--open"_s, records, u"--json"_s });
        const QJsonObject reopened = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(reopened.value("points"_L1).toArray().size(), 2);
        QCOMPARE(reopened.value("points"_L1)
                     .toArray()
                     .first()
                     .toObject()
                     .value("recordings"_L1)
                     .toArray()
                     .first()
                     .toString(),
            records + u"/point-01-repeat-1.dmrec"_s);
        QVERIFY(!reopened.value("restored"_L1).toArray().isEmpty());
        // A second sweep into the same directory is refused before anything is written.
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        const ProgramRun again = runProgram(dmtunectl,
            { u"sweep"_s, loop.name(), u"--param"_s, u"nomerges=0,2"_s, u"batched-write-4k"_s, u"--record-dir"_s,
                records });
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains(u"already holds a sweep's recordings"_s), qPrintable(again.err));
        QCOMPARE(queue(loop, u"nomerges"_s), u"1"_s);
    }

    // A job file aimed at another device is refused even with --force: the check is fio's own reading of it.
    void refusesJobFileAimedElsewhere()
    {
        ScratchLoop target, other;
        if (!target.create(64LL << 20) || !other.create(64LL << 20))
            QSKIP(qPrintable(target.error() + other.error()));
        QTemporaryDir dir;
        const QString job = dir.filePath(u"elsewhere.fio"_s);
        QFile file(job);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            u"[x]\nfilename=${DMTUNE_DEVICE}\nrw=read\n[y]\nfilename=%1\nrw=write\nbs=4k\n"_s.arg(other.devicePath())
                .toUtf8());
        file.close();
        QVERIFY(target.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        const ProgramRun r = runProgram(dmtunectl,
            { u"sweep"_s, target.name(), u"--param"_s, u"nomerges=0,2"_s, u"--job"_s, job, u"--force"_s }, {}, 120000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.count(u'\n') == 1 && r.err.contains(u"is not the device"_s), qPrintable(r.err));
        QCOMPARE(queue(target, u"nomerges"_s), u"1"_s);
    }

    void refusesWithoutConfirmation_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no confirmation") << QStringList {} << 1 << u"refused without --destroy-data-on"_s;
        QTest::newRow("--force is no answer to a data risk")
            << QStringList { u"--force"_s } << 1 << u"--force does not answer a data risk"_s;
        QTest::newRow("another device") << QStringList { u"--destroy-data-on"_s, u"loop999"_s } << 2
                                        << u"does not name the device"_s;
        QTest::newRow("value out of range") << QStringList { u"--param"_s, u"nomerges=0,7"_s } << 1 << u"nomerges"_s;
        QTest::newRow("selector of a device that is no map")
            << QStringList { u"--param"_s, u"selector=round-robin,queue-length"_s } << 1 << u"is not a multipath map"_s;
    }
    void refusesWithoutConfirmation()
    {
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        ScratchLoop loop;
        if (!loop.create(64LL << 20))
            QSKIP(qPrintable(loop.error()));
        QTemporaryDir mountPoint;
        QString error;
        QVERIFY2(makeExt4WithWitness(loop.devicePath(), mountPoint.path(), "witness", &error), qPrintable(error));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        QStringList args { u"sweep"_s, loop.name(), u"batched-write-4k"_s, u"--runtime"_s, u"1"_s };
        if (!extra.contains(u"--param"_s))
            args << u"--param"_s << u"nomerges=0,2"_s;
        const ProgramRun r = runProgram(dmtunectl, args + extra, {}, 120000);
        QCOMPARE(r.exitCode, exitCode);
        // One line; a usage error's ends in where the help is.
        QVERIFY2(r.err.startsWith(u"dmtunectl: sweep: "_s) && r.err.count(u'\n') == 1, qPrintable(r.err));
        QCOMPARE(r.err.endsWith(u" (see dmtunectl sweep --help)\n"_s), exitCode == 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QCOMPARE(queue(loop, u"nomerges"_s), u"1"_s);
        QVERIFY2(ext4WitnessIntact(loop.devicePath(), mountPoint.path(), "witness", &error), qPrintable(error));
    }

    // --dry-run exits as the run would: 1 while the data risk is unanswered (with the line that says how to answer
    // it), 0 once --destroy-data-on names the device. Nothing is written either way.
    void dryRunExitsAsTheRunWould()
    {
        ScratchLoop loop;
        if (!loop.create(64LL << 20))
            QSKIP(qPrintable(loop.error()));
        QTemporaryDir mountPoint;
        QString error;
        QVERIFY2(makeExt4WithWitness(loop.devicePath(), mountPoint.path(), "witness", &error), qPrintable(error));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        const QStringList args { u"sweep"_s, loop.name(), u"--param"_s, u"nomerges=0,2"_s, u"batched-write-4k"_s,
            u"--runtime"_s, u"1"_s, u"--dry-run"_s };
        for (const QStringList &extra : { QStringList(), QStringList { u"--force"_s } }) {
            const ProgramRun r = runProgram(dmtunectl, args + extra, {}, 120000);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.out.contains(u"risk: "_s), qPrintable(r.out));
            QVERIFY2(
                r.err.count(u'\n') == 1 && r.err.contains(u"refused without --destroy-data-on %1"_s.arg(loop.name())),
                qPrintable(r.err));
        }
        const ProgramRun answered
            = runProgram(dmtunectl, args + QStringList { u"--destroy-data-on"_s, loop.devicePath() }, {}, 120000);
        QVERIFY2(answered.exitCode == 0, qPrintable(answered.err));
        QCOMPARE(queue(loop, u"nomerges"_s), u"1"_s);
        QVERIFY2(ext4WitnessIntact(loop.devicePath(), mountPoint.path(), "witness", &error), qPrintable(error));
    }

    // The legitimate use: --destroy-data-on naming the device answers the data risk, and the sweep runs.
    void destroyDataOnTheNamedDeviceRuns()
    {
        ScratchLoop loop;
        if (!loop.create(64LL << 20))
            QSKIP(qPrintable(loop.error()));
        QTemporaryDir mountPoint;
        QString error;
        QVERIFY2(makeExt4WithWitness(loop.devicePath(), mountPoint.path(), "witness", &error), qPrintable(error));
        QVERIFY(loop.setQueue(m_sys, u"nomerges"_s, u"1"_s));
        const ProgramRun r = runProgram(dmtunectl,
            { u"sweep"_s, loop.name(), u"--param"_s, u"nomerges=0,2"_s, u"batched-write-4k"_s, u"--runtime"_s, u"1"_s,
                u"--settle"_s, u"0"_s, u"--destroy-data-on"_s, loop.name(), u"--json"_s },
            {}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject sweep = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(sweep.value("points"_L1).toArray().size(), 2);
        QCOMPARE(queue(loop, u"nomerges"_s), u"1"_s);
    }
};

QTEST_GUILESS_MAIN(TstLiveSweep)
#include "tst_live_sweep.moc"
