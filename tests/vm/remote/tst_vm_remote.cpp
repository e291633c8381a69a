// vm (real kernel), run ON THE HOST: dmtunectl --host against the lab VM over ssh. The test boots the lab
// (klab.sh -F PORT: a NIC on QEMU's user network with restrict=on, 127.0.0.1:PORT forwarded to the guest's
// port 22) with guest/serve-sshd.sh, which builds the standard multipath topology and runs the host's sshd with
// the keys this test made. The host (its kernel may have no device-mapper at all) then lists the guest's map,
// fails and reinstates a path, reloads the map, applies a preset to a path and records a workload there, all
// through `dmtunectl --host root@127.0.0.1:PORT`; each result equals the same dmtunectl command run locally in
// the guest (over a plain ssh session, no agent). One VM for the whole test; it writes only to the lab's
// scsi_debug paths and their map. Needs root (exit 77 otherwise: skipped). With the GUI built, one offscreen remote
// window on the guest does the same through its real code paths: fails and reinstates a path (the tree's actions),
// reloads the map (the path group editor's Apply), applies a preset file (the preset manager) and records fio (the
// Workload dock); each result is read back in the guest. Last, multipathd is started in the guest: the window's
// editor shows its priorities and checker states from the capture it fetched, and --host list --json has the same
// multipathd view as list --json in the guest; multipathd is stopped again and the lab's map made again.
#include "tests/common/testpaths.h"
#include "tests/live/remote/sshtestsupport.h"
#include "tests/live/workloads/livesupport.h"

#include "core/dm/grammar/multipathtable.h"
#include "core/dm/multipathd/multipathdview.h"
#include "core/presets/presetjson.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <unistd.h>

#ifdef DMTUNE_VM_REMOTE_GUI
#include "app/dmtune/mainwindow.h"
#include "core/discovery/discovery.h"
#include "core/host/workloadruns.h"
#include "core/params/tuningsession.h"
#include "core/remote/remotehost.h"
#include "core/remote/remoteoperationrunner.h"
#include "tests/common/remotewindowaccess.h"
#include "widgets/ops/plandialog.h"
#include "widgets/pathgroups/multipathactions.h"
#include "widgets/pathgroups/pathgroupeditor.h"
#include "widgets/pathgroups/pathgroupmodel.h"
#include "widgets/pathgroups/pathgroupspanel.h"
#include "widgets/presets/presetmanager.h"
#include "widgets/workloads/workloadpanel.h"
#include "windowscenario.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
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

// `record show --json` of a recording (run here: it only reads the file), empty when it cannot be read.
QJsonObject recordingShown(const QString &file)
{
    const ProgramRun s
        = runProgram(dmtunectl, { QStringLiteral("record"), QStringLiteral("show"), file, QStringLiteral("--json") });
    return s.exitCode == 0 ? QJsonDocument::fromJson(s.out.toUtf8()).object() : QJsonObject();
}

// The mean write merges per second of a device in a recording's workload statistics.
double writeMerges(const QJsonObject &recording, const QString &device)
{
    return recording.value(QLatin1String("workload_stats"))
        .toObject()
        .value(device)
        .toObject()
        .value(QLatin1String("wrqm/s"))
        .toObject()
        .value(QLatin1String("mean"))
        .toDouble();
}

// What list --json says of multipathd: its "multipathd" status and, for each map, the priorities of its groups
// and the priorities, checker and device states of its paths (by MAJ:MIN), as one JSON text.
QString multipathdPartOf(const QString &listJson)
{
    const QJsonObject doc = QJsonDocument::fromJson(listJson.toUtf8()).object();
    QJsonArray maps;
    for (const QJsonValue &m : doc.value(QLatin1String("maps")).toArray()) {
        QJsonArray groups;
        for (const QJsonValue &g : m.toObject().value(QLatin1String("groups")).toArray()) {
            QJsonArray paths;
            for (const QJsonValue &p : g.toObject().value(QLatin1String("paths")).toArray()) {
                QJsonObject path;
                for (const char *key : { "devnum", "priority", "checker_state", "device_state" })
                    path.insert(QLatin1String(key), p.toObject().value(QLatin1String(key)));
                paths.append(path);
            }
            groups.append(QJsonObject { { QStringLiteral("index"), g.toObject().value(QLatin1String("index")) },
                { QStringLiteral("priority"), g.toObject().value(QLatin1String("priority")) },
                { QStringLiteral("paths"), paths } });
        }
        maps.append(QJsonObject { { QStringLiteral("name"), m.toObject().value(QLatin1String("name")) },
            { QStringLiteral("groups"), groups } });
    }
    const QJsonObject part { { QStringLiteral("multipathd"), doc.value(QLatin1String("multipathd")) },
        { QStringLiteral("maps"), maps } };
    return QString::fromUtf8(QJsonDocument(part).toJson());
}

// A multipath table's params with its initial group set to 1 (the rest as the kernel printed it).
QString withInitialGroupOne(const QString &params)
{
    Result<MultipathTable> table = parseMultipathTable(params);
    if (!table)
        return params;
    table.value().initialGroup = 1;
    return formatMultipathTable(table.value());
}

#ifdef DMTUNE_VM_REMOTE_GUI
// What the path group editor's cards show of each path in their State column ("8:16 active · prio 50 · ready"
// with multipathd's view, "8:16 active" without), sorted.
QStringList editorPathStates(const PathGroupEditor *editor)
{
    QStringList lines;
    for (int g = 0; g < editor->groupColumnCount(); ++g) {
        const PathGroupModel *model = editor->groupModel(g);
        if (!model)
            continue;
        for (int column = 0; column < model->columnCount(); ++column) {
            if (model->columnKind(column) != PathGroupModel::ColumnKind::State)
                continue;
            for (int row = 0; row < model->rowCount(); ++row)
                lines << model->deviceAt(row) + QLatin1Char(' ') + model->index(row, column).data().toString();
        }
    }
    lines.sort();
    return lines;
}

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
#ifdef DMTUNE_VM_REMOTE_GUI
    QTemporaryDir m_emptyRoot; // the local window's sysfs: nothing (this host's devices play no part)
    std::unique_ptr<MainWindow> m_localWindow;
    QPointer<MainWindow> m_window; // the guest's window, one for every GUI function (deleted when closed)

    // The guest's remote window: opened by the first GUI function, kept for the others (one connection).
    MainWindow *remoteWindow()
    {
        if (m_window)
            return m_window;
        if (!m_localWindow)
            m_localWindow = std::make_unique<MainWindow>(SysfsRoot(m_emptyRoot.path(), QString()));
        const auto address = parseHostAddress(QStringLiteral("root@127.0.0.1:%1").arg(m_port));
        if (!address)
            return nullptr;
        m_window = m_localWindow->openRemoteWindow(address.value(), { sshConfig(), dmtunectl }, {});
        return m_window;
    }
    void closeWindows()
    {
        if (m_window)
            m_window->close();
        m_localWindow.reset(); // deletes the remote window too
    }
#endif

    QString env(const char *key) const
    {
        return m_env.value(QLatin1String(key));
    }
    QString sshConfig() const
    {
        return m_client.filePath(QStringLiteral("ssh_config"));
    }

    QStringList remote(const QStringList &command) const
    {
        return QStringList { QStringLiteral("--host"), QStringLiteral("root@127.0.0.1:%1").arg(m_port),
            QStringLiteral("--ssh-config"), sshConfig(), QStringLiteral("--remote-dmtunectl"), dmtunectl }
        + command;
    }
    // dmtunectl COMMAND here, run there through --host (the agent in the guest).
    ProgramRun viaHost(const QStringList &command) const
    {
        return runProgram(dmtunectl, remote(command), {}, 180000);
    }
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
    // ssh's arguments that run a program locally in the guest: a plain ssh session (the same sshd, the same
    // environment), no agent.
    QStringList inGuestArgs(const QString &program, const QStringList &args) const
    {
        QStringList words { shellWord(program) };
        for (const QString &a : args)
            words << shellWord(a);
        return guestSsh()
            + QStringList { QStringLiteral("--"), QStringLiteral("127.0.0.1"), words.join(QLatin1Char(' ')) };
    }
    ProgramRun inGuest(const QString &program, const QStringList &args) const
    {
        return runProgram(QStringLiteral("ssh"), inGuestArgs(program, args), {}, 180000);
    }
    ProgramRun ctlInGuest(const QStringList &command) const
    {
        return inGuest(dmtunectl, command);
    }
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

    // The command through --host and locally in the guest: the same exit status, stdout and stderr. The two run at
    // once (each is a read, a dry run or a refusal: neither changes what the other sees), so the pair costs the
    // longer of the two sessions, not both.
    void expectSameAsInGuest(const QStringList &command, int expectedExit = -1) const
    {
        QProcess viaHostProcess;
        QProcess localProcess;
        viaHostProcess.start(dmtunectl, remote(command));
        localProcess.start(QStringLiteral("ssh"), inGuestArgs(dmtunectl, command));
        const ProgramRun there = collectRun(viaHostProcess, 180000);
        const ProgramRun local = collectRun(localProcess, 180000);
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
    ~TestVmRemote() override
    {
#ifdef DMTUNE_VM_REMOTE_GUI
        closeWindows();
#endif
        stopLab();
    }

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
        m_out = DMTUNE_BINARY_PATH("/tests/vm/vm-out/tst_vm_remote");
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
        m_lab.setWorkingDirectory(DMTUNE_BINARY_PATH(""));
        m_lab.start(DMTUNE_SOURCE_PATH(DMTUNE_VM_KLAB),
            { QStringLiteral("-q"), QStringLiteral("-s"), QStringLiteral("77"), QStringLiteral("-o"), m_out,
                QStringLiteral("-t"), QStringLiteral("600"), QStringLiteral("-F"), QString::number(m_port),
                QStringLiteral("--"), QStringLiteral("bash"), DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/serve-sshd.sh"),
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
#ifdef DMTUNE_VM_REMOTE_GUI
        closeWindows(); // before the guest goes: no reconnect attempts
#endif
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
        QTest::newRow("path fail of no path") << QStringList { QStringLiteral("path"), QStringLiteral("fail"), map,
            QStringLiteral("sdzz") } << 1; // a device this host lacks is 1
        QTest::newRow("map reload without a table")
            << QStringList { QStringLiteral("map"), QStringLiteral("reload"), map } << 2;
        // The guard there: a write to a path that the map holds is refused (a dry run: nothing runs anyway). No
        // --destroy-data-on: through --host it must name the host too, so the two command lines differ.
        QTest::newRow("a write to a path of the map") << QStringList { QStringLiteral("run"),
            QStringLiteral("batched-write-4k"), QStringLiteral("--device"), QStringLiteral("PATH0"),
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
        // Writes to the lab's map (scsi_debug: nothing on it; --destroy-data-on says so all the same, through
        // --host naming the host too).
        const QStringList run { QStringLiteral("run"), QStringLiteral("batched-write-4k"), QStringLiteral("--device"),
            map, QStringLiteral("--destroy-data-on"), map, QStringLiteral("--runtime"), QStringLiteral("3"),
            QStringLiteral("--record") };
        const QString here = m_here.filePath(QStringLiteral("remote.dmrec"));
        QStringList remoteRun = run;
        remoteRun.replace(
            remoteRun.indexOf(QStringLiteral("--destroy-data-on")) + 1, QStringLiteral("127.0.0.1:") + map);
        const ProgramRun r = viaHost(remoteRun + QStringList { here });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(QStringLiteral("--host run --record"), r)));
        QVERIFY2(QFileInfo(here).size() > 0, qPrintable(describe(QStringLiteral("--host run --record"), r)));
        const QString inGuestFile = m_out + QStringLiteral("/local.dmrec"); // written by the guest, read here
        const ProgramRun local = ctlInGuest(run + QStringList { inGuestFile });
        QVERIFY2(local.exitCode == 0, qPrintable(describe(QStringLiteral("run --record in the guest"), local)));

        const QJsonObject remoteRec = recordingShown(here);
        const QJsonObject localRec = recordingShown(inGuestFile);
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
        QVERIFY2(writeMerges(remoteRec, env("DM")) > 0 && writeMerges(localRec, env("DM")) > 0,
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
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            snapshotPathState(window->discovery()->snapshot(), map, devnum), QStringLiteral("A"), 60000);
        MultipathActions *actions = window->pathGroupsPanel()->actions();
        QSignalSpy finished(window->pathGroupsPanel()->runner(), &OperationService::finished);

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
    }
    // The Path groups tab of a remote window follows the map as the guest reports it (the agent's "map" op): a
    // status read each second, as a local window's (before, a remote window read the map only when a capture was
    // fetched, so without an event nothing came), and a path failed in the guest's own shell, not by dmtune, is
    // shown failed, then active again when it is reinstated there.
    void thePathGroupsTabFollowsTheMapThere()
    {
        const QString map = env("MAP");
        const QString devnum = env("DB");
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().map(map), 60000);
        QVERIFY(window->selectDevice(map));
        QVERIFY(window->showTab(QStringLiteral("paths")));
        PathGroupsPanel *panel = window->pathGroupsPanel();
        PathGroupEditor *editor = panel->editor();
        QTRY_VERIFY_WITH_TIMEOUT(editor->map() == map && editorPathStates(editor).size() == 4, 60000);
        QSignalSpy reads(panel, &PathGroupsPanel::stateRead);
        QSignalSpy fetched(window->discovery(), &Discovery::snapshotChanged);
        QTRY_VERIFY_WITH_TIMEOUT(reads.count() >= 3, 30000);
        qInfo(
            "%d reads of %s while %d captures were fetched", int(reads.count()), qPrintable(map), int(fetched.count()));
        for (const QList<QVariant> &read : std::as_const(reads))
            QVERIFY(read.at(0).toString() == map && read.at(1).toBool());

        const QString failed = devnum + QStringLiteral(" failed");
        const ProgramRun fail = inGuest(QStringLiteral("dmsetup"),
            { QStringLiteral("message"), map, QStringLiteral("0"), QStringLiteral("fail_path"), devnum });
        QVERIFY2(fail.exitCode == 0, qPrintable(describe(QStringLiteral("dmsetup message fail_path"), fail)));
        QTRY_VERIFY2_WITH_TIMEOUT(
            editorPathStates(editor).contains(failed), qPrintable(editorPathStates(editor).join(u'\n')), 30000);
        const ProgramRun reinstate = inGuest(QStringLiteral("dmsetup"),
            { QStringLiteral("message"), map, QStringLiteral("0"), QStringLiteral("reinstate_path"), devnum });
        QVERIFY2(
            reinstate.exitCode == 0, qPrintable(describe(QStringLiteral("dmsetup message reinstate_path"), reinstate)));
        QTRY_VERIFY_WITH_TIMEOUT(editorPathStates(editor).contains(devnum + QStringLiteral(" active")), 30000);
        QVERIFY(dmsetup(QStringLiteral("status")).contains(devnum + QStringLiteral(" A ")));
    }
    // The path group editor of the window reloads the map there: round-robin -> service-time in both groups,
    // planned by the agent and asked in the PlanDialog, run there; the guest's kernel has the editor's table and
    // the window reads it back (a clean draft of it). Back to round-robin the same way: the lab's table again.
    void reloadTheMapInTheWindow()
    {
        const QString map = env("MAP");
        const QString original = env("TABLE").section(QLatin1Char(' '), 3);
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().map(map), 60000);
        QVERIFY(window->selectDevice(map));
        QVERIFY(window->showTab(QStringLiteral("paths")));
        PathGroupsPanel *panel = window->pathGroupsPanel();
        QCOMPARE(panel->shownMap(), map);
        PathGroupEditor *editor = panel->editor();
        QTRY_VERIFY_WITH_TIMEOUT(editor->isEditable() && editor->map() == map && editor->previewText() == original
                && !editor->draft().isModified(),
            60000);
        QSignalSpy opened(editor, &PathGroupEditor::planOpened);
        QSignalSpy finished(editor, &PathGroupEditor::applyFinished);
        QString live = original;
        const struct {
            QString selector;
            QString other;
        } steps[] = { { QStringLiteral("service-time"), QStringLiteral("round-robin") },
            { QStringLiteral("round-robin"),
                QStringLiteral("service-time") } };
        for (const auto &step : steps) {
            QVERIFY(editor->setSelector(0, step.selector));
            QVERIFY(editor->setSelector(1, step.selector));
            const QString wanted = editor->previewText();
            QVERIFY2(wanted.count(step.selector) == 2 && !wanted.contains(step.other), qPrintable(wanted));
            if (step.selector == QLatin1String("round-robin"))
                QCOMPARE(wanted, original); // the window puts the lab's table back
            QVERIFY2(editor->canApply(), qPrintable(editor->problemText()));
            const qsizetype asked = opened.count();
            QVERIFY(editor->apply());
            QTRY_COMPARE_WITH_TIMEOUT(opened.count(), asked + 1, 60000);
            PlanDialog *dialog = editor->pendingPlan();
            QVERIFY(dialog);
            QCOMPARE(dialog->plan().kind, QStringLiteral("multipath.reload"));
            QCOMPARE(dialog->plan().target, map);
            QVERIFY2(dialog->runButton()->isEnabled(), qPrintable(dialog->confirmWord()));
            QCOMPARE(dmsetup(QStringLiteral("table")), live); // asked, not run
            const qsizetype done = finished.count();
            QTest::mouseClick(dialog->runButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), done + 1, 60000);
            const auto result = finished.last().at(0).value<OperationResult>();
            QVERIFY2(result.ok, qPrintable(result.error));
            QCOMPARE(dmsetup(QStringLiteral("table")), wanted); // the guest's kernel has the editor's table
            QVERIFY2(inGuest(QStringLiteral("dmsetup"), { QStringLiteral("info"), map })
                         .out.contains(QLatin1String("ACTIVE")),
                "the map stayed suspended");
            // The window fetched the guest again: the editor's live table is the new one (a clean draft of it).
            QTRY_VERIFY_WITH_TIMEOUT(!editor->draft().isModified() && editor->previewText() == wanted, 60000);
            live = wanted;
        }
        QCOMPARE(dmsetup(QStringLiteral("table")), original);
    }

    // A preset file matched by the map's WWID, applied by the window's preset manager to one path only: planned
    // and run by the guest's agent, read back with sysfs in the guest (the other paths of the WWID keep their
    // values); then a file with the values from before, applied the same way, puts them back.
    void applyAPresetInTheWindow()
    {
        const QString path = m_sd.at(3); // group 2: no I/O goes there
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        PresetManager *manager = window->presetManager();
        QCOMPARE(manager->operationService(), window->tuningSession()->remoteService());
        const QString nomerges = sysfsInGuest(path, QStringLiteral("queue/nomerges"));
        const QString readAhead = sysfsInGuest(path, QStringLiteral("queue/read_ahead_kb"));
        QVERIFY(!nomerges.isEmpty() && !readAhead.isEmpty());
        const QString newNomerges = nomerges == QLatin1String("2") ? QStringLiteral("1") : QStringLiteral("2");
        const QString newReadAhead = QString::number(readAhead.toInt() * 2 + 64);
        QSignalSpy finished(manager->operationService(), &OperationService::finished);

        const struct {
            QString file;
            QString nomerges;
            QString readAhead;
        } steps[] = { { m_here.filePath(QStringLiteral("window-changed.json")), newNomerges, newReadAhead },
            { m_here.filePath(QStringLiteral("window-before.json")),
                nomerges,
                readAhead } };
        for (const auto &step : steps) {
            const QJsonObject rule { { QStringLiteral("match"),
                                         QJsonObject {
                                             { QStringLiteral("wwid"),
                                                 env("WWID") }
                                         } },
                { QStringLiteral("settings"),
                    QJsonObject {
                        { QStringLiteral("queue/nomerges"), step.nomerges.toInt() },
                        { QStringLiteral("queue/read_ahead_kb"),
                            step.readAhead.toInt() }
                    } } };
            const QJsonObject file { { QStringLiteral("schema"), 1 },
                { QStringLiteral("name"), QFileInfo(step.file).baseName() },
                { QStringLiteral("rules"),
                    QJsonArray {
                        rule
                    } } };
            QVERIFY(sshtest::writeFile(step.file, QString::fromUtf8(QJsonDocument(file).toJson())));
            const auto preset = loadPresetFile(step.file);
            QVERIFY2(preset, qPrintable(preset.errorMessage()));
            manager->setSnapshot(window->discovery()->snapshot());
            manager->showPreset(preset.value());
            QTRY_VERIFY_WITH_TIMEOUT(!manager->isResolving(), 30000);
            const qsizetype done = finished.count();
            QVERIFY(manager->applyCurrent({ path }));
            QTRY_VERIFY_WITH_TIMEOUT(finished.count() > done || manager->pendingPlanDialog(), 60000);
            QVERIFY(!manager->pendingPlanDialog()); // the agent's plan has no risk: run at once, as locally
            QCOMPARE(finished.count(), done + 1);
            const auto result = finished.last().at(0).value<OperationResult>();
            QVERIFY2(result.ok, qPrintable(result.error));
            QVERIFY2(manager->statusText().startsWith(QLatin1String("Applied")), qPrintable(manager->statusText()));
            QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/nomerges")), step.nomerges);
            QCOMPARE(sysfsInGuest(path, QStringLiteral("queue/read_ahead_kb")), step.readAhead);
            // Only that path: the others of the same WWID kept their values.
            for (const QString &other : std::as_const(m_sd)) {
                if (other != path)
                    QCOMPARE(sysfsInGuest(other, QStringLiteral("queue/nomerges")), nomerges);
            }
        }
    }

    // The window's Workload dock runs fio on the map there (the far side's plan, a job of the agent), recorded:
    // the recording arrives here complete, with the map's merges and its paths' series; the job is forgotten
    // there once its files are here, and nothing runs there any more.
    void recordAWorkloadInTheWindow()
    {
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        WorkloadPanel *panel = window->workloadPanel();
        QVERIFY(window->workloadDock()->toggleViewAction()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectDevice(env("DM")), 30000); // the lab's map, nothing else
        QCOMPARE(panel->currentDevice(), env("DM"));
        QVERIFY(panel->selectTemplate(QStringLiteral("batched-write-4k")));
        panel->setRuntimeSeconds(3);
        const QString recording = m_here.filePath(QStringLiteral("window.dmrec"));
        panel->setRecording(recording);
        panel->start();
        WorkloadRuns *run = panel->runs();
        QVERIFY(run);
        // Nothing on the map (scsi_debug): the far side's plan asks nothing, the job starts there.
        QTRY_VERIFY_WITH_TIMEOUT(panel->pendingConfirmation() || !run->jobId().isEmpty(), 60000);
        QVERIFY(!panel->pendingConfirmation());
        const QString job = run->jobId();
        QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), 120000);
        QVERIFY2(panel->statusText().startsWith(QLatin1String("Done after")), qPrintable(panel->statusText()));

        const QJsonObject rec = recordingShown(recording);
        QVERIFY2(!rec.isEmpty(), qPrintable(recording));
        QVERIFY2(rec.value(QLatin1String("complete")).toBool(), QJsonDocument(rec).toJson().constData());
        QCOMPARE(rec.value(QLatin1String("host")).toString(), QStringLiteral("klab"));
        QVERIFY(rec.value(QLatin1String("device_samples")).toDouble() > 0);
        const QStringList devices = rec.value(QLatin1String("devices")).toVariant().toStringList();
        QVERIFY2(devices.contains(env("DM")), qPrintable(devices.join(QLatin1Char(' '))));
        for (const QString &p : std::as_const(m_sd))
            QVERIFY2(devices.contains(p), qPrintable(devices.join(QLatin1Char(' '))));
        QVERIFY2(writeMerges(rec, env("DM")) > 0,
            QJsonDocument(rec.value(QLatin1String("workload_stats")).toObject()).toJson().constData());
        const QJsonArray fio = rec.value(QLatin1String("fio")).toArray();
        QVERIFY(!fio.isEmpty());
        const QStringList argv = fio.first().toObject().value(QLatin1String("argv")).toVariant().toStringList();
        QVERIFY2(
            argv.contains(QStringLiteral("--filename=/dev/") + env("DM")), qPrintable(argv.join(QLatin1Char(' '))));
        // Nothing runs there any more, and the job is forgotten there once its recording is here: the window's
        // `forget` leaves with its next turn of the event loop, which a blocking `job list` here does not give it
        // (a clean-clone run listed the job as ended), so asked until it is gone.
        ProgramRun jobs;
        QTRY_VERIFY2_WITH_TIMEOUT((jobs = viaHost({ QStringLiteral("job"), QStringLiteral("list") })).exitCode == 0
                && !jobs.out.contains(QLatin1String("running")) && !jobs.out.contains(job),
            qPrintable(jobs.out), 60000);
    }
#endif

#ifdef DMTUNE_VM_REMOTE_GUI
    // Parity: the same scenario (windowscenario.h: the tabs and menus offered; the Tune tab's apply and
    // Edit > Undo of a path's nomerges; Fail path asked and run, Reinstate path run at once; a two-point sweep of the
    // map's nomerges asked, run and restored; the Latency tab and the Explain pane under a read load) through a local
    // window in the guest (vm_window_scenario over ssh, as root there) and through this remote window: the same
    // tabs and actions, the same plan text and risks, the same results; the guest's dm table, status and the values
    // touched are as before after each.
    void aLocalAndARemoteWindowAgree()
    {
        const QString map = env("MAP");
        const QString path = m_sd.at(1);
        const QString devnum = env("DB");
        const QString dm = inGuest(QStringLiteral("dmsetup"),
            { QStringLiteral("info"), QStringLiteral("-c"), QStringLiteral("--noheadings"), QStringLiteral("-o"),
                QStringLiteral("blkdevname"), map })
                               .out.trimmed();
        QVERIFY2(dm.startsWith(QLatin1String("dm-")), qPrintable(dm));
        // The table (its group number after the group count is the group in use now: dm-mpath prints the next or
        // current one) and the values touched. The paths' states are the scenario's own check (the window shows
        // the reinstated path active); here a path the kernel failed on an I/O error of scsi_debug's under the TCG
        // guest's load (DID_ABORT, seen in about 1 of 10 runs, in either window's run) is reinstated, not compared.
        const auto tableNow = [&] {
            QStringList words = dmsetup(QStringLiteral("table")).split(QLatin1Char(' '));
            if (words.size() > 3)
                words[3] = QStringLiteral("G");
            return words.join(QLatin1Char(' '));
        };
        // Whether the kernel had failed a path (then reinstated here).
        const auto reinstateKernelFailed = [&](const QString &after) {
            bool failed = false;
            const QStringList status = dmsetup(QStringLiteral("status")).split(QLatin1Char(' '));
            for (int i = 0; i + 1 < status.size(); ++i) {
                if (status.at(i).contains(QLatin1Char(':')) && status.at(i + 1) == QLatin1String("F")) {
                    qInfo("after %s: the kernel failed %s (its log: scenario-dmesg.txt): reinstated", qPrintable(after),
                        qPrintable(status.at(i)));
                    sshtest::writeFile(
                        m_out + QStringLiteral("/scenario-dmesg.txt"), inGuest(QStringLiteral("dmesg"), {}).out);
                    inGuest(QStringLiteral("dmsetup"),
                        { QStringLiteral("message"), map, QStringLiteral("0"), QStringLiteral("reinstate_path"),
                            status.at(i) });
                    failed = true;
                }
            }
            return failed;
        };
        const auto guestState = [&] {
            return QStringList {
                tableNow(), sysfsInGuest(path, QStringLiteral("queue/nomerges")),
                inGuest(QStringLiteral("cat"), { QStringLiteral("/sys/block/%1/queue/nomerges").arg(dm) }).out.trimmed()
            };
        };
        const QStringList before = guestState();

        // The local window in the guest: its settings, change log and runtime files in the shared folder.
        const QString home = m_out + QStringLiteral("/scenario-home");
        QDir(home).removeRecursively();
        QVERIFY(QDir().mkpath(home));
        QElapsedTimer took;
        took.start();
        const ProgramRun local = runProgram(QStringLiteral("ssh"),
            inGuestArgs(QStringLiteral("env"),
                { QStringLiteral("QT_QPA_PLATFORM=offscreen"), QStringLiteral("HOME=") + home,
                    QStringLiteral("XDG_RUNTIME_DIR=") + home,
                    QStringLiteral("DMTUNE_CHANGE_LOG=") + home + QStringLiteral("/changes.jsonl"),
                    DMTUNE_BINARY_PATH("/tests/vm/remote/vm_window_scenario"), map, path, devnum }),
            {}, 900000);
        qInfo("the local window's scenario in the guest: %.1f s", took.elapsed() / 1000.0);
        const QJsonObject inGuestWindow
            = QJsonDocument::fromJson(local.out.trimmed().section(QLatin1Char('\n'), -1).toUtf8()).object();
        sshtest::writeFile(m_out + QStringLiteral("/scenario-local.json"), local.out);
        QVERIFY2(local.exitCode == 0 && !inGuestWindow.isEmpty(),
            qPrintable(describe(QStringLiteral("vm_window_scenario"), local)));
        static_cast<void>(reinstateKernelFailed(QStringLiteral("the local window")));
        QCOMPARE(guestState(), before);

        // The remote window here, the same steps; its load is the same fio, started in the guest over ssh.
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        QProcess load;
        WindowScenario scenario { map, path, devnum, {}, {} };
        scenario.startLoad = [&] {
            load.start(QStringLiteral("ssh"),
                inGuestArgs(QStringLiteral("fio"),
                    { QStringLiteral("--name=parityload"), QStringLiteral("--filename=/dev/mapper/") + map,
                        QStringLiteral("--rw=randread"), QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"),
                        QStringLiteral("--ioengine=libaio"), QStringLiteral("--iodepth=4"),
                        QStringLiteral("--time_based"), QStringLiteral("--runtime=120"),
                        QStringLiteral("--output=/dev/null") }));
            return load.waitForStarted();
        };
        scenario.stopLoad = [&] {
            inGuest(QStringLiteral("pkill"), { QStringLiteral("-f"), QStringLiteral("parityload") });
            if (!load.waitForFinished(30000))
                load.kill();
            load.waitForFinished(5000);
        };
        window->resize(1280, 720);
        window->show();
        took.restart();
        QJsonObject remoteWindowResult = runWindowScenario(window, scenario);
        qInfo("the remote window's scenario: %.1f s", took.elapsed() / 1000.0);
        // The lab's scsi_debug paths time out in a loaded TCG guest and the kernel fails them (its log says so); a
        // sweep's fio then reads EIO while the scenario has failed the other path. That is the lab, not the window:
        // once, with the paths back and the guest as it was, the scenario runs again; any other error stands.
        if (remoteWindowResult.value(QLatin1String("error")).toString().contains(QLatin1String("Input/output error"))
            && reinstateKernelFailed(QStringLiteral("the remote window"))) {
            QTRY_COMPARE_WITH_TIMEOUT(guestState(), before, 30000);
            qInfo("the remote window's scenario again: %s",
                qPrintable(remoteWindowResult.value(QLatin1String("error")).toString()));
            took.restart();
            remoteWindowResult = runWindowScenario(window, scenario);
            qInfo("the remote window's scenario, again: %.1f s", took.elapsed() / 1000.0);
        }
        sshtest::writeFile(m_out + QStringLiteral("/scenario-remote.json"),
            QString::fromUtf8(QJsonDocument(remoteWindowResult).toJson(QJsonDocument::Compact)));
        QVERIFY2(!remoteWindowResult.contains(QLatin1String("error")),
            QJsonDocument(remoteWindowResult).toJson().constData());

        // Equal, key by key (the first difference named).
        for (const QString &key : inGuestWindow.keys() + remoteWindowResult.keys()) {
            QVERIFY2(inGuestWindow.value(key) == remoteWindowResult.value(key),
                qPrintable(
                    QStringLiteral("%1 differs:\nlocal window in the guest: %2\nremote window: %3")
                        .arg(key, QString::fromUtf8(QJsonDocument(inGuestWindow.value(key).toObject()).toJson()),
                            QString::fromUtf8(QJsonDocument(remoteWindowResult.value(key).toObject()).toJson()))));
        }
        reinstateKernelFailed(QStringLiteral("the remote window"));
        QCOMPARE(guestState(), before);
        // What the scenario asserts by itself: both measured latency and explained the map over live numbers.
        QVERIFY(
            remoteWindowResult.value(QLatin1String("latency")).toObject().value(QLatin1String("measured")).toBool());
        QVERIFY(
            remoteWindowResult.value(QLatin1String("explain")).toObject().value(QLatin1String("explained")).toBool());
        QCOMPARE(
            remoteWindowResult.value(QLatin1String("sweep")).toObject().value(QLatin1String("points")).toArray().size(),
            2);
    }
#endif

    // Last: multipathd started in the guest (lab-multipathd.sh over this test's ssh: udevd, then multipathd over the
    // map's LUN only; its WWID of the paths is not the lab map's UUID, so the lab's map is removed first and
    // multipathd makes its own of the same name). The window fetches the guest again and its path group editor shows
    // the priorities and checker states multipathd gives in the guest (from the capture); --host list --json has the
    // same multipathd view as list --json in the guest. Then multipathd and udevd stop and the lab's map is made
    // again (its UUID and table), so serve-sshd.sh's clean-up finds it as it made it.
    void multipathdsViewThere()
    {
        const QString map = env("MAP");
        const QString script = DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/lab-multipathd.sh");
#ifdef DMTUNE_VM_REMOTE_GUI
        MainWindow *window = remoteWindow();
        QVERIFY(window);
        QTRY_COMPARE_WITH_TIMEOUT(remoteSessionOf(window)->remoteHost()->state(), RemoteHost::State::Connected, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window->discovery()->snapshot().map(map), 60000);
        QVERIFY(window->selectDevice(map));
        QVERIFY(window->showTab(QStringLiteral("paths")));
        PathGroupEditor *editor = window->pathGroupsPanel()->editor();
        QTRY_VERIFY_WITH_TIMEOUT(editor->isEditable() && editor->map() == map, 60000);
        // Without multipathd: the kernel's states only, every path active. A path the kernel failed under load in an
        // earlier function was reinstated there; the window shows it at its next read of the map.
        const auto allActive = [&] {
            const QStringList lines = editorPathStates(editor);
            return lines.size() == 4 && std::all_of(lines.cbegin(), lines.cend(), [](const QString &l) {
                return l.endsWith(QLatin1String(" active"));
            });
        };
        QTRY_VERIFY2_WITH_TIMEOUT(allActive(), qPrintable(editorPathStates(editor).join(QStringLiteral("; "))), 30000);
#endif
        const ProgramRun started = inGuest(QStringLiteral("bash"), { script, QStringLiteral("start"), map, m_out });
        auto stop = qScopeGuard([&] { inGuest(QStringLiteral("bash"), { script, QStringLiteral("stop") }); });
        QVERIFY2(started.exitCode == 0, qPrintable(describe(QStringLiteral("lab-multipathd.sh start"), started)));
        qInfo("%s", qPrintable(started.err.trimmed()));

        // What multipathd itself answers in the guest.
        const ProgramRun asked = inGuest(
            QStringLiteral("multipathd"), { QStringLiteral("show"), QStringLiteral("maps"), QStringLiteral("json") });
        QVERIFY2(asked.exitCode == 0, qPrintable(describe(QStringLiteral("multipathd show maps json"), asked)));
        const auto views = parseMultipathdMapsJson(asked.out);
        QVERIFY2(views, qPrintable(views.errorMessage()));
        const auto view = findMultipathdMap(views.value(), map);
        QVERIFY2(view, qPrintable(view.errorMessage()));
        QStringList expected; // as the editor's cards show them
        QHash<QString, QPair<int, QString>> byDevnum; // priority, checker state
        for (const MultipathdGroupView &group : view->groups) {
            for (const MultipathdPathView &p : group.paths) {
                QVERIFY2(p.priority >= 0 && !p.checkerState.isEmpty() && p.dmState == QLatin1String("active"),
                    qPrintable(asked.out));
                expected << QStringLiteral("%1 active · prio %2 · %3").arg(p.devT).arg(p.priority).arg(p.checkerState);
                byDevnum.insert(p.devT, { p.priority, p.checkerState });
            }
        }
        expected.sort();
        QCOMPARE(byDevnum.size(), 4);
        for (const QString &devnum : { env("DA"), env("DB"), env("DC"), env("DD") })
            QVERIFY2(byDevnum.contains(devnum), qPrintable(asked.out));

#ifdef DMTUNE_VM_REMOTE_GUI
        // The window fetches the guest again: the editor has multipathd's view from the capture (the map is
        // multipathd's now: selected again once the tree has it).
        remoteSessionOf(window)->remoteHost()->refetch();
        const auto shown = [&] {
            window->selectDevice(map);
            return editor->map() == map ? editorPathStates(editor) : QStringList();
        };
        QTRY_COMPARE_WITH_TIMEOUT(shown(), expected, 60000);
#endif
        // --host list and the guest's own list: the same multipathd view, multipathd's own numbers.
        const ProgramRun there = viaHost({ QStringLiteral("list"), QStringLiteral("--json") });
        const ProgramRun local = ctlInGuest({ QStringLiteral("list"), QStringLiteral("--json") });
        QVERIFY2(there.exitCode == 0 && local.exitCode == 0,
            qPrintable(describe(QStringLiteral("--host list --json"), there) + QLatin1Char('\n')
                + describe(QStringLiteral("list --json in the guest"), local)));
        QCOMPARE(multipathdPartOf(there.out), multipathdPartOf(local.out));
        const QJsonObject listed = QJsonDocument::fromJson(there.out.toUtf8()).object();
        QCOMPARE(listed.value(QLatin1String("multipathd")).toObject().value(QLatin1String("running")).toBool(), true);
        int paths = 0;
        for (const QJsonValue &g : mapOf(QJsonDocument(listed), map).value(QLatin1String("groups")).toArray()) {
            for (const QJsonValue &p : g.toObject().value(QLatin1String("paths")).toArray()) {
                const QJsonObject path = p.toObject();
                const auto want = byDevnum.value(path.value(QLatin1String("devnum")).toString());
                QCOMPARE(path.value(QLatin1String("priority")).toInt(-1), want.first);
                QCOMPARE(path.value(QLatin1String("checker_state")).toString(), want.second);
                ++paths;
            }
        }
        QCOMPARE(paths, 4);

        // multipathd and udevd stop; the lab's map again: its UUID and table, every path in service.
        stop.dismiss();
        const ProgramRun stopped = inGuest(QStringLiteral("bash"), { script, QStringLiteral("stop") });
        QVERIFY2(stopped.exitCode == 0, qPrintable(describe(QStringLiteral("lab-multipathd.sh stop"), stopped)));
        // The kernel prints as the "initial group" the group it uses or will use next: group 2 when group 1's
        // paths failed the first I/O of the map just made (the partition scan; scsi_debug aborts now and then under
        // emulation), so that field is said, not compared. The paths' states are checked below.
        const QString table = dmsetup(QStringLiteral("table"));
        const QString lab = env("TABLE").section(QLatin1Char(' '), 3);
        if (table != lab)
            qInfo("the recreated map's table: %s (the lab's: %s)", qPrintable(table), qPrintable(lab));
        QCOMPARE(withInitialGroupOne(table), withInitialGroupOne(lab));
        const ProgramRun uuid = inGuest(QStringLiteral("dmsetup"),
            { QStringLiteral("info"), QStringLiteral("-c"), QStringLiteral("--noheadings"), QStringLiteral("-o"),
                QStringLiteral("uuid"), map });
        QCOMPARE(uuid.out.trimmed(), env("UUID"));
        const QString status = dmsetup(QStringLiteral("status"));
        for (const QString &devnum : { env("DA"), env("DB"), env("DC"), env("DD") })
            QVERIFY2(status.contains(devnum + QStringLiteral(" A ")), qPrintable(status));
    }
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
