#pragma once
// One lab device for one owner on one thread, for tests: a LabLoop (core/workloads/labloop.h: the device, its
// files and the ownership rule) with signals. Created on request (root only), removed on request or when the
// object goes away. The product uses LabDevices (core/workloads/labdevices.h) through the lab.create and
// lab.remove operations instead.
#include "core/util/result.h"
#include "core/workloads/labloop.h"

#include <QObject>
#include <QString>

#include <memory>

namespace dmtune {

class LabDevice : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 DefaultBytes = LabLoop::DefaultBytes;

    explicit LabDevice(QObject *parent = nullptr);
    ~LabDevice() override; // remove()

    // Whether create() can work here (root, /dev/loop-control); why not otherwise.
    static bool canCreate(QString *why = nullptr) { return LabLoop::canCreate(why); }

    // Creates the backing file under baseDirectory() and attaches it. Returns the kernel name ("loop3").
    // A second create() while one exists returns the existing device.
    Result<QString> create(qint64 bytes = DefaultBytes);
    // LabLoop::remove(): detaches our device only, deletes the files; success when there is nothing to remove.
    Status remove();

    // LabLoop::removeStale(): the lab devices in baseDir whose owner process is gone.
    static QStringList removeStale(const QString &baseDir) { return LabLoop::removeStale(baseDir); }

    QString deviceName() const { return m_loop->deviceName(); } // empty when there is none
    QString devicePath() const { return m_loop->devicePath(); }
    QString backingFile() const { return m_loop->backingFile(); }
    bool exists() const { return m_loop->exists(); }
    bool directIo() const { return m_loop->directIo(); }
    // The scheduler the loop device had before create() set mq-deadline; remove() puts it back.
    QString schedulerBefore() const { return m_loop->schedulerBefore(); }

    // Where backing files go (default /var/tmp: disk-backed, unlike /tmp on many systems, so direct I/O works).
    void setBaseDirectory(const QString &dir) { m_baseDir = dir; }
    QString baseDirectory() const { return m_baseDir; }

Q_SIGNALS:
    void created(const QString &name);
    void removed(const QString &name);

private:
    QString m_baseDir = QStringLiteral("/var/tmp");
    std::unique_ptr<LabLoop> m_loop;
};

} // namespace dmtune
