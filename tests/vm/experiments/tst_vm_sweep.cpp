// tst_vm_sweep: `dmtunectl sweep` on a real kernel, INSIDE the lab VM (ctest -L vm -R sweep). mpatha over 4
// scsi_debug paths (mq-deadline on the map, none on the paths), seed 002's workload (8 jobs of 4K sequential
// writes) from a job file:
//   * the paths' queue_depth over 2, 8, 32 (--with-paths), 2 repeats a point: every point measured, the map merges
//     at queue_depth 2 (seed 002), every path's queue_depth back to what it was;
//   * the same points run one by one (dmtunectl set, then dmtunectl run): the sweep's means agree with them within
//     the spread of its repeats or 10 %, whichever is larger;
//   * SIGINT during the second point: exit 1, the first point's results printed, "stopped", queue_depth restored;
//   * the map's path selector over queue-length and service-time:1:4 (a table reload per point): each point's
//     recording remembers its selector and the paths' arguments, and the table is the one before the sweep afterwards;
//   * diagnose --recording on the one-by-one recordings: at the original queue_depth (192) the map does not merge
//     and map-not-merging says why; at 2 it merges (merges-on-map-only);
//   * bad input (an unknown attribute, a value the kernel refuses) refused in one line, nothing written.
#include "core/sysfs/sysfsroot.h"
#include "tests/common/mustsucceed.h"
#include "tests/common/testpaths.h"
#include "tests/vm/multipath/vmsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <string_view>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace dmtune;

class TstVmSweep : public QObject {
    Q_OBJECT

    QString m_out;
    QString m_ctl;
    SysfsRoot m_sys;
    vm::MergingMap m_lab;
    QTemporaryDir m_dir;
    QString m_job;
    QHash<QString, QString> m_oldScheduler;
    QHash<QString, QString> m_oldDepth;
    QJsonObject m_sweep; // sweepsQueueDepth's result, compared by oneByOneAgrees

    QString depth(const QString &path) const
    {
        return m_sys.readOr(u"block/%1/device/queue_depth"_s.arg(path)).trimmed();
    }

    // Every path's queue_depth reads back `value`.
    bool depthsAre(const QString &value) const
    {
        for (const QString &p : std::as_const(m_lab.paths)) {
            if (depth(p) != value)
                return false;
        }
        return true;
    }

    // Nothing in flight on the map and its paths: the I/O before a point has drained.
    bool idle() const
    {
        for (const QString &d : QStringList { m_lab.dm } + m_lab.paths) {
            const QStringList counts = m_sys.readOr(u"block/%1/inflight"_s.arg(d)).split(u' ', Qt::SkipEmptyParts);
            if (counts != QStringList { u"0"_s, u"0"_s })
                return false;
        }
        return true;
    }

    void verifyDepthsRestored()
    {
        for (const QString &p : std::as_const(m_lab.paths))
            QCOMPARE(depth(p), m_oldDepth.value(p));
    }

    QStringList sweepArgs(const QString &values, int repeats = 2) const
    {
        return { u"sweep"_s, m_lab.map, u"--param"_s, u"queue_depth="_s + values, u"--with-paths"_s, u"--job"_s, m_job,
            u"--repeat"_s, QString::number(repeats), u"--settle"_s, u"1"_s, u"--json"_s };
    }

    static QJsonObject pointOf(const QJsonObject &sweep, const QString &value)
    {
        for (const QJsonValue &p : sweep.value("points"_L1).toArray()) {
            if (p.toObject().value("params"_L1).toObject().value("device/queue_depth"_L1).toString() == value)
                return p.toObject();
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_out = qEnvironmentVariable("KLAB_OUT");
        if (m_out.isEmpty())
            QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R sweep' as root");
        QVERIFY(::geteuid() == 0);
        m_ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
        QVERIFY(QFileInfo(m_ctl).isExecutable());
        const QString problem = m_lab.setUp(m_sys);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (const QString &p : std::as_const(m_lab.paths)) {
            m_oldScheduler.insert(
                p, m_sys.readOr(u"block/%1/queue/scheduler"_s.arg(p)).section(u'[', 1).section(u']', 0, 0));
            m_oldDepth.insert(p, depth(p));
            QVERIFY(m_sys.write(u"block/%1/queue/scheduler"_s.arg(p), u"none"_s));
        }
        QVERIFY(vm::readThrough(m_lab.map));
        // Seed 002's workload: 8 jobs of 4K sequential writes, each in its own 6 MiB. 2 s after a 1 s ramp: under
        // emulation the map takes 1,000 to 4,000 writes a second, so every run measures thousands of requests, and
        // what is compared (%wrqm, the request size) is a ratio of them; each of the 17 runs is 2 s shorter than at 4.
        m_job = m_dir.filePath(u"seq002.fio"_s);
        vm::saveFile(m_job,
            u"[global]\nfilename=${DMTUNE_DEVICE}\nrw=write\nbs=4k\ndirect=1\nioengine=libaio\niodepth=16\n"
            "size=6m\noffset_increment=6m\ntime_based\nramp_time=1\nruntime=2\ngroup_reporting\n[seq002]\nnumjobs=8\n"_s);
    }

    void sweepsQueueDepth()
    {
        // Recorded into the output folder: the results reopen from there (below, and `dmtune --sweep DIR`).
        const QString recordDir = m_out + u"/sweep-recordings"_s;
        QDir(recordDir).removeRecursively();
        const QStringList args = sweepArgs(u"2,8,32"_s) + QStringList { u"--record-dir"_s, recordDir };
        const vm::Run r = vm::run(m_ctl, args, 300000);
        vm::saveFile(m_out + u"/sweep.json"_s, r.out);
        vm::saveFile(m_out + u"/sweep.err"_s, r.err);
        QVERIFY2(r.exitCode == 0, qPrintable(vm::describe(m_ctl, args, r)));
        m_sweep = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray points = m_sweep.value("points"_L1).toArray();
        QCOMPARE(points.size(), 3);
        for (const QJsonValue &v : points) {
            const QJsonObject p = v.toObject();
            QCOMPARE(p.value("repeats"_L1).toInt(), 2);
            QCOMPARE(p.value("recordings"_L1).toArray().size(), 2);
            const QJsonObject map = p.value("devices"_L1).toObject().value(m_lab.dm).toObject();
            QVERIFY2(map.value("w/s"_L1).toDouble() > 100, QJsonDocument(p).toJson().constData());
            QVERIFY(p.value("fio"_L1).toObject().value("write_iops"_L1).toDouble() > 100);
            for (const QString &path : std::as_const(m_lab.paths))
                QVERIFY(p.value("devices"_L1).toObject().contains(path));
            qInfo().noquote()
                << "queue_depth" << p.value("params"_L1).toObject().value("device/queue_depth"_L1).toString()
                << ": map w/s" << map.value("w/s"_L1).toDouble() << "±"
                << p.value("devices_spread"_L1).toObject().value(m_lab.dm).toObject().value("w/s"_L1).toDouble()
                << "%wrqm" << map.value("wrqm"_L1).toDouble() << "wareq-sz" << map.value("wareq-sz"_L1).toDouble()
                << "fio IOPS" << p.value("fio"_L1).toObject().value("write_iops"_L1).toDouble();
        }
        // Seed 002: at queue_depth 2 the map merges.
        QVERIFY(pointOf(m_sweep, u"2"_s)
                    .value("devices"_L1)
                    .toObject()
                    .value(m_lab.dm)
                    .toObject()
                    .value("wrqm"_L1)
                    .toDouble()
            >= 10);
        QVERIFY(m_sweep.value("restored"_L1).toArray().size() >= m_lab.paths.size());
        QCOMPARE(m_sweep.value("stopped"_L1).toBool(), false);
        verifyDepthsRestored();
        // Reopened from its recordings' folder: the same points, the same means.
        const vm::Run reopened = vm::run(m_ctl, { u"sweep"_s, u"--open"_s, recordDir, u"--json"_s }, 30000);
        QVERIFY2(reopened.exitCode == 0, qPrintable(reopened.err));
        const QJsonArray again = QJsonDocument::fromJson(reopened.out.toUtf8()).object().value("points"_L1).toArray();
        QCOMPARE(again.size(), points.size());
        for (int i = 0; i < points.size(); ++i) {
            QCOMPARE(again.at(i).toObject().value("params"_L1), points.at(i).toObject().value("params"_L1));
            QCOMPARE(again.at(i).toObject().value("devices"_L1), points.at(i).toObject().value("devices"_L1));
        }
    }

    // The same points made one by one, as a user does by hand: set, then run, twice each (recorded). %wrqm, what
    // the sweep is about, agrees within the spread of the repeats (the sweep's plus the runs' own standard
    // deviation) or 10 percentage points, whichever is larger; the request size falls from point to point in both.
    // The rest is printed only: under QEMU's emulation wareq-sz at queue_depth 2 came out 14.7 to 18.8 kB in
    // sessions minutes apart (two back-to-back repeats agree far better), and the rates swing by a third.
    void oneByOneAgrees()
    {
        QVERIFY(!m_sweep.isEmpty());
        const auto restore = qScopeGuard([this] {
            for (const QString &p : std::as_const(m_lab.paths))
                dmtune::test::warnOnFailure(
                    m_sys.write(u"block/%1/device/queue_depth"_s.arg(p), m_oldDepth.value(p)), "queue_depth put back");
        });
        QList<double> sweptSizes, singleSizes;
        for (const QString &value : { u"2"_s, u"8"_s, u"32"_s }) {
            const vm::Run set = vm::run(m_ctl, { u"set"_s, m_lab.map, u"queue_depth="_s + value, u"--with-paths"_s });
            QVERIFY2(set.exitCode == 0, qPrintable(set.err));
            QList<QJsonObject> singles;
            for (int repeat = 1; repeat <= 2; ++repeat) {
                // The sweep's --settle: until the point's queue_depth reads back and the map and its paths are idle.
                QTRY_VERIFY_WITH_TIMEOUT(depthsAre(value) && idle(), 30000);
                const QStringList args { u"run"_s, u"--job"_s, m_job, u"--device"_s, m_lab.map, u"--json"_s,
                    u"--record"_s, m_dir.filePath(u"qd%1-%2.dmrec"_s.arg(value).arg(repeat)) };
                const vm::Run run = vm::run(m_ctl, args, 120000);
                QVERIFY2(run.exitCode == 0, qPrintable(vm::describe(m_ctl, args, run)));
                // --json: progress lines, then the summary object (indented) last.
                const QString summaryText = run.out.mid(run.out.lastIndexOf(u"\n{\n"_s) + 1);
                const QJsonObject summary = QJsonDocument::fromJson(summaryText.toUtf8()).object();
                singles << summary.value("devices"_L1).toObject().value(m_lab.dm).toObject();
                QVERIFY2(!singles.last().isEmpty(), qPrintable(run.out.right(2000)));
            }
            const QJsonObject point = pointOf(m_sweep, value);
            const QJsonObject mean = point.value("devices"_L1).toObject().value(m_lab.dm).toObject();
            const QJsonObject spread = point.value("devices_spread"_L1).toObject().value(m_lab.dm).toObject();
            for (const char *key : { "wareq-sz", "wrqm", "w/s", "wkB/s" }) {
                const double a = mean.value(QLatin1String(key)).toDouble();
                const double b1 = singles.at(0).value(QLatin1String(key)).toDouble();
                const double b2 = singles.at(1).value(QLatin1String(key)).toDouble();
                const double b = (b1 + b2) / 2;
                const double spreadOfRuns = std::abs(b1 - b2) / std::sqrt(2.0); // sample standard deviation of two
                const double tenPercent = std::string_view(key) == "wrqm" ? 10.0 : 0.10 * a;
                // Three standard errors of the difference: the sweep's spread and the two single runs' combined as
                // independent errors (a TCG guest's %wrqm at queue_depth 32 moves by several points run to run).
                const double sweepSpread = spread.value(QLatin1String(key)).toDouble();
                const double allowed
                    = std::max(3.0 * std::sqrt(sweepSpread * sweepSpread + spreadOfRuns * spreadOfRuns), tenPercent);
                const bool asserted = std::string_view(key) == "wrqm";
                if (std::string_view(key) == "wareq-sz") {
                    sweptSizes << a;
                    singleSizes << b;
                }
                qInfo().noquote() << "queue_depth" << value << key << "sweep" << a << "one by one" << b1 << b2
                                  << "allowed" << allowed << (asserted ? "" : "(printed only)");
                if (asserted)
                    QVERIFY2(std::abs(a - b) <= allowed,
                        qPrintable(u"queue_depth %1 %2: sweep %3, one by one %4"_s.arg(value, QLatin1String(key))
                                       .arg(a)
                                       .arg(b)));
            }
        }
        // Seed 002 in both: the fewer requests the paths take, the larger the merged requests.
        QVERIFY2(sweptSizes.at(0) > sweptSizes.at(1) && sweptSizes.at(1) > sweptSizes.at(2),
            qPrintable(u"sweep wareq-sz %1 %2 %3"_s.arg(sweptSizes.at(0)).arg(sweptSizes.at(1)).arg(sweptSizes.at(2))));
        QVERIFY2(singleSizes.at(0) > singleSizes.at(1) && singleSizes.at(1) > singleSizes.at(2),
            qPrintable(u"one by one wareq-sz %1 %2 %3"_s.arg(singleSizes.at(0))
                           .arg(singleSizes.at(1))
                           .arg(singleSizes.at(2))));
    }

    // The recordings of oneByOneAgrees, and one more at the paths' original queue_depth, diagnosed afterwards.
    void diagnosesRecordings()
    {
        const QString at192 = m_out + u"/qd-original.dmrec"_s;
        QFile::remove(at192);
        // Settled: until every path's queue_depth reads back its original value and the map and its paths are idle.
        const auto settledAtOriginal = [this] {
            for (const QString &p : std::as_const(m_lab.paths)) {
                if (depth(p) != m_oldDepth.value(p))
                    return false;
            }
            return idle();
        };
        QTRY_VERIFY_WITH_TIMEOUT(settledAtOriginal(), 30000);
        const QStringList args { u"run"_s, u"--job"_s, m_job, u"--device"_s, m_lab.map, u"--record"_s, at192 };
        const vm::Run run = vm::run(m_ctl, args, 120000);
        QVERIFY2(run.exitCode == 0, qPrintable(vm::describe(m_ctl, args, run)));
        const auto diagnose = [this](const QString &recording) {
            const QStringList args { u"diagnose"_s, u"--recording"_s, recording, u"--json"_s };
            const vm::Run r = vm::run(m_ctl, args, 30000);
            if (r.exitCode != 0)
                qWarning().noquote() << vm::describe(m_ctl, args, r);
            return QJsonDocument::fromJson(r.out.toUtf8()).object();
        };
        const auto codes = [](const QJsonObject &diagnosis) {
            QStringList out;
            for (const QJsonValue &f : diagnosis.value("findings"_L1).toArray())
                out << f.toObject().value("code"_L1).toString();
            return out;
        };
        const QJsonObject original = diagnose(at192);
        vm::saveFile(m_out + u"/diagnose-qd-original.json"_s, QString::fromUtf8(QJsonDocument(original).toJson()));
        const QJsonObject map = original.value("maps"_L1).toArray().first().toObject();
        qInfo().noquote() << "recorded at queue_depth" << m_oldDepth.value(m_lab.paths.first()) << ": map %wrqm"
                          << map.value("metrics"_L1).toObject().value("wrqm"_L1).toDouble() << "findings"
                          << codes(original).join(u' ');
        QCOMPARE(original.value("recording"_L1).toObject().value("window"_L1).toString(), u"fio's I/O window"_s);
        QVERIFY2(codes(original).contains(u"map-not-merging"_s), qPrintable(codes(original).join(u' ')));
        const QJsonObject merging = diagnose(m_dir.filePath(u"qd2-1.dmrec"_s));
        QVERIFY2(codes(merging).contains(u"merges-on-map-only"_s), qPrintable(codes(merging).join(u' ')));
        QVERIFY(!codes(merging).contains(u"map-not-merging"_s));
        // Both recordings remember the paths' queue_depth they ran at.
        QCOMPARE(map.value("paths"_L1).toArray().first().toObject().value("queue_depth"_L1).toInteger(),
            m_oldDepth.value(m_lab.paths.first()).toLongLong());
        QCOMPARE(merging.value("maps"_L1)
                     .toArray()
                     .first()
                     .toObject()
                     .value("paths"_L1)
                     .toArray()
                     .first()
                     .toObject()
                     .value("queue_depth"_L1)
                     .toInteger(),
            2);
    }

    // The path selector is no sysfs attribute: each point reloads the map's table, and the end reloads the old one.
    void sweepsSelector()
    {
        const QString before = vm::dmsetupParams(u"table"_s, m_lab.map);
        QVERIFY(before.contains(u"round-robin"_s));
        const QString recordDir = m_out + u"/selector-recordings"_s;
        QDir(recordDir).removeRecursively();
        const QStringList args { u"sweep"_s, m_lab.map, u"--param"_s, u"selector=queue-length,service-time:1:4"_s,
            u"--job"_s, m_job, u"--settle"_s, u"1"_s, u"--record-dir"_s, recordDir, u"--json"_s };
        const vm::Run r = vm::run(m_ctl, args, 300000);
        vm::saveFile(m_out + u"/selector-sweep.json"_s, r.out);
        vm::saveFile(m_out + u"/selector-sweep.err"_s, r.err);
        QVERIFY2(r.exitCode == 0, qPrintable(vm::describe(m_ctl, args, r)));
        QCOMPARE(vm::dmsetupParams(u"table"_s, m_lab.map), before);
        QVERIFY(vm::notSuspended(m_lab.map));
        const QJsonObject result = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray points = result.value("points"_L1).toArray();
        QCOMPARE(points.size(), 2);
        const QStringList restored = [&] {
            QStringList out;
            for (const QJsonValue &v : result.value("restored"_L1).toArray())
                out << v.toString();
            return out;
        }();
        QVERIFY2(restored.join(u'\n').contains(m_lab.map + u": table"_s), qPrintable(restored.join(u'\n')));
        for (const QJsonValue &v : points) {
            const QJsonObject p = v.toObject();
            const QString selector = p.value("params"_L1).toObject().value("selector"_L1).toString();
            const QJsonObject mapNumbers = p.value("devices"_L1).toObject().value(m_lab.dm).toObject();
            qInfo().noquote() << "selector" << selector << ": map w/s" << mapNumbers.value("w/s"_L1).toDouble()
                              << "%wrqm" << mapNumbers.value("wrqm"_L1).toDouble();
            QVERIFY(mapNumbers.value("w/s"_L1).toDouble() > 100);
            // The recording's header read the table as the point had it.
            const QString recording = p.value("recordings"_L1).toArray().first().toString();
            const vm::Run shown = vm::run(m_ctl, { u"record"_s, u"show"_s, recording, u"--json"_s }, 30000);
            QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
            const QJsonArray groups = QJsonDocument::fromJson(shown.out.toUtf8())
                                          .object()
                                          .value("configuration"_L1)
                                          .toObject()
                                          .value("maps"_L1)
                                          .toArray()
                                          .first()
                                          .toObject()
                                          .value("groups"_L1)
                                          .toArray();
            QVERIFY(!groups.isEmpty());
            // service-time:1:4: repeat_count 1 and relative throughput 4 on every path.
            const QStringList words = selector.split(u':');
            for (const QJsonValue &g : groups) {
                QCOMPARE(g.toObject().value("selector"_L1).toString(), words.first());
                for (const QJsonValue &path : g.toObject().value("paths"_L1).toArray()) {
                    const QJsonArray args = path.toObject().value("selector_args"_L1).toArray();
                    for (qsizetype i = 1; i < words.size(); ++i)
                        QCOMPARE(args.at(i - 1).toString(), words.at(i));
                }
            }
        }
    }

    void stopHalfWayRestores()
    {
        // One run a point: what is checked is the stop (the first point's results kept, the second's dropped, the
        // values restored), not the measurement; a second repeat of the first point only delays the stop.
        QProcess sweep;
        sweep.start(m_ctl, sweepArgs(u"2,8,32"_s, 1));
        QVERIFY(sweep.waitForStarted());
        QString err;
        QElapsedTimer waited;
        waited.start();
        while (!err.contains(u"point 2/3"_s) && waited.elapsed() < 120000) {
            sweep.waitForReadyRead(500);
            err += QString::fromLocal8Bit(sweep.readAllStandardError());
        }
        QVERIFY2(err.contains(u"point 2/3"_s), qPrintable(err));
        // Into the settle time or fio: until point 2's queue_depth reads back on every path.
        QTRY_VERIFY_WITH_TIMEOUT(depthsAre(u"8"_s), 30000);
        for (const QString &p : std::as_const(m_lab.paths))
            QCOMPARE(depth(p), u"8"_s);
        ::kill(pid_t(sweep.processId()), SIGINT);
        QVERIFY(sweep.waitForFinished(60000));
        err += QString::fromLocal8Bit(sweep.readAllStandardError());
        const QByteArray out = sweep.readAllStandardOutput();
        vm::saveFile(m_out + u"/stopped.json"_s, QString::fromUtf8(out));
        vm::saveFile(m_out + u"/stopped.err"_s, err);
        QCOMPARE(sweep.exitCode(), 1);
        QVERIFY2(err.contains(u"sweep: stopped"_s), qPrintable(err));
        const QJsonObject result = QJsonDocument::fromJson(out).object();
        QCOMPARE(result.value("stopped"_L1).toBool(), true);
        QCOMPARE(result.value("points"_L1).toArray().size(), 1); // the first point; the second's runs are dropped
        verifyDepthsRestored();
    }

    void badInputChangesNothing_data()
    {
        QTest::addColumn<QString>("param");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown attribute") << u"queue_dept=2,8"_s << u"queue_dept"_s;
        QTest::newRow("value the catalog refuses") << u"queue_depth=2,abc"_s << u"abc"_s;
        QTest::newRow("value twice") << u"queue_depth=2,2"_s << u"twice"_s;
        QTest::newRow("unknown selector") << u"selector=round-robin,fastest"_s << u"fastest"_s;
    }

    void badInputChangesNothing()
    {
        QFETCH(QString, param);
        QFETCH(QString, expected);
        const QStringList args { u"sweep"_s, m_lab.map, u"--param"_s, param, u"--with-paths"_s, u"--job"_s, m_job };
        const vm::Run r = vm::run(m_ctl, args);
        QVERIFY2(r.exitCode != 0, qPrintable(vm::describe(m_ctl, args, r)));
        QCOMPARE(r.err.trimmed().count(u'\n'), 0);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        verifyDepthsRestored();
    }

    void cleanupTestCase()
    {
        for (auto it = m_oldDepth.cbegin(); it != m_oldDepth.cend(); ++it) {
            if (!it.value().isEmpty())
                dmtune::test::warnOnFailure(
                    m_sys.write(u"block/%1/device/queue_depth"_s.arg(it.key()), it.value()), "queue_depth put back");
        }
        for (auto it = m_oldScheduler.cbegin(); it != m_oldScheduler.cend(); ++it) {
            if (!it.value().isEmpty())
                dmtune::test::warnOnFailure(
                    m_sys.write(u"block/%1/queue/scheduler"_s.arg(it.key()), it.value()), "scheduler put back");
        }
        m_lab.restore(m_sys);
    }
};

QTEST_GUILESS_MAIN(TstVmSweep)
#include "tst_vm_sweep.moc"
