// AgentClient's reading of the agent's output: a capture of a host with hundreds of disks is one line of MBs,
// decoded on a job; the messages still arrive in the order the agent wrote them, and disconnected() comes after
// the last of them. The agent is the real `dmtunectl agent`; only the transport is a pipe: an `ssh` first on PATH
// that runs the agent here (ignoring ssh's arguments) and keeps a copy of what it wrote.
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include "core/remote/agentclient.h"
#include "core/remote/agentprotocol.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace dmtune;
using dmtune::test::FakeSysfs;

namespace {

const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

// What a message is, in a form to compare: "exit 1", "output 2", "response 3".
QString describe(const QJsonObject &m)
{
    return m.value(key("type")).toString() + u' ' + QString::number(m.value(key("id")).toInteger());
}

} // namespace

class TestAgentClient : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void largeLinesKeepTheirPlaceAndTheEndComesLast()
    {
        if (!QFileInfo(dmtunectl).isExecutable())
            QSKIP("dmtunectl is not built");
        // 100 SCSI disks: the capture's exit line (about 400 kB) is above largeLineBytes.
        FakeSysfs fake;
        QVERIFY(fake.isValid());
        for (int i = 0; i < 100; ++i) {
            const QString name = QStringLiteral("sd%1").arg(i);
            fake.scsiDisk(name, QStringLiteral("8:%1").arg(i * 16), QStringLiteral("2:0:%1:0").arg(i),
                QStringLiteral("LIO-ORG"), QStringLiteral("disk"),
                QStringLiteral("naa.6001405%1").arg(i, 9, 10, QLatin1Char('0')));
        }
        QTemporaryDir bin;
        QVERIFY(bin.isValid());
        const QString wire = bin.filePath(QStringLiteral("wire"));
        QFile ssh(bin.filePath(QStringLiteral("ssh")));
        QVERIFY(ssh.open(QIODevice::WriteOnly));
        ssh.write(QStringLiteral("#!/bin/sh\nexec '%1' agent | tee '%2'\n").arg(dmtunectl, wire).toUtf8());
        ssh.close();
        QVERIFY(ssh.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(bin.path()) + ':' + path);
        const auto restorePath = qScopeGuard([&] { qputenv("PATH", path); });

        AgentClient client(parseHostAddress(QStringLiteral("pipe.invalid")).value(), SshSettings {});
        QSignalSpy ready(&client, &AgentClient::ready);
        QStringList delivered;
        qsizetype largest = 0;
        connect(&client, &AgentClient::message, this, [&](const QJsonObject &m) {
            delivered << describe(m);
            largest = std::max<qsizetype>(largest, m.value(key("files")).toArray().size());
        });
        QStringList whenEnded;
        connect(&client, &AgentClient::disconnected, this, [&](const QString &, bool wasReady) {
            whenEnded = wasReady ? delivered : QStringList { key("not ready") };
        });
        client.connectToHost();
        QVERIFY(ready.wait(10000));

        // A capture (one large line), small answers after it, and the end of the connection right behind them.
        const QJsonArray captureFiles { QJsonObject { { key("index"), 3 }, { key("prefix"), QString() },
            { key("path"), key("capture") }, { key("output"), true }, { key("directory"), true },
            { key("local"), key("capture") } } };
        client.request(key("cli"),
            { { key("argv"), QJsonArray { key("capture"), key("--sysfs-root"), fake.root(), key("capture") } },
                { key("files"), captureFiles } });
        client.request(key("jobs"));
        client.request(key("cli"), { { key("argv"), QJsonArray { key("version"), key("--json") } } });
        QTRY_VERIFY_WITH_TIMEOUT(delivered.contains(key("exit 1")) && delivered.contains(key("exit 3")), 60000);
        client.disconnectFromHost();
        QTRY_VERIFY_WITH_TIMEOUT(!whenEnded.isEmpty(), 10000);

        // In the order of the wire, every line a message, and the end after the last one.
        QFile copy(wire);
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QStringList written;
        qsizetype longestLine = 0;
        bool hello = true;
        for (const QByteArray &line : copy.readAll().split('\n')) {
            longestLine = std::max(longestLine, line.size());
            const Result<QJsonObject> m = decodeAgentMessage(line);
            if (!m || std::exchange(hello, false))
                continue;
            written << describe(*m);
        }
        QVERIFY2(longestLine >= AgentClient::largeLineBytes, qPrintable(QString::number(longestLine)));
        QCOMPARE(delivered, written);
        QCOMPARE(whenEnded, delivered);
        QVERIFY(delivered.indexOf(key("exit 1")) >= 0);
        QVERIFY(largest > 0); // the capture's files arrived
    }
};

QTEST_GUILESS_MAIN(TestAgentClient)
#include "tst_agentclient.moc"
