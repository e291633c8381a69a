#pragma once
// The block device a write workload goes to, opened O_EXCL from the write guard's decision until fio ends.
// The kernel refuses an exclusive open (EBUSY) while anything has the device claimed: a mount in any mount
// namespace, swap, device-mapper (LVM, multipath, dm-crypt), md, LIO, ZFS, or another program that opened it
// with O_EXCL; and while dmtune holds it, none of those can take it. fio opens the device without O_EXCL, so
// it still can. The node is checked too: its st_rdev must be the device sysfs names.
#include "core/util/result.h"

#include <QString>

#include <sys/types.h>

namespace dmtune {

class SysfsRoot;

class DeviceHold {
public:
    DeviceHold() = default;
    ~DeviceHold() { release(); }
    DeviceHold(DeviceHold &&other) noexcept;
    DeviceHold &operator=(DeviceHold &&other) noexcept;
    DeviceHold(const DeviceHold &) = delete;
    DeviceHold &operator=(const DeviceHold &) = delete;

    // Opens /dev/<device> (a kernel name: "loop3", "sdb1") read-only with O_EXCL, then checks that the node
    // is a block device whose st_rdev is root's class/block/<device>/dev. The error says which check failed.
    static Result<DeviceHold> acquire(const SysfsRoot &root, const QString &device);

    bool isHeld() const { return m_fd >= 0; }
    int fd() const { return m_fd; }
    QString device() const { return m_device; } // kernel name; empty when nothing is held
    QString devicePath() const { return m_device.isEmpty() ? QString() : QStringLiteral("/dev/") + m_device; }
    dev_t rdev() const { return m_rdev; }
    // Closes the descriptor: the device can be mounted or claimed again.
    void release();
    // A second descriptor of the same open file (dup): the kernel's claim lasts until the last one is closed. A
    // sweep keeps its hold for all its runs and hands each run one of these.
    Result<DeviceHold> duplicate() const;

private:
    int m_fd = -1;
    QString m_device;
    dev_t m_rdev = 0;
};

// "7:3" -> makedev(7, 3); false when it is not MAJ:MIN.
bool parseDevnum(const QString &text, dev_t *out);

} // namespace dmtune
