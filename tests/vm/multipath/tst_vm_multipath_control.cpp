// tst_vm_multipath_control: runs INSIDE the lab VM (ctest -L vm). Every multipath operation through the
// core API (MultipathControl over LibDevmapperBackend, as the GUI uses it) and through dmtunectl,
// against the real kernel, with the kernel's status (dmsetup) checked after each:
//   mpatha: 4 scsi_debug paths to one LUN, 2 round-robin groups of 2 (setup-multipath.sh)
//   mpathn: 2 null_blk devices, one queue-length group (setup-multipath.sh --null-blk)
// Also: reload round-robin -> service-time -> back, an invalid reload leaving the old table live
// and the map resumed, DmEventWatcher latency, fio through fail/reinstate with queue_if_no_path.
// No multipathd runs here (tst_vm_multipathd covers it): everything goes as dm messages.
#include "vmsupport.h"

#include "dm/dmeventwatcher.h"
#include "dm/libdevmapperbackend.h"
#include "dm/multipathcontrol.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace dmtune;

class TstVmMultipathControl : public QObject {
    Q_OBJECT

    QHash<QString, QString> m_env;
    QString m_out;
    QString m_ctl;
    QStringList m_sd; // sd names of DA DB DC DD
    LibDevmapperBackend *m_backend = nullptr;
    MultipathControl *m_control = nullptr;

    QString env(const char *key) const { return m_env.value(QLatin1String(key)); }
    QString nameOf(const QString &devnum) const
    {
        const QStringList devnums { env("DA"), env("DB"), env("DC"), env("DD") };
        if (devnums.contains(devnum))
            return m_sd.at(devnums.indexOf(devnum));
        return devnum == env("N0") ? u"nullb0"_s : u"nullb1"_s;
    }

    MultipathOperationResult core(const std::function<void(MultipathControl &)> &op)
    {
        return vm::runOperation(*m_control, op);
    }

    vm::Run ctl(const QStringList &args) { return vm::run(m_ctl, args); }

private Q_SLOTS:
    void initTestCase()
    {
        m_out = qEnvironmentVariable("KLAB_OUT");
        if (m_out.isEmpty())
            QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm' as root");
        QVERIFY(::geteuid() == 0);
        // No udevd in this guest: libdevmapper (ours and dmsetup's) makes /dev/mapper nodes itself.
        qputenv("DM_DISABLE_UDEV", "1");
        m_ctl = QStringLiteral(DMTUNE_BINARY_DIR "/app/dmtunectl/dmtunectl");
        QVERIFY(QFileInfo(m_ctl).isExecutable());
        const QStringList args { QStringLiteral(DMTUNE_VM_GUEST_DIR "/setup-multipath.sh"), u"--null-blk"_s, u"-o"_s,
            m_out + u"/setup.env"_s };
        const vm::Run setup = vm::run(u"bash"_s, args);
        QVERIFY2(setup.exitCode == 0, qPrintable(vm::describe(u"bash"_s, args, setup)));
        m_env = vm::parseVars(setup.out);
        for (const char *key :
            { "MAP", "NMAP", "SECT", "NSECT", "TABLE", "NTABLE", "DA", "DB", "DC", "DD", "N0", "N1" })
            QVERIFY2(!env(key).isEmpty(), key);
        m_sd = env("SD").split(u' ', Qt::SkipEmptyParts);
        QCOMPARE(m_sd.size(), 4);
        QVERIFY(vm::readThrough(env("MAP")));
        QVERIFY(vm::readThrough(env("NMAP")));
        QCOMPARE(vm::groupStates(env("MAP")), u"AE"_s);
        m_backend = new LibDevmapperBackend();
        m_control = new MultipathControl(m_backend, this);
        QVERIFY(!m_control->multipathdRunning());
    }

    void cleanupTestCase()
    {
        delete m_control;
        m_control = nullptr;
        delete m_backend;
    }

    void versions()
    {
        const QString driver = m_backend->driverVersion();
        QVERIFY2(QRegularExpression(u"^4\\.\\d+\\.\\d+$"_s).match(driver).hasMatch(), qPrintable(driver));
        QVERIFY(!LibDevmapperBackend::libraryVersion().isEmpty());
        const vm::Run list = ctl({ u"list"_s, u"--json"_s });
        QCOMPARE(list.exitCode, 0);
        const QJsonObject dm = QJsonDocument::fromJson(list.out.toUtf8()).object().value("device_mapper"_L1).toObject();
        QCOMPARE(dm.value("driver_version"_L1).toString(), driver);
        QCOMPARE(dm.value("library_version"_L1).toString(), LibDevmapperBackend::libraryVersion());
        qInfo().noquote() << "dm driver" << driver << "libdevmapper" << LibDevmapperBackend::libraryVersion();
    }

    void mapShow()
    {
        const vm::Run shown = ctl({ u"map"_s, u"show"_s, env("MAP"), u"--json"_s });
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        vm::saveFile(m_out + u"/map-show.json"_s, shown.out);
        const QJsonObject map = QJsonDocument::fromJson(shown.out.toUtf8()).object();
        QCOMPARE(map.value("name"_L1).toString(), env("MAP"));
        QCOMPARE(map.value("table"_L1).toString(), env("TABLE"));
        QCOMPARE(map.value("active_group"_L1).toInt(), 1);
        QVERIFY(map.value("hw_handler"_L1).isNull()); // as in list --json: a string or null
        QCOMPARE(map.value("multipathd"_L1).toObject().value("running"_L1).toBool(true), false);
        const QJsonArray groups = map.value("groups"_L1).toArray();
        QCOMPARE(groups.size(), 2);
        const QStringList devnums { env("DA"), env("DB"), env("DC"), env("DD") };
        for (int g = 0; g < 2; ++g) {
            const QJsonArray paths = groups.at(g).toObject().value("paths"_L1).toArray();
            QCOMPARE(paths.size(), 2);
            for (int p = 0; p < 2; ++p) {
                QCOMPARE(paths.at(p).toObject().value("devnum"_L1).toString(), devnums.at(g * 2 + p));
                QCOMPARE(paths.at(p).toObject().value("name"_L1).toString(), m_sd.at(g * 2 + p));
                // list --json's keys: "1" is round-robin's repeat_count in the table
                QCOMPARE(paths.at(p).toObject().value("selector_args"_L1).toArray(), QJsonArray { u"1"_s });
            }
        }
        const vm::Run text = ctl({ u"map"_s, u"show"_s, env("NMAP") });
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(u"group 1 [A] queue-length"_s), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"multipathd: not running"_s), qPrintable(text.out));
    }

    void cliErrors()
    {
        vm::Run r = ctl({ u"path"_s, u"fail"_s, env("MAP"), u"sdzz"_s });
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.trimmed().count(u'\n'), 0); // one line
        QVERIFY2(r.err.contains(u"sdzz: no such block device"_s), qPrintable(r.err));
        r = ctl({ u"path"_s, u"fail"_s, env("MAP"), env("N0") }); // a path of the other map
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"is not a path of this map"_s), qPrintable(r.err));
        r = ctl({ u"group"_s, u"switch"_s, env("MAP"), u"3"_s });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"out of range 1-2"_s), qPrintable(r.err));
        QCOMPARE(ctl({ u"group"_s, u"switch"_s, env("MAP"), u"x"_s }).exitCode, 2);
        QCOMPARE(ctl({ u"map"_s, u"reload"_s, env("MAP") }).exitCode, 2);
        QCOMPARE(ctl({ u"map"_s, u"show"_s, u"nosuchmap"_s }).exitCode, 1);
        QCOMPARE(vm::groupStates(env("MAP")), u"AE"_s);
    }

    void pathOps_data()
    {
        QTest::addColumn<QString>("mapKey");
        QTest::addColumn<QString>("devKey");
        QTest::addColumn<QString>("form"); // how DEV is written: name, devnum, devpath
        QTest::addColumn<bool>("failByCli");
        QTest::addColumn<bool>("reinstateByCli");
        QTest::newRow("mpatha name, core/cli") << u"MAP"_s << u"DB"_s << u"name"_s << false << true;
        QTest::newRow("mpatha devnum, cli/core") << u"MAP"_s << u"DC"_s << u"devnum"_s << true << false;
        QTest::newRow("mpatha /dev path, core/core") << u"MAP"_s << u"DD"_s << u"devpath"_s << false << false;
        QTest::newRow("mpatha /dev path, cli/cli") << u"MAP"_s << u"DA"_s << u"devpath"_s << true << true;
        QTest::newRow("mpathn name, cli/cli") << u"NMAP"_s << u"N1"_s << u"name"_s << true << true;
        QTest::newRow("mpathn devnum, core/cli") << u"NMAP"_s << u"N0"_s << u"devnum"_s << false << true;
    }

    void pathOps()
    {
        QFETCH(QString, mapKey);
        QFETCH(QString, devKey);
        QFETCH(QString, form);
        QFETCH(bool, failByCli);
        QFETCH(bool, reinstateByCli);
        const QString map = m_env.value(mapKey);
        const QString devnum = m_env.value(devKey);
        const QString dev = form == "devnum"_L1 ? devnum
            : form == "name"_L1                 ? nameOf(devnum)
                                                : u"/dev/"_s + nameOf(devnum);
        QCOMPARE(vm::pathState(map, devnum), u"A"_s);
        for (const bool fail : { true, false }) {
            const QString op = (fail ? u"fail_path "_s : u"reinstate_path "_s) + devnum;
            if (fail ? failByCli : reinstateByCli) {
                const vm::Run r = ctl({ u"path"_s, fail ? u"fail"_s : u"reinstate"_s, map, dev });
                QVERIFY2(r.exitCode == 0, qPrintable(r.err));
                QVERIFY2(r.out.contains(u"%1: %2 done via device-mapper"_s.arg(map, op)), qPrintable(r.out));
            } else {
                const auto r
                    = core([&](MultipathControl &c) { fail ? c.failPath(map, dev) : c.reinstatePath(map, dev); });
                QVERIFY2(r.ok, qPrintable(r.error));
                QCOMPARE(r.operation, op);
                QCOMPARE(r.via, u"device-mapper"_s);
                QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(u'\n')));
            }
            QCOMPARE(vm::pathState(map, devnum), fail ? u"F"_s : u"A"_s);
        }
        QVERIFY(vm::readThrough(map));
    }

    void groupOps()
    {
        const QString map = env("MAP");
        struct Step {
            bool cli;
            const char *action; // switch, enable, disable
            int group;
            bool force;
            const char *states; // after one read through the map
        };
        const Step steps[] = {
            { false, "switch", 2, false, "EA" },
            { true, "switch", 1, false, "AE" },
            { false, "disable", 2, false, "AD" },
            { true, "enable", 2, false, "AE" },
            // disabling the active group is risky: dmtunectl refuses it without --force
            { true, "disable", 1, false, "AE" },
            { true, "disable", 1, true, "DA" },
            // enable_group drops the current group: the next I/O takes the first usable one
            { false, "enable", 1, false, "AE" },
            { true, "switch", 2, false, "EA" },
            { false, "switch", 1, false, "AE" },
        };
        for (const Step &s : steps) {
            const QString action = QLatin1String(s.action);
            const QString label = u"%1 %2 %3%4"_s.arg(s.cli ? u"dmtunectl"_s : u"core"_s, action)
                                      .arg(s.group)
                                      .arg(s.force ? u" --force"_s : QString());
            const QString op = (action == "switch"_L1          ? u"switch_group "_s
                                       : action == "enable"_L1 ? u"enable_group "_s
                                                               : u"disable_group "_s)
                + QString::number(s.group);
            if (s.cli) {
                QStringList args { u"group"_s, action, map, QString::number(s.group) };
                if (s.force)
                    args << u"--force"_s;
                const vm::Run r = ctl(args);
                const bool refused = action == "disable"_L1 && s.group == 1 && !s.force;
                if (refused) {
                    QVERIFY2(r.exitCode == 1
                            && r.err.contains(u"refused without --force: disable_group 1 disables the active group"_s),
                        qPrintable(label + u": "_s + r.err));
                } else {
                    QVERIFY2(r.exitCode == 0, qPrintable(label + u": "_s + r.err));
                    QVERIFY2(r.out.contains(op + u" done via device-mapper"_s), qPrintable(r.out));
                }
            } else {
                const auto r = core([&](MultipathControl &c) {
                    if (action == "switch"_L1)
                        c.switchGroup(map, s.group);
                    else if (action == "enable"_L1)
                        c.enableGroup(map, s.group);
                    else
                        c.disableGroup(map, s.group);
                });
                QVERIFY2(r.ok, qPrintable(label + u": "_s + r.error));
                QCOMPARE(r.operation, op);
            }
            if (action == "switch"_L1) // before any I/O: the chosen group is next, none in use
                QCOMPARE(vm::kernelStatus(map).nextGroup, s.group);
            QVERIFY(vm::readThrough(map));
            QVERIFY2(vm::groupStates(map) == QLatin1String(s.states),
                qPrintable(label + u": groups "_s + vm::groupStates(map) + u", expected "_s + QLatin1String(s.states)));
        }
        // the single group of the null_blk map
        const auto r = core([&](MultipathControl &c) { c.switchGroup(env("NMAP"), 1); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(vm::readThrough(env("NMAP")));
        QCOMPARE(vm::groupStates(env("NMAP")), u"A"_s);
    }

    void queueing()
    {
        for (const QString &map : { env("MAP"), env("NMAP") }) {
            QVERIFY(!vm::kernelTable(map).queueIfNoPath());
            auto r = core([&](MultipathControl &c) { c.setQueueIfNoPath(map, true); });
            QVERIFY2(r.ok, qPrintable(r.error));
            QCOMPARE(r.operation, u"queue_if_no_path"_s);
            QVERIFY(vm::kernelTable(map).queueIfNoPath());
            vm::Run cli = ctl({ u"map"_s, u"queueing"_s, map, u"off"_s });
            QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
            QVERIFY(!vm::kernelTable(map).queueIfNoPath());
            cli = ctl({ u"map"_s, u"queueing"_s, map, u"on"_s });
            QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
            QVERIFY(vm::kernelTable(map).queueIfNoPath());
            r = core([&](MultipathControl &c) { c.setQueueIfNoPath(map, false); });
            QVERIFY2(r.ok, qPrintable(r.error));
            QVERIFY(!vm::kernelTable(map).queueIfNoPath());
        }
    }

    void reloadRoundTrip()
    {
        const QString map = env("MAP");
        const MultipathTable original = vm::kernelTable(map);
        QCOMPARE(formatMultipathTable(original), parseTargetLine(env("TABLE"))->params);
        MultipathTable st = original;
        for (PathGroupSpec &g : st.groups) {
            g.selector = u"service-time"_s;
            g.perPathArgCount = 2;
            for (PathSpec &p : g.paths)
                p.args = { u"1"_s, u"1"_s };
        }
        // round-robin -> service-time through the core
        auto r = core([&](MultipathControl &c) { c.reload(map, st); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.operation, u"reload"_s);
        QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(u'\n')));
        QCOMPARE(vm::kernelTable(map), st);
        QVERIFY(vm::notSuspended(map));
        QVERIFY(vm::readThrough(map));
        QCOMPARE(vm::groupStates(map), u"AE"_s);
        QCOMPARE(vm::kernelStatus(map).groups.first().perPathInfoCount, 2); // service-time's info words

        // back to round-robin with dmtunectl, by sd names: first a dry run that changes nothing
        const QStringList rr { u"map"_s, u"reload"_s, map, u"--selector"_s, u"round-robin"_s, u"--group"_s,
            m_sd.at(0) + u","_s + m_sd.at(1), u"--group"_s, u"/dev/%1,%2"_s.arg(m_sd.at(2), env("DD")) };
        vm::Run cli = ctl(rr + QStringList { u"--dry-run"_s });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QCOMPARE(cli.out.split(u'\n').first(), env("TABLE"));
        QVERIFY2(cli.out.contains(u"# group 1: selector service-time 0 -> round-robin 0"_s), qPrintable(cli.out));
        QCOMPARE(vm::kernelTable(map), st);
        cli = ctl(rr);
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.out.startsWith(map + u": reloaded: "_s + env("TABLE")), qPrintable(cli.out));
        QCOMPARE(vm::kernelTable(map), original);
        QVERIFY(vm::notSuspended(map));
        QVERIFY(vm::readThrough(map));

        // the null_blk map: queue-length -> round-robin (whole --table line) -> back (core)
        const QString nmap = env("NMAP");
        const MultipathTable nOriginal = vm::kernelTable(nmap);
        const QString rrLine
            = u"0 %1 multipath 0 0 1 1 round-robin 0 2 1 %2 1 %3 1"_s.arg(env("NSECT"), env("N0"), env("N1"));
        cli = ctl({ u"map"_s, u"reload"_s, nmap, u"--table"_s, rrLine });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QCOMPARE(vm::dmsetupParams(u"table"_s, nmap), parseTargetLine(rrLine)->params);
        r = core([&](MultipathControl &c) { c.reload(nmap, nOriginal); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(vm::kernelTable(nmap), nOriginal);
        QVERIFY(vm::readThrough(nmap));
    }

    void invalidReloadKeepsOldTable()
    {
        const QString map = env("MAP");
        const QString before = vm::dmsetupParams(u"table"_s, map);
        // 8:250 does not exist: the table parses, the kernel refuses to load it
        const QString bad = u"0 0 1 1 round-robin 0 2 1 8:250 1 8:251 1"_s;
        vm::Run cli = ctl({ u"map"_s, u"reload"_s, map, u"--table"_s, bad });
        QVERIFY2(cli.exitCode == 1 && cli.err.contains(u"refused without --force"_s), qPrintable(cli.err));
        cli = ctl({ u"map"_s, u"reload"_s, map, u"--table"_s, bad, u"--force"_s });
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.contains(u"the old table is live again"_s), qPrintable(cli.err));
        QCOMPARE(vm::dmsetupParams(u"table"_s, map), before);
        QVERIFY(vm::notSuspended(map));
        QVERIFY(vm::readThrough(map));

        const auto r = core([&](MultipathControl &c) { c.reload(map, parseMultipathTable(bad).value()); });
        QVERIFY(!r.ok);
        QVERIFY2(
            r.error.contains(u"load failed"_s) && r.error.contains(u"old table is live again"_s), qPrintable(r.error));
        QVERIFY2(r.warnings.join(u' ').contains(u"keeps none of the paths"_s), qPrintable(r.warnings.join(u'\n')));
        QCOMPARE(vm::dmsetupParams(u"table"_s, map), before);
        QVERIFY(vm::notSuspended(map));
        QVERIFY(vm::readThrough(map));
    }

    void eventWatcher()
    {
        auto watcher = std::make_unique<DmEventWatcher>([] { return std::make_unique<LibDevmapperBackend>(); });
        watcher->watch({ env("MAP"), env("NMAP") });
        QSignalSpy events(watcher.get(), &DmEventWatcher::mapEvent);
        QSignalSpy stopped(watcher.get(), &DmEventWatcher::watchStopped);
        QElapsedTimer clock;
        qint64 deliveredAfter = -1;
        connect(watcher.get(), &DmEventWatcher::mapEvent, this, [&] {
            if (deliveredAfter < 0)
                deliveredAfter = clock.elapsed();
        });
        // fail_path from another process: the kernel raises the event, the worker's wait returns
        clock.start();
        QCOMPARE(vm::run(u"dmsetup"_s, { u"message"_s, env("MAP"), u"0"_s, u"fail_path"_s, env("DB") }).exitCode, 0);
        // Delivered at all (the latency is reported, not judged: the VM runs under emulation, see docs/multipath.md).
        QTRY_VERIFY_WITH_TIMEOUT(events.size() >= 1, 15000);
        qInfo() << "fail_path event delivered after" << deliveredAfter << "ms (incl. running dmsetup)";
        QVERIFY(deliveredAfter >= 0);
        QCOMPARE(events.first().at(0).toString(), env("MAP"));
        const quint32 first = events.first().at(1).toUInt();
        QCOMPARE(first, m_backend->info(env("MAP"))->eventNr);

        auto r = core([&](MultipathControl &c) { c.reinstatePath(env("MAP"), env("DB")); });
        QVERIFY(r.ok);
        QTRY_VERIFY_WITH_TIMEOUT(events.size() >= 2, 15000);
        QVERIFY(events.last().at(1).toUInt() > first);
        QCOMPARE(ctl({ u"path"_s, u"fail"_s, env("NMAP"), u"nullb1"_s }).exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(events.last().at(0).toString() == env("NMAP"), 15000);
        QCOMPARE(ctl({ u"path"_s, u"reinstate"_s, env("NMAP"), u"nullb1"_s }).exitCode, 0);
        QVERIFY(stopped.isEmpty());

        // The workers sit in DM_DEVICE_WAITEVENT: the destructor interrupts them.
        clock.restart();
        watcher.reset();
        qInfo() << "watcher stopped in" << clock.elapsed() << "ms"; // returned at all: it did not hang
    }

    void fioThroughFailAndReinstate()
    {
        const QString map = env("MAP");
        auto r = core([&](MultipathControl &c) { c.setQueueIfNoPath(map, true); });
        QVERIFY2(r.ok, qPrintable(r.error));
        const QString json = m_out + u"/fio-failover.json"_s;
        QProcess fio;
        fio.setProcessChannelMode(QProcess::MergedChannels);
        fio.start(u"fio"_s,
            { u"--name=failover"_s, u"--filename=/dev/mapper/"_s + map, u"--rw=randrw"_s, u"--bs=4k"_s, u"--direct=1"_s,
                u"--ioengine=libaio"_s, u"--iodepth=8"_s, u"--time_based"_s, u"--runtime=8"_s,
                u"--output-format=json"_s, u"--output="_s + json });
        QVERIFY(fio.waitForStarted());
        QTest::qWait(1500);
        // group 1 goes away (core): I/O fails over to group 2
        for (const char *key : { "DA", "DB" }) {
            r = core([&](MultipathControl &c) { c.failPath(map, env(key)); });
            QVERIFY2(r.ok, qPrintable(r.error));
        }
        QTest::qWait(1000);
        QCOMPARE(vm::groupStates(map), u"EA"_s);
        // then group 2 (dmtunectl): the last path needs --force, then I/O queues
        QCOMPARE(ctl({ u"path"_s, u"fail"_s, map, env("DC") }).exitCode, 0);
        vm::Run cli = ctl({ u"path"_s, u"fail"_s, map, env("DD") });
        QVERIFY2(
            cli.exitCode == 1 && cli.err.contains(u"last active path of the map: I/O queues"_s), qPrintable(cli.err));
        cli = ctl({ u"path"_s, u"fail"_s, map, env("DD"), u"--force"_s });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.err.contains(u"warning: fail_path"_s), qPrintable(cli.err));
        for (const char *key : { "DA", "DB", "DC", "DD" })
            QCOMPARE(vm::pathState(map, env(key)), u"F"_s);
        QTest::qWait(1000); // I/O queued, not failed
        QCOMPARE(ctl({ u"path"_s, u"reinstate"_s, map, env("DC") }).exitCode, 0);
        r = core([&](MultipathControl &c) { c.reinstatePath(map, env("DD")); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(ctl({ u"path"_s, u"reinstate"_s, map, env("DA") }).exitCode, 0);
        r = core([&](MultipathControl &c) { c.reinstatePath(map, env("DB")); });
        QVERIFY2(r.ok, qPrintable(r.error));

        QVERIFY(fio.waitForFinished(90000));
        const QByteArray fioOutput = fio.readAll();
        QVERIFY2(fio.exitStatus() == QProcess::NormalExit && fio.exitCode() == 0,
            qPrintable(u"fio exit %1: %2"_s.arg(fio.exitCode()).arg(QString::fromLocal8Bit(fioOutput))));
        QFile file(json);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject result = QJsonDocument::fromJson(file.readAll()).object();
        const QJsonArray jobs = result.value("jobs"_L1).toArray();
        QVERIFY(!jobs.isEmpty());
        for (const QJsonValue &job : jobs) {
            const QJsonObject o = job.toObject();
            QCOMPARE(o.value("error"_L1).toInt(-1), 0);
            QVERIFY(o.value("read"_L1).toObject().value("io_bytes"_L1).toDouble() > 0);
            QVERIFY(o.value("write"_L1).toObject().value("io_bytes"_L1).toDouble() > 0);
            qInfo() << "fio: read" << o.value("read"_L1).toObject().value("io_bytes"_L1).toDouble() / 1048576 << "MiB,"
                    << "write" << o.value("write"_L1).toObject().value("io_bytes"_L1).toDouble() / 1048576
                    << "MiB, error 0";
        }
        for (const char *key : { "DA", "DB", "DC", "DD" })
            QCOMPARE(vm::pathState(map, env(key)), u"A"_s);
        r = core([&](MultipathControl &c) { c.setQueueIfNoPath(map, false); });
        QVERIFY(r.ok);
    }
};

QTEST_GUILESS_MAIN(TstVmMultipathControl)
#include "tst_vm_multipath_control.moc"
