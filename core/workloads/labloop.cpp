#include "core/workloads/labloop.h"

#include "core/sysfs/sysfsroot.h"
#include "core/util/errnotext.h"
#include "core/util/fd.h"

#include <QDir>
#include <QFile>
#include <QThread>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dmtune {

namespace {

// "none [mq-deadline] kyber" -> "mq-deadline"
QString activeScheduler(const QString &text)
{
    const qsizetype open = text.indexOf(u'[');
    return open < 0 ? text.trimmed() : text.mid(open + 1, text.indexOf(u']') - open - 1);
}

const QString ownerName = QStringLiteral("owner");
const QString imageName = QStringLiteral("lab.img");

// lstat() of a path that must be this user's own: a directory (0700) or a regular file, not a link.
bool ownedByUs(const QString &path, bool directory, struct stat *out = nullptr)
{
    struct stat st { };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0 || st.st_uid != ::geteuid())
        return false;
    const bool typeOk = directory ? S_ISDIR(st.st_mode) && (st.st_mode & 077) == 0 : S_ISREG(st.st_mode);
    if (out)
        *out = st;
    return typeOk;
}

// Whether the loop device `name` (open as loopFd) is backed by `file`, the very inode `st` describes: sysfs
// names the path, the kernel's status the inode and device (a path can be re-created; an inode cannot).
bool backedBy(
    const SysfsRoot &sysfs, const QString &name, int loopFd, const QString &file, quint64 device, quint64 inode)
{
    if (sysfs.readOr(QStringLiteral("block/%1/loop/backing_file").arg(name)) != file)
        return false;
    loop_info64 info {};
    return ::ioctl(loopFd, LOOP_GET_STATUS64, &info) == 0 && info.lo_device == device && info.lo_inode == inode;
}

// "pid=123\nscheduler=none\n" -> the value of `key`.
QString ownerValue(const QByteArray &text, const QString &key)
{
    for (const QByteArray &line : text.split('\n')) {
        const QString l = QString::fromUtf8(line);
        if (l.startsWith(key + u'='))
            return l.mid(key.size() + 1).trimmed();
    }
    return {};
}

bool isLoopName(const QString &name)
{
    if (!name.startsWith(QLatin1String("loop")) || name.size() == 4)
        return false;
    return std::all_of(name.cbegin() + 4, name.cend(), [](QChar c) { return c.isDigit(); });
}

} // namespace

QString LoopBacking::identity() const
{
    return attached ? QStringLiteral("%1:%2").arg(device).arg(inode) : QString();
}

LoopBacking loopBackingOf(const QString &name)
{
    LoopBacking backing;
    if (!isLoopName(name))
        return backing;
    const Fd loop(::open(QFile::encodeName(QStringLiteral("/dev/") + name).constData(), O_RDONLY | O_CLOEXEC));
    loop_info64 info {};
    if (loop.get() < 0 || ::ioctl(loop.get(), LOOP_GET_STATUS64, &info) != 0)
        return backing; // ENXIO: nothing attached
    backing.attached = true;
    backing.device = info.lo_device;
    backing.inode = info.lo_inode;
    backing.file = SysfsRoot().readOr(QStringLiteral("block/%1/loop/backing_file").arg(name));
    return backing;
}

bool LabLoop::canCreate(QString *why)
{
    QString reason;
    if (::geteuid() != 0)
        reason = QStringLiteral("creating a loop device needs root");
    else if (!QFile::exists(QStringLiteral("/dev/loop-control")))
        reason = QStringLiteral("no /dev/loop-control: the kernel has no loop driver (modprobe loop)");
    if (why)
        *why = reason;
    return reason.isEmpty();
}

Result<QString> LabLoop::create(const QString &baseDir, qint64 bytes)
{
    if (exists())
        return Result<QString>::failure(QStringLiteral("this lab device object already has /dev/%1").arg(m_name));
    QString why;
    if (!canCreate(&why))
        return Result<QString>::failure(why);
    if (bytes < MinimumBytes)
        return Result<QString>::failure(QStringLiteral("a lab device needs at least 1 MiB"));
    removeStale(baseDir); // a crashed dmtune's devices first: they hold loop numbers and disk space
    QByteArray dirTemplate = QFile::encodeName(baseDir + QStringLiteral("/dmtune-lab-XXXXXX"));
    if (!::mkdtemp(dirTemplate.data()))
        return Result<QString>::failure(
            QStringLiteral("cannot create a directory in %1: %2").arg(baseDir, errnoText(errno)));
    m_dir = QFile::decodeName(dirTemplate);
    if (const Status owned = takeOwnership(); !owned) {
        deleteFiles();
        return Result<QString>::failure(owned.errorMessage());
    }
    m_file = m_dir + u'/' + imageName;
    const Fd file(
        ::open(QFile::encodeName(m_file).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
    struct stat st { };
    if (file.get() < 0 || ::ftruncate(file.get(), bytes) != 0 || ::fstat(file.get(), &st) != 0) {
        // ftruncate: sparse, nothing written
        const QString message = QStringLiteral("cannot create %1: %2").arg(m_file, errnoText(errno));
        deleteFiles();
        return Result<QString>::failure(message);
    }
    m_fileDevice = quint64(st.st_dev);
    m_fileInode = quint64(st.st_ino);
    const auto attached = attach(file.get());
    if (!attached) {
        deleteFiles();
        return attached;
    }
    m_name = attached.value();
    m_bytes = bytes;
    const SysfsRoot sysfs;
    m_directIo = sysfs.readOr(QStringLiteral("block/%1/loop/dio").arg(m_name)) == QLatin1String("1");
    const QString schedulerAttr = QStringLiteral("block/%1/queue/scheduler").arg(m_name);
    m_schedulerBefore = activeScheduler(sysfs.readOr(schedulerAttr));
    m_savedScheduler = m_schedulerBefore;
    if (m_savedScheduler == QLatin1String("mq-deadline") || !sysfs.write(schedulerAttr, QStringLiteral("mq-deadline")))
        m_savedScheduler.clear(); // already so, or not available: nothing to restore
    // For removeStale() in a later dmtune, should this one crash: what to put back.
    const QByteArray owner
        = QStringLiteral("pid=%1\ndevice=%2\nscheduler=%3\n").arg(::getpid()).arg(m_name, m_savedScheduler).toUtf8();
    if (::ftruncate(m_ownerFd, 0) == 0) [[maybe_unused]]
        const ssize_t n = ::pwrite(m_ownerFd, owner.constData(), size_t(owner.size()), 0);
    return m_name;
}

Result<QString> LabLoop::attach(int backingFd)
{
    const Fd control(::open("/dev/loop-control", O_RDWR | O_CLOEXEC));
    if (control.get() < 0)
        return Result<QString>::failure(QStringLiteral("/dev/loop-control: %1").arg(errnoText(errno)));
    // Another program may take the free device between GET_FREE and CONFIGURE: then ask again.
    for (int attempt = 0; attempt < 8; ++attempt) {
        const int number = ::ioctl(control.get(), LOOP_CTL_GET_FREE);
        if (number < 0)
            return Result<QString>::failure(QStringLiteral("no free loop device: %1").arg(errnoText(errno)));
        const QString name = QStringLiteral("loop%1").arg(number);
        const Fd loop(::open(QFile::encodeName(QStringLiteral("/dev/") + name).constData(), O_RDWR | O_CLOEXEC));
        if (loop.get() < 0)
            return Result<QString>::failure(QStringLiteral("/dev/%1: %2").arg(name, errnoText(errno)));
        loop_config config {};
        config.fd = __u32(backingFd);
        config.info.lo_flags = LO_FLAGS_DIRECT_IO;
        const QByteArray fileName = QFile::encodeName(m_file).left(LO_NAME_SIZE - 1);
        std::memcpy(config.info.lo_file_name, fileName.constData(), size_t(fileName.size()));
        if (::ioctl(loop.get(), LOOP_CONFIGURE, &config) == 0)
            return name;
        const int error = errno;
        if (error == EBUSY) {
            QThread::msleep(10);
            continue;
        }
        if (error != EINVAL && error != ENOTTY)
            return Result<QString>::failure(
                QStringLiteral("attaching %1 to /dev/%2: %3").arg(m_file, name, errnoText(error)));
        // Kernels before 5.8 have no LOOP_CONFIGURE: attach, then switch direct I/O on.
        if (::ioctl(loop.get(), LOOP_SET_FD, backingFd) != 0) {
            if (errno == EBUSY)
                continue;
            return Result<QString>::failure(
                QStringLiteral("attaching %1 to /dev/%2: %3").arg(m_file, name, errnoText(errno)));
        }
        ::ioctl(loop.get(), LOOP_SET_DIRECT_IO, 1UL); // directIo() tells whether it took
        return name;
    }
    return Result<QString>::failure(QStringLiteral("every free loop device was taken by someone else"));
}

Status LabLoop::remove()
{
    if (!exists()) {
        deleteFiles();
        return Status::success();
    }
    const QString name = m_name;
    const SysfsRoot sysfs;
    const Fd loop(::open(QFile::encodeName(devicePath()).constData(), O_RDONLY | O_CLOEXEC));
    if (loop.get() < 0)
        return Status::failure(QStringLiteral("opening /dev/%1: %2").arg(name, errnoText(errno)));
    // Only our own device: detached by someone else and attached to another file, it is theirs now.
    if (!backedBy(sysfs, name, loop.get(), m_file, m_fileDevice, m_fileInode)) {
        const QString backing = sysfs.readOr(QStringLiteral("block/%1/loop/backing_file").arg(name));
        m_name.clear();
        m_savedScheduler.clear();
        deleteFiles();
        if (backing.isEmpty())
            return Status::success(); // already detached: nothing left to do
        return Status::failure(
            QStringLiteral("/dev/%1 is no longer the lab device (it is backed by %2 now): left attached")
                .arg(name, backing));
    }
    // Loop devices keep their queue settings after detach: give the next user what it had.
    Status restored;
    if (!m_savedScheduler.isEmpty())
        restored = sysfs.write(QStringLiteral("block/%1/queue/scheduler").arg(name), m_savedScheduler);
    if (::ioctl(loop.get(), LOOP_CLR_FD, 0) != 0) {
        const int error = errno;
        if (error != ENXIO) // ENXIO: already detached by someone else
            return Status::failure(QStringLiteral("detaching /dev/%1: %2").arg(name, errnoText(error)));
    }
    const QString scheduler = m_savedScheduler;
    m_name.clear();
    m_savedScheduler.clear();
    deleteFiles();
    // Detached and gone either way; the next user of the loop device finds another scheduler, which is said.
    if (!restored)
        return Status::failure(QStringLiteral("/dev/%1 was removed, but its scheduler was not put back to %2: %3")
                                   .arg(name, scheduler, restored.errorMessage()),
            ErrorCode::Io);
    return Status::success();
}

Status LabLoop::takeOwnership()
{
    // Locked before it has its name: removeStale() opens "owner" only, so it never sees an unlocked one of
    // a directory being made (rename keeps the open file and its lock).
    const QString fresh = m_dir + QStringLiteral("/owner.new");
    m_ownerFd = ::open(QFile::encodeName(fresh).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (m_ownerFd < 0 || ::flock(m_ownerFd, LOCK_EX | LOCK_NB) != 0
        || ::rename(QFile::encodeName(fresh).constData(), QFile::encodeName(m_dir + u'/' + ownerName).constData()) != 0)
        return Status::failure(QStringLiteral("cannot create %1: %2").arg(fresh, errnoText(errno)));
    return Status::success();
}

QStringList LabLoop::removeStale(const QString &baseDir)
{
    QStringList done;
    const SysfsRoot sysfs;
    QStringList loops;
    for (const QString &name : sysfs.list(QStringLiteral("block"))) {
        if (name.startsWith(QLatin1String("loop")))
            loops << name;
    }
    const QStringList dirs = QDir(baseDir).entryList(
        { QStringLiteral("dmtune-lab-*") }, QDir::Dirs | QDir::NoSymLinks | QDir::Hidden | QDir::System);
    for (const QString &entry : dirs) {
        const QString dir = baseDir + u'/' + entry;
        if (!ownedByUs(dir, true))
            continue; // not made by mkdtemp as this user: not ours to judge
        const QString ownerPath = dir + u'/' + ownerName;
        if (!ownedByUs(ownerPath, false))
            continue; // no owner file (an older dmtune, or not a lab directory): left as it is
        const Fd owner(::open(QFile::encodeName(ownerPath).constData(), O_RDWR | O_CLOEXEC | O_NOFOLLOW));
        if (owner.get() < 0 || ::flock(owner.get(), LOCK_EX | LOCK_NB) != 0)
            continue; // its dmtune still runs (or it cannot be looked at)
        QByteArray text(4096, '\0');
        const ssize_t n = ::pread(owner.get(), text.data(), size_t(text.size()), 0);
        text.truncate(n > 0 ? qsizetype(n) : 0);
        const QString image = dir + u'/' + imageName;
        struct stat st { };
        if (ownedByUs(image, false, &st)) {
            for (const QString &name : std::as_const(loops)) {
                const Fd loop(
                    ::open(QFile::encodeName(QStringLiteral("/dev/") + name).constData(), O_RDONLY | O_CLOEXEC));
                if (loop.get() < 0 || !backedBy(sysfs, name, loop.get(), image, quint64(st.st_dev), quint64(st.st_ino)))
                    continue;
                const QString scheduler = ownerValue(text, QStringLiteral("scheduler"));
                if (!scheduler.isEmpty()) {
                    if (const Status restored
                        = sysfs.write(QStringLiteral("block/%1/queue/scheduler").arg(name), scheduler);
                        !restored)
                        done << QStringLiteral("the scheduler of /dev/%1 not put back to %2: %3")
                                    .arg(name, scheduler, restored.errorMessage());
                }
                if (::ioctl(loop.get(), LOOP_CLR_FD, 0) == 0 || errno == ENXIO)
                    done << QStringLiteral("detached /dev/%1, the lab device of a dmtune that is gone (pid %2)")
                                .arg(name, ownerValue(text, QStringLiteral("pid")));
            }
            QFile::remove(image);
        }
        QFile::remove(ownerPath);
        if (QDir().rmdir(dir))
            done << QStringLiteral("removed %1").arg(dir);
    }
    return done;
}

void LabLoop::deleteFiles()
{
    if (!m_file.isEmpty())
        QFile::remove(m_file);
    if (!m_dir.isEmpty()) {
        QFile::remove(m_dir + u'/' + ownerName);
        QFile::remove(m_dir + QStringLiteral("/owner.new"));
        QDir().rmdir(m_dir);
    }
    if (m_ownerFd >= 0) // the lock last: the directory is gone before anyone could take it
        ::close(m_ownerFd);
    m_ownerFd = -1;
    m_file.clear();
    m_dir.clear();
    m_fileDevice = m_fileInode = 0;
    m_bytes = 0;
}

} // namespace dmtune
