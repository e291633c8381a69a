#include "core/dm/multipathd/multipathdclient.h"
#include "core/util/errnotext.h"
#include "core/util/fd.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QStringList>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace dmtune {

namespace {
// Replies can be long (show config: ~2000 lines); more than this is not multipathd talking.
constexpr size_t maxReplyBytes = 64 * 1024 * 1024;

// connect() to the abstract socket: sun_path starts with a NUL, the name is not NUL-terminated.
int connectAbstract(const QString &name, int &error)
{
    const QByteArray bytes = name.toUtf8();
    sockaddr_un address {};
    if (bytes.size() + 1 > qsizetype(sizeof address.sun_path)) {
        error = ENAMETOOLONG;
        return -1;
    }
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path + 1, bytes.constData(), size_t(bytes.size()));
    const socklen_t length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(bytes.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = errno;
        return -1;
    }
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), length) != 0) {
        error = errno;
        ::close(fd);
        return -1;
    }
    return fd;
}

// Waits for `events` until the deadline; false (and `error`) on timeout or failure.
bool waitFor(int fd, short events, const QDeadlineTimer &deadline, QString &error)
{
    for (;;) {
        pollfd p { fd, events, 0 };
        const qint64 left = deadline.remainingTime();
        if (left == 0) {
            error = QStringLiteral("timed out");
            return false;
        }
        const int n = ::poll(&p, 1, left < 0 ? -1 : int(qMin<qint64>(left, 1 << 30)));
        if (n > 0)
            return true;
        if (n == 0) {
            error = QStringLiteral("timed out");
            return false;
        }
        if (errno != EINTR) {
            error = errnoText(errno);
            return false;
        }
    }
}

bool sendAll(int fd, const QByteArray &data, const QDeadlineTimer &deadline, QString &error)
{
    qsizetype sent = 0;
    while (sent < data.size()) {
        if (!waitFor(fd, POLLOUT, deadline, error))
            return false;
        const ssize_t n = ::send(fd, data.constData() + sent, size_t(data.size() - sent), MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            error = errnoText(errno);
            return false;
        }
        sent += n;
    }
    return true;
}

bool receiveAll(int fd, char *buffer, size_t size, const QDeadlineTimer &deadline, QString &error)
{
    size_t done = 0;
    while (done < size) {
        if (!waitFor(fd, POLLIN, deadline, error))
            return false;
        const ssize_t n = ::recv(fd, buffer + done, size - done, 0);
        if (n == 0) {
            error = QStringLiteral("multipathd closed the connection");
            return false;
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            error = errnoText(errno);
            return false;
        }
        done += size_t(n);
    }
    return true;
}
} // namespace

MultipathdClient::MultipathdClient(QString socketName, uid_t peerUid)
    : m_socketName(std::move(socketName))
    , m_peerUid(peerUid)
{
}

bool MultipathdClient::isRunning(const QString &socketName)
{
    QFile file(QStringLiteral("/proc/net/unix"));
    if (file.open(QIODevice::ReadOnly))
        return unixSocketListening(QString::fromUtf8(file.readAll()), socketName);
    // No procfs (unusual): try to connect; multipathd just sees a client that says nothing.
    int error = 0;
    const int fd = connectAbstract(socketName, error);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

Result<QString> MultipathdClient::command(const QString &cmd, int timeoutMs)
{
    using R = Result<QString>;
    const QDeadlineTimer deadline(timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(timeoutMs));
    int connectError = 0;
    Fd fd(connectAbstract(m_socketName, connectError));
    if (fd.get() < 0)
        return R::failure(connectError == ECONNREFUSED || connectError == ENOENT
                ? QStringLiteral("multipathd is not running")
                : QStringLiteral("multipathd: cannot connect: %1").arg(errnoText(connectError)));
    // Before a byte is sent: the listener must be multipathd's user. An abstract name is anyone's to take
    // while multipathd is not listening (not yet started, restarting, or in another network namespace).
    ucred peer {};
    socklen_t peerSize = sizeof peer;
    if (::getsockopt(fd.get(), SOL_SOCKET, SO_PEERCRED, &peer, &peerSize) != 0)
        return R::failure(
            QStringLiteral("multipathd: cannot check who listens on @%1: %2").arg(m_socketName, errnoText(errno)));
    if (peer.uid != m_peerUid)
        return R::failure(
            QStringLiteral("multipathd: @%1 is held by uid %2 (pid %3), not root: not multipathd, nothing sent")
                .arg(m_socketName)
                .arg(peer.uid)
                .arg(peer.pid));
    QString error;
    if (!sendAll(fd.get(), encodeMultipathdRequest(cmd), deadline, error))
        return R::failure(QStringLiteral("multipathd: sending \"%1\": %2").arg(cmd, error));
    size_t length = 0;
    if (!receiveAll(fd.get(), reinterpret_cast<char *>(&length), sizeof length, deadline, error))
        return R::failure(QStringLiteral("multipathd: reply to \"%1\": %2").arg(cmd, error));
    if (length > maxReplyBytes)
        return R::failure(QStringLiteral("multipathd: reply to \"%1\": implausible length %2").arg(cmd).arg(length));
    QByteArray reply(qsizetype(length), Qt::Uninitialized);
    if (length && !receiveAll(fd.get(), reply.data(), length, deadline, error))
        return R::failure(QStringLiteral("multipathd: reply to \"%1\": %2").arg(cmd, error));
    while (reply.endsWith('\0'))
        reply.chop(1);
    return parseMultipathdReply(cmd, QString::fromUtf8(reply));
}

Status MultipathdClient::action(const QString &cmd, int timeoutMs)
{
    const auto reply = command(cmd, timeoutMs);
    if (!reply)
        return Status::failure(reply.errorMessage());
    if (reply->trimmed() != QLatin1String("ok"))
        return Status::failure(QStringLiteral("multipathd: \"%1\": unexpected reply \"%2\"")
                                   .arg(cmd, QStringView(reply.value()).trimmed().left(200).toString()));
    return Status::success();
}

Result<QString> MultipathdClient::showMapsJson()
{
    return command(QStringLiteral("show maps json"));
}

Result<QList<MultipathdMapView>> MultipathdClient::showMaps()
{
    const auto json = showMapsJson();
    if (!json)
        return Result<QList<MultipathdMapView>>::failure(json.errorMessage());
    return parseMultipathdMapsJson(json.value());
}

Result<QStringList> MultipathdClient::mapNames()
{
    const auto reply = command(multipathdMapNamesCommand());
    if (!reply)
        return Result<QStringList>::failure(reply.errorMessage());
    return parseMultipathdNames(reply.value());
}

QString multipathdMapNamesCommand()
{
    return QStringLiteral("show maps raw format \"%n\"");
}

QStringList parseMultipathdNames(QStringView reply)
{
    QStringList names;
    for (const QStringView line : reply.split(QLatin1Char('\n'))) {
        const QStringView name = line.trimmed(); // raw output is still padded to the widest name
        if (!name.isEmpty())
            names.append(name.toString());
    }
    return names;
}

QByteArray encodeMultipathdRequest(const QString &cmd)
{
    const QByteArray text = cmd.toUtf8() + '\0';
    const size_t length = size_t(text.size());
    QByteArray frame(reinterpret_cast<const char *>(&length), sizeof length);
    frame += text;
    return frame;
}

Result<QString> parseMultipathdReply(const QString &cmd, QStringView reply)
{
    using R = Result<QString>;
    const QStringView trimmed = reply.trimmed();
    if (trimmed == QLatin1String("fail") || trimmed.startsWith(QLatin1String("fail\n"))) {
        const QStringView details = trimmed.mid(4).trimmed();
        return R::failure(details.isEmpty()
                ? QStringLiteral("multipathd: \"%1\" failed").arg(cmd)
                : QStringLiteral("multipathd: \"%1\" failed: %2").arg(cmd, details.left(200).toString()));
    }
    if (trimmed == QLatin1String("timeout"))
        return R::failure(QStringLiteral("multipathd: \"%1\": timeout").arg(cmd));
    if (trimmed.startsWith(QLatin1String("permission deny")))
        return R::failure(QStringLiteral("multipathd: \"%1\": %2").arg(cmd, trimmed.left(200).toString()));
    // An unknown command (or one this version lacks) gets the whole command reference back.
    if (trimmed.contains(QLatin1String("CLI commands reference")))
        return R::failure(QStringLiteral("multipathd does not know the command \"%1\"").arg(cmd));
    return reply.toString();
}

bool unixSocketListening(QStringView procNetUnix, const QString &socketName)
{
    // "Num RefCount Protocol Flags Type St Inode Path"; Flags 00010000 is __SO_ACCEPTCON (listening).
    const QString wanted = QLatin1Char('@') + socketName;
    for (const QStringView line : procNetUnix.split(QLatin1Char('\n'))) {
        const auto fields = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (fields.size() >= 8 && fields.at(7) == wanted && fields.at(3) == QLatin1String("00010000"))
            return true;
    }
    return false;
}

QString quoteMultipathdArgument(const QString &argument)
{
    if (argument.contains(QLatin1Char(' ')) || argument.contains(QLatin1Char('\t')))
        return QLatin1Char('"') + argument + QLatin1Char('"');
    return argument;
}

} // namespace dmtune
