// dmtunectl --host against a real sshd on 127.0.0.1 (sshdfixture.h): the same output and exit status as the
// command run here, ssh's own refusal of an unknown host key, one line for a host without dmtune, and a
// recorded workload that outlives a killed connection (its recording complete, fetched by job attach).
#include "core/stats/diskcounters.h"
#include "sshdfixture.h"
#include "tests/live/scratchloop.h"
#include "tests/live/workloads/livesupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <csignal>

using namespace dmtune;
using namespace dmtune::live;

namespace {

// A dmtunectl command line here: its exit status, stdout and stderr (livesupport.h's runProgram).
ProgramRun runCli(const QStringList &args, const QString &workingDirectory = {})
{
    return runProgram(live::dmtunectl, args, workingDirectory);
}

// A counter of the device as /sys/block/<device>/stat says it now (0 when unreadable).
quint64 counterNow(const QString &device, DiskField field)
{
    QFile stat(QStringLiteral("/sys/block/%1/stat").arg(device));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const auto counters = parseBlockStat(QString::fromLatin1(stat.readAll()), device);
    return counters ? (*counters)[field] : 0;
}

} // namespace

class TestLiveRemote : public QObject {
    Q_OBJECT

    SshdFixture m_sshd;
    ScratchLoop m_loop;
    QTemporaryDir m_work;
    QString m_jobs;
    QString m_inputRecording;

    QStringList remote(const QStringList &command) const
    {
        return QStringList { QStringLiteral("--host"), m_sshd.host(), QStringLiteral("--ssh-config"),
            m_sshd.configFile(), QStringLiteral("--remote-dmtunectl"), dmtunectl }
        + command;
    }

    // A recording of a short read run here, made once: the input of `report`.
    QString inputRecording()
    {
        if (m_inputRecording.isEmpty()) {
            const QString path = m_work.filePath(QStringLiteral("input.dmrec"));
            const ProgramRun r = runCli({ QStringLiteral("run"), readTemplate(), QStringLiteral("--device"),
                m_loop.name(), QStringLiteral("--rw"), QStringLiteral("read"), QStringLiteral("--runtime"),
                QStringLiteral("1"), QStringLiteral("--record"), path });
            if (r.exitCode == 0)
                m_inputRecording = path;
            else
                qWarning("%s", qPrintable(r.err));
        }
        return m_inputRecording;
    }

    QString readTemplate() const
    {
        const ProgramRun templates
            = runCli({ QStringLiteral("run"), QStringLiteral("--list"), QStringLiteral("--json") });
        return QJsonDocument::fromJson(templates.out.toUtf8())
            .array()
            .first()
            .toObject()
            .value(QLatin1String("id"))
            .toString();
    }

    // The command line that writes `out`: a recorded read run, a report, a preset export, a preset save.
    QStringList outputCommand(const QString &command, const QString &out)
    {
        if (command == QLatin1String("run"))
            return { QStringLiteral("run"), readTemplate(), QStringLiteral("--device"), m_loop.name(),
                QStringLiteral("--rw"), QStringLiteral("read"), QStringLiteral("--runtime"), QStringLiteral("1"),
                QStringLiteral("--record"), out };
        if (command == QLatin1String("report")) {
            const QString input = inputRecording();
            if (input.isEmpty())
                return {};
            return { QStringLiteral("report"), input, QStringLiteral("-o"), out };
        }
        if (command == QLatin1String("export")) {
            const QString preset = m_work.filePath(QStringLiteral("export-input.json"));
            if (!QFileInfo::exists(preset)) {
                QFile f(preset);
                if (!f.open(QIODevice::WriteOnly))
                    return {};
                f.write(QStringLiteral(R"({"schema": 1, "name": "e", "rules": [{"match": {"name": "%1"}, )"
                                       R"("settings": {"queue/nomerges": 2}}]})")
                            .arg(m_loop.name())
                            .toUtf8());
            }
            return { QStringLiteral("preset"), QStringLiteral("export"), preset, QStringLiteral("--format"),
                QStringLiteral("udev"), QStringLiteral("-o"), out };
        }
        return { QStringLiteral("preset"), QStringLiteral("save"), out, m_loop.name() };
    }

    // The command run here and run there through --host: the same exit status, stdout and stderr.
    void expectSameAsHere(const QStringList &command) const
    {
        const ProgramRun here = runCli(command);
        const ProgramRun there = runCli(remote(command));
        QCOMPARE(there.exitCode, here.exitCode);
        QCOMPARE(there.out, here.out);
        QCOMPARE(there.err, here.err);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = ScratchLoop::unavailableReason(
                { QStringLiteral("losetup"), QStringLiteral("fio"), QStringLiteral("mkfs.ext4") });
            !why.isEmpty())
            QSKIP(qPrintable(why));
        if (SshdFixture::sshdPath().isEmpty())
            QSKIP("sshd not installed (packaging/install-deps.sh installs openssh-server)");
        QVERIFY(m_work.isValid());
        m_jobs = m_work.filePath(QStringLiteral("agent-jobs"));
        QVERIFY2(m_sshd.start({ { QStringLiteral("DMTUNE_AGENT_JOBS"), m_jobs } }), qPrintable(m_sshd.error()));
        QVERIFY2(m_loop.create(256LL << 20), qPrintable(m_loop.error()));
        // An ext4 on it (the test's own device): a write workload must be refused without --destroy-data-on.
        const ProgramRun mkfs = runProgram(QStringLiteral("mkfs.ext4"),
            { QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("/dev/") + m_loop.name() });
        QVERIFY2(mkfs.exitCode == 0, qPrintable(mkfs.err));
    }

    void sameOutputAndStatus_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("list") << QStringList { QStringLiteral("list") };
        QTest::newRow("list --json") << QStringList { QStringLiteral("list"), QStringLiteral("--json") };
        QTest::newRow("get") << QStringList { QStringLiteral("get"), QStringLiteral("LOOP") };
        QTest::newRow("get --json") << QStringList { QStringLiteral("get"), QStringLiteral("LOOP"),
            QStringLiteral("--json") };
        QTest::newRow("get of no device") << QStringList { QStringLiteral("get"), QStringLiteral("nosuchdev0") };
        QTest::newRow("bad usage") << QStringList { QStringLiteral("stat"), QStringLiteral("--interval"),
            QStringLiteral("x") };
        QTest::newRow("run --list") << QStringList { QStringLiteral("run"), QStringLiteral("--list") };
        // The guard is the far side's dmtunectl, unchanged: a write over the ext4 without --destroy-data-on is
        // refused there too, with the same line.
        const ProgramRun templates
            = runCli({ QStringLiteral("run"), QStringLiteral("--list"), QStringLiteral("--json") });
        const QString firstTemplate = QJsonDocument::fromJson(templates.out.toUtf8())
                                          .array()
                                          .first()
                                          .toObject()
                                          .value(QLatin1String("id"))
                                          .toString();
        QTest::newRow("write over ext4 without --destroy-data-on")
            << QStringList { QStringLiteral("run"), firstTemplate, QStringLiteral("--device"), QStringLiteral("LOOP"),
                   QStringLiteral("--rw"), QStringLiteral("write"), QStringLiteral("--runtime"), QStringLiteral("1") };
    }
    void sameOutputAndStatus()
    {
        QFETCH(QStringList, command);
        command.replaceInStrings(QStringLiteral("LOOP"), m_loop.name());
        expectSameAsHere(command);
    }

    void presetVerifyEqualsLocal()
    {
        // Saved there, written here (the near side's file); verified here and there from this side's file.
        const QString file = m_work.filePath(QStringLiteral("loop.json"));
        const ProgramRun saved
            = runCli(remote({ QStringLiteral("preset"), QStringLiteral("save"), file, m_loop.name() }));
        QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
        QVERIFY(QFileInfo(file).isFile());
        QVERIFY2(saved.out.contains(file), qPrintable(saved.out)); // the path as written here, not the agent's
        const ProgramRun again
            = runCli(remote({ QStringLiteral("preset"), QStringLiteral("save"), file, m_loop.name() }));
        QCOMPARE(again.exitCode, 1); // an existing file here is refused, as locally
        for (const QStringList &command : { QStringList { QStringLiteral("preset"), QStringLiteral("verify"), file },
                 QStringList { QStringLiteral("preset"), QStringLiteral("verify"), file, QStringLiteral("--json") } }) {
            expectSameAsHere(command);
            if (QTest::currentTestFailed())
                return;
        }
    }

    void statHasTheSameDevicesAndRates()
    {
        // A steady read of the loop device (reads only; 20 MB/s) while both sample it over the same seconds.
        const quint64 readsBefore = counterNow(m_loop.name(), DiskField::ReadIos);
        QProcess fio;
        fio.start(QStringLiteral("fio"),
            { QStringLiteral("--name=steady"), QStringLiteral("--filename=/dev/") + m_loop.name(),
                QStringLiteral("--rw=read"), QStringLiteral("--bs=64k"), QStringLiteral("--direct=1"),
                QStringLiteral("--rate=20m"), QStringLiteral("--time_based"), QStringLiteral("--runtime=12"),
                QStringLiteral("--readonly") });
        QVERIFY(fio.waitForStarted());
        // Past fio's start-up: until its reads show in the device's counters (20 MB/s of 64k: 320 a second).
        QTRY_VERIFY_WITH_TIMEOUT(counterNow(m_loop.name(), DiskField::ReadIos) > readsBefore + 100, 15000);
        const QStringList command { QStringLiteral("stat"), QStringLiteral("--json"), QStringLiteral("-i"),
            QStringLiteral("2"), QStringLiteral("-c"), QStringLiteral("4") };
        QProcess here;
        QProcess there;
        there.start(dmtunectl, remote(command));
        here.start(dmtunectl, command);
        QVERIFY(here.waitForFinished(30000));
        QVERIFY(there.waitForFinished(30000));
        fio.waitForFinished(20000);
        QCOMPARE(there.exitCode(), here.exitCode());
        // sysstat's JSON document: the last interval's disks, by name.
        const auto devicesOf = [](const QByteArray &text) {
            QHash<QString, QJsonObject> devices;
            const QJsonArray hosts = QJsonDocument::fromJson(text)
                                         .object()
                                         .value(QLatin1String("sysstat"))
                                         .toObject()
                                         .value(QLatin1String("hosts"))
                                         .toArray();
            if (hosts.isEmpty())
                return devices;
            const QJsonArray intervals = hosts.first().toObject().value(QLatin1String("statistics")).toArray();
            if (intervals.isEmpty())
                return devices;
            for (const QJsonValue &v : intervals.last().toObject().value(QLatin1String("disk")).toArray())
                devices.insert(v.toObject().value(QLatin1String("disk_device")).toString(), v.toObject());
            return devices;
        };
        const QByteArray hereText = here.readAllStandardOutput();
        const QByteArray thereText = there.readAllStandardOutput();
        const auto da = devicesOf(hereText);
        const auto db = devicesOf(thereText);
        QVERIFY2(!da.isEmpty(), hereText.constData());
        QCOMPARE(QSet<QString>(db.keyBegin(), db.keyEnd()), QSet<QString>(da.keyBegin(), da.keyEnd()));
        QCOMPARE(db.value(m_loop.name()).keys(), da.value(m_loop.name()).keys());
        const double ra = da.value(m_loop.name()).value(QLatin1String("rkB/s")).toDouble();
        const double rb = db.value(m_loop.name()).value(QLatin1String("rkB/s")).toDouble();
        QVERIFY2(ra > 10000, qPrintable(QString::number(ra)));
        QVERIFY2(qAbs(ra - rb) <= 0.05 * ra, qPrintable(QStringLiteral("here %1 kB/s, there %2 kB/s").arg(ra).arg(rb)));
    }

    // The latency probe runs on the host: its histograms come back in the same JSON.
    void statHistogramOverHost()
    {
        QProcess fio;
        fio.start(QStringLiteral("fio"),
            { QStringLiteral("--name=steady"), QStringLiteral("--filename=/dev/") + m_loop.name(),
                QStringLiteral("--rw=randread"), QStringLiteral("--bs=4k"), QStringLiteral("--direct=1"),
                QStringLiteral("--rate_iops=500"), QStringLiteral("--time_based"), QStringLiteral("--runtime=8"),
                QStringLiteral("--readonly") });
        QVERIFY(fio.waitForStarted());
        const ProgramRun there = runCli(
            remote({ QStringLiteral("stat"), m_loop.name(), QStringLiteral("--histogram"), QStringLiteral("--json"),
                QStringLiteral("-i"), QStringLiteral("3"), QStringLiteral("-c"), QStringLiteral("1") }));
        fio.waitForFinished(20000);
        QVERIFY2(there.exitCode == 0, qPrintable(there.err));
        const QJsonObject disk = QJsonDocument::fromJson(there.out.toUtf8())[QLatin1String("sysstat")][QLatin1String(
            "hosts")][0][QLatin1String("statistics")][0][QLatin1String("disk")][0]
                                     .toObject();
        QCOMPARE(disk.value(QLatin1String("disk_device")).toString(), m_loop.name());
        QCOMPARE(disk[QLatin1String("histogram")][QLatin1String("counts")].toArray().size(), 64);
        QVERIFY2(disk.value(QLatin1String("ios")).toInteger() > 500, qPrintable(there.out)); // 500/s for ~3 s
        QVERIFY(disk.value(QLatin1String("p50_us")).toDouble() > 0);
    }

    void unknownHostKeyIsRefusedBySsh()
    {
        const ProgramRun r = runCli({ QStringLiteral("--host"), m_sshd.host(), QStringLiteral("--ssh-config"),
            m_sshd.configFileUnknownKey(), QStringLiteral("list") });
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(QLatin1String("Host key verification failed")), qPrintable(r.err));
    }

    void hostWithoutDmtuneGetsOneLine()
    {
        const ProgramRun r = runCli({ QStringLiteral("--host"), m_sshd.host(), QStringLiteral("--ssh-config"),
            m_sshd.configFile(), QStringLiteral("--remote-dmtunectl"), QStringLiteral("/nonexistent/dmtunectl"),
            QStringLiteral("list") });
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(QLatin1String("install dmtune there")), qPrintable(r.err));
    }

    void badHostChangesNothing_data()
    {
        QTest::addColumn<QString>("host");
        QTest::newRow("option as host") << QStringLiteral("-oProxyCommand=touch /tmp/x");
        QTest::newRow("port out of range") << QStringLiteral("db1:70000");
        QTest::newRow("empty user") << QStringLiteral("@db1");
    }
    void badHostChangesNothing()
    {
        QFETCH(QString, host);
        const ProgramRun r = runCli({ QStringLiteral("--host"), host, QStringLiteral("list") });
        QCOMPARE(r.exitCode, 2);
        // dmtunectl's usage line, ending in "(see dmtunectl --help)"; no ssh was started.
        QVERIFY2(r.err.startsWith(QLatin1String("dmtunectl: bad host")), qPrintable(r.err));
        QVERIFY2(r.err.endsWith(QLatin1String(" (see dmtunectl --help)\n")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    void anAgentCannotChooseWhereFilesGoHere()
    {
        // A far side that lies: for `list` (no file named) it sends back a file aimed at a path here.
        const QString target = m_work.filePath(QStringLiteral("planted"));
        const QString agent = m_work.filePath(QStringLiteral("hostile-agent"));
        QFile script(agent);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QStringLiteral("#!/bin/sh\n"
                                    "echo '{\"type\":\"hello\",\"protocol\":\"1.0\",\"dmtune\":\"x\"}'\n"
                                    "read hello; read request\n"
                                    "echo '{\"type\":\"exit\",\"id\":1,\"status\":0,\"files\":[{\"index\":1,"
                                    "\"local\":\"%1\",\"data\":\"cGxhbnRlZA==\"}]}'\n")
                         .arg(target)
                         .toUtf8());
        script.close();
        QFile::setPermissions(agent, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        const ProgramRun r = runCli({ QStringLiteral("--host"), m_sshd.host(), QStringLiteral("--ssh-config"),
            m_sshd.configFile(), QStringLiteral("--remote-dmtunectl"), agent, QStringLiteral("list") });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!QFileInfo::exists(target));
    }

    // An output file is never written through a link (to a victim, or dangling), nor over
    // an existing file without --replace, here or through --host: exit 1, one line, the victim unchanged.
    void outputFilesFollowOnePolicy_data()
    {
        QTest::addColumn<bool>("host");
        QTest::addColumn<QString>("command"); // run, report, export, save
        QTest::addColumn<QString>("target"); // link, dangling, file
        QTest::addColumn<bool>("replace");
        QTest::addColumn<QString>("error");
        for (const bool host : { false, true }) {
            const char *where = host ? "--host " : "";
            for (const char *command : { "run", "report", "export", "save" }) {
                const QString c = QString::fromLatin1(command);
                for (const bool replace : { false, true }) {
                    const char *flag = replace ? " --replace" : "";
                    QTest::addRow("%s%s to a link%s", where, command, flag)
                        << host << c << "link" << replace << "symbolic link";
                    QTest::addRow("%s%s to a dangling link%s", where, command, flag)
                        << host << c << "dangling" << replace << "symbolic link";
                }
                QTest::addRow("%s%s over an existing file", where, command)
                    << host << c << "file" << false << "exists (--replace replaces it)";
            }
        }
    }

    void outputFilesFollowOnePolicy()
    {
        QFETCH(bool, host);
        QFETCH(QString, command);
        QFETCH(QString, target);
        QFETCH(bool, replace);
        QFETCH(QString, error);
        QTemporaryDir dir;
        // report's -o names a .html or .pdf.
        const QString out = dir.filePath(
            command == QLatin1String("report") ? QStringLiteral("out.html") : QStringLiteral("out.file"));
        const QString victim = dir.filePath(QStringLiteral("victim.file"));
        const QString elsewhere = dir.filePath(QStringLiteral("elsewhere.file"));
        const QByteArray victimBytes("the victim's own bytes\n");
        const auto writeVictim = [&](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(victimBytes) == victimBytes.size();
        };
        QVERIFY(writeVictim(victim));
        if (target == QLatin1String("link"))
            QVERIFY(QFile::link(victim, out));
        else if (target == QLatin1String("dangling"))
            QVERIFY(QFile::link(elsewhere, out));
        else
            QVERIFY(writeVictim(out));
        QStringList args = outputCommand(command, out);
        QVERIFY(!args.isEmpty());
        if (replace)
            args << QStringLiteral("--replace");
        const ProgramRun r = runCli(host ? remote(args) : args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(error) && r.err.contains(out) && r.err.count(u'\n') == 1, qPrintable(r.err));
        // A link is refused with --replace too: the refusal never offers it.
        if (target != QLatin1String("file"))
            QVERIFY2(!r.err.contains(QLatin1String("--replace")), qPrintable(r.err));
        QFile v(victim);
        QVERIFY(v.open(QIODevice::ReadOnly));
        QCOMPARE(v.readAll(), victimBytes);
        QVERIFY(!QFileInfo::exists(elsewhere) && !QFileInfo(elsewhere).isSymLink());
        if (target == QLatin1String("file")) {
            QFile o(out);
            QVERIFY(o.open(QIODevice::ReadOnly));
            QCOMPARE(o.readAll(), victimBytes);
        }
    }

    // The legitimate uses: --host writes a new file here; --replace replaces a file dmtune wrote, here and there.
    void newFilesAndReplaceStillWork_data()
    {
        QTest::addColumn<bool>("host");
        QTest::addColumn<QString>("command");
        for (const bool host : { false, true })
            for (const char *command : { "run", "report", "export", "save" })
                QTest::addRow("%s%s", host ? "--host " : "", command) << host << QString::fromLatin1(command);
    }

    void newFilesAndReplaceStillWork()
    {
        QFETCH(bool, host);
        QFETCH(QString, command);
        QTemporaryDir dir;
        const QString out = dir.filePath(
            command == QLatin1String("report") ? QStringLiteral("out.html") : QStringLiteral("out.file"));
        const QStringList args = outputCommand(command, out);
        QVERIFY(!args.isEmpty());
        const ProgramRun first = runCli(host ? remote(args) : args);
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY(QFileInfo(out).size() > 0);
        QFile marked(out);
        QVERIFY(marked.open(QIODevice::WriteOnly | QIODevice::Truncate));
        marked.write("marked\n");
        marked.close();
        const ProgramRun replaced = runCli(host ? remote(args + QStringList { QStringLiteral("--replace") })
                                                : args + QStringList { QStringLiteral("--replace") });
        QVERIFY2(replaced.exitCode == 0, qPrintable(replaced.err));
        QFile o(out);
        QVERIFY(o.open(QIODevice::ReadOnly));
        QVERIFY(o.readAll() != "marked\n");
        QVERIFY(!QFileInfo(out).isSymLink());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System).size(), 1); // no temp file
    }

    void recordedWorkloadOutlivesAKilledConnection()
    {
        const QString recording = m_work.filePath(QStringLiteral("remote.rec"));
        const ProgramRun templates
            = runCli({ QStringLiteral("run"), QStringLiteral("--list"), QStringLiteral("--json") });
        const QJsonArray list = QJsonDocument::fromJson(templates.out.toUtf8()).array();
        QVERIFY2(!list.isEmpty(), qPrintable(templates.out + templates.err));
        const QString templateId = list.first().toObject().value(QLatin1String("id")).toString();
        QProcess client;
        client.start(dmtunectl,
            remote({ QStringLiteral("run"), templateId, QStringLiteral("--device"), m_loop.name(),
                QStringLiteral("--rw"), QStringLiteral("read"), QStringLiteral("--runtime"), QStringLiteral("5"),
                QStringLiteral("--record"), recording }));
        QVERIFY(client.waitForStarted());
        // Killed (its ssh goes with it) once the job there has begun: its directory is there and fio reads.
        const quint64 readsBefore = counterNow(m_loop.name(), DiskField::ReadIos);
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(m_jobs).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(counterNow(m_loop.name(), DiskField::ReadIos) > readsBefore + 100, 20000);
        ::kill(static_cast<pid_t>(client.processId()), SIGKILL);
        client.waitForFinished(5000);
        const QStringList jobs = QDir(m_jobs).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(jobs.size(), 1);
        const QString job = jobs.first();
        QVERIFY(!QFileInfo::exists(recording)); // not fetched yet
        // The workload goes on there and ends by its runtime; its recording is complete on that side.
        const QString statusFile = m_jobs + QLatin1Char('/') + job + QStringLiteral("/status");
        QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(statusFile), "the job did not end within 30 s", 30000);
        const ProgramRun listed = runCli(remote({ QStringLiteral("job"), QStringLiteral("list") }));
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains(job) && listed.out.contains(QLatin1String("ended 0")), qPrintable(listed.out));
        // Attached from the directory the recording was named in: its file goes there, under its name.
        // A dangling link at the name here is not followed (its target would be created elsewhere): refused, and
        // the job stays there to be attached again.
        const QString elsewhere = m_work.filePath(QStringLiteral("elsewhere.rec"));
        QVERIFY(QFile::link(elsewhere, recording));
        const ProgramRun refused
            = runCli(remote({ QStringLiteral("job"), QStringLiteral("attach"), job }), m_work.path());
        QCOMPARE(refused.exitCode, 1);
        // Its last line (the job's own output is replayed first).
        QVERIFY2(refused.err.trimmed().section(u'\n', -1).contains(recording), qPrintable(refused.err));
        QVERIFY(!QFileInfo::exists(elsewhere) && !QFileInfo(elsewhere).isSymLink());
        QVERIFY(QFile::remove(recording));
        const ProgramRun attached
            = runCli(remote({ QStringLiteral("job"), QStringLiteral("attach"), job }), m_work.path());
        QVERIFY2(attached.exitCode == 0, qPrintable(attached.err));
        QVERIFY(QFileInfo(recording).size() > 0);
        const ProgramRun shown
            = runCli({ QStringLiteral("record"), QStringLiteral("show"), recording, QStringLiteral("--json") });
        QVERIFY2(shown.exitCode == 0, qPrintable(shown.err));
        const QJsonObject rec = QJsonDocument::fromJson(shown.out.toUtf8()).object();
        QVERIFY2(!rec.isEmpty(), qPrintable(shown.out));
        QVERIFY2(rec.value(QLatin1String("complete")).toBool(), qPrintable(shown.out.left(2000)));
        QVERIFY(rec.value(QLatin1String("device_samples")).toDouble() > 0);
        QVERIFY(!rec.value(QLatin1String("fio")).toArray().isEmpty());
        // Fetched and forgotten there.
        QVERIFY(!QFileInfo::exists(m_jobs + QLatin1Char('/') + job));
    }
};

QTEST_GUILESS_MAIN(TestLiveRemote)
#include "tst_live_remote.moc"
