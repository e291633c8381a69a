// tst_vm_multipath: runs INSIDE the lab VM (ctest -L vm, or
//   tests/vm/lab/klab.sh -- <build>/tests/vm/tst_vm_multipath).
// Builds the lab topology with tests/vm/guest/setup-multipath.sh (4 scsi_debug
// paths to one LUN, map mpatha with 2 round-robin groups of 2 paths) and checks
// what `dmtunectl list --json` reports about it, before and after
// `dmsetup message mpatha 0 fail_path <DB>`.
#include "tests/common/testpaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSize>
#include <QtEndian>
#include <QtTest>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

QString str(const QJsonValue &v)
{
    return v.toString();
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &e : v.toArray())
        out << e.toString();
    return out;
}

QJsonObject findByName(const QJsonArray &array, const QString &name)
{
    for (const auto &e : array) {
        if (e.toObject().value("name"_L1).toString() == name)
            return e.toObject();
    }
    return {};
}

} // namespace

class TstVmMultipath : public QObject {
    Q_OBJECT

    QHash<QString, QString> m_env; // KEY=VALUE lines of setup-multipath.sh
    QString m_out; // $KLAB_OUT
    QString m_ctl; // dmtunectl
    QStringList m_sd; // path names in table order (A B C D)
    QStringList m_devnums; // DA DB DC DD
    int m_listRuns = 0;

    // Runs a program; fails the test with its output when it does not exit 0.
    void run(const QString &program, const QStringList &args, QByteArray *stdoutData = nullptr, int timeoutMs = 120000)
    {
        QProcess p;
        p.start(program, args);
        QVERIFY2(p.waitForStarted(), qPrintable(u"cannot start %1: %2"_s.arg(program, p.errorString())));
        QVERIFY2(p.waitForFinished(timeoutMs), qPrintable(u"%1 did not finish"_s.arg(program)));
        const QByteArray out = p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
            qPrintable(u"%1 %2 exited %3\nstdout:\n%4\nstderr:\n%5"_s.arg(program, args.join(u' '))
                           .arg(p.exitCode())
                           .arg(QString::fromLocal8Bit(out), QString::fromLocal8Bit(err))));
        if (stdoutData)
            *stdoutData = out;
    }

    // dmtunectl list --json, parsed; a copy is kept in $KLAB_OUT for post-mortems.
    void list(QJsonObject *doc)
    {
        QByteArray out;
        run(m_ctl, { u"list"_s, u"--json"_s }, &out);
        if (QTest::currentTestFailed())
            return;
        QFile f(u"%1/dmtunectl-list-%2.json"_s.arg(m_out).arg(++m_listRuns));
        if (f.open(QIODevice::WriteOnly))
            f.write(out);
        QJsonParseError error;
        const QJsonDocument d = QJsonDocument::fromJson(out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError,
            qPrintable(u"dmtunectl list --json: %1 at %2"_s.arg(error.errorString()).arg(error.offset)));
        QVERIFY2(d.isObject(), "dmtunectl list --json: not a JSON object");
        *doc = d.object();
    }

    void mapOf(const QJsonObject &doc, QJsonObject *map)
    {
        *map = findByName(doc.value("maps"_L1).toArray(), m_env.value(u"MAP"_s));
        QVERIFY2(!map->isEmpty(), qPrintable(u"no map named %1 in \"maps\""_s.arg(m_env.value(u"MAP"_s))));
    }

    // The path objects of the map, keyed by devnum.
    static QHash<QString, QJsonObject> pathsByDevnum(const QJsonObject &map)
    {
        QHash<QString, QJsonObject> paths;
        for (const auto &g : map.value("groups"_L1).toArray()) {
            for (const auto &p : g.toObject().value("paths"_L1).toArray())
                paths.insert(p.toObject().value("devnum"_L1).toString(), p.toObject());
        }
        return paths;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_out = qEnvironmentVariable("KLAB_OUT");
        if (m_out.isEmpty())
            QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm' as root, or "
                  "tests/vm/lab/klab.sh -- <this executable>");
        QVERIFY2(::geteuid() == 0, "the lab runs guest commands as root; not root here");

        m_ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
        QVERIFY2(QFileInfo(m_ctl).isExecutable(), qPrintable(u"%1 not built"_s.arg(m_ctl)));

        QByteArray vars;
        run(u"bash"_s,
            { DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/setup-multipath.sh"), u"-o"_s, m_out + u"/setup.env"_s }, &vars);
        if (QTest::currentTestFailed())
            return;
        for (const QByteArray &line : vars.split('\n')) {
            const int eq = line.indexOf('=');
            if (eq > 0)
                m_env.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
        }
        for (const char *key : { "MAP", "DM", "UUID", "WWID", "SECT", "SD", "DA", "DB", "DC", "DD" })
            QVERIFY2(!m_env.value(QLatin1String(key)).isEmpty(),
                qPrintable(u"setup-multipath.sh gave no %1"_s.arg(QLatin1String(key))));
        m_sd = m_env.value(u"SD"_s).split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(m_sd.size(), 4);
        m_devnums = { m_env.value(u"DA"_s), m_env.value(u"DB"_s), m_env.value(u"DC"_s), m_env.value(u"DD"_s) };
        qInfo().noquote() << "lab:" << m_env.value(u"MAP"_s) << "=" << m_env.value(u"DM"_s) << "over" << m_sd
                          << m_devnums << "table:" << m_env.value(u"TABLE"_s);

        // One read through the map makes the kernel pick a group: group 1 active
        // ('A'), group 2 enabled ('E'). Before any I/O both groups are 'E'.
        run(u"dd"_s,
            { u"if=/dev/mapper/%1"_s.arg(m_env.value(u"MAP"_s)), u"of=/dev/null"_s, u"bs=4096"_s, u"count=16"_s,
                u"iflag=direct"_s, u"status=none"_s });
    }

    void deviceMapperAvailable()
    {
        QJsonObject doc;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(doc.value("device_mapper"_L1).toObject().value("available"_L1).toBool(),
            qPrintable(QString::fromUtf8(QJsonDocument(doc.value("device_mapper"_L1).toObject()).toJson())));
    }

    void mapIsListed()
    {
        QJsonObject doc, map;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        mapOf(doc, &map);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(QRegularExpression(u"^dm-[0-9]+$"_s).match(str(map.value("device"_L1))).hasMatch(),
            qPrintable(str(map.value("device"_L1))));
        QCOMPARE(str(map.value("device"_L1)), m_env.value(u"DM"_s));
        QVERIFY(str(map.value("uuid"_L1)).startsWith("mpath-"_L1));
        QCOMPARE(str(map.value("uuid"_L1)), m_env.value(u"UUID"_s));
        QCOMPARE(strings(map.value("features"_L1)), QStringList());
        // dmsetup table's line, and its multipath params, as map show --json has them.
        QCOMPARE(str(map.value("table"_L1)), m_env.value(u"TABLE"_s));
        QCOMPARE(u"0 %1 multipath %2"_s.arg(m_env.value(u"TABLE"_s).section(u' ', 1, 1), str(map.value("params"_L1))),
            m_env.value(u"TABLE"_s));
    }

    void groupsMatchTable()
    {
        QJsonObject doc, map;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        mapOf(doc, &map);
        if (QTest::currentTestFailed())
            return;
        const QJsonArray groups = map.value("groups"_L1).toArray();
        QCOMPARE(groups.size(), 2);
        const QStringList wantState { u"A"_s, u"E"_s }; // group 1 carried the read in initTestCase
        for (int gi = 0; gi < 2; ++gi) {
            const QJsonObject g = groups.at(gi).toObject();
            QCOMPARE(g.value("index"_L1).toInt(), gi + 1);
            QCOMPARE(str(g.value("selector"_L1)), u"round-robin"_s);
            QCOMPARE(str(g.value("state"_L1)), wantState.at(gi));
            const QJsonArray paths = g.value("paths"_L1).toArray();
            QCOMPARE(paths.size(), 2);
            for (int pi = 0; pi < 2; ++pi) {
                const QJsonObject p = paths.at(pi).toObject();
                QCOMPARE(str(p.value("devnum"_L1)), m_devnums.at(gi * 2 + pi));
                QCOMPARE(str(p.value("name"_L1)), m_sd.at(gi * 2 + pi));
                QCOMPARE(str(p.value("state"_L1)), u"A"_s);
                QCOMPARE(p.value("fail_count"_L1).toInt(-1), 0);
            }
        }
    }

    void pathDevicesAreScsiWithSameWwid()
    {
        QJsonObject doc;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        const QJsonArray devices = doc.value("devices"_L1).toArray();
        const QString dm = m_env.value(u"DM"_s);
        QString wwid;
        for (int i = 0; i < 4; ++i) {
            const QJsonObject d = findByName(devices, m_sd.at(i));
            QVERIFY2(!d.isEmpty(), qPrintable(u"no device %1"_s.arg(m_sd.at(i))));
            QCOMPARE(str(d.value("kind"_L1)), u"scsi"_s);
            QCOMPARE(str(d.value("devnum"_L1)), m_devnums.at(i));
            QVERIFY2(!str(d.value("wwid"_L1)).isEmpty(), qPrintable(u"%1 has no wwid"_s.arg(m_sd.at(i))));
            if (i == 0)
                wwid = str(d.value("wwid"_L1));
            QCOMPARE(str(d.value("wwid"_L1)), wwid);
            QCOMPARE(strings(d.value("holders"_L1)), QStringList { dm });
        }
        // the sysfs wwid is naa.<hex>; accept it with or without the prefix
        QVERIFY2(wwid.contains(m_env.value(u"WWID"_s).section(u'.', -1)),
            qPrintable(u"%1 vs sysfs %2"_s.arg(wwid, m_env.value(u"WWID"_s))));
    }

    void mapDeviceStacking()
    {
        QJsonObject doc;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject d = findByName(doc.value("devices"_L1).toArray(), m_env.value(u"DM"_s));
        QVERIFY2(!d.isEmpty(), qPrintable(u"no device %1"_s.arg(m_env.value(u"DM"_s))));
        QCOMPARE(str(d.value("kind"_L1)), u"multipath"_s);
        QStringList slaves = strings(d.value("slaves"_L1));
        QStringList want = m_sd;
        slaves.sort();
        want.sort();
        QCOMPARE(slaves, want);
        QCOMPARE(strings(d.value("holders"_L1)), QStringList());
        QCOMPARE(d.value("size_bytes"_L1).toDouble(), m_env.value(u"SECT"_s).toDouble() * 512);
    }

    // The GUI over the real map: it must draw and exit 0 (the
    // Path groups tab's chart crashed Qt's raster engine at 1400x900 and 1920x1080 here), and the picture is the
    // window's size. The pictures at 1280x720 are the docs' (docs/screenshot-*.png): the Statistics tab under
    // batched writes, the Tune tab with a pending edit of the paths, a German window.
    void guiDrawsTheMap_data()
    {
        QTest::addColumn<QString>("tab");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        // The Path groups tab at every size (its cards and chart share the height), the others at a laptop's.
        for (const QSize size : { QSize(1280, 720), QSize(1400, 900), QSize(1920, 1080) })
            QTest::addRow("paths %dx%d", size.width(), size.height()) << u"paths"_s << size << QString();
        for (const QString &tab : { u"details"_s, u"tune"_s, u"statistics"_s })
            QTest::addRow("%s 1280x720", qPrintable(tab)) << tab << QSize(1280, 720) << QString();
        QTest::newRow("details 1280x720 German") << u"details"_s << QSize(1280, 720) << u"de_DE.UTF-8"_s;
    }
    void guiDrawsTheMap()
    {
        QFETCH(QString, tab);
        QFETCH(QSize, size);
        QFETCH(QString, language);
        const QString gui = DMTUNE_BINARY_PATH("/app/dmtune/dmtune");
        if (!QFileInfo::exists(gui))
            QSKIP("the GUI is not built (DMTUNE_BUILD_GUI=OFF)");
        const QString sizeText = u"%1x%2"_s.arg(size.width()).arg(size.height());
        const QString file = m_out
            + u"/gui-%1-%2%3.png"_s.arg(tab, sizeText, language.isEmpty() ? QString() : u"-"_s + language.left(2));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        if (!language.isEmpty()) {
            env.insert(u"LANG"_s, language);
            env.insert(u"LC_ALL"_s, language);
            env.insert(u"LANGUAGE"_s, language.left(2));
        }
        p.setProcessEnvironment(env);
        QStringList args { u"--select"_s, m_env.value(u"MAP"_s), u"--tab"_s, tab, u"--size"_s, sizeText,
            u"--screenshot-delay"_s, tab == u"statistics"_s ? u"6"_s : u"2"_s, u"--screenshot"_s, file };
        if (tab == u"tune"_s)
            args << u"--edit"_s << u"queue/nomerges=2"_s << u"--scope"_s << u"paths"_s; // previewed, never applied
        // Seed 002's batched 4k writes on the lab's map (scsi_debug: it holds nothing) with its paths' queue_depth at
        // 2 while the Statistics tab is shown: the map merges, its paths do not. The depths are put back after.
        QHash<QString, QByteArray> depths;
        const auto depthFile = [](const QString &path) { return u"/sys/block/%1/device/queue_depth"_s.arg(path); };
        const auto restoreDepths = qScopeGuard([&] {
            for (auto it = depths.cbegin(); it != depths.cend(); ++it) {
                QFile f(depthFile(it.key()));
                if (f.open(QIODevice::WriteOnly))
                    f.write(it.value());
            }
        });
        QProcess fio;
        if (tab == u"statistics"_s) {
            for (const QString &path : std::as_const(m_sd)) {
                QFile f(depthFile(path));
                QVERIFY2(f.open(QIODevice::ReadWrite), qPrintable(depthFile(path)));
                depths.insert(path, f.readAll().trimmed());
                f.seek(0);
                QVERIFY(f.write("2") == 1);
            }
            fio.start(u"fio"_s,
                { u"--name=shot"_s, u"--filename=/dev/"_s + m_env.value(u"DM"_s), u"--rw=write"_s, u"--bs=4k"_s,
                    u"--direct=1"_s, u"--ioengine=libaio"_s, u"--iodepth=32"_s, u"--iodepth_batch_submit=32"_s,
                    u"--iodepth_batch_complete_min=1"_s, u"--time_based"_s, u"--runtime=60"_s });
            QVERIFY(fio.waitForStarted());
        }
        const auto stopFio = qScopeGuard([&fio] {
            if (fio.state() != QProcess::NotRunning) {
                fio.terminate();
                fio.waitForFinished(10000);
            }
        });
        p.start(gui, args);
        QVERIFY(p.waitForStarted());
        QVERIFY2(p.waitForFinished(60000), "the GUI did not finish");
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
            qPrintable(u"dmtune %1 %2: %3 %4\n%5"_s.arg(tab, sizeText)
                           .arg(p.exitStatus() == QProcess::CrashExit ? u"crashed"_s : u"exited"_s)
                           .arg(p.exitCode())
                           .arg(QString::fromLocal8Bit(p.readAllStandardError()))));
        // PNG: the IHDR chunk's width and height, big-endian, at bytes 16 and 20.
        QFile png(file);
        QVERIFY(png.open(QIODevice::ReadOnly));
        const QByteArray head = png.read(24);
        QCOMPARE(head.size(), 24);
        const auto be32 = [&](int at) { return qFromBigEndian<quint32>(head.constData() + at); };
        QCOMPARE(QSize(int(be32(16)), int(be32(20))), size);
    }

    // Mutates the map: keep it after the read-only checks (slots run in order).
    void failPathIsReported()
    {
        const QString map = m_env.value(u"MAP"_s), db = m_env.value(u"DB"_s);
        run(u"dmsetup"_s, { u"message"_s, map, u"0"_s, u"fail_path"_s, db });
        if (QTest::currentTestFailed())
            return;
        QJsonObject doc, m;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        mapOf(doc, &m);
        if (QTest::currentTestFailed())
            return;
        QHash<QString, QJsonObject> paths = pathsByDevnum(m);
        QCOMPARE(paths.size(), 4);
        QVERIFY2(paths.contains(db), qPrintable(db));
        QCOMPARE(str(paths.value(db).value("state"_L1)), u"F"_s);
        QCOMPARE(paths.value(db).value("fail_count"_L1).toInt(-1), 1);
        for (const QString &other : { m_devnums.at(0), m_devnums.at(2), m_devnums.at(3) }) {
            QCOMPARE(str(paths.value(other).value("state"_L1)), u"A"_s);
            QCOMPARE(paths.value(other).value("fail_count"_L1).toInt(-1), 0);
        }

        // reinstate: active again, the fail count stays
        run(u"dmsetup"_s, { u"message"_s, map, u"0"_s, u"reinstate_path"_s, db });
        if (QTest::currentTestFailed())
            return;
        list(&doc);
        if (QTest::currentTestFailed())
            return;
        mapOf(doc, &m);
        if (QTest::currentTestFailed())
            return;
        paths = pathsByDevnum(m);
        QCOMPARE(str(paths.value(db).value("state"_L1)), u"A"_s);
        QCOMPARE(paths.value(db).value("fail_count"_L1).toInt(-1), 1);
    }

    // dmtunectl capture on a real multipath host (a path failed, so the capture has something to show),
    // then list from the capture: the same devices and the same map, groups and path states included.
    void captureReadsBackTheSameMap()
    {
        const QString map = m_env.value(u"MAP"_s), dc = m_env.value(u"DC"_s);
        run(u"dmsetup"_s, { u"message"_s, map, u"0"_s, u"fail_path"_s, dc });
        if (QTest::currentTestFailed())
            return;
        // Into the guest's tmpfs: $KLAB_OUT is shared with the host and slow for thousands of small files.
        QTemporaryDir tmp;
        const QString dir = tmp.path() + u"/capture"_s;
        QByteArray summary;
        run(m_ctl, { u"capture"_s, dir, u"--json"_s }, &summary, 300000);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(QJsonDocument::fromJson(summary).object().value("maps"_L1).toInt(), 1);
        QJsonObject live, captured;
        list(&live);
        QByteArray out;
        run(m_ctl, { u"list"_s, u"--json"_s, u"--sysfs-root"_s, dir }, &out);
        run(u"dmsetup"_s, { u"message"_s, map, u"0"_s, u"reinstate_path"_s, dc });
        if (QTest::currentTestFailed())
            return;
        captured = QJsonDocument::fromJson(out).object();
        QCOMPARE(captured.value("devices"_L1).toArray().size(), live.value("devices"_L1).toArray().size());
        QCOMPARE(captured.value("devices"_L1), live.value("devices"_L1));
        QJsonObject liveMap, capturedMap;
        mapOf(live, &liveMap);
        mapOf(captured, &capturedMap);
        QCOMPARE(capturedMap, liveMap);
        QCOMPARE(str(pathsByDevnum(capturedMap).value(dc).value("state"_L1)), u"F"_s);
        QVERIFY(captured.value("device_mapper"_L1).toObject().value("available"_L1).toBool());
    }
};

QTEST_GUILESS_MAIN(TstVmMultipath)
#include "tst_vm_multipath.moc"
