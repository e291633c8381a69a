#include "core/workloads/devicehold.h"

#include "core/sysfs/sysfsroot.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <utility>

namespace dmtune {

bool parseDevnum(const QString &text, dev_t *out)
{
    const QStringList parts = text.trimmed().split(u':');
    if (parts.size() != 2)
        return false;
    bool okMajor = false, okMinor = false;
    const uint major = parts.at(0).toUInt(&okMajor);
    const uint minor = parts.at(1).toUInt(&okMinor);
    if (!okMajor || !okMinor)
        return false;
    *out = ::makedev(major, minor);
    return true;
}

DeviceHold::DeviceHold(DeviceHold &&other) noexcept
    : m_fd(std::exchange(other.m_fd, -1))
    , m_device(std::move(other.m_device))
    , m_rdev(std::exchange(other.m_rdev, 0))
{
    other.m_device.clear();
}

DeviceHold &DeviceHold::operator=(DeviceHold &&other) noexcept
{
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
        m_device = std::move(other.m_device);
        other.m_device.clear();
        m_rdev = std::exchange(other.m_rdev, 0);
    }
    return *this;
}

void DeviceHold::release()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_device.clear();
    m_rdev = 0;
}

Result<DeviceHold> DeviceHold::duplicate() const
{
    if (m_fd < 0)
        return Result<DeviceHold>::failure(QStringLiteral("nothing is held"));
    const int fd = ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return Result<DeviceHold>::failure(QStringLiteral("cannot duplicate the hold of %1: %2")
                                               .arg(devicePath(), QString::fromLocal8Bit(std::strerror(errno))));
    DeviceHold copy;
    copy.m_fd = fd;
    copy.m_device = m_device;
    copy.m_rdev = m_rdev;
    return Result<DeviceHold>(std::move(copy));
}

Result<DeviceHold> DeviceHold::acquire(const SysfsRoot &root, const QString &device)
{
    using R = Result<DeviceHold>;
    if (device.isEmpty() || device.contains(u'/') || device == QLatin1String(".") || device == QLatin1String(".."))
        return R::failure(QStringLiteral("'%1' is not a kernel device name").arg(device));
    dev_t expected = 0;
    const auto devnum = root.read(QStringLiteral("class/block/%1/dev").arg(device));
    if (!devnum || !parseDevnum(devnum.value(), &expected))
        return R::failure(QStringLiteral("%1 is not a block device (no class/block/%1/dev)").arg(device));

    const QString path = QStringLiteral("/dev/") + device;
    // O_NOFOLLOW: the node itself, not what a link at its name points to. O_EXCL on a block device (no
    // O_CREAT) is the kernel's exclusive claim, the one mount, swapon, dm and md take.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        const int error = errno;
        if (error == EBUSY)
            return R::failure(QStringLiteral("%1 is in use: the kernel refuses to open it exclusively (mounted, "
                                             "possibly in another mount namespace; swap; or held by device-mapper "
                                             "(LVM, multipath, dm-crypt), md, LIO, ZFS or another program)")
                                  .arg(path));
        return R::failure(
            QStringLiteral("cannot open %1 exclusively: %2").arg(path, QString::fromLocal8Bit(std::strerror(error))));
    }
    DeviceHold hold;
    hold.m_fd = fd;
    struct stat st { };
    if (::fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode))
        return R::failure(QStringLiteral("%1 is not a block device node").arg(path));
    if (st.st_rdev != expected)
        return R::failure(QStringLiteral("%1 is device %2:%3, but sysfs says %4 is %5: the node is not the device "
                                         "the guard checked")
                              .arg(path)
                              .arg(::major(st.st_rdev))
                              .arg(::minor(st.st_rdev))
                              .arg(device, devnum.value()));
    hold.m_device = device;
    hold.m_rdev = st.st_rdev;
    return R(std::move(hold));
}

} // namespace dmtune
