// vm (real kernel), run ON THE HOST: dmtunectl --host against the lab VM over ssh. The test boots the lab
// (klab.sh -F PORT: a NIC on QEMU's user network with restrict=on, 127.0.0.1:PORT forwarded to the guest's
// port 22) with guest/serve-sshd.sh, which builds the standard multipath topology and runs the host's sshd with
// the keys this test made. The host (its kernel may have no device-mapper at all) then lists the guest's map,
// fails and reinstates a path, reloads the map, applies a preset to a path and records a workload there, all
// through `dmtunectl --host root@127.0.0.1:PORT`; each result equals the same dmtunectl command run locally in
// the guest (over a plain ssh session, no agent). One VM for the whole test; it writes only to the lab's
// scsi_debug paths and their map. Needs root (exit 77 otherwise: skipped). With the GUI built, an offscreen remote
// window on the guest fails and reinstates a path through its tree's actions (MultipathActions, the agent's
// operations) and shows the kernel's new state after its fetch.
#include "../../live/remote/sshtestsupport.h"
#include "../../live/workloads/livesupport.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <unistd.h>

#ifdef DMTUNE_VM_REMOTE_GUI
#include "discovery/discovery.h"
#include "mainwindow.h"
#include "ops/plandialog.h"
#include "pathgroups/multipathactions.h"
#include "pathgroups/pathgroupspanel.h"
#include "remote/remotehost.h"
#include "remote/remoteoperationrunner.h"

#include <QApplication>
#include <QPushButton>
#include <QSignalSpy>
#endif

using namespace dmtune;
using namespace dmtune::live;

namespace {

// A word for the guest's login shell (ssh sends the command as one string).
QString shellWord(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=,@%+-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString describe(const QString &what, const ProgramRun &r)
{
    return QStringLiteral("%1 -> exit %2\nstdout:\n%3\nstderr:\n%4").arg(what).arg(r.exitCode).arg(r.out, r.err);
}

QJsonObject mapOf(const QJsonDocument &list, const QString &name)
{
    for (const QJsonValue &m : list.object().value(QLatin1String("maps")).toArray()) {
        if (m.toObject().value(QLatin1String("name")).toString() == name)
            return m.toObject();
    }
    return {};
}

// A path's "state" and "fail_count" in map show --json.
QString pathState(const QJsonObject &map, const QString &name)
{
    for (const QJsonValue &g : map.value(QLatin1String("groups")).toArray()) {
        for (const QJsonValue &p : g.toObject().value(QLatin1String("paths")).toArray()) {
            if (p.toObject().value(QLatin1String("name")).toString() == name)
                return QStringLiteral("%1/%2").arg(p.toObject().value(QLatin1String("state")).toString(),
                    QString::number(p.toObject().value(QLatin1String("fail_count")).toInt()));
        }
    }
    return {};
}

#ifdef DMTUNE_VM_REMOTE_GUI
// A path's state ("A", "F") in a remote window's snapshot, by its MAJ:MIN.
QString snapshotPathState(const DeviceSnapshot &snapshot, const QString &map, const QString &devnum)
{
    if (const MultipathMap *m = snapshot.map(map)) {
        for (const PathGroupInfo &group : m->groups) {
            for (const PathInfo &path : group.paths) {
                if (path.devnum == devnum)
                    return path.state;
            }
        }
    }
    return {};
}
#endif

} // namespace

class TestVmRemote : public QObject {
    Q_OBJECT

    QString m_out; // klab -o: shared read-write with the guest at the same path
    QString m_keys; // m_out/sshd: the guest sshd's host key and authorized_keys (serve-sshd.sh reads them)
    QTemporaryDir m_client; // this side's ssh: client key, known_hosts, config (the guest never sees it)
    QTemporaryDir m_here; // files written here by --host (a path the guest cannot write: / is read-only there)
    QProcess m_lab;
    QByteArray m_labOutput;
    int m_port = 0;
    QHash<QString, QString> m_env; // the lab's variables (setup-multipath.sh)
    QStringList m_sd; // the map's paths in table order
    QDateTime m_built; // dmtunectl's mtime at the start: a rebuild while the VM runs breaks the guest's view of it

    QString env(const char *key) const { return m_env.value(QLatin1String(key)); }
    QString sshConfig() const { return m_client.filePath(QStringLiteral("ssh_config")); }

    QStringList remote(const QStringList &command) const
    {
        return QStringList { QStringLiteral("--host"), QStringLiteral("root@127.0.0.1:%1").arg(m_port),
            QStringLiteral("--ssh-config"), sshConfig(), QStringLiteral("--remote-dmtunectl"), dmtunectl }
        + command;
    }
    // dmtunectl COMMAND here, run there through --host (the agent in the guest).
    ProgramRun viaHost(const QStringList &command) const { return runProgram(dmtunectl, remote(command), {}, 180000); }
    // ssh's options for the sessions that run a program locally in the guest: one shared connection (a master
    // that stays 120 s after its last session) saves the key exchange of each; --host always connects anew.
    QStringList guestSsh() const
    {
        return { QStringLiteral("-F"), sshConfig(), QStringLiteral("-T"), QStringLiteral("-o"),
            QStringLiteral("BatchMode=yes"), QStringLiteral("-o"), QStringLiteral("ControlMaster=auto"),
            QStringLiteral("-o"), QStringLiteral("ControlPath=") + m_client.filePath(QStringLiteral("master")),
            QStringLiteral("-o"), QStringLiteral("ControlPersist=120"), QStringLiteral("-p"), QString::number(m_port),
            QStringLiteral("-l"), QStringLiteral("root") };
    }
    // A program run locally in the guest: a plain ssh session (the same sshd, the same environment), no agent.
    ProgramRun inGuest(const QString &program, const QStringList &args) const
    {
        QStringList words { shellWord(program) };
        for (const QString &a : args)
            words << shellWord(a);
        return runProgram(QStringLiteral("ssh"),
            guestSsh()
                + QStringList { QStringLiteral("--"), QStringLiteral("127.0.0.1"), words.join(QLatin1Char(' ')) },
            {}, 180000);
    }
    ProgramRun ctlInGuest(const QStringList &command) const { return inGuest(dmtunectl, command); }
    // `dmsetup status|table MAP` in the guest, without "start length multipath".
    QString dmsetup(const QString &what) const
    {
        const ProgramRun r = inGuest(QStringLiteral("dmsetup"), { what, env("MAP") });
        return r.out.trimmed().section(QLatin1Char(' '), 3);
    }
    QString sysfsInGuest(const QString &device, const QString &attribute) const
    {
        return inGuest(QStringLiteral("cat"), { QStringLiteral("/sys/block/%1/%2").arg(device, attribute) })
            .out.trimmed();
    }

    // The command through --host and locally in the guest: the same exit status, stdout and stderr.
    void expectSameAsInGuest(const QStringList &command, int expectedExit = -1) const
    {
        const ProgramRun there = viaHost(command);
        const ProgramRun local = ctlInGuest(command);
        const QString what = command.join(QLatin1Char(' '));
        QVERIFY2(there.exitCode == local.exitCode,
            qPrintable(describe(QStringLiteral("--host ") + what, there) + QLatin1Char('\n')
                + describe(QStringLiteral("in the guest: ") + what, local)));
        if (expectedExit >= 0)
            QVERIFY2(there.exitCode == expectedExit, qPrintable(describe(what, there)));
        QCOMPARE(there.out, local.out);
        QCOMPARE(there.err, local.err);
    }

    void stopLab()
    {
        if (m_keys.isEmpty() || m_lab.state() == QProcess::NotRunning)
            return;
        runProgram(QStringLiteral("ssh"),
            guestSsh() + QStringList { QStringLiteral("-O"), QStringLiteral("exit"), QStringLiteral("127.0.0.1") });
        sshtest::writeFile(m_keys + QStringLiteral("/done"), QString()); // serve-sshd.sh cleans up, the VM powers off
        if (!m_lab.waitForFinished(120000)) {
            m_lab.kill(); // QEMU itself ends at klab's -t
            m_lab.waitForFinished(5000);
        }
        m_labOutput += m_lab.readAll();
    }

public:
    ~TestVmRemote() override { stopLab(); }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : { "ssh", "ssh-keygen" }) {
            if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty())
                QSKIP(qPrintable(QStringLiteral("%1 not installed").arg(QLatin1String(tool))));
        }
        if (!QFileInfo(QStringLiteral("/usr/sbin/sshd")).isExecutable())
            QSKIP("sshd not installed (packaging/install-deps.sh installs openssh-server)");
        QVERIFY(QFileInfo(dmtunectl).isExecutable());
        m_built = QFileInfo(dmtunectl).lastModified();
        QVERIFY(m_client.isValid() && m_here.isValid());
        m_out = QStringLiteral(DMTUNE_BINARY_DIR "/tests/vm/vm-out/tst_vm_remote");
        m_keys = m_out + QStringLiteral("/sshd");
        QDir(m_keys).removeRecursively();
        QDir(m_out + QStringLiteral("/presets")).removeRecursively();
        QVERIFY(QDir().mkpath(m_keys) && QDir().mkpath(m_out + QStringLiteral("/presets")));
        QFile::remove(m_out + QStringLiteral("/local.dmrec"));

        // The guest's host key and who may log in; this side's key, known_hosts and config.
        QString problem = sshtest::keygen(m_keys + QStringLiteral("/host_key"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        problem = sshtest::keygen(m_client.filePath(QStringLiteral("client_key")));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(QFile::copy(
            m_client.filePath(QStringLiteral("client_key.pub")), m_keys + QStringLiteral("/authorized_keys")));
        m_port = sshtest::freeLoopbackPort();
        QVERIFY(m_port > 0);
        const QString knownHosts = m_client.filePath(QStringLiteral("known_hosts"));
        QVERIFY(
            sshtest::writeFile(knownHosts, sshtest::knownHostsLine(m_port, m_keys + QStringLiteral("/host_key.pub"))));
        QVERIFY(sshtest::writeFile(sshConfig(),
            sshtest::clientConfig({ QStringLiteral("127.0.0.1"), m_port, QStringLiteral("root"),
                m_client.filePath(QStringLiteral("client_key")), knownHosts, {} })));

        // The lab, in the background until cleanupTestCase writes "done".
        m_lab.setProcessChannelMode(QProcess::MergedChannels);
        m_lab.setWorkingDirectory(QStringLiteral(DMTUNE_BINARY_DIR));
        m_lab.start(QStringLiteral(DMTUNE_VM_KLAB),
            { QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("77"), QStringLiteral("-o"), m_out,
                QStringLiteral("-t"), QStringLiteral("600"), QStringLiteral("-F"), QString::number(m_port),
                QStringLiteral("--"), QStringLiteral("bash"), QStringLiteral(DMTUNE_VM_GUEST_DIR "/serve-sshd.sh"),
                QStringLiteral("-d"), m_keys, QStringLiteral("-t"), QStringLiteral("480") });
        QVERIFY(m_lab.waitForStarted());
        const QString ready = m_keys + QStringLiteral("/ready");
        QElapsedTimer waited;
        waited.start();
        while (!QFileInfo::exists(ready) && m_lab.state() != QProcess::NotRunning && waited.elapsed() < 360000) {
            m_lab.waitForReadyRead(200);
            m_labOutput += m_lab.readAll();
        }
        if (!QFileInfo::exists(ready)) {
            m_labOutput += m_lab.readAll();
            if (m_lab.state() == QProcess::NotRunning && m_lab.exitCode() == 77)
                QSKIP(m_labOutput.constData());
            QFAIL(qPrintable(
                QStringLiteral("no %1 after %2 s (klab.sh %3):\n%4")
                    .arg(ready)
                    .arg(waited.elapsed() / 1000)
                    .arg(m_lab.state() == QProcess::NotRunning ? QStringLiteral("exit %1").arg(m_lab.exitCode())
                                                               : QStringLiteral("running"),
                        QString::fromLocal8Bit(m_labOutput))));
        }
        qInfo("lab ready after %.1f s: sshd in the guest on 127.0.0.1:%d", waited.elapsed() / 1000.0, m_port);
        QFile vars(ready);
        QVERIFY(vars.open(QIODevice::ReadOnly));
        for (const QString &line : QString::fromUtf8(vars.readAll()).split(QLatin1Char('\n'))) {
            const qsizetype eq = line.indexOf(QLatin1Char('='));
            if (eq > 0)
                m_env.insert(line.left(eq), line.mid(eq + 1));
        }
        m_sd = env("SD").split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QCOMPARE(m_sd.size(), 4);
        QCOMPARE(env("MAP"), QStringLiteral("mpatha"));
    }

    void cleanupTestCase()
    {
        if (m_keys.isEmpty() || m_lab.state() == QProcess::NotRunning)
            return;
        QElapsedTimer t;
        t.start();
        stopLab();
        qInfo("lab stopped in %.1f s", t.elapsed() / 1000.0);
        if (QFileInfo(dmtunectl).lastModified() != m_built)
            qWarning("dmtunectl was rebuilt while the test ran: the guest (9p, cache=loose) may have run a torn copy");
        // serve-sshd.sh ended well: sshd stopped, every path reinstated, the map removed (nothing held it).
        QVERIFY2(m_lab.exitStatus() == QProcess::NormalExit && m_lab.exitCode() == 0,
            qPrintable(QString::fromLocal8Bit(m_labOutput)));
    }

    // QEMU listens on the host's loopback only, and the guest reaches nothing (restrict=on): not even the
    // forwarded port through the gateway address that user networking gives the host.
    void onlyTheLoopbackReachesTheGuest()
    {
        QFile tcp(QStringLiteral("/proc/net/tcp"));
        QVERIFY(tcp.open(QIODevice::ReadOnly));
        const QString port = QStringLiteral("%1").arg(m_port, 4, 16, QLatin1Char('0')).toUpper();
        QStringList listeners;
        for (const QString &line : QString::fromLatin1(tcp.readAll()).split(QLatin1Char('\n'))) {
            const QStringList f = line.simplified().split(QLatin1Char(' '));
            if (f.size() > 3 && f.at(1).endsWith(QLatin1Char(':') + port) && f.at(3) == QLatin1String("0A"))
                listeners << f.at(1);
        }
        QCOMPARE(listeners, QStringList { QStringLiteral("0100007F:") + port });
        QFile tcp6(QStringLiteral("/proc/net/tcp6"));
        if (tcp6.open(QIODevice::ReadOnly))
            QVERIFY(!QString::fromLatin1(tcp6.readAll()).contains(QStringLiteral(":%1 ").arg(port)));
        const ProgramRun ip = inGuest(QStringLiteral("ip"), { QStringLiteral("-4"), QStringLiteral("addr") });
        QVERIFY2(ip.out.contains(QLatin1String("10.0.2.15/24")), qPrintable(describe(QStringLiteral("ip"), ip)));
        const ProgramRun out = inGuest(QStringLiteral("timeout"),
            { QStringLiteral("5"), QStringLiteral("bash"), QStringLiteral("-c"),
                QStringLiteral(": > /dev/tcp/10.0.2.2/%1 && echo connected").arg(m_port) });
        QVERIFY2(out.exitCode != 0 && !out.out.contains(QLatin1String("connected")),
            qPrintable(describe(QStringLiteral("connect from the guest"), out)));
    }

    void sameAsInTheGuest_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("exitCode");
        const QString map = QStringLiteral("mpatha");
        QTest::newRow("list") << QStringList { QStringLiteral("list") } << 0;
        QTest::newRow("list --json") << QStringList { QStringLiteral("list"), QStringLiteral("--json") } << 0;
        QTest::newRow("map show") << QStringList { QStringLiteral("map"), QStringLiteral("show"), map } << 0;
        QTest::newRow("map show --json") << QStringList { QStringLiteral("map"), QStringLiteral("show"), map,
            QStringLiteral("--json") } << 0;
        QTest::newRow("get a path") << QStringList { QStringLiteral("get"), QStringLiteral("PATH0"),
            QStringLiteral("--json") }
                                    << 0;
        QTest::newRow("map show of no map")
            << QStringList { QStringLiteral("map"), QStringLiteral("show"), QStringLiteral("nosuchmap") } << 1;
        QTest::newRow("path fail of no path")
            << QStringList { QStringLiteral("path"), QStringLiteral("fail"), map, QStringLiteral("sdzz") } << 2;
        QTest::newRow("map reload without a table")
            << QStringList { QStringLiteral("map"), QStringLiteral("reload"), map } << 2;
        // The guard there: a write to a path that the map holds is refused (a dry run: nothing runs anyway).
        QTest::newRow("a write to a path of the map")
            << QStringList { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
                   QStringLiteral("PATH0"), QStringLiteral("--destroy-data-on"), QStringLiteral("PATH0"),
                   QStringLiteral("--runtime"), QStringLiteral("3"), QStringLiteral("--dry-run") }
            << 1;
        QTest::newRow("disabling the active group without --force")
            << QStringList { QStringLiteral("group"), QStringLiteral("disable"), map, QStringLiteral("1") } << 1;
    }
    void sameAsInTheGuest()
    {
        QFETCH(QStringList, command);
        QFETCH(int, exitCode);
        for (int i = 0; i < m_sd.size(); ++i)
            command.replaceInStrings(QStringLiteral("PATH%1").arg(i), m_sd.at(i));
        const QString status = dmsetup(QStringLiteral("status"));
        expectSameAsInGuest(command, exitCode);
        QCOMPARE(dmsetup(QStringLiteral("status")), status); // none of these changed the map
    }

    // What --host lists is the guest's map: its table, its four scsi_debug paths in two groups.
    void listsTheGuestsMap()
    {
        const ProgramRun r = viaHost({ QStringLiteral("list"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("list --json"), r)));
        const QJsonObject map = mapOf(QJsonDocument::fromJson(r.out.toUtf8()), env("MAP"));
        QVERIFY2(!map.isEmpty(), qPrintable(r.out.left(3000)));
        QCOMPARE(map.value(QLatin1String("device")).toString(), env("DM"));
        QCOMPARE(map.value(QLatin1String("table")).toString(), env("TABLE"));
        const QJsonArray groups = map.value(QLatin1String("groups")).toArray();
        QCOMPARE(groups.size(), 2);
        QStringList names, devnums;
        for (const QJsonValue &g : groups) {
            for (const QJsonValue &p : g.toObject().value(QLatin1String("paths")).toArray()) {
                names << p.toObject().value(QLatin1String("name")).toString();
                devnums << p.toObject().value(QLatin1String("devnum")).toString();
            }
        }
        QCOMPARE(names, m_sd);
        QCOMPARE(devnums, (QStringList { env("DA"), env("DB"), env("DC"), env("DD") }));
        const ProgramRun here = runProgram(dmtunectl, { QStringLiteral("list"), QStringLiteral("--json") });
        qInfo("this host's own list has %d maps; the guest's has %d",
            int(QJsonDocument::fromJson(here.out.toUtf8()).object().value(QLatin1String("maps")).toArray().size()),
            int(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("maps")).toArray().size()));
    }

    void failAndReinstateAPath()
    {
        const QString map = env("MAP");
        const QString path = m_sd.at(1); // group 1's second path: group 1 keeps a path, no --force needed
        const QString devnum = env("DB");
        QVERIFY2(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" A 0")),
            qPrintable(dmsetup(QStringLiteral("status"))));
        ProgramRun r = viaHost({ QStringLiteral("path"), QStringLiteral("fail"), map, path });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("path fail"), r)));
        // Read back: the kernel's status in the guest, and map show (here and there the same).
        QVERIFY2(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" F 1")),
            qPrintable(dmsetup(QStringLiteral("status"))));
        const ProgramRun shown
            = viaHost({ QStringLiteral("map"), QStringLiteral("show"), map, QStringLiteral("--json") });
        QCOMPARE(pathState(QJsonDocument::fromJson(shown.out.toUtf8()).object(), path), QStringLiteral("F/1"));
        expectSameAsInGuest({ QStringLiteral("map"), QStringLiteral("show"), map, QStringLiteral("--json") }, 0);
        expectSameAsInGuest({ QStringLiteral("map"), QStringLiteral("show"), map }, 0);

        r = viaHost({ QStringLiteral("path"), QStringLiteral("reinstate"), map, path });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("path reinstate"), r)));
        QVERIFY2(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" A 1")),
            qPrintable(dmsetup(QStringLiteral("status"))));
        const ProgramRun again
            = viaHost({ QStringLiteral("map"), QStringLiteral("show"), map, QStringLiteral("--json") });
        QCOMPARE(pathState(QJsonDocument::fromJson(again.out.toUtf8()).object(), path), QStringLiteral("A/1"));
        expectSameAsInGuest({ QStringLiteral("map"), QStringLiteral("show"), map, QStringLiteral("--json") }, 0);
    }

    void reloadTheMap()
    {
        const QString map = env("MAP");
        const QStringList serviceTime { QStringLiteral("map"), QStringLiteral("reload"), map,
            QStringLiteral("--selector"), QStringLiteral("service-time"), QStringLiteral("--group"),
            m_sd.at(0) + QLatin1Char(',') + m_sd.at(1), QStringLiteral("--group"),
            m_sd.at(2) + QLatin1Char(',') + m_sd.at(3) };
        // The preview first (nothing written): the same there as in the guest.
        expectSameAsInGuest(serviceTime + QStringList { QStringLiteral("--dry-run") }, 0);
        QCOMPARE(dmsetup(QStringLiteral("table")), env("TABLE").section(QLatin1Char(' '), 3));
        ProgramRun r = viaHost(serviceTime);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("map reload --selector service-time"), r)));
        const QString table = dmsetup(QStringLiteral("table"));
        QVERIFY2(table.contains(QLatin1String("service-time 0 2 2 ")), qPrintable(table));
        QVERIFY2(!table.contains(QLatin1String("round-robin")), qPrintable(table));
        QVERIFY2(r.out.startsWith(map + QStringLiteral(": reloaded: ")), qPrintable(r.out));
        expectSameAsInGuest({ QStringLiteral("map"), QStringLiteral("show"), map, QStringLiteral("--json") }, 0);
        // Back to the lab's table.
        r = viaHost({ QStringLiteral("map"), QStringLiteral("reload"), map, QStringLiteral("--table"), env("TABLE") });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("map reload --table"), r)));
        QVERIFY2(r.out.startsWith(map + QStringLiteral(": reloaded: ") + env("TABLE")), qPrintable(r.out));
        QCOMPARE(dmsetup(QStringLiteral("table")), env("TABLE").section(QLatin1Char(' '), 3));
        QVERIFY2(
            inGuest(QStringLiteral("dmsetup"), { QStringLiteral("info"), map }).out.contains(QLatin1String("ACTIVE")),
            "the map stayed suspended");
        expectSameAsInGuest({ QStringLiteral("map"), QStringLiteral("show"), map }, 0);
    }

    // A preset saved from a path (the file is written here), edited here, applied there to that path only, verified
    // there and in the guest, and the saved one applied back.
    void applyAPresetToAPath()
    {
        const QString path = m_sd.at(2); // group 2: no I/O goes there
        const QString saved = m_out + QStringLiteral("/presets/saved.json"); // shared: the guest reads the same file
        const QString changed = m_out + QStringLiteral("/presets/changed.json");
        const QString nomerges = sysfsInGuest(path, QStringLiteral("queue/nomerges"));
        const QString readAhead = sysfsInGuest(path, QStringLiteral("queue/read_ahead_kb"));
        QVERIFY(!nomerges.isEmpty() && !readAhead.isEmpty());
        ProgramRun r
            = viaHost({ QStringLiteral("preset"), QStringLiteral("save"), saved, path, QStringLiteral("--attr"),
                QStringLiteral("queue/nomerges"), QStringLiteral("--attr"), QStringLiteral("queue/read_ahead_kb") });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("preset save"), r)));
        QFile in(saved);
        QVERIFY2(in.open(QIODevice::ReadOnly), "preset save wrote nothing here");
        QJsonObject preset = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray rules = preset.value(QLatin1String("rules")).toArray();
        QCOMPARE(rules.size(), 1);
        QJsonObject rule = rules.first().toObject();
        QCOMPARE(rule.value(QLatin1String("match")).toObject().value(QLatin1String("wwid")).toString(), env("WWID"));
        const QString newNomerges = nomerges == QLatin1String("2") ? QStringLiteral("1") : QStringLiteral("2");
        const QString newReadAhead = QString::number(readAhead.toInt() * 2 + 64);
        QJsonObject settings = rule.value(QLatin1String("settings")).toObject();
        QCOMPARE(settings.size(), 2);
        settings.insert(QStringLiteral("queue/nomerges"), newNomerges.toInt());
        settings.insert(QStringLiteral("queue/read_ahead_kb"), newReadAhead.toInt());
        rule.insert(QStringLiteral("settings"), settings);
        rules.replace(0, rule);
        preset.insert(QStringLiteral("rules"), rules);
        preset.insert(QStringLiteral("name"), QStringLiteral("lab path, changed"));
        QVERIFY(sshtest::writeFile(changed, QString::fromUtf8(QJsonDocument(preset).toJson())));

        const QStringList verifyChanged { QStringLiteral("preset"), QStringLiteral("verify"), changed, path };
        expectSameAsInGuest(verifyChanged, 1); // drift before
        expectSameAsInGuest(
            { QStringLiteral("preset"), QStringLiteral("apply"), changed, path, QStringLiteral("--dry-run") }, 0);
        QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/nomerges")), nomerges);
        r = viaHost({ QStringLiteral("preset"), QStringLiteral("apply"), changed, path });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("preset apply"), r)));
        QVERIFY2(r.out.contains(QLatin1String("applied 2 writes")), qPrintable(r.out));
        QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/nomerges")), newNomerges);
        QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/read_ahead_kb")), newReadAhead);
        // Only that path: the others of the same WWID kept their values.
        for (const QString &other : m_sd) {
            if (other != path)
                QCOMPARE(sysfsInGuest(other, QStringLiteral("queue/nomerges")), nomerges);
        }
        expectSameAsInGuest(verifyChanged, 0);
        expectSameAsInGuest({ QStringLiteral("get"), path, QStringLiteral("--json") }, 0);

        r = viaHost({ QStringLiteral("preset"), QStringLiteral("apply"), saved, path });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("preset apply (restore)"), r)));
        QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/nomerges")), nomerges);
        QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/read_ahead_kb")), readAhead);
        expectSameAsInGuest({ QStringLiteral("preset"), QStringLiteral("verify"), saved, path }, 0);
    }

    // fio on the map there, recorded: the recording is written here and reads as complete; it has what the same
    // run recorded locally in the guest has (host, kernel, devices, the map's configuration).
    void recordAWorkload()
    {
        const QString map = env("MAP");
        // Writes to the lab's map (scsi_debug: nothing on it; --destroy-data-on says so all the same).
        const QStringList run { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
            map, QStringLiteral("--destroy-data-on"), map, QStringLiteral("--runtime"), QStringLiteral("3"),
            QStringLiteral("--record") };
        const QString here = m_here.filePath(QStringLiteral("remote.dmrec"));
        const ProgramRun r = viaHost(run + QStringList { here });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("--host run --record"), r)));
        QVERIFY2(QFileInfo(here).size() > 0, qPrintable(describe(QStringLiteral("--host run --record"), r)));
        const QString inGuestFile = m_out + QStringLiteral("/local.dmrec"); // written by the guest, read here
        const ProgramRun local = ctlInGuest(run + QStringList { inGuestFile });
        QVERIFY2(local.exitCode == 0, qPrintable(describe(QStringLiteral("run --record in the guest"), local)));

        const auto show = [](const QString &file) {
            const ProgramRun s = runProgram(
                dmtunectl, { QStringLiteral("record"), QStringLiteral("show"), file, QStringLiteral("--json") });
            return s.exitCode == 0 ? QJsonDocument::fromJson(s.out.toUtf8()).object() : QJsonObject();
        };
        const QJsonObject remoteRec = show(here);
        const QJsonObject localRec = show(inGuestFile);
        QVERIFY(!remoteRec.isEmpty() && !localRec.isEmpty());
        QVERIFY2(remoteRec.value(QLatin1String("complete")).toBool(), QJsonDocument(remoteRec).toJson().constData());
        QVERIFY(remoteRec.value(QLatin1String("device_samples")).toDouble() > 0);
        QVERIFY(!remoteRec.value(QLatin1String("fio")).toArray().isEmpty());
        QCOMPARE(remoteRec.value(QLatin1String("host")).toString(), QStringLiteral("klab"));
        const QStringList devices = remoteRec.value(QLatin1String("devices")).toVariant().toStringList();
        QVERIFY2(devices.contains(env("DM")), qPrintable(devices.join(QLatin1Char(' '))));
        for (const QString &p : std::as_const(m_sd))
            QVERIFY2(devices.contains(p), qPrintable(devices.join(QLatin1Char(' '))));
        // Request-based multipath: the writes merge on the map (here and there alike).
        const auto mapMerges = [this](const QJsonObject &rec) {
            return rec.value(QLatin1String("workload_stats"))
                .toObject()
                .value(env("DM"))
                .toObject()
                .value(QLatin1String("wrqm/s"))
                .toObject()
                .value(QLatin1String("mean"))
                .toDouble();
        };
        QVERIFY2(mapMerges(remoteRec) > 0 && mapMerges(localRec) > 0,
            QJsonDocument(remoteRec.value(QLatin1String("workload_stats")).toObject()).toJson().constData());
        for (const char *key : { "host", "kernel", "devices", "complete", "interval_s" })
            QCOMPARE(remoteRec.value(QLatin1String(key)), localRec.value(QLatin1String(key)));
        // The configuration's maps: the same map, table and paths (their states are the moment's: a run's first
        // I/O after the reload above makes group 1 active, so only the first recording has both groups "E").
        const auto maps = [](const QJsonObject &rec) {
            QStringList out;
            for (const QJsonValue &m :
                rec.value(QLatin1String("configuration")).toObject().value(QLatin1String("maps")).toArray()) {
                const QJsonObject o = m.toObject();
                out << QStringList { o.value(QLatin1String("name")).toString(),
                    o.value(QLatin1String("device")).toString(), o.value(QLatin1String("params")).toString(),
                    o.value(QLatin1String("slaves")).toVariant().toStringList().join(QLatin1Char(',')) }
                           .join(QLatin1Char(' '));
            }
            return out;
        };
        QCOMPARE(maps(remoteRec), maps(localRec));
        QCOMPARE(maps(remoteRec).size(), 1);
        QVERIFY2(maps(remoteRec).first().contains(env("TABLE").section(QLatin1Char(' '), 3)),
            qPrintable(maps(remoteRec).first()));
        QCOMPARE(remoteRec.value(QLatin1String("fio")).toArray().first().toObject().value(QLatin1String("argv")),
            localRec.value(QLatin1String("fio")).toArray().first().toObject().value(QLatin1String("argv")));
        // No job was left running there (serve-sshd.sh's removal of the map at the end checks the rest).
        const ProgramRun jobs = viaHost({ QStringLiteral("job"), QStringLiteral("list") });
        QCOMPARE(jobs.exitCode, 0);
        QVERIFY2(!jobs.out.contains(QLatin1String("running")), qPrintable(jobs.out));
    }

#ifdef DMTUNE_VM_REMOTE_GUI
    // The same path as failAndReinstateAPath, from a remote window: the tree's Fail path asks in a PlanDialog
    // (the plan is the guest's agent's), the run is there, the window fetches the guest and its tree shows the
    // path failed; Reinstate path runs at once (no risk) and the path is back.
    void failAndReinstateAPathInTheWindow()
    {
        const QString map = env("MAP");
        const QString devnum = env("DB");
        QTemporaryDir empty;
        MainWindow local(SysfsRoot(empty.path(), QString()));
        const auto address = parseHostAddress(QStringLiteral("root@127.0.0.1:%1").arg(m_port));
        QVERIFY(address);
        MainWindow *window = local.openRemoteWindow(address.value(), { sshConfig(), dmtunectl }, {});
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(window->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            snapshotPathState(window->discovery()->snapshot(), map, devnum), QStringLiteral("A"), 60000);
        MultipathActions *actions = window->pathGroupsPanel()->actions();
        QSignalSpy finished(window->remoteOperations(), &OperationService::finished);

        QSignalSpy opened(actions, &MultipathActions::planOpened);
        QVERIFY(actions->failPath(map, devnum));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
        PlanDialog *dialog = actions->pendingPlan();
        QVERIFY(dialog);
        QCOMPARE(dialog->plan().kind, QStringLiteral("multipath.fail-path"));
        QVERIFY(dialog->runButton()->isEnabled()); // group 1 keeps a path: nothing to type
        QVERIFY(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" A "))); // asked, not run
        QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        auto result = finished.at(0).at(0).value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY2(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" F ")),
            qPrintable(dmsetup(QStringLiteral("status"))));
        QTRY_COMPARE_WITH_TIMEOUT(
            snapshotPathState(window->discovery()->snapshot(), map, devnum), QStringLiteral("F"), 60000);

        QVERIFY(actions->reinstatePath(map, devnum));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QCOMPARE(opened.count(), 1); // no risk: run without asking
        result = finished.at(1).at(0).value<OperationResult>();
        QVERIFY2(result.ok, qPrintable(result.error));
        QVERIFY2(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" A ")),
            qPrintable(dmsetup(QStringLiteral("status"))));
        QTRY_COMPARE_WITH_TIMEOUT(
            snapshotPathState(window->discovery()->snapshot(), map, devnum), QStringLiteral("A"), 60000);
        window->close();
    }
#endif
};

int main(int argc, char **argv)
{
    if (::geteuid() != 0) {
        std::fprintf(stderr, "tst_vm_remote: the lab needs root (QEMU exports / over 9p): skipped\n");
        return 77;
    }
#ifdef DMTUNE_VM_REMOTE_GUI
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif
    TestVmRemote test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_vm_remote.moc"
