// tst_vm_multipathd: runs INSIDE the lab VM (ctest -L vm) with udevd and multipath-tools'
// multipathd running (tests/vm/guest/setup-multipathd.sh: 4 scsi_debug paths, failover policy,
// so 4 service-time groups of one path, no_path_retry 12). Operations must go through
// multipathd where it has a command, and the kernel must follow; multipathd's view of the map
// (show maps json) is compared with the kernel's; a reload warns about multipath.conf.
#include "tests/common/mustsucceed.h"
#include "tests/common/testpaths.h"
#include "vmsupport.h"

#include "core/dm/backend/libdevmapperbackend.h"
#include "core/dm/multipathd/multipathdclient.h"
#include "core/dm/multipathd/multipathdview.h"
#include "tests/common/multipathcontrol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSignalSpy>

#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace dmtune;

class TstVmMultipathd : public QObject {
    Q_OBJECT

    QHash<QString, QString> m_env;
    QString m_out;
    QString m_ctl;
    QString m_map;
    LibDevmapperBackend *m_backend = nullptr;
    MultipathControl *m_control = nullptr;

    QString env(const QString &key) const { return m_env.value(key); }

    MultipathOperationResult core(const std::function<void(MultipathControl &)> &op)
    {
        return vm::runOperation(*m_control, op);
    }

    vm::Run ctl(const QStringList &args) { return vm::run(m_ctl, args); }

    // multipathd's own word on a map property (`show maps raw format "%Q"` etc.)
    QString mpdFormat(const QString &wildcard)
    {
        const auto reply = MultipathdClient().command(u"show maps raw format \"%1\""_s.arg(wildcard));
        return reply ? reply->trimmed() : u"error: "_s + reply.errorMessage();
    }

    bool waitUntilAgreed(int ms)
    {
        return vm::waitUntil([this] { return differences().isEmpty(); }, ms, 200);
    }

    QStringList differences()
    {
        const auto json = MultipathdClient().showMapsJson();
        if (!json)
            return { u"error: "_s + json.errorMessage() };
        const auto maps = parseMultipathdMapsJson(json.value());
        if (!maps)
            return { u"error: "_s + maps.errorMessage() };
        const auto view = findMultipathdMap(maps.value(), m_map);
        if (!view)
            return { u"error: "_s + view.errorMessage() };
        return compareMultipathdView(view.value(), vm::kernelTable(m_map), vm::kernelStatus(m_map));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_out = qEnvironmentVariable("KLAB_OUT");
        if (m_out.isEmpty())
            QSKIP("not inside the dmtune lab VM ($KLAB_OUT unset): run 'ctest -L vm' as root");
        QVERIFY(::geteuid() == 0);
        m_ctl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");
        QVERIFY(QFileInfo(m_ctl).isExecutable());
        QVERIFY2(!MultipathdClient::isRunning(), "multipathd already runs");
        const QStringList args { DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/setup-multipathd.sh"), u"-o"_s,
            m_out + u"/setup.env"_s };
        const vm::Run setup = vm::run(u"bash"_s, args, 180000);
        QVERIFY2(setup.exitCode == 0, qPrintable(vm::describe(u"bash"_s, args, setup)));
        qInfo().noquote() << setup.err.trimmed();
        m_env = vm::parseVars(setup.out);
        for (const char *key : { "MAP", "G1", "G2", "G3", "G4", "P1", "P2", "P3", "P4", "TABLE" })
            QVERIFY2(!env(QLatin1String(key)).isEmpty(), key);
        m_map = env(u"MAP"_s);
        m_backend = new LibDevmapperBackend();
        m_control = new MultipathControl(m_backend, this);
    }

    void cleanupTestCase()
    {
        delete m_control;
        m_control = nullptr;
        // Queueing off before multipathd goes: without its no_path_retry nothing would end I/O queued on the map.
        if (m_backend && !m_map.isEmpty())
            dmtune::test::warnOnFailure(m_backend->message(m_map, u"fail_if_no_path"_s), "queueing off");
        delete m_backend;
        m_backend = nullptr;
        if (!m_out.isEmpty())
            dmtune::test::warnOnFailure(MultipathdClient().command(u"shutdown"_s), "multipathd shut down");
    }

    void detected()
    {
        QVERIFY(MultipathdClient::isRunning());
        QVERIFY(m_control->multipathdRunning());
        const auto names = MultipathdClient().mapNames();
        QVERIFY2(names, qPrintable(names.errorMessage()));
        QCOMPARE(names.value(), QStringList { m_map });
    }

    void viewAgreesWithKernel()
    {
        const auto json = MultipathdClient().showMapsJson();
        QVERIFY2(json, qPrintable(json.errorMessage()));
        vm::saveFile(m_out + u"/multipathd-show-maps.json"_s, json.value());
        const auto maps = parseMultipathdMapsJson(json.value());
        QVERIFY2(maps, qPrintable(maps.errorMessage()));
        QCOMPARE(maps->size(), 1);
        const MultipathdMapView &view = maps->first();
        QCOMPARE(view.groups.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(view.groups.at(i).paths.size(), 1);
            QCOMPARE(view.groups.at(i).paths.first().devT, env(u"G%1"_s.arg(i + 1)));
            QCOMPARE(view.groups.at(i).paths.first().dev, env(u"P%1"_s.arg(i + 1)));
        }
        QCOMPARE(view.queueing, u"12 chk"_s);
        QCOMPARE(differences(), QStringList());
        const vm::Run shown = ctl({ u"map"_s, u"show"_s, m_map, u"--json"_s });
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        vm::saveFile(m_out + u"/map-show.json"_s, shown.out);
        const QJsonObject mpd = QJsonDocument::fromJson(shown.out.toUtf8()).object().value("multipathd"_L1).toObject();
        QCOMPARE(mpd.value("running"_L1).toBool(), true);
        QCOMPARE(mpd.value("manages"_L1).toBool(), true);
        // Priorities and checker states as multipath -ll shows them, from multipathd, group by group.
        const auto sameAsMultipathd = [&view](const QJsonArray &groups) {
            QCOMPARE(groups.size(), 4);
            for (int i = 0; i < 4; ++i) {
                const QJsonObject g = groups.at(i).toObject();
                QCOMPARE(g.value("priority"_L1).toInt(-2), view.groups.at(i).priority);
                const QJsonObject p = g.value("paths"_L1).toArray().first().toObject();
                QCOMPARE(p.value("priority"_L1).toInt(-2), view.groups.at(i).paths.first().priority);
                QCOMPARE(p.value("checker_state"_L1).toString(), view.groups.at(i).paths.first().checkerState);
                QVERIFY(!p.value("checker_state"_L1).toString().isEmpty());
            }
        };
        const QJsonArray groups = QJsonDocument::fromJson(shown.out.toUtf8()).object().value("groups"_L1).toArray();
        sameAsMultipathd(groups);
        if (QTest::currentTestFailed())
            return;
        // ALUA: the groups are sorted by priority, the first one's is higher than the standby one's.
        QVERIFY(groups.first().toObject().value("priority"_L1).toInt()
            > groups.last().toObject().value("priority"_L1).toInt());

        // list --json carries the same, on the same keys.
        const vm::Run listed = ctl({ u"list"_s, u"--json"_s });
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
        vm::saveFile(m_out + u"/list.json"_s, listed.out);
        const QJsonObject doc = QJsonDocument::fromJson(listed.out.toUtf8()).object();
        QCOMPARE(doc.value("multipathd"_L1).toObject().value("running"_L1).toBool(), true);
        const QJsonArray listedMaps = doc.value("maps"_L1).toArray();
        QCOMPARE(listedMaps.size(), 1);
        sameAsMultipathd(listedMaps.first().toObject().value("groups"_L1).toArray());
    }

    // dmtunectl list prints the map as multipath -ll does, multipathd's priorities and checker states
    // included: the same lines once multipath's colour codes and column padding are taken out, and the
    // fail_count dmtune adds.
    void listTextIsMultipathLl()
    {
        const vm::Run ll = vm::run(u"multipath"_s, { u"-ll"_s, m_map });
        QVERIFY2(ll.exitCode == 0, qPrintable(ll.err));
        const vm::Run listed = ctl({ u"list"_s });
        QVERIFY2(listed.exitCode == 0, qPrintable(listed.err));
        vm::saveFile(m_out + u"/multipath-ll.txt"_s, ll.out);
        vm::saveFile(m_out + u"/list.txt"_s, listed.out);
        const auto normal = [](QString text) {
            text.remove(QRegularExpression(u"\\x1b\\[[0-9;]*m"_s));
            text.remove(QRegularExpression(u" fail_count=\\d+"_s));
            text.replace(QRegularExpression(u" +"_s), u" "_s);
            QStringList lines = text.split(u'\n');
            for (QString &line : lines)
                line = line.trimmed();
            return lines;
        };
        const QStringList expected = normal(ll.out).filter(QRegularExpression(u"\\S"_s));
        const QStringList got = normal(listed.out).mid(0, expected.size());
        QCOMPARE(expected.size(), 10); // name, size, 4 x (group, path)
        QCOMPARE(got, expected);
    }

    void pathThroughMultipathd()
    {
        const QString dev = env(u"G2"_s), name = env(u"P2"_s);
        auto r = core([&](MultipathControl &c) { c.failPath(m_map, name); });
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QCOMPARE(r.via, u"multipathd"_s);
        QCOMPARE(r.command, u"fail path "_s + name);
        QCOMPARE(r.operation, u"fail_path "_s + dev);
        QCOMPARE(vm::pathState(m_map, dev), u"F"_s);
        // multipathd knows it failed it: its view agrees, and its checker leaves the path alone
        QVERIFY2(waitUntilAgreed(10000), qPrintable(differences().join(u'\n')));
        // ... but its numbers are not multipath -ll's (group priority 0, the path "faulty" where -ll's own checker
        // says "ready"): map show says so rather than a bare "agrees"
        const vm::Run shown = ctl({ u"map"_s, u"show"_s, m_map });
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        vm::saveFile(m_out + u"/map-show-path-failed.txt"_s, shown.out);
        const vm::Run ll = vm::run(u"multipath"_s, { u"-ll"_s, m_map });
        vm::saveFile(m_out + u"/multipath-ll-path-failed.txt"_s, ll.out);
        QVERIFY2(shown.out.contains(u"multipathd: agrees with the kernel (table, group and path states); where "
                                    "multipathd's numbers are not what multipath -ll prints:\n"_s),
            qPrintable(shown.out));
        QVERIFY2(shown.out.contains(u"  group 2: multipathd priority 0, the average over the paths its checker calls "
                                    "up (none); its paths' own: %1 "_s.arg(name)),
            qPrintable(shown.out));
        QVERIFY2(shown.out.contains(u"  path %1 (%2): failed, multipathd's checker state faulty: "_s.arg(dev, name)),
            qPrintable(shown.out));
        QVERIFY2(ll.out.contains(u"%1 %2 failed ready running"_s.arg(name, dev)), qPrintable(ll.out));
        const vm::Run cli = ctl({ u"path"_s, u"reinstate"_s, m_map, dev });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.out.contains(u"reinstate_path %1 done via multipathd (reinstate path %2)"_s.arg(dev, name)),
            qPrintable(cli.out));
        QCOMPARE(vm::pathState(m_map, dev), u"A"_s);
    }

    void switchThroughMultipathd()
    {
        // groups 1-3 are ALUA active; group 4's path is standby (rejects I/O): stay off it
        const vm::Run cli = ctl({ u"group"_s, u"switch"_s, m_map, u"2"_s });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.out.contains(u"switch_group 2 done via multipathd (switchgroup map %1 group 2)"_s.arg(m_map)),
            qPrintable(cli.out));
        QCOMPARE(vm::kernelStatus(m_map).nextGroup, 2);
        QVERIFY(vm::readThrough(m_map));
        QCOMPARE(vm::kernelStatus(m_map).activeGroup(), 2);
        const auto r = core([&](MultipathControl &c) { c.switchGroup(m_map, 1); });
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QCOMPARE(r.via, u"multipathd"_s);
        QVERIFY(vm::readThrough(m_map));
        QCOMPARE(vm::kernelStatus(m_map).activeGroup(), 1);
    }

    void queueingThroughMultipathd()
    {
        QVERIFY(vm::kernelTable(m_map).queueIfNoPath());
        auto r = core([&](MultipathControl &c) { c.setQueueIfNoPath(m_map, false); });
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QCOMPARE(r.via, u"multipathd"_s);
        QCOMPARE(r.command, u"disablequeueing map "_s + m_map);
        QVERIFY(!vm::kernelTable(m_map).queueIfNoPath());
        QCOMPARE(mpdFormat(u"%Q"_s), u"off"_s);
        const vm::Run cli = ctl({ u"map"_s, u"queueing"_s, m_map, u"on"_s });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.out.contains(u"via multipathd (restorequeueing map %1)"_s.arg(m_map)), qPrintable(cli.out));
        QVERIFY(vm::kernelTable(m_map).queueIfNoPath());
        QCOMPARE(mpdFormat(u"%Q"_s), u"12 chk"_s);
    }

    void groupsHaveNoMultipathdCommand()
    {
        auto r = core([&](MultipathControl &c) { c.disableGroup(m_map, 3); });
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QCOMPARE(r.via, u"device-mapper"_s);
        QVERIFY2(r.warnings.join(u' ').contains(u"multipathd has no command for disable_group"_s),
            qPrintable(r.warnings.join(u'\n')));
        QCOMPARE(vm::kernelStatus(m_map).groups.at(2).state, QLatin1Char('D'));
        const vm::Run cli = ctl({ u"group"_s, u"enable"_s, m_map, u"3"_s });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.out.contains(u"enable_group 3 done via device-mapper"_s), qPrintable(cli.out));
        QVERIFY2(cli.err.contains(u"multipathd has no command for enable_group"_s), qPrintable(cli.err));
        QVERIFY(vm::kernelStatus(m_map).groups.at(2).state != QLatin1Char('D'));
    }

    void differenceBehindItsBack()
    {
        // multipathd's view, then fail_if_no_path and fail_path straight to the kernel: the two
        // differ. multipathd notices within 1-2 s (queueing: it puts queue_if_no_path back per
        // no_path_retry; the path: its checker reinstates it at the next check), so the kernel is
        // read in-process right after each message and compared with the view taken before.
        QVERIFY(vm::readThrough(m_map)); // a current group again after the enable_group above
        QVERIFY2(waitUntilAgreed(20000), qPrintable(differences().join(u'\n')));
        const auto json = MultipathdClient().showMapsJson();
        QVERIFY2(json, qPrintable(json.errorMessage()));
        const auto view = findMultipathdMap(parseMultipathdMapsJson(json.value()).value(), m_map);
        QVERIFY2(view, qPrintable(view.errorMessage()));
        QVERIFY(m_backend->message(m_map, u"fail_if_no_path"_s));
        const auto table = multipathTableOf(m_backend->table(m_map).value());
        QVERIFY(m_backend->message(m_map, u"fail_path "_s + env(u"G3"_s)));
        const auto status = multipathStatusOf(m_backend->status(m_map).value());
        QVERIFY(table && status);
        const QStringList found = compareMultipathdView(view.value(), table.value(), status.value());
        qInfo().noquote() << "differences:" << found.join(u"; "_s);
        QCOMPARE(found.size(), 3);
        QCOMPARE(found.at(0), u"features: kernel 0, multipathd 1 queue_if_no_path"_s);
        QCOMPARE(found.at(1), u"queueing: kernel queue_if_no_path off, multipathd \"12 chk\""_s);
        QCOMPARE(found.at(2), u"path %1 (%2): kernel F (failed), multipathd active"_s.arg(env(u"G3"_s), env(u"P3"_s)));
        // what dmtunectl shows live depends on how far multipathd got
        const vm::Run shown = ctl({ u"map"_s, u"show"_s, m_map });
        QCOMPARE(shown.exitCode, 0);
        qInfo().noquote() << shown.out.mid(shown.out.indexOf(u"multipathd"_s)).trimmed();
        // put it right through multipathd, and wait until it agrees with the kernel again
        vm::Run cli = ctl({ u"map"_s, u"queueing"_s, m_map, u"on"_s });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        cli = ctl({ u"path"_s, u"reinstate"_s, m_map, env(u"P3"_s) });
        // multipathd's checker may reinstate the path itself between dmtunectl's plan and its run: then the
        // run refuses the stale plan, and the path is what the reinstate wanted.
        const bool checkerWasFirst = cli.exitCode != 0 && cli.err.contains(u"changed since the plan was made"_s)
            && vm::pathState(m_map, env(u"G3"_s)) == u"A"_s;
        if (checkerWasFirst)
            qInfo().noquote() << "multipathd's checker reinstated the path first:" << cli.err.trimmed();
        QVERIFY2(cli.exitCode == 0 || checkerWasFirst, qPrintable(cli.err));
        QVERIFY(vm::kernelTable(m_map).queueIfNoPath());
        QCOMPARE(vm::pathState(m_map, env(u"G3"_s)), u"A"_s);
        QVERIFY2(waitUntilAgreed(20000), qPrintable(differences().join(u'\n')));
    }

    void reloadWarnsAboutMultipathConf()
    {
        const MultipathTable configured = vm::kernelTable(m_map);
        MultipathTable rr = configured;
        for (PathGroupSpec &g : rr.groups) {
            g.selector = u"round-robin"_s;
            g.perPathArgCount = 1;
            for (PathSpec &p : g.paths)
                p.args = { u"1"_s };
        }
        auto r = core([&](MultipathControl &c) { c.reload(m_map, rr); });
        QVERIFY2(r.status.ok(), qPrintable(r.status.errorMessage()));
        QVERIFY2(r.warnings.join(u' ').contains(u"multipath.conf"_s), qPrintable(r.warnings.join(u'\n')));
        QCOMPARE(vm::kernelTable(m_map), rr);
        QVERIFY(vm::notSuspended(m_map));
        QVERIFY(vm::readThrough(m_map));
        // multipathd adopts the reloaded table (its view follows the kernel)
        QVERIFY2(waitUntilAgreed(20000), qPrintable(differences().join(u'\n')));
        // and back, with dmtunectl: the same warning
        const vm::Run cli = ctl({ u"map"_s, u"reload"_s, m_map, u"--table"_s, formatMultipathTable(configured) });
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        QVERIFY2(cli.err.contains(u"multipath.conf"_s), qPrintable(cli.err));
        QCOMPARE(vm::kernelTable(m_map), configured);
        QVERIFY(vm::notSuspended(m_map));
        QVERIFY(vm::readThrough(m_map));
    }
};

QTEST_GUILESS_MAIN(TstVmMultipathd)
#include "tst_vm_multipathd.moc"
