// bench_remote_capture: what a remote window's capture of a large host costs its UI thread (docs/remote.md,
// "Costs"). A plain program, not a pass/fail test.
//
// N generated SCSI disks (a queue, a device, a host each, as FakeSysfs makes them) captured by the real
// `dmtunectl agent`, its output read by AgentClient as a remote window reads it. The transport is a pipe (an `ssh`
// first on PATH that runs the agent here): the UI thread's cost does not depend on ssh. Prints the capture's line
// size, what decoding that line costs (the time the client's thread was blocked before decoding moved to a job), the
// time from the request to the message, and the longest stall of the client's thread meanwhile (a 1 ms timer's
// largest gap).
//
// usage: bench_remote_capture [--devices N]
#include "core/remote/agentclient.h"
#include "core/remote/agentprotocol.h"
#include "tests/common/fakesysfs.h"
#include "tests/common/testpaths.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace dmtune;

namespace {

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int devices = 1000;
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--devices")); i >= 0 && i + 1 < args.size())
        devices = args.at(i + 1).toInt();
    const QString dmtunectl = DMTUNE_BINARY_PATH("/app/dmtunectl/dmtunectl");

    test::FakeSysfs fake;
    for (int i = 0; i < devices; ++i)
        fake.scsiDisk(QStringLiteral("sd%1").arg(i), QStringLiteral("%1:%2").arg(8 + i / 256).arg(i % 256),
            QStringLiteral("%1:0:%2:0").arg(2 + i / 256).arg(i % 256), QStringLiteral("LIO-ORG"),
            QStringLiteral("disk"), QStringLiteral("naa.6001405%1").arg(i, 9, 10, QLatin1Char('0')));

    QTemporaryDir bin;
    const QString wire = bin.filePath(QStringLiteral("wire"));
    QFile ssh(bin.filePath(QStringLiteral("ssh")));
    if (!ssh.open(QIODevice::WriteOnly))
        return 1;
    ssh.write(QStringLiteral("#!/bin/sh\nexec '%1' agent | tee '%2'\n").arg(dmtunectl, wire).toUtf8());
    ssh.close();
    ssh.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("PATH", QFile::encodeName(bin.path()) + ':' + qgetenv("PATH"));

    AgentClient client(parseHostAddress(QStringLiteral("pipe.invalid")).value(), SshSettings {});
    QElapsedTimer clock;
    clock.start();
    qint64 lastTick = 0;
    qint64 longestStall = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (lastTick)
            longestStall = std::max(longestStall, now - lastTick);
        lastTick = now;
    });
    qint64 asked = 0;
    QObject::connect(&client, &AgentClient::ready, [&] {
        tick.start(1);
        asked = clock.nsecsElapsed();
        client.request(key("cli"),
            { { key("argv"), QJsonArray { key("capture"), key("--sysfs-root"), fake.root(), key("capture") } },
                { key("files"),
                    QJsonArray { QJsonObject { { key("index"), 3 }, { key("prefix"), QString() },
                        { key("path"), key("capture") }, { key("output"), true }, { key("directory"), true },
                        { key("local"), key("capture") } } } } });
    });
    qint64 arrived = 0;
    qsizetype entries = 0;
    QObject::connect(&client, &AgentClient::message, [&](const QJsonObject &m) {
        if (m.value(key("type")).toString() != QLatin1String("exit"))
            return;
        arrived = clock.nsecsElapsed();
        entries = m.value(key("files")).toArray().first().toObject().value(key("entries")).toArray().size();
        QTimer::singleShot(50, &app, [&] {
            tick.stop();
            client.disconnectFromHost();
        });
    });
    QObject::connect(&client, &AgentClient::disconnected, &app, &QCoreApplication::quit);
    client.connectToHost();
    QTimer::singleShot(300000, &app, &QCoreApplication::quit);
    app.exec();

    QFile copy(wire);
    if (!copy.open(QIODevice::ReadOnly) || !arrived)
        return 1;
    QByteArray line;
    for (const QByteArray &l : copy.readAll().split('\n')) {
        if (l.size() > line.size())
            line = l;
    }
    QList<qint64> decodes;
    for (int i = 0; i < 5; ++i) {
        QElapsedTimer t;
        t.start();
        const auto decoded = decodeAgentMessage(line);
        decodes << t.nsecsElapsed();
        if (!decoded)
            return 1;
    }
    std::sort(decodes.begin(), decodes.end());
    std::printf("devices %d: capture line %.1f MB, %lld entries\n", devices, line.size() / 1e6,
        static_cast<long long>(entries));
    std::printf("decoding the line (median of 5): %.1f ms\n", decodes.at(2) / 1e6);
    std::printf("request -> message: %.1f ms; longest stall of the client's thread meanwhile: %.1f ms\n",
        (arrived - asked) / 1e6, longestStall / 1e6);
    return 0;
}
