// tst_vm_diagnosis: `dmtunectl diagnose` on a real kernel, INSIDE the lab VM (ctest -L vm -R diagnosis).
// mpatha over 4 scsi_debug paths (2 groups of 2, mq-deadline on the map, none on the paths), each rule's situation
// built for it where the emulated VM can produce it:
//   * idle, healthy map: no finding at all;
//   * seed 002: 8 fio jobs of 4K sequential writes at the paths' queue_depth 192 -> map-not-merging, with
//     nr_requests against 2 paths x 192; at queue_depth 2 the map merges: no map-not-merging, merges-on-map-only;
//   * random writes at queue_depth 2 -> time-above-paths; service-time told one path is 9x faster ->
//     unequal-path-load;
//   * a path scheduler -> scheduler-on-paths; a udev rule setting dm/rq_based_seq_io_merge_deadline -> ignored-knob;
//   * queue_if_no_path with every path failed (dmsetup message, independent of dmtune) -> queueing-without-paths.
// The numbers measured are printed (tst_diagnosis' rows come from them). Every value changed is put back.
#include "core/sysfs/sysfsroot.h"
#include "tests/common/mustsucceed.h"
#include "tests/common/testpaths.h"
#include "tests/vm/multipath/vmsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <csignal>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace dmtune;

class TstVmDiagnosis : public QObject {
    Q_OBJECT

    QString m_out;
    QString m_ctl;
    SysfsRoot m_sys;
    vm::MergingMap m_lab;
    QHash<QString, QString> m_oldScheduler; // path -> scheduler before the test
    QHash<QString, QString> m_oldDepth; // path -> queue_depth before the test

    QString sys(const QString &device, const QString &attribute) const
    {
        return m_sys.readOr(u"block/%1/%2"_s.arg(device, attribute)).trimmed();
    }

    // dmtunectl diagnose ... --json, parsed; the text kept in $KLAB_OUT.
    QJsonObject diagnose(const QStringList &args, const QString &label)
    {
        const vm::Run r = vm::run(m_ctl, QStringList { u"diagnose"_s } + args + QStringList { u"--json"_s });
        vm::saveFile(u"%1/diagnose-%2.json"_s.arg(m_out, label), r.out + r.err);
        if (r.exitCode != 0)
            qWarning().noquote() << vm::describe(m_ctl, args, r);
        return QJsonDocument::fromJson(r.out.toUtf8()).object();
    }

    static QStringList codes(const QJsonObject &doc)
    {
        QStringList out;
        for (const QJsonValue &f : doc.value("findings"_L1).toArray())
            out << f.toObject().value("code"_L1).toString();
        return out;
    }

    static QJsonObject finding(const QJsonObject &doc, const QString &code)
    {
        for (const QJsonValue &f : doc.value("findings"_L1).toArray()) {
            if (f.toObject().value("code"_L1).toString() == code)
                return f.toObject();
        }
        return {};
    }

    // The map's and its paths' metrics as the unit test's rows write them.
    static void printNumbers(const QJsonObject &doc, const QString &label)
    {
        const QJsonObject map = doc.value("maps"_L1).toArray().first().toObject();
        const auto line = [](const QJsonObject &m) {
            QStringList out;
            for (const char *key :
                { "r/s", "rkB/s", "rrqm/s", "r_await", "w/s", "wkB/s", "wrqm/s", "w_await", "aqu-sz" })
                out << u"%1=%2"_s.arg(QLatin1String(key)).arg(m.value(QLatin1String(key)).toDouble(), 0, 'f', 2);
            return out.join(u' ');
        };
        qInfo().noquote() << label << "map nr_requests" << map.value("nr_requests"_L1).toInteger() << ":"
                          << line(map.value("metrics"_L1).toObject());
        for (const QJsonValue &p : map.value("paths"_L1).toArray())
            qInfo().noquote() << label << p.toObject().value("name"_L1).toString() << "group"
                              << p.toObject().value("group"_L1).toInt() << "queue_depth"
                              << p.toObject().value("queue_depth"_L1).toInteger() << ":"
                              << line(p.toObject().value("metrics"_L1).toObject());
        qInfo().noquote() << label << "findings" << codes(doc).join(u", ");
    }

    // 8 jobs of 4K sequential writes on the map (seed 002's workload) for `seconds`, started in the background.
    void startWriters(QProcess *fio, int seconds, const QString &rw = u"write"_s)
    {
        const quint64 writesBefore = vm::ioCounter(m_lab.dm, DiskField::WriteIos);
        fio->start(u"fio"_s,
            { u"--name=seq002"_s, u"--filename=/dev/mapper/"_s + m_lab.map, u"--rw="_s + rw, u"--bs=4k"_s,
                u"--direct=1"_s, u"--ioengine=libaio"_s, u"--iodepth=16"_s, u"--numjobs=8"_s, u"--size=6m"_s,
                u"--offset_increment=6m"_s, u"--time_based"_s, u"--runtime=%1"_s.arg(seconds), u"--group_reporting"_s,
                u"--output-format=terse"_s });
        QVERIFY(fio->waitForStarted());
        // Past fio's start-up: until a hundred of its writes show in the map's counters.
        QTRY_VERIFY_WITH_TIMEOUT(vm::ioCounter(m_lab.dm, DiskField::WriteIos) >= writesBefore + 100, 30000);
    }

    QJsonObject diagnoseUnderWriters(const QString &label, const QString &rw = u"write"_s)
    {
        // fio runs until the diagnosis has its numbers (at most 120 s), then is stopped: the diagnosis' 3 s window
        // lies inside fio's run however slowly the emulated machine starts dmtunectl.
        QProcess fio;
        startWriters(&fio, 120, rw);
        const QJsonObject doc = diagnose({ m_lab.map, u"-i"_s, u"3"_s }, label);
        ::kill(pid_t(fio.processId()), SIGINT); // fio stops its jobs and reports, as on Ctrl+C
        if (!fio.waitForFinished(60000))
            qWarning("fio did not stop on SIGINT within 60 s"); // QProcess kills it when it goes out of scope
        printNumbers(doc, label);
        return doc;
    }

    void setDepth(const QString &depth)
    {
        const vm::Run r = vm::run(m_ctl, { u"set"_s, m_lab.map, u"device/queue_depth="_s + depth, u"--with-paths"_s });
        QVERIFY2(r.exitCode == 0, qPrintable(vm::describe(m_ctl, { u"set"_s }, r)));
        for (const QString &p : std::as_const(m_lab.paths))
            QCOMPARE(sys(p, u"device/queue_depth"_s), depth);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_out = qEnvironmentVariable("KLAB_OUT");
        if (m_out.isEmpty())
            QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R diagnosis' as root");
        QVERIFY(::geteuid() == 0);
        m_ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
        QVERIFY(QFileInfo(m_ctl).isExecutable());
        const QString problem = m_lab.setUp(m_sys);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        for (const QString &p : std::as_const(m_lab.paths)) {
            m_oldScheduler.insert(p, sys(p, u"queue/scheduler"_s).section(u'[', 1).section(u']', 0, 0));
            m_oldDepth.insert(p, sys(p, u"device/queue_depth"_s));
            QVERIFY(m_sys.write(u"block/%1/queue/scheduler"_s.arg(p), u"none"_s));
        }
    }

    void idleMapHasNoFindings()
    {
        QVERIFY(vm::readThrough(m_lab.map)); // dm picks a group on the first I/O
        const QJsonObject doc = diagnose({ m_lab.map, u"-i"_s, u"1"_s }, u"idle"_s);
        QCOMPARE(doc.value("maps"_L1).toArray().size(), 1);
        const QJsonObject map = doc.value("maps"_L1).toArray().first().toObject();
        QCOMPARE(map.value("name"_L1).toString(), m_lab.map);
        QVERIFY(map.value("request_based"_L1).toBool());
        QCOMPARE(map.value("paths"_L1).toArray().size(), 4);
        QVERIFY(map.value("group_in_use"_L1).toInt() >= 1);
        QVERIFY(map.contains("metrics"_L1));
        QCOMPARE(codes(doc), QStringList {});
    }

    void notMergingAtQueueDepth192()
    {
        setDepth(u"192"_s);
        const QJsonObject doc = diagnoseUnderWriters(u"qd192"_s);
        QVERIFY2(codes(doc).contains(u"map-not-merging"_s), qPrintable(codes(doc).join(u", ")));
        const QJsonObject f = finding(doc, u"map-not-merging"_s);
        const QJsonObject numbers = f.value("numbers"_L1).toObject();
        QCOMPARE(numbers.value("paths.queue_depth_sum"_L1).toDouble(), 2 * 192.0); // the group in use's 2 paths
        QVERIFY(numbers.value("map.nr_requests"_L1).toDouble() <= 2 * 192.0);
        QVERIFY(numbers.value("map.merged_percent"_L1).toDouble() < 5);
        const QJsonObject experiment = f.value("experiment"_L1).toObject();
        QCOMPARE(experiment.value("param"_L1).toString(), u"device/queue_depth"_s);
        QVERIFY(experiment.value("with_paths"_L1).toBool());
        QVERIFY(f.value("message"_L1).toString().contains(u"2 path(s) in use x queue_depth 192 = 384"_s));
    }

    void mergesAtQueueDepth2()
    {
        setDepth(u"2"_s);
        const QJsonObject doc = diagnoseUnderWriters(u"qd2"_s);
        QVERIFY2(!codes(doc).contains(u"map-not-merging"_s), qPrintable(codes(doc).join(u", ")));
        QVERIFY2(codes(doc).contains(u"merges-on-map-only"_s), qPrintable(codes(doc).join(u", ")));
        const QJsonObject numbers = finding(doc, u"merges-on-map-only"_s).value("numbers"_L1).toObject();
        QVERIFY(numbers.value("map.merged_percent"_L1).toDouble() >= 10);
        QCOMPARE(numbers.value("paths.merges_per_s"_L1).toDouble(), 0.0);
    }

    // Random writes cannot merge: at queue_depth 2 the 8 x 16 requests in flight wait in the map, above the paths.
    void timeAbovePathsAtQueueDepth2()
    {
        const QJsonObject doc = diagnoseUnderWriters(u"qd2-random"_s, u"randwrite"_s);
        QVERIFY2(codes(doc).contains(u"time-above-paths"_s), qPrintable(codes(doc).join(u", ")));
        const QJsonObject numbers = finding(doc, u"time-above-paths"_s).value("numbers"_L1).toObject();
        const double mapAwait = numbers.value("map.await"_L1).toDouble();
        const double above = numbers.value("above_paths"_L1).toDouble();
        QVERIFY(above >= 1 && above >= mapAwait * 0.25);
        QCOMPARE(numbers.value("paths.weighted_await"_L1).toDouble(), mapAwait - above);
        setDepth(m_oldDepth.value(m_lab.paths.first()));
    }

    // service-time with one path of the group in use said to be 9 times faster: it gets most of the I/O.
    void unequalLoadUnderServiceTime()
    {
        const vm::Run table = vm::run(u"dmsetup"_s, { u"table"_s, m_lab.map });
        QCOMPARE(table.exitCode, 0);
        const QString original = table.out.trimmed();
        QString weighted = original;
        static const QRegularExpression group(u"round-robin 0 2 1 (\\S+) 1 (\\S+) 1"_s);
        const QRegularExpressionMatch first = group.match(weighted);
        QVERIFY2(first.hasMatch(), qPrintable(original));
        weighted.replace(first.capturedStart(), first.capturedLength(),
            u"service-time 0 2 2 %1 1 1 %2 1 9"_s.arg(first.captured(1), first.captured(2)));
        const QRegularExpressionMatch second = group.match(weighted);
        QVERIFY2(second.hasMatch(), qPrintable(weighted));
        weighted.replace(second.capturedStart(), second.capturedLength(),
            u"service-time 0 2 2 %1 1 1 %2 1 1"_s.arg(second.captured(1), second.captured(2)));
        const auto reload = [&](const QString &line) {
            const vm::Run r = vm::run(u"dmsetup"_s, { u"reload"_s, m_lab.map, u"--table"_s, line });
            QVERIFY2(r.exitCode == 0, qPrintable(vm::describe(u"dmsetup reload"_s, { line }, r)));
            QCOMPARE(vm::run(u"dmsetup"_s, { u"resume"_s, m_lab.map }).exitCode, 0);
        };
        reload(weighted);
        const QJsonObject doc = diagnoseUnderWriters(u"service-time"_s, u"randwrite"_s);
        reload(original);
        QVERIFY2(codes(doc).contains(u"unequal-path-load"_s), qPrintable(codes(doc).join(u", ")));
        const QJsonObject f = finding(doc, u"unequal-path-load"_s);
        QVERIFY(f.value("message"_L1).toString().contains(u"under service-time"_s));
        QVERIFY(f.value("numbers"_L1).toObject().value("ratio"_L1).toDouble() >= 3);
        QCOMPARE(f.value("experiment"_L1).toObject().value("param"_L1).toString(), u"selector"_s);
    }

    void configurationRules()
    {
        const QString path = m_lab.paths.first();
        QVERIFY(m_sys.write(u"block/%1/queue/scheduler"_s.arg(path), u"mq-deadline"_s));
        // A 2015 udev rule carried forward: the kernel takes the 20 and reads back 0.
        const QString deadline = u"block/%1/dm/rq_based_seq_io_merge_deadline"_s.arg(m_lab.dm);
        QVERIFY(m_sys.write(deadline, u"20"_s));
        QCOMPARE(m_sys.readOr(deadline).trimmed(), u"0"_s);
        QDir().mkpath(u"/run/udev/rules.d"_s);
        const QString rule = u"/run/udev/rules.d/99-dmtune-test-merge-deadline.rules"_s;
        vm::saveFile(rule,
            u"# from a 2015 tuning guide\nACTION==\"add|change\", KERNEL==\"dm-*\", "
            u"ATTR{dm/rq_based_seq_io_merge_deadline}=\"20\"\n"_s);
        const QJsonObject doc = diagnose({ m_lab.map, u"-i"_s, u"0"_s }, u"configuration"_s);
        QFile::remove(rule);
        QCOMPARE(doc.value("interval_s"_L1).toDouble(), 0.0);
        QCOMPARE(codes(doc), (QStringList { u"scheduler-on-paths"_s, u"ignored-knob"_s }));
        QCOMPARE(finding(doc, u"scheduler-on-paths"_s).value("devices"_L1).toArray().last().toString(), path);
        QVERIFY(finding(doc, u"ignored-knob"_s).value("message"_L1).toString().startsWith(rule + u":2 sets"_s));
        QVERIFY(m_sys.write(u"block/%1/queue/scheduler"_s.arg(path), u"none"_s));
        QCOMPARE(codes(diagnose({ m_lab.map, u"-i"_s, u"0"_s }, u"configuration-restored"_s)), QStringList {});
    }

    void queueingWithEveryPathFailed()
    {
        QStringList devnums;
        for (const QString &p : std::as_const(m_lab.paths))
            devnums << sys(p, u"dev"_s);
        const auto message = [&](const QString &text) {
            const vm::Run r = vm::run(u"dmsetup"_s, { u"message"_s, m_lab.map, u"0"_s, text });
            QVERIFY2(r.exitCode == 0, qPrintable(vm::describe(u"dmsetup message"_s, { text }, r)));
        };
        message(u"queue_if_no_path"_s);
        for (const QString &d : std::as_const(devnums))
            message(u"fail_path "_s + d);
        const QJsonObject doc = diagnose({ m_lab.map, u"-i"_s, u"0"_s }, u"all-failed"_s);
        for (const QString &d : std::as_const(devnums))
            message(u"reinstate_path "_s + d);
        message(u"fail_if_no_path"_s);
        QVERIFY2(codes(doc).contains(u"queueing-without-paths"_s), qPrintable(codes(doc).join(u", ")));
        QCOMPARE(finding(doc, u"queueing-without-paths"_s).value("severity"_L1).toString(), u"problem"_s);
        QCOMPARE(codes(diagnose({ m_lab.map, u"-i"_s, u"0"_s }, u"reinstated"_s)), QStringList {});
    }

    void badNames()
    {
        const vm::Run r = vm::run(m_ctl, { u"diagnose"_s, m_lab.paths.first() });
        QCOMPARE(r.exitCode, 1); // a map this host does not have
        QVERIFY2(r.err.contains(u"is not a multipath map or a native NVMe head"_s), qPrintable(r.err));
        QCOMPARE(r.err.count(u'\n'), 1);
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

QTEST_GUILESS_MAIN(TstVmDiagnosis)
#include "tst_vm_diagnosis.moc"
