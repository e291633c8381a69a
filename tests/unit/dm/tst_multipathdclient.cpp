// MultipathdClient: reply interpretation, /proc/net/unix, and the wire protocol against a small
// server on a private abstract socket that frames replies the way multipathd's uxsock.c does.
#include "core/dm/multipathd/multipathdclient.h"

#include <QTest>

#include <atomic>
#include <cstring>
#include <functional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace dmtune;

namespace {
// One-connection-at-a-time server: reads a frame, answers with reply(command) framed the same way.
class FakeMultipathd {
public:
    explicit FakeMultipathd(std::function<QByteArray(const QByteArray &)> reply, int replyDelayMs = 0)
        : m_name(QStringLiteral("/dmtune/test/multipathd/%1/%2").arg(::getpid()).arg(quintptr(this)))
        , m_reply(std::move(reply))
        , m_delay(replyDelayMs)
    {
        m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        const QByteArray bytes = m_name.toUtf8();
        std::memcpy(address.sun_path + 1, bytes.constData(), size_t(bytes.size()));
        const socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(bytes.size()));
        if (::bind(m_fd, reinterpret_cast<sockaddr *>(&address), length) != 0 || ::listen(m_fd, 4) != 0)
            qFatal("cannot listen on the test socket");
        m_thread = std::thread([this] { serve(); });
    }
    ~FakeMultipathd()
    {
        m_stop = true;
        ::shutdown(m_fd, SHUT_RDWR);
        m_thread.join();
        ::close(m_fd);
    }
    QString name() const { return m_name; }
    QList<QByteArray> received() const { return m_received; }

private:
    void serve()
    {
        while (!m_stop) {
            const int client = ::accept(m_fd, nullptr, nullptr);
            if (client < 0)
                return;
            size_t length = 0;
            if (::recv(client, &length, sizeof length, MSG_WAITALL) == ssize_t(sizeof length) && length < 4096) {
                QByteArray text(qsizetype(length), '\0');
                if (::recv(client, text.data(), length, MSG_WAITALL) == ssize_t(length)) {
                    m_received.append(text);
                    std::this_thread::sleep_for(std::chrono::milliseconds(m_delay));
                    QByteArray body = m_reply(text.left(text.indexOf('\0'))) + '\0';
                    const size_t size = size_t(body.size());
                    ::send(client, &size, sizeof size, MSG_NOSIGNAL);
                    ::send(client, body.constData(), size, MSG_NOSIGNAL);
                }
            }
            ::close(client);
        }
    }

    QString m_name;
    std::function<QByteArray(const QByteArray &)> m_reply;
    int m_delay;
    int m_fd = -1;
    std::atomic<bool> m_stop { false };
    QList<QByteArray> m_received;
    std::thread m_thread;
};

// Binds and listens on the abstract `name`; -1 on failure.
int listenAbstract(const QString &name)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray bytes = name.toUtf8();
    std::memcpy(address.sun_path + 1, bytes.constData(), size_t(bytes.size()));
    const socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(bytes.size()));
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&address), length) != 0 || ::listen(fd, 4) != 0)
        return -1;
    return fd;
}

// A listener owned by `uid` in a child process (root drops to it before listening, as a local user's
// impostor would listen): it accepts one connection and reports through `report` how many bytes it received
// before the client hung up (or 'T' when the client kept the connection open for 3 s).
pid_t impostorAs(uid_t uid, const QString &name, int report[2])
{
    if (::pipe(report) != 0)
        return -1;
    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    ::close(report[0]);
    if ((::getuid() != uid && (::setgid(gid_t(uid)) != 0 || ::setuid(uid) != 0)) || ::getuid() != uid)
        ::_exit(3);
    const int fd = listenAbstract(name);
    if (fd < 0)
        ::_exit(4);
    char ready = 'R';
    if (::write(report[1], &ready, 1) != 1)
        ::_exit(5);
    const int client = ::accept(fd, nullptr, nullptr);
    pollfd p { client, POLLIN, 0 };
    char text = 'T';
    if (::poll(&p, 1, 3000) > 0) {
        char buffer[256];
        const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
        text = char('0' + (n > 9 ? 9 : n < 0 ? 0 : n));
    }
    if (::write(report[1], &text, 1) != 1)
        ::_exit(6);
    ::_exit(0);
}

// The uid the client must require so that the test's own listener counts as multipathd: root when the
// test runs as root (the real rule), else the test's own uid.
uid_t ownListenerUid()
{
    return ::getuid();
}

const QString procNetUnix = QStringLiteral(
    "Num       RefCount Protocol Flags    Type St Inode Path\n"
    "ffff8880042a0000: 00000002 00000000 00010000 0001 01 14187 @/org/kernel/linux/storage/multipathd\n"
    "ffff8880042a0400: 00000002 00000000 00000000 0001 03 14190 @/org/kernel/linux/storage/multipathd\n"
    "ffff8880042a0800: 00000002 00000000 00010000 0001 01 12001 /run/udev/control\n");
} // namespace

class TestMultipathdClient : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reply_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("text"); // the output, or a part of the error

        QTest::newRow("ok") << QStringLiteral("ok\n") << true << QStringLiteral("ok\n");
        QTest::newRow("fail") << QStringLiteral("fail\n") << false << QStringLiteral("\"fail path sdb\" failed");
        QTest::newRow("fail with reason")
            << QStringLiteral("fail\nmap not found\n") << false << QStringLiteral("failed: map not found");
        QTest::newRow("timeout") << QStringLiteral("timeout\n") << false << QStringLiteral("timeout");
        QTest::newRow("not root") << QStringLiteral("permission deny: need to be root") << false
                                  << QStringLiteral("permission deny");
        QTest::newRow("unknown command") << QStringLiteral(
            "multipath-tools v0.9.4 (12/19, 2022)\nCLI commands reference:\n list|show paths\n")
                                         << false << QStringLiteral("does not know the command");
        QTest::newRow("output") << QStringLiteral("name   sysfs uuid\nmpatha dm-0  1Linux_scsi_debug_2000\n") << true
                                << QStringLiteral("mpatha dm-0");
        QTest::newRow("a map named fail-over is output")
            << QStringLiteral("failover\n") << true << QStringLiteral("failover");
        QTest::newRow("empty output") << QString() << true << QString();
    }

    void reply()
    {
        QFETCH(QString, reply);
        QFETCH(bool, ok);
        QFETCH(QString, text);
        const auto parsed = parseMultipathdReply(QStringLiteral("fail path sdb"), reply);
        QCOMPARE(parsed.ok(), ok);
        if (ok)
            QVERIFY2(parsed.value().contains(text), qPrintable(parsed.value()));
        else
            QVERIFY2(parsed.errorMessage().contains(text), qPrintable(parsed.errorMessage()));
    }

    void listening_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("listening");
        QTest::newRow("multipathd") << QStringLiteral("/org/kernel/linux/storage/multipathd") << true;
        QTest::newRow("not abstract") << QStringLiteral("/run/udev/control") << false;
        QTest::newRow("absent") << QStringLiteral("/org/kernel/linux/storage/other") << false;
    }

    void listening()
    {
        QFETCH(QString, name);
        QFETCH(bool, listening);
        QCOMPARE(unixSocketListening(procNetUnix, name), listening);
        // a connected socket of that name alone (state 03) is not a listener
        QVERIFY(!unixSocketListening(QString(procNetUnix).remove(QStringLiteral("00010000 0001 01 14187")),
            QStringLiteral("/org/kernel/linux/storage/multipathd")));
    }

    void names_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("two, padded") << QStringLiteral("mpatha \nmpathbb\n")
                                     << QStringList { QStringLiteral("mpatha"), QStringLiteral("mpathbb") };
        QTest::newRow("none") << QStringLiteral("\n") << QStringList();
    }

    void names()
    {
        QFETCH(QString, reply);
        QFETCH(QStringList, names);
        QCOMPARE(parseMultipathdNames(reply), names);
        QCOMPARE(multipathdMapNamesCommand(), QStringLiteral("show maps raw format \"%n\""));
    }

    void encodeAndQuote()
    {
        const QByteArray frame = encodeMultipathdRequest(QStringLiteral("show maps"));
        QCOMPARE(frame.size(), qsizetype(sizeof(size_t) + 10));
        size_t length = 0;
        std::memcpy(&length, frame.constData(), sizeof length);
        QCOMPARE(length, size_t(10)); // "show maps" + NUL
        QCOMPARE(frame.mid(sizeof(size_t)), QByteArray("show maps\0", 10));
        QCOMPARE(quoteMultipathdArgument(QStringLiteral("%n %Q")), QStringLiteral("\"%n %Q\""));
        QCOMPARE(quoteMultipathdArgument(QStringLiteral("mpatha")), QStringLiteral("mpatha"));
    }

    void roundTrip()
    {
        FakeMultipathd server([](const QByteArray &cmd) -> QByteArray {
            if (cmd == "fail path sdb")
                return "ok\n";
            if (cmd == "show maps raw format \"%n\"")
                return "mpatha\n";
            return "fail\n";
        });
        QVERIFY(MultipathdClient::isRunning(server.name()));
        MultipathdClient client(server.name(), ownListenerUid()); // as root: a root peer is accepted
        QVERIFY(client.action(QStringLiteral("fail path sdb")));
        const auto names = client.mapNames();
        QVERIFY2(names, qPrintable(names.errorMessage()));
        QCOMPARE(names.value(), QStringList { QStringLiteral("mpatha") });
        const Status refused = client.action(QStringLiteral("fail path sdz"));
        QVERIFY(!refused);
        QVERIFY2(refused.errorMessage().contains(QStringLiteral("\"fail path sdz\" failed")),
            qPrintable(refused.errorMessage()));
        QCOMPARE(server.received().size(), 3);
        QCOMPARE(server.received().first(), QByteArray("fail path sdb\0", 14));
    }

    void noDaemon()
    {
        const QString name = QStringLiteral("/dmtune/test/nobody/%1").arg(::getpid());
        QVERIFY(!MultipathdClient::isRunning(name));
        const auto reply = MultipathdClient(name).command(QStringLiteral("show maps"));
        QVERIFY(!reply);
        QCOMPARE(reply.errorMessage(), QStringLiteral("multipathd is not running"));
    }

    void refusesPeerThatIsNotRoot()
    {
        // Anyone can listen on an abstract name once multipathd is not (yet) there; the client must not tell
        // such a listener which paths to fail, nor take its "ok" for an answer.
        const QString name = QStringLiteral("/dmtune/test/impostor/%1").arg(::getpid());
        if (::getuid() != 0) {
            FakeMultipathd server([](const QByteArray &) -> QByteArray { return "ok\n"; });
            const Status refused = MultipathdClient(server.name()).action(QStringLiteral("fail path sdb"));
            QVERIFY(!refused);
            QVERIFY2(refused.errorMessage().contains(QStringLiteral("not root")), qPrintable(refused.errorMessage()));
            QVERIFY(server.received().isEmpty());
            return;
        }
        const uid_t nobody = 65534;
        int report[2];
        const pid_t child = impostorAs(nobody, name, report);
        QVERIFY(child > 0);
        ::close(report[1]);
        char ready = 0;
        QCOMPARE(::read(report[0], &ready, 1), ssize_t(1));
        QCOMPARE(ready, 'R');
        const Status refused = MultipathdClient(name).action(QStringLiteral("fail path sdb"), 2000);
        char received = 0;
        QCOMPARE(::read(report[0], &received, 1), ssize_t(1));
        ::close(report[0]);
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY(!refused);
        QVERIFY2(refused.errorMessage().contains(QStringLiteral("uid 65534")), qPrintable(refused.errorMessage()));
        QVERIFY2(refused.errorMessage().contains(QStringLiteral("not root")), qPrintable(refused.errorMessage()));
        QCOMPARE(received, '0'); // hung up without sending a byte
        // The same listener as root is multipathd for the client.
        FakeMultipathd root([](const QByteArray &) -> QByteArray { return "ok\n"; });
        QVERIFY(MultipathdClient(root.name()).action(QStringLiteral("fail path sdb")));
        QCOMPARE(root.received().size(), 1);
    }

    void timeout()
    {
        FakeMultipathd server([](const QByteArray &) -> QByteArray { return "ok\n"; }, 600);
        const auto reply = MultipathdClient(server.name(), ownListenerUid()).command(QStringLiteral("show maps"), 100);
        QVERIFY(!reply);
        QVERIFY2(reply.errorMessage().contains(QStringLiteral("timed out")), qPrintable(reply.errorMessage()));
    }
};

QTEST_GUILESS_MAIN(TestMultipathdClient)
#include "tst_multipathdclient.moc"
