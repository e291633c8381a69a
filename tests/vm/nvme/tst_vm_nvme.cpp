// Native NVMe multipath on a real kernel, inside the lab VM: one brd namespace exported by nvmet-tcp on
// two loopback ports (guest/setup-nvme.sh). With DMTUNE_NVME_MULTIPATH=Y (nvme_core multipath=Y): dmtunectl lists
// the head with both paths; an ANA state changed through nvmet's configfs shows in dmtunectl (the latency is
// reported, not asserted); fio's I/O goes only through the paths ANA allows, and round-robin spreads it where numa
// keeps one path; queue-depth is not offered on 6.1; dm-only commands on the head say what to use instead.
// With N (a separate VM: nvme_core's multipath is fixed at load): two namespaces of one WWID, no head, and a
// dm-multipath map over them is listed as a dm map over NVMe paths. The NVMe warnings follow:
// no-failover until that map exists; no-optimized-path, no-usable-path and single-path as the ports' ANA states
// change; dm-over-native for a bio-based dm-multipath map over the head (the kernel refuses a request-based one).
#include "tests/common/testpaths.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run run(const QString &program, const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForStarted() || !p.waitForFinished(timeoutMs))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

Run ctl(const QStringList &args)
{
    return run(DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl"), args);
}

QJsonObject listJson()
{
    return QJsonDocument::fromJson(ctl({ u"list"_s, u"--json"_s }).out.toUtf8()).object();
}

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// The codes of list --json's nvme_warnings, and the devices each names.
QStringList warningCodes(const QJsonObject &doc)
{
    QStringList codes;
    for (const QJsonValue &w : doc.value(u"nvme_warnings"_s).toArray())
        codes << w.toObject().value(u"code"_s).toString();
    return codes;
}

QStringList warningDevices(const QJsonObject &doc, int index)
{
    QStringList devices;
    const QJsonObject w = doc.value(u"nvme_warnings"_s).toArray().at(index).toObject();
    for (const QJsonValue &d : w.value(u"devices"_s).toArray())
        devices << d.toString();
    return devices;
}

QString sysfsValue(const QString &relative)
{
    QFile f(u"/sys/"_s + relative);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll()).trimmed() : QString();
}

// Completed writes of a block device, from its stat file (field 5).
qint64 writesOf(const QString &device)
{
    QFile f(u"/sys/block/%1/stat"_s.arg(device));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QStringList fields = QString::fromLatin1(f.readAll()).simplified().split(u' ');
    return fields.value(4).toLongLong();
}

} // namespace

class TestVmNvme : public QObject {
    Q_OBJECT

    QString m_multipath;
    QHash<QString, QString> m_env;

    QString portAna(int port) const { return m_env.value(u"CFG"_s) + u"/ports/%1/ana_groups/1/ana_state"_s.arg(port); }

    // Sets both ports' ANA state and waits until dmtunectl shows it on both paths.
    bool setAna(const QString &port1, const QString &port2)
    {
        if (!writeFile(portAna(1), port1.toLatin1()) || !writeFile(portAna(2), port2.toLatin1()))
            return false;
        return QTest::qWaitFor(
            [&] {
                const QJsonArray paths = head().value(u"paths"_s).toArray();
                return paths.at(0).toObject().value(u"ana_state"_s).toString() == port1
                    && paths.at(1).toObject().value(u"ana_state"_s).toString() == port2;
            },
            30000);
    }

    // The head of dmtunectl list --json (Y).
    QJsonObject head() const { return listJson().value(u"nvme_multipath"_s).toArray().at(0).toObject(); }

    // Writes through each path while fio writes 4 MiB to the head.
    QList<qint64> writesThroughPathsDuringFio()
    {
        const QList<qint64> before { writesOf(u"nvme0c0n1"_s), writesOf(u"nvme0c1n1"_s) };
        const Run fio = run(u"fio"_s,
            { u"--name=nvme"_s, u"--filename=/dev/nvme0n1"_s, u"--rw=write"_s, u"--bs=4k"_s, u"--size=4m"_s,
                u"--direct=1"_s, u"--ioengine=psync"_s, u"--output-format=terse"_s });
        if (fio.exitCode != 0)
            qWarning().noquote() << fio.err;
        return { writesOf(u"nvme0c0n1"_s) - before[0], writesOf(u"nvme0c1n1"_s) - before[1] };
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_multipath = qEnvironmentVariable("DMTUNE_NVME_MULTIPATH", u"Y"_s);
        const QString envFile = qEnvironmentVariable("KLAB_OUT", u"/tmp"_s) + u"/nvme.env"_s;
        const Run setup
            = run(u"bash"_s, { DMTUNE_SOURCE_PATH(DMTUNE_VM_GUEST_DIR "/setup-nvme.sh"), m_multipath, envFile });
        QVERIFY2(setup.exitCode == 0, qPrintable(setup.out + setup.err));
        QFile f(envFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QString &line : QString::fromUtf8(f.readAll()).split(u'\n')) {
            const qsizetype eq = line.indexOf(u'=');
            if (eq > 0)
                m_env.insert(line.left(eq), line.mid(eq + 1).remove(u'"'));
        }
        qInfo().noquote() << setup.out.trimmed();
    }

    void listsTheHead()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        const QJsonObject doc = listJson();
        QCOMPARE(doc.value(u"maps"_s).toArray().size(), 0);
        const QJsonArray heads = doc.value(u"nvme_multipath"_s).toArray();
        QCOMPARE(heads.size(), 1);
        // Two optimized paths and nothing stacked on them: nothing to warn of, and the array is still there.
        QVERIFY(doc.value(u"nvme_warnings"_s).isArray());
        QCOMPARE(warningCodes(doc), QStringList());
        const QJsonObject h = heads.at(0).toObject();
        QCOMPARE(h.value(u"name"_s).toString(), u"nvme0n1"_s);
        QCOMPARE(h.value(u"subsystem"_s).toObject().value(u"nqn"_s).toString(), m_env.value(u"NQN"_s));
        const QJsonArray paths = h.value(u"paths"_s).toArray();
        QCOMPARE(paths.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject p = paths.at(i).toObject();
            QCOMPARE(p.value(u"name"_s).toString(), u"nvme0c%1n1"_s.arg(i));
            QCOMPARE(p.value(u"state"_s).toString(), u"live"_s);
            QCOMPARE(p.value(u"ana_state"_s).toString(), u"optimized"_s);
            QVERIFY2(p.value(u"address"_s).toString().contains(u"traddr=127.0.0.%1"_s.arg(i + 1)),
                qPrintable(p.value(u"address"_s).toString()));
        }
        // The text is nvme list-subsys's block.
        const Run text = ctl({ u"list"_s });
        QVERIFY2(text.out.contains(u"nvme-subsys0 - NQN=%1"_s.arg(m_env.value(u"NQN"_s))), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"live optimized (nvme0c1n1)"_s), qPrintable(text.out));
    }

    void anaChangesShow_data()
    {
        QTest::addColumn<QString>("state");
        QTest::newRow("non-optimized") << u"non-optimized"_s;
        QTest::newRow("inaccessible") << u"inaccessible"_s;
        QTest::newRow("optimized again") << u"optimized"_s;
    }
    void anaChangesShow()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        QFETCH(QString, state);
        QVERIFY(writeFile(portAna(1), state.toLatin1()));
        QElapsedTimer waited;
        waited.start();
        // The host learns it from an ANA change notice and reads the log page: bounded, not asserted in time.
        const auto shown
            = [this] { return head().value(u"paths"_s).toArray().at(0).toObject().value(u"ana_state"_s).toString(); };
        QTRY_COMPARE_WITH_TIMEOUT(shown(), state, 30000);
        qInfo().noquote() << u"port 1 -> %1: shown by dmtunectl list after %2 ms"_s.arg(state).arg(waited.elapsed());
    }

    void ioFollowsAna()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        // Port 1 inaccessible: every write goes through nvme1's path; then the other way round.
        QVERIFY(writeFile(portAna(1), "inaccessible"));
        QTRY_COMPARE_WITH_TIMEOUT(
            head().value(u"paths"_s).toArray().at(0).toObject().value(u"usable"_s).toBool(), false, 30000);
        QList<qint64> w = writesThroughPathsDuringFio();
        qInfo() << "port 1 inaccessible: writes through nvme0c0n1, nvme0c1n1:" << w;
        QCOMPARE(w[0], 0);
        QVERIFY(w[1] >= 1024);
        QVERIFY(writeFile(portAna(1), "optimized"));
        QVERIFY(writeFile(portAna(2), "inaccessible"));
        QTRY_COMPARE_WITH_TIMEOUT(
            head().value(u"paths"_s).toArray().at(1).toObject().value(u"usable"_s).toBool(), false, 30000);
        w = writesThroughPathsDuringFio();
        qInfo() << "port 2 inaccessible: writes through nvme0c0n1, nvme0c1n1:" << w;
        QVERIFY(w[0] >= 1024);
        QCOMPARE(w[1], 0);
        QVERIFY(writeFile(portAna(2), "optimized"));
        QTRY_COMPARE_WITH_TIMEOUT(
            head().value(u"paths"_s).toArray().at(1).toObject().value(u"usable"_s).toBool(), true, 30000);
    }

    void iopolicySharesTheLoad()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        // numa on a one-node VM: one path takes it all. round-robin (set through dmtunectl): both share it.
        QCOMPARE(head().value(u"subsystem"_s).toObject().value(u"iopolicy"_s).toString(), u"numa"_s);
        QList<qint64> w = writesThroughPathsDuringFio();
        qInfo() << "numa: writes through nvme0c0n1, nvme0c1n1:" << w;
        QVERIFY((w[0] == 0) != (w[1] == 0));
        Run set = ctl({ u"set"_s, u"nvme0n1"_s, u"iopolicy=round-robin"_s });
        QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
        QCOMPARE(head().value(u"subsystem"_s).toObject().value(u"iopolicy"_s).toString(), u"round-robin"_s);
        w = writesThroughPathsDuringFio();
        qInfo() << "round-robin: writes through nvme0c0n1, nvme0c1n1:" << w;
        QVERIFY(w[0] >= 256 && w[1] >= 256);
        // 6.1 has no queue-depth policy: refused before anything is written, with the values it has.
        set = ctl({ u"set"_s, u"nvme0n1"_s, u"iopolicy=queue-depth"_s });
        QVERIFY(set.exitCode != 0);
        QVERIFY2(set.err.contains(u"not one of: numa, round-robin"_s), qPrintable(set.err));
        QCOMPARE(head().value(u"subsystem"_s).toObject().value(u"iopolicy"_s).toString(), u"round-robin"_s);
        set = ctl({ u"set"_s, u"nvme0n1"_s, u"iopolicy=numa"_s });
        QVERIFY2(set.exitCode == 0, qPrintable(set.out + set.err));
    }

    void dmCommandsSayWhatInstead()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        for (const QStringList &args : { QStringList { u"path"_s, u"fail"_s, u"nvme0n1"_s, u"nvme0c0n1"_s },
                 QStringList { u"group"_s, u"switch"_s, u"nvme0n1"_s, u"1"_s },
                 QStringList { u"map"_s, u"queueing"_s, u"nvme0n1"_s, u"off"_s } }) {
            const Run r = ctl(args);
            QVERIFY2(r.exitCode == 1, qPrintable(args.join(u' ') + u": "_s + r.err));
            QVERIFY2(
                r.err.contains(u"nvme0n1 is a native NVMe multipath head (nvme-subsys0), not a dm-multipath map"_s),
                qPrintable(r.err));
            QCOMPARE(r.err.trimmed().count(u'\n'), 0); // one line
        }
        // stat on the head: the 6.1 kernel counts nothing there, and dmtunectl says so before its 0.00 lines.
        const Run stat = ctl({ u"stat"_s, u"nvme0n1"_s, u"-i"_s, u"0.5"_s, u"-c"_s, u"1"_s });
        QCOMPARE(stat.exitCode, 0);
        QVERIFY2(stat.err.contains(u"note: nvme0n1 counts no I/O (its queue/iostats is 0"_s), qPrintable(stat.err));
        const Run show = ctl({ u"map"_s, u"show"_s, u"nvme0n1"_s });
        QCOMPARE(show.exitCode, 0);
        QVERIFY2(show.out.contains(u"2 of 2 paths usable"_s), qPrintable(show.out));
    }

    // Debian's 6.1 accepts iostats=1 on a head and still counts nothing there (head statistics came with 6.2):
    // stat says so and offers no write that would not help. Put back to 0 afterwards.
    void headCountsNothingOn61()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        const Run note = ctl({ u"stat"_s, u"nvme0n1"_s, u"-i"_s, u"0.5"_s, u"-c"_s, u"1"_s });
        QVERIFY2(note.err.contains(u"this kernel has no statistics for a head (they came with Linux 6.2)"_s),
            qPrintable(note.err));
        QVERIFY2(!note.err.contains(u"dmtunectl set"_s), qPrintable(note.err));
        const Run on = ctl({ u"set"_s, u"nvme0n1"_s, u"iostats=1"_s });
        QVERIFY2(on.exitCode == 0, qPrintable(on.out + on.err));
        const qint64 headBefore = writesOf(u"nvme0n1"_s);
        const QList<qint64> paths = writesThroughPathsDuringFio();
        const qint64 head = writesOf(u"nvme0n1"_s) - headBefore;
        qInfo("4 MiB of 4 KiB writes with iostats=1: head %lld, paths %lld + %lld", head, paths[0], paths[1]);
        QCOMPARE(paths[0] + paths[1], qint64(1024));
        QCOMPARE(head, qint64(0));
        const Run still = ctl({ u"stat"_s, u"nvme0n1"_s, u"-i"_s, u"0.5"_s, u"-c"_s, u"1"_s });
        QVERIFY2(still.err.contains(u"whatever its queue/iostats says"_s), qPrintable(still.err));
        QCOMPARE(ctl({ u"set"_s, u"nvme0n1"_s, u"iostats=0"_s }).exitCode, 0);
    }

    void anaWarnings_data()
    {
        QTest::addColumn<QString>("port1");
        QTest::addColumn<QString>("port2");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("text"); // how dmtunectl list's warning line starts
        QTest::newRow("both non-optimized") << u"non-optimized"_s << u"non-optimized"_s << u"no-optimized-path"_s
                                            << u"warning: nvme0n1 has no ANA optimized path"_s;
        QTest::newRow("inaccessible, non-optimized")
            << u"inaccessible"_s << u"non-optimized"_s << u"no-optimized-path"_s
            << u"warning: nvme0n1 has no ANA optimized path: its I/O goes through the non-optimized nvme0c1n1 (nvme1)"_s;
        QTest::newRow("inaccessible, optimized") << u"inaccessible"_s << u"optimized"_s << u"single-path"_s
                                                 << u"warning: nvme0n1 has one usable path left of 2"_s;
        // No I/O is sent meanwhile: it would wait on the head until a port is accessible again.
        QTest::newRow("both inaccessible")
            << u"inaccessible"_s << u"inaccessible"_s << u"no-usable-path"_s
            << u"warning: nvme0n1 has none of its 2 path(s) usable (nvme0c0n1: nvme0 live, inaccessible; nvme0c1n1: "
               "nvme1 live, inaccessible): I/O to it queues until an ANA state allows I/O again"_s;
    }
    void anaWarnings()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        QFETCH(QString, port1);
        QFETCH(QString, port2);
        QFETCH(QString, code);
        QFETCH(QString, text);
        // Both ports optimized again whatever happens here: the functions after this one write through them.
        const auto restore = qScopeGuard([this] {
            if (!setAna(u"optimized"_s, u"optimized"_s))
                qWarning("both ports could not be made optimized again");
        });
        QVERIFY(setAna(port1, port2));
        const QJsonObject doc = listJson();
        QCOMPARE(warningCodes(doc), QStringList { code });
        QCOMPARE(warningDevices(doc, 0), (QStringList { u"nvme0n1"_s, u"nvme0c0n1"_s, u"nvme0c1n1"_s }));
        const Run list = ctl({ u"list"_s });
        QVERIFY2(list.out.contains(text), qPrintable(list.out));
        // The head's own: map show prints it under the head's block.
        const Run show = ctl({ u"map"_s, u"show"_s, u"nvme0n1"_s });
        QVERIFY2(show.out.contains(text), qPrintable(show.out));
        qInfo().noquote() << list.out.split(u'\n').filter(u"warning: "_s).join(u'\n');
        if (code != u"no-usable-path"_s)
            return;
        // What the warning says: a read waits on the head (it neither fails nor completes) and goes on once a
        // port is accessible again.
        QProcess read;
        read.start(u"dd"_s, { u"if=/dev/nvme0n1"_s, u"of=/dev/null"_s, u"bs=4k"_s, u"count=1"_s, u"iflag=direct"_s });
        QVERIFY(read.waitForStarted());
        QVERIFY(!read.waitForFinished(3000));
        QVERIFY(setAna(u"optimized"_s, u"inaccessible"_s));
        QVERIFY(read.waitForFinished(30000));
        QCOMPARE(read.exitCode(), 0);
    }

    void dmMultipathOverTheHead()
    {
        if (m_multipath != u"Y"_s)
            QSKIP("multipath=N");
        QVERIFY(setAna(u"optimized"_s, u"optimized"_s)); // as anaWarnings left them
        QCOMPARE(run(u"modprobe"_s, { u"dm_multipath"_s }).exitCode, 0);
        const auto remove = qScopeGuard([] {
            run(u"dmsetup"_s, { u"remove"_s, u"--retry"_s, u"mpathn"_s });
            run(u"dmsetup"_s, { u"remove"_s, u"--retry"_s, u"mpathrq"_s });
        });
        // A hidden path has no device number (no dev attribute, no /dev node): no dm table can name it.
        QVERIFY(QFile::exists(u"/sys/block/nvme0c0n1"_s));
        QVERIFY(!QFile::exists(u"/sys/block/nvme0c0n1/dev"_s));
        // The head is bio-based: a request-based dm-multipath map (multipathd's default) is refused over it ...
        const QString sectors = sysfsValue(u"block/nvme0n1/size"_s), devnum = sysfsValue(u"block/nvme0n1/dev"_s);
        const Run requestBased = run(u"dmsetup"_s,
            { u"create"_s, u"mpathrq"_s, u"--table"_s,
                u"0 %1 multipath 0 0 1 1 round-robin 0 1 1 %2 1"_s.arg(sectors, devnum) });
        QVERIFY2(requestBased.exitCode != 0, "a request-based dm-multipath map over the bio-based head was made");
        // ... a bio-based one (queue_mode bio) is made.
        const QString table = u"0 %1 multipath 2 queue_mode bio 0 1 1 round-robin 0 1 1 %2 1"_s.arg(sectors, devnum);
        const QString wwid = head().value(u"wwid"_s).toString();
        const Run create
            = run(u"dmsetup"_s, { u"create"_s, u"mpathn"_s, u"--uuid"_s, u"mpath-"_s + wwid, u"--table"_s, table });
        QVERIFY2(create.exitCode == 0, qPrintable(create.err));
        QJsonObject doc = listJson();
        QCOMPARE(warningCodes(doc), QStringList { u"dm-over-native"_s });
        QCOMPARE(warningDevices(doc, 0), (QStringList { u"mpathn"_s, u"nvme0n1"_s }));
        const QString message = doc.value(u"nvme_warnings"_s).toArray().at(0).toObject().value(u"message"_s).toString();
        QVERIFY2(message.startsWith(u"dm-multipath map mpathn (dm-"_s)
                && message.contains(u"is stacked on native NVMe multipath, the head nvme0n1, while nvme_core "
                                    "multipath=Y: both layers do failover and path selection on the same 2 path(s) "
                                    "(nvme0c0n1, nvme0c1n1)"_s),
            qPrintable(message));
        const Run show = ctl({ u"map"_s, u"show"_s, u"nvme0n1"_s });
        QVERIFY2(show.out.contains(u"warning: "_s + message), qPrintable(show.out));
        QCOMPARE(run(u"dmsetup"_s, { u"remove"_s, u"--retry"_s, u"mpathn"_s }).exitCode, 0);
        doc = listJson();
        QCOMPARE(warningCodes(doc), QStringList());
        QCOMPARE(doc.value(u"maps"_s).toArray().size(), 0);
    }

    void multipathOffIsADmMapOverNvme()
    {
        if (m_multipath != u"N"_s)
            QSKIP("multipath=Y");
        QJsonObject doc = listJson();
        QCOMPARE(doc.value(u"nvme_multipath"_s).toArray().size(), 0);
        QStringList nvme;
        QString wwid;
        for (const QJsonValue &v : doc.value(u"devices"_s).toArray()) {
            const QJsonObject d = v.toObject();
            if (!d.value(u"name"_s).toString().startsWith(u"nvme"_s))
                continue;
            nvme << d.value(u"name"_s).toString();
            QVERIFY(wwid.isEmpty() || wwid == d.value(u"wwid"_s).toString());
            wwid = d.value(u"wwid"_s).toString();
        }
        QCOMPARE(nvme, (QStringList { u"nvme0n1"_s, u"nvme1n1"_s }));
        // One namespace through two controllers and nothing that fails over between them.
        QCOMPARE(warningCodes(doc), QStringList { u"no-failover"_s });
        QCOMPARE(warningDevices(doc, 0), nvme);
        const Run text = ctl({ u"list"_s });
        QVERIFY2(text.out.contains(
                     u"warning: nvme0n1 (controller nvme0) and nvme1n1 (controller nvme1) are one "
                     "namespace (wwid %1) reached through 2 controllers, with nvme_core multipath=N"_s.arg(wwid)),
            qPrintable(text.out));
        // dm-multipath over the two controllers' namespaces, as an admin does without native multipath.
        QCOMPARE(run(u"modprobe"_s, { u"dm_multipath"_s }).exitCode, 0);
        QFile size(u"/sys/block/nvme0n1/size"_s);
        QVERIFY(size.open(QIODevice::ReadOnly));
        const QString sectors = QString::fromLatin1(size.readAll()).trimmed();
        const QString table
            = u"0 %1 multipath 0 0 2 1 round-robin 0 1 1 259:0 1 round-robin 0 1 1 259:1 1"_s.arg(sectors);
        QFile dev0(u"/sys/block/nvme0n1/dev"_s), dev1(u"/sys/block/nvme1n1/dev"_s);
        QVERIFY(dev0.open(QIODevice::ReadOnly) && dev1.open(QIODevice::ReadOnly));
        QString t = table;
        t.replace(u"259:0"_s, QString::fromLatin1(dev0.readAll()).trimmed());
        t.replace(u"259:1"_s, QString::fromLatin1(dev1.readAll()).trimmed());
        const Run create
            = run(u"dmsetup"_s, { u"create"_s, u"mpathv"_s, u"--uuid"_s, u"mpath-"_s + wwid, u"--table"_s, t });
        QVERIFY2(create.exitCode == 0, qPrintable(create.err));
        doc = listJson();
        const QJsonArray maps = doc.value(u"maps"_s).toArray();
        QCOMPARE(maps.size(), 1);
        const QJsonObject map = maps.at(0).toObject();
        QCOMPARE(map.value(u"name"_s).toString(), u"mpathv"_s);
        QStringList paths;
        for (const QJsonValue &g : map.value(u"groups"_s).toArray()) {
            for (const QJsonValue &p : g.toObject().value(u"paths"_s).toArray())
                paths << p.toObject().value(u"name"_s).toString();
        }
        QCOMPARE(paths, nvme);
        QCOMPARE(doc.value(u"nvme_multipath"_s).toArray().size(), 0);
        QCOMPARE(warningCodes(doc), QStringList()); // the map fails over
        run(u"dmsetup"_s, { u"remove"_s, u"mpathv"_s });
    }
};

QTEST_GUILESS_MAIN(TestVmNvme)
#include "tst_vm_nvme.moc"
