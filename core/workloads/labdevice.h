#pragma once
// The lab device: a loop device with direct I/O over a sparse file dmtune owns, the safe default target for
// workloads and tuning. Created on request (root only), removed on request or when the object goes away (the
// app's exit). Its scheduler is set to mq-deadline (so batched writes merge, as on a real disk) and restored.
//
// Ownership: each lab device has its own directory (<base>/dmtune-lab-XXXXXX, 0700) with the backing file
// lab.img and a file "owner" that the creating process keeps flock()ed for the device's life (it also says
// the pid and the scheduler to restore). A loop device is detached only when it is provably ours: its sysfs
// loop/backing_file is our lab.img and the kernel's backing inode and device (LOOP_GET_STATUS64) are the
// ones we created. A directory whose owner lock can be taken belongs to a dmtune that is gone: its device is
// stale and removeStale() (run by create() and at the GUI's start) detaches it, restores its scheduler and
// deletes the files.
#include "util/result.h"

#include <QObject>
#include <QString>

namespace dmtune {

class LabDevice : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 DefaultBytes = qint64(1) << 30; // 1 GiB, sparse: nothing is allocated up front

    explicit LabDevice(QObject *parent = nullptr);
    ~LabDevice() override; // remove()

    // Whether create() can work here (root, /dev/loop-control); why not otherwise.
    static bool canCreate(QString *why = nullptr);

    // Creates the backing file under baseDirectory() and attaches it. Returns the kernel name ("loop3").
    // A second create() while one exists returns the existing device.
    Result<QString> create(qint64 bytes = DefaultBytes);
    // Detaches the device (if fio still has it open, the kernel detaches it on the last close) and deletes
    // the file. Success when there is nothing to remove. A loop device that is no longer backed by our file
    // (someone detached it and attached something else) is left alone: an error says so, our files go.
    Status remove();

    // Removes the lab devices in baseDir whose owner process is gone (see above); never one that is not
    // provably a lab device, nor one whose owner still runs. Returns one line per device or directory removed.
    static QStringList removeStale(const QString &baseDir);

    QString deviceName() const { return m_name; } // empty when there is none
    QString devicePath() const { return m_name.isEmpty() ? QString() : QStringLiteral("/dev/") + m_name; }
    QString backingFile() const { return m_file; }
    bool exists() const { return !m_name.isEmpty(); }
    // Whether the kernel really does direct I/O on the backing file (loop/dio); false on file systems
    // without O_DIRECT (tmpfs), where the loop device falls back to the page cache.
    bool directIo() const { return m_directIo; }
    // The scheduler the loop device had before create() set mq-deadline; remove() puts it back.
    QString schedulerBefore() const { return m_schedulerBefore; }

    // Where backing files go (default /var/tmp: disk-backed, unlike /tmp on many systems, so direct I/O works).
    void setBaseDirectory(const QString &dir) { m_baseDir = dir; }
    QString baseDirectory() const { return m_baseDir; }

Q_SIGNALS:
    void created(const QString &name);
    void removed(const QString &name);

private:
    Result<QString> attach(int backingFd);
    Status takeOwnership();
    void deleteFiles();

    QString m_baseDir = QStringLiteral("/var/tmp");
    QString m_dir, m_file, m_name;
    int m_ownerFd = -1; // <dir>/owner, flock()ed while this object owns the directory
    quint64 m_fileDevice = 0, m_fileInode = 0; // the backing file we created, as LOOP_GET_STATUS64 reports it
    QString m_savedScheduler; // to restore; empty when nothing was changed
    QString m_schedulerBefore;
    bool m_directIo = false;
};

} // namespace dmtune
