#include "core/remote/remotehost.h"

#include "core/discovery/sysfscapture.h"
#include "core/remote/agentclient.h"
#include "core/remote/nearsidefiles.h"
#include "core/sysfs/beneath.h"
#include "core/util/errnotext.h"
#include "core/util/fd.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

// A relative path of plain names: no "", ".", ".." component, not absolute.
bool plainRelative(const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char('/')))
        return false;
    for (const QString &part : path.split(QLatin1Char('/'))) {
        if (part.isEmpty() || part == QLatin1String(".") || part == QLatin1String(".."))
            return false;
    }
    return true;
}

// Creates each directory of `relative` under dirFd that is not there yet, entering none through a link.
Status makeDirectories(int dirFd, const QString &relative)
{
    int dir = dirFd;
    Status status;
    for (const QString &part : relative.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        const QByteArray name = QFile::encodeName(part);
        if (::mkdirat(dir, name.constData(), 0700) != 0 && errno != EEXIST) {
            status = Status::failure(QStringLiteral("cannot create %1: %2").arg(relative, errnoText(errno)));
            break;
        }
        const int next = ::openat(dir, name.constData(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (dir != dirFd)
            ::close(dir);
        dir = next;
        if (dir < 0) {
            status = Status::failure(QStringLiteral("cannot enter %1: %2").arg(relative, errnoText(errno)));
            break;
        }
    }
    if (dir >= 0 && dir != dirFd)
        ::close(dir);
    return status;
}

// The generation directories of a host's private directory: gen-1, gen-2, ...
QString generationName(int generation)
{
    return QStringLiteral("gen-%1").arg(generation);
}

// The job that makes a fetched capture the current one: writes it as gen-N, points `current` at it in one rename,
// and removes the generations before the previous one (a scan that began a moment ago may still read that).
Status installCapture(const QString &base, int generation, const QJsonArray &entries)
{
    const QString dir = base + QLatin1Char('/') + generationName(generation);
    QDir(dir).removeRecursively(); // a half-written one of a write that failed
    if (!QDir().mkdir(dir))
        return Status::failure(QStringLiteral("cannot create %1").arg(dir));
    QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    if (const Status written = writeFetchedDirectory(dir, entries); !written)
        return written;
    const QString link = base + QStringLiteral("/current");
    const QString next = base + QStringLiteral("/current.next");
    QFile::remove(next);
    if (::symlink(QFile::encodeName(generationName(generation)).constData(), QFile::encodeName(next).constData()) != 0
        || ::rename(QFile::encodeName(next).constData(), QFile::encodeName(link).constData()) != 0)
        return Status::failure(QStringLiteral("cannot switch %1 to the new capture: %2").arg(link, errnoText(errno)));
    const QStringList old = QDir(base).entryList({ QStringLiteral("gen-*") }, QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : old) {
        const int n = name.mid(4).toInt();
        if (n < generation - 1)
            QDir(base + QLatin1Char('/') + name).removeRecursively();
    }
    return Status::success();
}

} // namespace

SshSettings sshSettingsFromEnvironment()
{
    SshSettings settings;
    settings.configFile = qEnvironmentVariable("DMTUNE_SSH_CONFIG");
    const QString program = qEnvironmentVariable("DMTUNE_REMOTE_DMTUNECTL");
    if (!program.isEmpty())
        settings.remoteDmtunectl = program;
    return settings;
}

Status writeFetchedDirectory(const QString &directory, const QJsonArray &entries)
{
    const Fd root(::open(QFile::encodeName(directory).constData(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (root.get() < 0)
        return Status::failure(QStringLiteral("cannot open %1: %2").arg(directory, errnoText(errno)));
    for (const QJsonValue &value : entries) {
        const QJsonObject entry = value.toObject();
        const QString path = entry.value(QLatin1String("path")).toString();
        if (!plainRelative(path))
            return Status::failure(QStringLiteral("the agent sent a path outside %1: '%2'").arg(directory, path));
        if (entry.value(QLatin1String("dir")).toBool()) {
            if (const Status made = makeDirectories(root.get(), path); !made)
                return made;
            continue;
        }
        const QString parent = QFileInfo(path).path();
        if (parent != QLatin1String(".")) {
            if (const Status made = makeDirectories(root.get(), parent); !made)
                return made;
        }
        if (entry.contains(QLatin1String("link"))) {
            const QString target = entry.value(QLatin1String("link")).toString();
            if (target.isEmpty() || target.startsWith(QLatin1Char('/')))
                return Status::failure(
                    QStringLiteral("the agent sent a link that is not relative: %1 -> %2").arg(path, target));
            // Under a parent entered without following any link; the reads go through SysfsRoot, which follows
            // links inside the tree only (RESOLVE_BENEATH).
            const Fd dir(beneath::open(root.get(), QFile::encodeName(parent == QLatin1String(".") ? QString() : parent),
                O_PATH | O_DIRECTORY | O_CLOEXEC, beneath::Links::Refuse));
            if (dir.get() < 0
                || ::symlinkat(QFile::encodeName(target).constData(), dir.get(),
                       QFile::encodeName(QFileInfo(path).fileName()).constData())
                    != 0)
                return Status::failure(QStringLiteral("cannot create the link %1: %2").arg(path, errnoText(errno)));
            continue;
        }
        const QByteArray data = QByteArray::fromBase64(entry.value(QLatin1String("data")).toString().toLatin1());
        // Read-only where the host's file is ("ro"): the copy's owner-write bit is what the Tune tab reads as
        // writable. An agent that sends no "ro" makes every file look writable.
        const mode_t mode = entry.value(QLatin1String("ro")).toBool() ? 0400 : 0600;
        if (const Status created = createNewFile(root.get(), path, data, mode); !created)
            return created;
    }
    return Status::success();
}

RemoteHost::RemoteHost(HostAddress address, SshSettings settings, QObject *parent)
    : QObject(parent)
    , m_address(std::move(address))
    , m_settings(std::move(settings))
    , m_dir(std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/dmtune-remote-XXXXXX")))
{
    m_client = new AgentClient(m_address, m_settings, this);
    connect(m_client, &AgentClient::ready, this, &RemoteHost::onReady);
    connect(m_client, &AgentClient::message, this, &RemoteHost::onMessage);
    connect(m_client, &AgentClient::disconnected, this, &RemoteHost::onDisconnected);

    // Until the first fetch `current` is an empty tree: a window over it shows no devices, not this host's.
    // (Never a path that could be /sys: without a temporary directory the root is one that does not exist.)
    m_current = m_dir->isValid() ? m_dir->path() + QStringLiteral("/current")
                                 : QStringLiteral("/nonexistent/dmtune-remote/current");
    const QString empty = m_dir->path() + QLatin1Char('/') + generationName(0);
    QDir().mkpath(empty + QStringLiteral("/sys/block"));
    QDir().mkpath(empty + QStringLiteral("/proc"));
    ::symlink(QFile::encodeName(generationName(0)).constData(), QFile::encodeName(m_current).constData());

    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, [this] {
        if (m_wanted)
            connectToHost();
    });
    m_connectTimeout.setSingleShot(true);
    m_connectTimeout.setInterval(DefaultConnectTimeoutMs);
    connect(&m_connectTimeout, &QTimer::timeout, this, [this] {
        // No hello in time (a host that does not answer, a sudo that waits for more): the end of ssh's input ends
        // the far side, and ssh then ends (ServerAlive gives up on a dead network in 15 s).
        m_timedOut = true;
        m_client->disconnectFromHost();
    });
    m_refetchDebounce.setSingleShot(true);
    m_refetchDebounce.setInterval(RefetchDebounceMs);
    connect(&m_refetchDebounce, &QTimer::timeout, this, &RemoteHost::fetchCapture);
}

RemoteHost::~RemoteHost()
{
    m_wanted = false;
    m_jobs.waitForDone(); // a capture being written into m_dir finishes before the directory goes
}

SysfsRoot RemoteHost::sysfsRoot() const
{
    return SysfsRoot(m_current + QStringLiteral("/sys"), m_current + QStringLiteral("/proc"));
}

void RemoteHost::setRetryDelays(int firstMs, int maxMs)
{
    m_firstRetryMs = std::max(1, firstMs);
    m_maxRetryMs = std::max(m_firstRetryMs, maxMs);
}

qint64 RemoteHost::msecsUntilRetry() const
{
    return m_retry.isActive() ? m_retry.remainingTime() : -1;
}

void RemoteHost::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void RemoteHost::connectToHost(const QByteArray &sudoPassword)
{
    m_wanted = true;
    m_retry.stop();
    if (m_state != State::Disconnected)
        return;
    if (!m_dir->isValid()) {
        m_problem = QStringLiteral("%1: cannot make a temporary directory in %2").arg(displayName(), QDir::tempPath());
        m_need = Need::User;
        Q_EMIT stateChanged(m_state);
        return;
    }
    m_timedOut = false;
    setState(State::Connecting);
    m_connectTimeout.start();
    m_client->connectToHost(sudoPassword);
}

void RemoteHost::disconnectFromHost()
{
    m_wanted = false;
    m_retry.stop();
    m_client->disconnectFromHost();
}

void RemoteHost::refetch()
{
    m_refetchDebounce.stop();
    fetchCapture();
}

RemoteHost::Need RemoteHost::classify(ErrorCode problem, bool wasReady)
{
    if (wasReady)
        return Need::Retry; // it was up: the network or the host went away for a while
    switch (problem) {
    case ErrorCode::NeedsPassword:
        return Need::Password;
    case ErrorCode::HostUnreachable: // a host that is down or rebooting, a network that is not there yet
    case ErrorCode::ConnectionLost:
        return Need::Retry;
    default:
        // Host key refused, login refused, no dmtune there, another protocol major, ssh not installed here, an
        // agent that did not start: the user has to act.
        return Need::User;
    }
}

void RemoteHost::onReady()
{
    m_connectTimeout.stop();
    m_attempt = 0;
    m_problem.clear();
    m_need = Need::Nothing;
    m_agentHost = m_client->agentHello().value(QLatin1String("host")).toString();
    setState(State::Connected);
    const QJsonArray ops = m_client->agentHello().value(QLatin1String("ops")).toArray();
    m_watchId = ops.contains(QStringLiteral("watch")) ? m_client->request(QStringLiteral("watch")) : 0;
    fetchCapture();
}

void RemoteHost::onMessage(const QJsonObject &message)
{
    const qint64 id = message.value(QLatin1String("id")).toInteger();
    const QString type = message.value(QLatin1String("type")).toString();
    if (m_watchId && id == m_watchId) {
        if (type == QLatin1String("error"))
            m_watchId = 0; // no events from this host: its tree is fetched on connects and by hand (F5)
        else if (type != QLatin1String("response"))
            m_refetchDebounce.start(); // a device came or went, a map was reloaded, a path failed
        return;
    }
    if (!m_captureId || id != m_captureId)
        return;
    if (type == QLatin1String("output")) {
        if (message.value(QLatin1String("stream")).toString() == QLatin1String("err"))
            m_captureErrors += message.value(QLatin1String("data")).toString();
    } else if (type == QLatin1String("exit")) {
        onCaptureExit(message);
    } else if (type == QLatin1String("error")) {
        m_captureId = 0;
        Q_EMIT captureFailed(
            QStringLiteral("%1: capture: %2").arg(displayName(), message.value(QLatin1String("error")).toString()));
    }
}

void RemoteHost::fetchCapture()
{
    if (m_state != State::Connected)
        return;
    if (m_captureId || m_writing) {
        m_refetchWanted = true;
        return;
    }
    m_refetchWanted = false;
    m_captureErrors.clear();
    // As `dmtunectl --host H capture DIR` sends it: DIR is this side's output directory (nearsidefiles), made by the
    // agent in its own temporary directory and sent back as entries.
    const QStringList argv { QStringLiteral("capture"), QStringLiteral("capture") };
    QJsonArray files;
    for (const NearSideFile &file : nearSideFiles(argv)) {
        files.append(QJsonObject { { QLatin1String("index"), file.index }, { QLatin1String("prefix"), file.prefix },
            { QLatin1String("path"), file.path }, { QLatin1String("output"), file.output },
            { QLatin1String("directory"), file.directory }, { QLatin1String("local"), file.path } });
    }
    m_captureId = m_client->request(QStringLiteral("cli"),
        { { QLatin1String("argv"), QJsonArray::fromStringList(argv) }, { QLatin1String("files"), files } });
}

void RemoteHost::onCaptureExit(const QJsonObject &message)
{
    m_captureId = 0;
    const int status = message.value(QLatin1String("status")).toInt();
    QJsonArray entries;
    bool found = false;
    for (const QJsonValue &v : message.value(QLatin1String("files")).toArray()) {
        const QJsonObject file = v.toObject();
        if (file.contains(QLatin1String("entries"))) {
            entries = file.value(QLatin1String("entries")).toArray();
            found = true;
        }
    }
    if (status != 0 || !found) {
        const QStringList lines = m_captureErrors.trimmed().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        Q_EMIT captureFailed(QStringLiteral("%1: capture failed (exit status %2)%3")
                                 .arg(displayName())
                                 .arg(status)
                                 .arg(lines.isEmpty() ? QString() : QStringLiteral(": ") + lines.last()));
        return;
    }
    m_writing = true;
    const int generation = m_generation + 1;
    m_jobs.start(
        QStringLiteral("write the capture of %1").arg(displayName()),
        [base = m_dir->path(), generation, entries](JobContext &) { return installCapture(base, generation, entries); },
        [this, generation](const Status &installed) {
            m_writing = false;
            if (!installed) {
                Q_EMIT captureFailed(QStringLiteral("%1: %2").arg(displayName(), installed.errorMessage()));
            } else {
                m_generation = generation;
                m_captureTime = QDateTime::currentDateTime();
                Q_EMIT captureFetched();
            }
            if (m_refetchWanted)
                fetchCapture();
        });
}

void RemoteHost::onDisconnected(const QString &problem, bool wasReady, ErrorCode code)
{
    m_connectTimeout.stop();
    m_refetchDebounce.stop();
    m_watchId = 0;
    m_captureId = 0;
    m_refetchWanted = false;
    m_problem = m_timedOut ? QStringLiteral("%1: no answer from the agent within %2 s")
                                 .arg(displayName())
                                 .arg(m_connectTimeout.interval() / 1000)
                           : problem;
    m_need = classify(m_timedOut ? ErrorCode::HostUnreachable : code, wasReady);
    if (!m_wanted && m_need == Need::Retry)
        m_need = Need::User; // ended by the user: nothing to retry
    setState(State::Disconnected);
    if (m_need == Need::Retry)
        scheduleRetry();
}

void RemoteHost::scheduleRetry()
{
    // 2 s, 4 s, 8 s, ... up to the maximum: a rebooting host is back in a minute or two, and a host that is gone
    // for good costs one ssh attempt a minute.
    const int shift = std::min(m_attempt, 16);
    const qint64 delay = std::min<qint64>(qint64(m_firstRetryMs) << shift, m_maxRetryMs);
    ++m_attempt;
    m_retry.start(int(delay));
    Q_EMIT retryScheduled(int(delay));
}

} // namespace dmtune
