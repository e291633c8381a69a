// tst_vm_params: queue parameters on a real kernel, INSIDE the lab VM (ctest -L vm -R params, or
//   tests/vm/lab/klab.sh -- <build>/tests/vm/params/tst_vm_params).
// Builds tests/vm/guest/setup-multipath.sh's mpatha over 4 scsi_debug paths, then:
//   * device/queue_depth on one path through `dmtunectl set`, read back from sysfs;
//   * max_sectors_kb on the map and its paths (--with-paths), lowered then raised: the write order
//     in the JSON result (map first when lowering, paths first when raising) and the final values;
//   * the stacking warning nr_requests vs paths x queue_depth (4 x 32 = 128) with its numbers;
//   * the GUI's path: Applier (in-process) + ChangeHistory on the map and its paths, then undo.
// Every value changed is put back at the end of its test function. Skips outside the lab.
#include "core/discovery/discovery.h"
#include "core/params/applier.h"
#include "core/params/changehistory.h"
#include "core/sysfs/sysfsroot.h"
#include "tests/common/testpaths.h"
#include "tests/common/tuningrun.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace dmtune;

class TstVmParams : public QObject {
    Q_OBJECT

    QHash<QString, QString> m_env; // KEY=VALUE lines of setup-multipath.sh
    QString m_out; // $KLAB_OUT
    QString m_ctl; // dmtunectl
    QString m_map; // mpatha
    QString m_dm; // dm-N
    QStringList m_paths; // sdX in table order
    SysfsRoot m_sys;
    int m_runs = 0;

    QString sys(const QString &device, const QString &attribute) const
    {
        return m_sys.readOr(u"block/%1/%2"_s.arg(device, attribute)).trimmed();
    }

    qint64 sysInt(const QString &device, const QString &attribute) const
    {
        bool ok = false;
        const qint64 v = sys(device, attribute).toLongLong(&ok);
        return ok ? v : -1;
    }

    // Runs a program; returns its exit code (-1 when it did not run to the end), stdout in *out.
    int run(const QString &program, const QStringList &args, QByteArray *out = nullptr, QByteArray *err = nullptr)
    {
        QProcess p;
        p.start(program, args);
        if (!p.waitForStarted() || !p.waitForFinished(120000))
            return -1;
        if (out)
            *out = p.readAllStandardOutput();
        if (err)
            *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    // dmtunectl set ... --json: the parsed result (kept in $KLAB_OUT) and the exit status.
    QJsonObject set(const QStringList &args, int *exitCode)
    {
        QByteArray out, err;
        *exitCode = run(m_ctl, QStringList { u"set"_s } + args + QStringList { u"--json"_s }, &out, &err);
        QFile f(u"%1/set-%2.json"_s.arg(m_out).arg(++m_runs, 2, 10, QLatin1Char('0')));
        if (f.open(QIODevice::WriteOnly))
            f.write("# dmtunectl set " + args.join(u' ').toUtf8() + "\n" + out + err);
        const QJsonDocument doc = QJsonDocument::fromJson(out);
        if (!doc.isObject())
            qWarning().noquote() << "dmtunectl set" << args << "exited" << *exitCode << "stdout:" << out
                                 << "stderr:" << err;
        return doc.object();
    }

    // set that must succeed.
    void setOk(const QStringList &args, QJsonObject *result = nullptr)
    {
        int code = -1;
        const QJsonObject r = set(args, &code);
        QVERIFY2(code == 0 && r.value("ok"_L1).toBool(),
            qPrintable(u"dmtunectl set %1: exit %2\n%3"_s.arg(args.join(u' '))
                           .arg(code)
                           .arg(QString::fromUtf8(QJsonDocument(r).toJson()))));
        if (result)
            *result = r;
    }

    static QStringList writeOrder(const QJsonObject &result, const QString &attribute)
    {
        QStringList order;
        for (const auto &c : result.value("changes"_L1).toArray()) {
            const QJsonObject o = c.toObject();
            if (o.value("attribute"_L1).toString() == attribute)
                order << o.value("device"_L1).toString();
        }
        return order;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_out = qEnvironmentVariable("KLAB_OUT");
        if (m_out.isEmpty())
            QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm -R params' as root, or "
                  "tests/vm/lab/klab.sh -- <this executable>");
        QVERIFY2(::geteuid() == 0, "the lab runs guest commands as root; not root here");
        m_ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
        QVERIFY2(QFileInfo(m_ctl).isExecutable(), qPrintable(u"%1 not built"_s.arg(m_ctl)));

        QByteArray vars, err;
        const int code = run(u"bash"_s,
            { DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/setup-multipath.sh"), u"-o"_s, m_out + u"/setup.env"_s }, &vars,
            &err);
        QVERIFY2(
            code == 0, qPrintable(u"setup-multipath.sh exited %1: %2"_s.arg(code).arg(QString::fromLocal8Bit(err))));
        for (const QByteArray &line : vars.split('\n')) {
            const int eq = line.indexOf('=');
            if (eq > 0)
                m_env.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
        }
        m_map = m_env.value(u"MAP"_s);
        m_dm = m_env.value(u"DM"_s);
        m_paths = m_env.value(u"SD"_s).split(u' ', Qt::SkipEmptyParts);
        QVERIFY(!m_map.isEmpty());
        QVERIFY(m_dm.startsWith("dm-"_L1));
        QCOMPARE(m_paths.size(), 4);
        qInfo().noquote() << "lab:" << m_map << "=" << m_dm << "over" << m_paths.join(u' ') << "kernel"
                          << m_sys.readProc(u"sys/kernel/osrelease"_s).value().trimmed();
        for (const QString &p : std::as_const(m_paths))
            qInfo().noquote() << p << "queue_depth" << sys(p, u"device/queue_depth"_s) << "max_sectors_kb"
                              << sys(p, u"queue/max_sectors_kb"_s) << "max_hw_sectors_kb"
                              << sys(p, u"queue/max_hw_sectors_kb"_s) << "scheduler" << sys(p, u"queue/scheduler"_s);
        qInfo().noquote() << m_dm << "nr_requests" << sys(m_dm, u"queue/nr_requests"_s) << "max_sectors_kb"
                          << sys(m_dm, u"queue/max_sectors_kb"_s) << "scheduler" << sys(m_dm, u"queue/scheduler"_s);
    }

    void queueDepthOnPath()
    {
        const QString path = m_paths.first();
        const qint64 before = sysInt(path, u"device/queue_depth"_s);
        QVERIFY2(before > 0, qPrintable(u"%1 device/queue_depth unreadable"_s.arg(path)));
        const qint64 want = before == 16 ? 8 : 16;

        QJsonObject r;
        setOk({ path, u"device/queue_depth=%1"_s.arg(want) }, &r);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(r.value("executor"_L1).toString(), u"in-process"_s);
        const QJsonArray changes = r.value("changes"_L1).toArray();
        QCOMPARE(changes.size(), 1);
        const QJsonObject c = changes.first().toObject();
        QCOMPARE(c.value("device"_L1).toString(), path);
        QCOMPARE(c.value("attribute"_L1).toString(), u"device/queue_depth"_s);
        QCOMPARE(c.value("old"_L1).toString(), QString::number(before));
        QCOMPARE(c.value("new"_L1).toString(), QString::number(want));
        QVERIFY(c.value("written"_L1).toBool());
        QVERIFY(!c.value("clamped"_L1).toBool());
        // Read back from sysfs, and through dmtunectl get.
        QCOMPARE(sysInt(path, u"device/queue_depth"_s), want);
        QByteArray out;
        QCOMPARE(run(m_ctl, { u"get"_s, path, u"device/queue_depth"_s }, &out), 0);
        QVERIFY2(out.contains(QByteArray::number(want)), out.constData());

        // Above the host's can_queue: refused before anything is written (exit 2).
        const QString host = m_env.value(u"HCTL"_s).section(u' ', 0, 0).section(u':', 0, 0);
        const qint64 canQueue = m_sys.readOr(u"class/scsi_host/host%1/can_queue"_s.arg(host)).toLongLong();
        if (canQueue <= 0) {
            QFAIL(qPrintable(u"class/scsi_host/host%1/can_queue unreadable"_s.arg(host)));
        } else {
            int code = -1;
            const QJsonObject bad = set({ path, u"device/queue_depth=%1"_s.arg(canQueue + 1) }, &code);
            QCOMPARE(code, 2);
            QVERIFY(!bad.value("ok"_L1).toBool());
            QCOMPARE(sysInt(path, u"device/queue_depth"_s), want);
        }

        setOk({ path, u"device/queue_depth=%1"_s.arg(before) });
        QCOMPARE(sysInt(path, u"device/queue_depth"_s), before);
    }

    void maxSectorsOrderAcrossTheStack()
    {
        QStringList all { m_dm };
        all += m_paths;
        QHash<QString, qint64> original;
        qint64 hw = std::numeric_limits<qint64>::max();
        for (const QString &d : std::as_const(all)) {
            original.insert(d, sysInt(d, u"queue/max_sectors_kb"_s));
            hw = qMin(hw, sysInt(d, u"queue/max_hw_sectors_kb"_s));
            QVERIFY2(original.value(d) > 0, qPrintable(d));
        }
        QVERIFY2(hw >= 256, qPrintable(u"max_hw_sectors_kb %1"_s.arg(hw)));
        const qint64 low = 64;
        const qint64 high = qMin<qint64>(hw, 512);
        QVERIFY(original.value(m_dm) > low);

        // Lowering: the map first (it must never build requests larger than a path takes).
        QJsonObject r;
        setOk({ m_map, u"max_sectors_kb=%1"_s.arg(low), u"--with-paths"_s }, &r);
        if (QTest::currentTestFailed())
            return;
        QStringList order = writeOrder(r, u"queue/max_sectors_kb"_s);
        qInfo().noquote() << "lowering to" << low << "wrote" << order.join(u' ');
        QCOMPARE(order.size(), 5);
        QCOMPARE(order.first(), m_dm);
        for (const QString &d : std::as_const(all))
            QCOMPARE(sysInt(d, u"queue/max_sectors_kb"_s), low);

        // The map alone above its paths: the kernel would take it (max_hw_sectors_kb allows it), dmtune
        // warns with the numbers. A dry run: nothing is written.
        int code = -1;
        const QJsonObject dry = set({ m_map, u"max_sectors_kb=%1"_s.arg(high), u"--dry-run"_s }, &code);
        QCOMPARE(code, 0);
        QJsonObject above;
        for (const auto &w : dry.value("warnings"_L1).toArray()) {
            if (w.toObject().value("code"_L1).toString() == "max-sectors-above-paths"_L1)
                above = w.toObject();
        }
        QVERIFY2(!above.isEmpty(), qPrintable(QString::fromUtf8(QJsonDocument(dry).toJson())));
        QCOMPARE(above.value("value"_L1).toInteger(), high);
        QCOMPARE(above.value("limit"_L1).toInteger(), low);
        QCOMPARE(sysInt(m_dm, u"queue/max_sectors_kb"_s), low);

        // Raising: the paths first, the map last.
        setOk({ m_map, u"max_sectors_kb=%1"_s.arg(high), u"--with-paths"_s }, &r);
        if (QTest::currentTestFailed())
            return;
        order = writeOrder(r, u"queue/max_sectors_kb"_s);
        qInfo().noquote() << "raising to" << high << "wrote" << order.join(u' ');
        QCOMPARE(order.size(), 5);
        QCOMPARE(order.last(), m_dm);
        QStringList firstFour = order.mid(0, 4);
        QStringList paths = m_paths;
        firstFour.sort();
        paths.sort();
        QCOMPARE(firstFour, paths);
        for (const auto &c : r.value("changes"_L1).toArray()) {
            QVERIFY(c.toObject().value("written"_L1).toBool());
            QCOMPARE(c.toObject().value("new"_L1).toString(), QString::number(high));
        }
        for (const QString &d : std::as_const(all))
            QCOMPARE(sysInt(d, u"queue/max_sectors_kb"_s), high);

        // Put the original values back: paths first when going up, the map first when going down.
        for (const QString &d : std::as_const(m_paths)) {
            if (original.value(d) > high)
                setOk({ d, u"max_sectors_kb=%1"_s.arg(original.value(d)) });
        }
        setOk({ m_dm, u"max_sectors_kb=%1"_s.arg(original.value(m_dm)) });
        for (const QString &d : std::as_const(m_paths)) {
            if (original.value(d) <= high)
                setOk({ d, u"max_sectors_kb=%1"_s.arg(original.value(d)) });
        }
        for (const QString &d : std::as_const(all))
            QCOMPARE(sysInt(d, u"queue/max_sectors_kb"_s), original.value(d));
    }

    void nrRequestsVersusQueueDepthWarning()
    {
        QHash<QString, qint64> depth;
        for (const QString &p : std::as_const(m_paths))
            depth.insert(p, sysInt(p, u"device/queue_depth"_s));
        const qint64 nrBefore = sysInt(m_dm, u"queue/nr_requests"_s);
        QVERIFY(nrBefore > 0);

        for (const QString &p : std::as_const(m_paths))
            setOk({ p, u"device/queue_depth=32"_s });
        if (QTest::currentTestFailed())
            return;
        for (const QString &p : std::as_const(m_paths))
            QCOMPARE(sysInt(p, u"device/queue_depth"_s), 32);

        QJsonObject r;
        setOk({ m_map, u"nr_requests=128"_s }, &r); // a warning, not an error: applied
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(sysInt(m_dm, u"queue/nr_requests"_s), 128);
        QJsonObject warning;
        for (const auto &w : r.value("warnings"_L1).toArray()) {
            if (w.toObject().value("code"_L1).toString() == "nr-requests-vs-queue-depth"_L1)
                warning = w.toObject();
        }
        QVERIFY2(!warning.isEmpty(), qPrintable(QString::fromUtf8(QJsonDocument(r).toJson())));
        const QString message = warning.value("message"_L1).toString();
        qInfo().noquote() << "warning:" << message;
        QCOMPARE(warning.value("device"_L1).toString(), m_dm);
        QCOMPARE(warning.value("value"_L1).toInteger(), 128);
        QCOMPARE(warning.value("limit"_L1).toInteger(), 128);
        QVERIFY2(message.contains(u"nr_requests 128"_s), qPrintable(message));
        QVERIFY2(message.contains(u"4 paths x queue_depth 32 = 128"_s), qPrintable(message));
        QVERIFY2(message.contains(m_map), qPrintable(message));

        // Raising nr_requests above the sum clears it.
        setOk({ m_map, u"nr_requests=256"_s }, &r);
        for (const auto &w : r.value("warnings"_L1).toArray())
            QVERIFY(w.toObject().value("code"_L1).toString() != "nr-requests-vs-queue-depth"_L1);

        setOk({ m_map, u"nr_requests=%1"_s.arg(nrBefore) });
        for (const QString &p : std::as_const(m_paths))
            setOk({ p, u"device/queue_depth=%1"_s.arg(depth.value(p)) });
        QCOMPARE(sysInt(m_dm, u"queue/nr_requests"_s), nrBefore);
        for (const QString &p : std::as_const(m_paths))
            QCOMPARE(sysInt(p, u"device/queue_depth"_s), depth.value(p));
    }

    // What the Tune tab does on Apply and Undo, against the real map: the window's Applier (in-process,
    // as root) and ChangeHistory.
    void applierAndUndoOnTheMap()
    {
        const DeviceSnapshot snapshot = Discovery::scan(m_sys);
        const auto devices = scopeDevices(snapshot, ChangeScope::MapAndPaths, { m_dm });
        QVERIFY2(devices.ok(), qPrintable(devices.errorMessage()));
        QCOMPARE(devices->size(), 5);
        QCOMPARE(devices->first(), m_dm);
        QHash<QString, QString> before;
        for (const QString &d : *devices)
            before.insert(d, sys(d, u"queue/max_sectors_kb"_s));

        Applier applier(m_sys);
        QVERIFY(!applier.usesHelper()); // root: in-process
        ChangeHistory history(&applier);
        QSignalSpy finished(&applier, &Applier::finished);
        QSignalSpy applied(&history, &ChangeHistory::applied);
        QVERIFY(
            test::runTuning(applier, makeChangeSet(*devices, { Assignment { u"queue/max_sectors_kb"_s, u"128"_s } })));
        QCOMPARE(finished.count(), 0); // never from inside run()
        QVERIFY(finished.wait(30000));
        const auto result = finished.takeFirst().first().value<ApplyResult>();
        QVERIFY2(result.ok(), qPrintable(result.errorMessage()));
        QCOMPARE(result.changes.first().device, m_dm); // lowering: the map first
        for (const QString &d : *devices)
            QCOMPARE(sys(d, u"queue/max_sectors_kb"_s), u"128"_s);
        QCOMPARE(history.entries().size(), 1);
        QCOMPARE(applied.count(), 1);

        QVERIFY(test::runUndo(applier, history));
        QVERIFY(finished.wait(30000));
        const auto undone = finished.takeFirst().first().value<ApplyResult>();
        QVERIFY2(undone.ok(), qPrintable(undone.errorMessage()));
        QCOMPARE(undone.changes.last().device, m_dm); // raising back: the map last
        QCOMPARE(history.entries().size(), 0);
        for (const QString &d : *devices)
            QCOMPARE(sys(d, u"queue/max_sectors_kb"_s), before.value(d));
    }
};

QTEST_GUILESS_MAIN(TstVmParams)
#include "tst_vm_params.moc"
