#include "labdevice.h"

#include "sysfs/sysfsroot.h"
#include "util/fd.h"

#include <QDir>
#include <QFile>
#include <QThread>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace dmtune {

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

// "none [mq-deadline] kyber" -> "mq-deadline"
QString activeScheduler(const QString &text)
{
    const qsizetype open = text.indexOf(u'[');
    return open < 0 ? text.trimmed() : text.mid(open + 1, text.indexOf(u']') - open - 1);
}

} // namespace

LabDevice::LabDevice(QObject *parent)
    : QObject(parent)
{
}

LabDevice::~LabDevice()
{
    remove();
}

bool LabDevice::canCreate(QString *why)
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

Result<QString> LabDevice::create(qint64 bytes)
{
    if (exists())
        return m_name;
    QString why;
    if (!canCreate(&why))
        return Result<QString>::failure(why);
    if (bytes < 1024 * 1024)
        return Result<QString>::failure(QStringLiteral("a lab device needs at least 1 MiB"));
    QByteArray dirTemplate = QFile::encodeName(m_baseDir + QStringLiteral("/dmtune-lab-XXXXXX"));
    if (!::mkdtemp(dirTemplate.data()))
        return Result<QString>::failure(
            QStringLiteral("cannot create a directory in %1: %2").arg(m_baseDir, errnoText(errno)));
    m_dir = QFile::decodeName(dirTemplate);
    m_file = m_dir + QStringLiteral("/lab.img");
    const Fd file(::open(QFile::encodeName(m_file).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
    if (file.get() < 0 || ::ftruncate(file.get(), bytes) != 0) { // ftruncate: sparse, nothing written
        const QString message = QStringLiteral("cannot create %1: %2").arg(m_file, errnoText(errno));
        deleteFiles();
        return Result<QString>::failure(message);
    }
    const auto attached = attach(file.get());
    if (!attached) {
        deleteFiles();
        return attached;
    }
    m_name = attached.value();
    const SysfsRoot sysfs;
    m_directIo = sysfs.readOr(QStringLiteral("block/%1/loop/dio").arg(m_name)) == QLatin1String("1");
    const QString schedulerAttr = QStringLiteral("block/%1/queue/scheduler").arg(m_name);
    m_schedulerBefore = activeScheduler(sysfs.readOr(schedulerAttr));
    m_savedScheduler = m_schedulerBefore;
    if (m_savedScheduler == QLatin1String("mq-deadline") || !sysfs.write(schedulerAttr, QStringLiteral("mq-deadline")))
        m_savedScheduler.clear(); // already so, or not available: nothing to restore
    Q_EMIT created(m_name);
    return m_name;
}

Result<QString> LabDevice::attach(int backingFd)
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

Status LabDevice::remove()
{
    if (!exists()) {
        deleteFiles();
        return Status::success();
    }
    const QString name = m_name;
    const SysfsRoot sysfs;
    // Loop devices keep their queue settings after detach: give the next user what it had.
    if (!m_savedScheduler.isEmpty())
        sysfs.write(QStringLiteral("block/%1/queue/scheduler").arg(name), m_savedScheduler);
    const Fd loop(::open(QFile::encodeName(devicePath()).constData(), O_RDONLY | O_CLOEXEC));
    if (loop.get() < 0 || ::ioctl(loop.get(), LOOP_CLR_FD, 0) != 0) {
        const int error = errno;
        if (error != ENXIO) // ENXIO: already detached by someone else
            return Status::failure(QStringLiteral("detaching /dev/%1: %2").arg(name, errnoText(error)));
    }
    m_name.clear();
    m_savedScheduler.clear();
    deleteFiles();
    Q_EMIT removed(name);
    return Status::success();
}

void LabDevice::deleteFiles()
{
    if (!m_file.isEmpty())
        QFile::remove(m_file);
    if (!m_dir.isEmpty())
        QDir().rmdir(m_dir);
    m_file.clear();
    m_dir.clear();
}

} // namespace dmtune
