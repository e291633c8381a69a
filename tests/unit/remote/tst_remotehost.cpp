// RemoteHost's parts that need no sshd: the capture the agent sends written here (a real `dmtunectl agent` on
// pipes, capturing the standard fake machine; its tree scans as the original does), the refusals of a lying
// agent's entries, what each problem line needs (the lines as hostaddress.cpp and agentprotocol.cpp make them),
// and the retries with backoff against a real ssh whose port on 127.0.0.1 nobody listens on.
#include "tests/common/fakesysfs.h"
#include "tests/common/standardmachine.h"
#include "tests/common/testpaths.h"
#include "tests/live/remote/sshtestsupport.h" // a port on 127.0.0.1 that nothing listens on

#include "core/discovery/discovery.h"
#include "core/remote/agentprotocol.h"
#include "core/remote/remotehost.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");

QJsonObject file(const QString &path, const QByteArray &data)
{
    return { { QStringLiteral("path"), path }, { QStringLiteral("data"), QString::fromLatin1(data.toBase64()) } };
}
QJsonObject dir(const QString &path)
{
    return { { QStringLiteral("path"), path }, { QStringLiteral("dir"), true } };
}
QJsonObject link(const QString &path, const QString &target)
{
    return { { QStringLiteral("path"), path }, { QStringLiteral("link"), target } };
}

QStringList deviceNames(const DeviceSnapshot &snapshot)
{
    QStringList names;
    for (const BlockDevice &d : snapshot.devices)
        names << d.name;
    names.sort();
    return names;
}

} // namespace

class TestRemoteHost : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aCaptureFromTheAgentScansAsTheOriginal()
    {
        if (!QFileInfo(dmtunectl).isExecutable())
            QSKIP("dmtunectl is not built");
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        buildStandardMachine(fake);

        // The agent on pipes, as ssh would run it: hello, then `capture` of the fake tree, as RemoteHost asks for it.
        QProcess agent;
        agent.start(dmtunectl, { QStringLiteral("agent") });
        QVERIFY(agent.waitForStarted());
        agent.write(encodeAgentMessage(agentHello()));
        const QJsonObject request {
            { QStringLiteral("type"), QStringLiteral("request") }, { QStringLiteral("id"), 1 },
            { QStringLiteral("op"), QStringLiteral("cli") },
            { QStringLiteral("argv"),
                QJsonArray { QStringLiteral("capture"), QStringLiteral("--sysfs-root"), fake.root(),
                    QStringLiteral("capture") } },
            { QStringLiteral("files"),
                QJsonArray { QJsonObject { { QStringLiteral("index"), 3 }, { QStringLiteral("prefix"), QString() },
                    { QStringLiteral("path"), QStringLiteral("capture") }, { QStringLiteral("output"), true },
                    { QStringLiteral("directory"), true }, { QStringLiteral("local"), QStringLiteral("capture") } } } }
        };
        agent.write(encodeAgentMessage(request));
        QJsonArray entries;
        QByteArray buffer;
        bool exited = false;
        QElapsedTimer waited;
        waited.start();
        while (!exited && waited.elapsed() < 30000 && agent.waitForReadyRead(30000)) {
            buffer += agent.readAllStandardOutput();
            qsizetype newline = 0;
            while ((newline = buffer.indexOf('\n')) >= 0) {
                const Result<QJsonObject> m = decodeAgentMessage(buffer.left(newline));
                buffer.remove(0, newline + 1);
                if (m && m->value(QStringLiteral("type")).toString() == QLatin1String("exit")) {
                    QCOMPARE(m->value(QStringLiteral("status")).toInt(), 0);
                    entries = m->value(QStringLiteral("files"))
                                  .toArray()
                                  .first()
                                  .toObject()
                                  .value(QStringLiteral("entries"))
                                  .toArray();
                    exited = true;
                }
            }
        }
        agent.closeWriteChannel();
        QVERIFY(agent.waitForFinished(10000));
        QVERIFY(exited);
        int links = 0;
        for (const QJsonValue &e : entries)
            links += e.toObject().contains(QStringLiteral("link"));
        QVERIFY2(links > 0, "the agent sent the capture without its links");

        QTemporaryDir here;
        QVERIFY(here.isValid());
        const Status written = writeFetchedDirectory(here.path(), entries);
        QVERIFY2(written, qPrintable(written.errorMessage()));
        const SysfsRoot fetched(here.filePath(QStringLiteral("sys")), here.filePath(QStringLiteral("proc")));
        const DeviceSnapshot there = Discovery::scan(SysfsRoot(fake.root(), QString()));
        const DeviceSnapshot copy = Discovery::scan(fetched);
        QVERIFY(!there.devices.isEmpty());
        QCOMPARE(deviceNames(copy), deviceNames(there));
        QCOMPARE(copy.maps.size(), there.maps.size());
        // Writable where the original is, and only there (the Tune tab's "rw" is the owner-write bit): the agent
        // says which files are not.
        int readOnly = 0, compared = 0;
        for (const QJsonValue &e : std::as_const(entries)) {
            const QString path = e.toObject().value(QStringLiteral("path")).toString();
            const QFileInfo original(QDir(fake.root()).filePath(path.mid(4))); // "sys/..." below the fake's root
            if (!path.startsWith(QLatin1String("sys/")) || !e.toObject().contains(QStringLiteral("data"))
                || !original.isFile() || original.isSymLink())
                continue;
            const bool writable = original.permissions() & QFileDevice::WriteOwner;
            QCOMPARE(bool(QFileInfo(here.filePath(path)).permissions() & QFileDevice::WriteOwner), writable);
            readOnly += writable ? 0 : 1;
            ++compared;
        }
        QVERIFY(compared > 50);
        QVERIFY(readOnly > 0); // the machine has read-only attributes to tell apart
    }

    void writesFilesDirectoriesAndLinks()
    {
        QTemporaryDir here;
        const QJsonArray entries { dir(QStringLiteral("sys/devices/virtual/block/loop0")),
            file(QStringLiteral("sys/devices/virtual/block/loop0/size"), "2048\n"),
            link(QStringLiteral("sys/block/loop0"), QStringLiteral("../devices/virtual/block/loop0")) };
        const Status written = writeFetchedDirectory(here.path(), entries);
        QVERIFY2(written, qPrintable(written.errorMessage()));
        const SysfsRoot root(here.filePath(QStringLiteral("sys")), QString());
        QCOMPARE(root.list(QStringLiteral("block")), QStringList { QStringLiteral("loop0") });
        QCOMPARE(root.read(QStringLiteral("block/loop0/size")).value(), QStringLiteral("2048"));
        QCOMPARE(root.linkTarget(QStringLiteral("block/loop0")), QStringLiteral("devices/virtual/block/loop0"));
    }

    void refusesWhatALyingAgentSends_data()
    {
        QTest::addColumn<QJsonArray>("entries");
        QTest::addColumn<QString>("untouched"); // relative to the directory's parent: must not exist afterwards
        QTest::newRow("absolute path") << QJsonArray { file(QStringLiteral("/tmp/dmtune-planted"), "x") }
                                       << QStringLiteral("planted");
        QTest::newRow("climbs out") << QJsonArray { file(QStringLiteral("sys/../../planted"), "x") }
                                    << QStringLiteral("planted");
        QTest::newRow("absolute link") << QJsonArray { link(QStringLiteral("sys/block/sda"), QStringLiteral("/etc")) }
                                       << QStringLiteral("planted");
        // A link, then a file "under" it: never written through the link (into the directory's parent).
        QTest::newRow("file through a link") << QJsonArray { link(QStringLiteral("out"), QStringLiteral("../")),
            file(QStringLiteral("out/planted"), "x") }
                                             << QStringLiteral("planted");
        QTest::newRow("a file twice") << QJsonArray { file(QStringLiteral("a"), "1"), file(QStringLiteral("a"), "2") }
                                      << QStringLiteral("planted");
    }
    void refusesWhatALyingAgentSends()
    {
        QFETCH(QJsonArray, entries);
        QFETCH(QString, untouched);
        QTemporaryDir parent;
        const QString target = parent.filePath(QStringLiteral("tree"));
        QVERIFY(QDir().mkdir(target));
        const Status written = writeFetchedDirectory(target, entries);
        QVERIFY(!written);
        QVERIFY(!written.errorMessage().contains(QLatin1Char('\n')));
        QVERIFY(!QFileInfo::exists(parent.filePath(untouched)));
        QVERIFY(!QFileInfo::exists(QStringLiteral("/tmp/dmtune-planted")));
    }

    void whatEachProblemNeeds_data()
    {
        QTest::addColumn<Status>("problem");
        QTest::addColumn<bool>("wasReady");
        QTest::addColumn<int>("need");
        const HostAddress db1 { QStringLiteral("admin"), QStringLiteral("db1"), 0 };
        const SshSettings ssh;
        using Need = RemoteHost::Need;
        QTest::newRow("lost") << Status::failure(
            QStringLiteral("the connection to db1 ended"), ErrorCode::ConnectionLost)
                              << true << int(Need::Retry);
        // Whatever a problem's words, it is its code that decides (the words of a transient one in a refusal).
        QTest::newRow("words") << Status::failure(QStringLiteral("Connection refused"), ErrorCode::HostSetup) << false
                               << int(Need::User);
        QTest::newRow("no dmtune") << remoteStartProblem(db1, ssh, 127, QString::fromLatin1(RemoteMissingMarker))
                                   << false << int(Need::User);
        QTest::newRow("no sudo") << remoteStartProblem(db1, ssh, 126, QString::fromLatin1(RemoteNoSudoMarker)) << false
                                 << int(Need::Password);
        QTest::newRow("host key") << remoteStartProblem(
            db1, ssh, 255, QStringLiteral("Host key verification failed.\n"))
                                  << false << int(Need::User);
        QTest::newRow("login refused") << remoteStartProblem(
            db1, ssh, 255, QStringLiteral("admin@db1: Permission denied (publickey).\n"))
                                       << false << int(Need::User);
        QTest::newRow("host down") << remoteStartProblem(
            db1, ssh, 255, QStringLiteral("ssh: connect to host db1 port 22: Connection refused\n"))
                                   << false << int(Need::Retry);
        QTest::newRow("network down") << remoteStartProblem(
            db1, ssh, 255, QStringLiteral("ssh: connect to host db1 port 22: Network is unreachable\n"))
                                      << false << int(Need::Retry);
        QJsonObject newer = agentHello();
        newer.insert(QStringLiteral("protocol"), QStringLiteral("2.0"));
        QTest::newRow("protocol major") << agentHelloProblem(newer, QStringLiteral("the agent on db1")) << false
                                        << int(Need::User);
    }
    void whatEachProblemNeeds()
    {
        QFETCH(Status, problem);
        QFETCH(bool, wasReady);
        QFETCH(int, need);
        QVERIFY(!problem);
        QVERIFY(!problem.errorMessage().isEmpty());
        QCOMPARE(int(RemoteHost::classify(problem.errorCode(), wasReady)), need);
    }

    void retriesAHostThatIsDownWithBackoff()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
            QSKIP("no ssh client");
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("ssh_config")); // nothing of the user's ssh set-up
        QFile(config).open(QIODevice::WriteOnly);
        const int port = sshtest::freeLoopbackPort();
        QVERIFY(port > 0);
        RemoteHost host({ QString(), QStringLiteral("127.0.0.1"), port }, { config, QStringLiteral("dmtunectl") });
        host.setRetryDelays(300, 1200);
        QVERIFY(QFileInfo(host.sysfsRoot().root()).isDir()); // an empty tree until the first capture
        QVERIFY(Discovery::scan(host.sysfsRoot()).devices.isEmpty());
        QSignalSpy retries(&host, &RemoteHost::retryScheduled);
        host.connectToHost();
        QCOMPARE(host.state(), RemoteHost::State::Connecting);
        QTRY_COMPARE_WITH_TIMEOUT(retries.count(), 3, 20000);
        QCOMPARE(retries.at(0).at(0).toInt(), 300);
        QCOMPARE(retries.at(1).at(0).toInt(), 600);
        QCOMPARE(retries.at(2).at(0).toInt(), 1200);
        QVERIFY2(host.problem().contains(QLatin1String("Connection refused")), qPrintable(host.problem()));
        QCOMPARE(host.need(), RemoteHost::Need::Retry);
        QVERIFY(!host.problem().contains(QLatin1Char('\n')));
        // Stopped by the user: no retry any more.
        host.disconnectFromHost();
        QCOMPARE(host.msecsUntilRetry(), -1);
        QTest::qWait(1500); // deliberately time-based: longer than the 1200 ms backoff, to prove no retry comes
        QCOMPARE(retries.count(), 3);
    }
};

QTEST_GUILESS_MAIN(TestRemoteHost)
#include "tst_remotehost.moc"
