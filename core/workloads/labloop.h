#pragma once
// One lab device: a loop device with direct I/O over a sparse file dmtune owns, its scheduler set to
// mq-deadline (so batched writes merge, as on a real disk) and restored on removal. No QObject, no thread of
// its own: LabDevices (labdevices.h) keeps a process's lab devices behind a mutex; the tests' LabDevice
// (tests/common/labdevice.h) wraps one for a single owner.
//
// Ownership: each lab device has its own directory (<base>/dmtune-lab-XXXXXX, 0700) with the backing file
// lab.img and a file "owner" that the creating process keeps flock()ed for the device's life (it also says
// the pid and the scheduler to restore). A loop device is detached only when it is provably ours: its sysfs
// loop/backing_file is our lab.img and the kernel's backing inode and device (LOOP_GET_STATUS64) are the
// ones we created. A directory whose owner lock can be taken belongs to a dmtune that is gone: its device is
// stale and removeStale() (run by create() and at the GUI's start) detaches it, restores its scheduler and
// deletes the files.
#include "core/util/result.h"

#include <QString>

namespace dmtune {

// What the kernel says backs a loop device: sysfs loop/backing_file and LOOP_GET_STATUS64's inode and device.
struct LoopBacking {
    bool attached = false; // false: no file (detached, or not a loop device)
    QString file;
    quint64 device = 0, inode = 0;
    QString identity() const; // "dev:inode" ("" when not attached), for a plan's basis
};
// Opens /dev/<name> read-only for the ioctl (it changes nothing); `name` must be a loop device's kernel name.
LoopBacking loopBackingOf(const QString &name);

class LabLoop {
public:
    static constexpr qint64 DefaultBytes = qint64(1) << 30; // 1 GiB, sparse: nothing is allocated up front
    static constexpr qint64 MinimumBytes = qint64(1) << 20;

    LabLoop() = default;
    ~LabLoop() { static_cast<void>(remove()); } // left attached: removed as stale by the next dmtune
    LabLoop(const LabLoop &) = delete;
    LabLoop &operator=(const LabLoop &) = delete;

    // Whether create() can work here (root, /dev/loop-control); why not otherwise.
    static bool canCreate(QString *why = nullptr);
    // Removes the lab devices in baseDir whose owner process is gone (see above); never one that is not
    // provably a lab device, nor one whose owner still runs. Returns one line per device or directory removed.
    static QStringList removeStale(const QString &baseDir);

    // Creates the backing file in a new directory under baseDir and attaches it. Returns the kernel name
    // ("loop3"). Fails when this object already has a device.
    Result<QString> create(const QString &baseDir, qint64 bytes);
    // Detaches the device (if something still has it open, the kernel detaches it on the last close) and deletes
    // the files. Success when there is nothing to remove. A loop device that is no longer backed by our file
    // (someone detached it and attached something else) is left alone: an error says so, our files go.
    Status remove();

    QString deviceName() const { return m_name; } // empty when there is none
    QString devicePath() const { return m_name.isEmpty() ? QString() : QStringLiteral("/dev/") + m_name; }
    QString backingFile() const { return m_file; }
    QString directory() const { return m_dir; }
    qint64 bytes() const { return m_bytes; }
    bool exists() const { return !m_name.isEmpty(); }
    quint64 fileDevice() const { return m_fileDevice; }
    quint64 fileInode() const { return m_fileInode; }
    // Whether the kernel really does direct I/O on the backing file (loop/dio); false on file systems
    // without O_DIRECT (tmpfs), where the loop device falls back to the page cache.
    bool directIo() const { return m_directIo; }
    // The scheduler the loop device had before create() set mq-deadline.
    QString schedulerBefore() const { return m_schedulerBefore; }
    // What remove() writes back; empty when create() changed nothing (it was mq-deadline already, or the
    // write failed).
    QString schedulerToRestore() const { return m_savedScheduler; }

private:
    Result<QString> attach(int backingFd);
    Status takeOwnership();
    void deleteFiles();

    QString m_dir, m_file, m_name;
    qint64 m_bytes = 0;
    int m_ownerFd = -1; // <dir>/owner, flock()ed while this object owns the directory
    quint64 m_fileDevice = 0, m_fileInode = 0; // the backing file we created, as LOOP_GET_STATUS64 reports it
    QString m_savedScheduler; // to restore; empty when nothing was changed
    QString m_schedulerBefore;
    bool m_directIo = false;
};

} // namespace dmtune
