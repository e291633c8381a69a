#pragma once
// The lab device: a loop device with direct I/O over a sparse file dmtune owns, the safe default target for
// workloads and tuning. Created on request (root only), removed on request or when the object goes away (the
// app's exit). Its scheduler is set to mq-deadline (so batched writes merge, as on a real disk) and restored.
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
    // the file. Success when there is nothing to remove.
    Status remove();

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
    void deleteFiles();

    QString m_baseDir = QStringLiteral("/var/tmp");
    QString m_dir, m_file, m_name;
    QString m_savedScheduler; // to restore; empty when nothing was changed
    QString m_schedulerBefore;
    bool m_directIo = false;
};

} // namespace dmtune
