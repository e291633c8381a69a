#include "core/stats/smallfile.h"

#include <QString>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace dmtune {

namespace {

// A runaway file (a captured tree gone wrong) must not eat memory: /proc/diskstats of 64k devices fits.
constexpr qsizetype maxBytes = 16 << 20;

QString pathErrorText(const QByteArray &path, int error)
{
    return QStringLiteral("%1: %2").arg(QString::fromLocal8Bit(path), QString::fromLocal8Bit(std::strerror(error)));
}

// Reads fd from offset 0 to its end into *buffer (whose allocation is reused); errno is kept on failure.
// shortReadIsEnd: a read that returns less than asked is the whole file, which saves the second syscall that
// would return 0. True of sysfs attributes (kernfs hands out the text show() made, at most a page, in one
// read) and of regular files; not assumed for procfs files, whose seq_file reads may stop at a record.
bool readFromStart(int fd, QByteArray *buffer, bool shortReadIsEnd)
{
    if (buffer->capacity() < 4096)
        buffer->reserve(4096);
    buffer->resize(buffer->capacity());
    qsizetype used = 0;
    for (;;) {
        if (used == buffer->size()) {
            if (used >= maxBytes)
                break;
            buffer->resize(used * 2);
        }
        const ssize_t n = ::pread(fd, buffer->data() + used, size_t(buffer->size() - used), off_t(used));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            buffer->resize(0);
            return false;
        }
        if (n == 0)
            break;
        used += n;
        if (shortReadIsEnd && used < buffer->size())
            break;
    }
    // A tree captured with tar pads attribute files to their stated size (4096) with NULs: text ends there.
    while (used > 0 && buffer->at(used - 1) == '\0')
        --used;
    buffer->resize(used);
    return true;
}

} // namespace

bool readSmallFile(const QByteArray &path, QByteArray *buffer, QString *error)
{
    const int fd
        = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY); // a FIFO in a capture cannot block
    if (fd < 0) {
        if (error)
            *error = pathErrorText(path, errno);
        return false;
    }
    const bool ok = readFromStart(fd, buffer, false);
    if (!ok && error)
        *error = pathErrorText(path, errno);
    ::close(fd);
    return ok;
}

OpenAttributeFiles::OpenAttributeFiles(int maxOpen)
    : m_maxOpen(maxOpen > 0 ? maxOpen : 0)
{
}

OpenAttributeFiles::~OpenAttributeFiles()
{
    closeAll();
}

template<typename ReadFd>
bool OpenAttributeFiles::readWith(const QByteArray &path, ReadFd &&readFd)
{
    auto it = m_open.find(path);
    if (it != m_open.end()) {
        it->lastTick = m_tick;
        if (readFd(it->fd))
            return true;
        ::close(it->fd); // its device went away (ENODEV); the path may name a new one now
        m_open.erase(it);
    }
    const int fd
        = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY); // a FIFO in a capture cannot block
    if (fd < 0)
        return false;
    const bool ok = readFd(fd);
    if (ok && m_open.size() < m_maxOpen)
        m_open.insert(path, Entry { fd, m_tick });
    else
        ::close(fd);
    return ok;
}

bool OpenAttributeFiles::read(const QByteArray &path, QByteArray *buffer)
{
    return readWith(path, [buffer](int fd) { return readFromStart(fd, buffer, true); });
}

qsizetype OpenAttributeFiles::read(const QByteArray &path, char *buffer, qsizetype size)
{
    qsizetype used = -1;
    readWith(path, [&](int fd) {
        ssize_t n;
        do
            n = ::pread(fd, buffer, size_t(size), 0);
        while (n < 0 && errno == EINTR);
        // sysfs hands out the whole attribute in one read; a tree captured with tar pads it with NULs.
        while (n > 0 && buffer[n - 1] == '\0')
            --n;
        used = qsizetype(n);
        return n >= 0;
    });
    return used;
}

void OpenAttributeFiles::nextTick()
{
    ++m_tick;
    for (auto it = m_open.begin(); it != m_open.end();) {
        if (it->lastTick + 2 < m_tick) {
            ::close(it->fd);
            it = m_open.erase(it);
        } else {
            ++it;
        }
    }
}

void OpenAttributeFiles::close(const QByteArray &path)
{
    const auto it = m_open.find(path);
    if (it == m_open.end())
        return;
    ::close(it->fd);
    m_open.erase(it);
}

void OpenAttributeFiles::closeAll()
{
    for (const Entry &e : std::as_const(m_open))
        ::close(e.fd);
    m_open.clear();
}

} // namespace dmtune
