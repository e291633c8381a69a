#pragma once
// Builds sysfs-shaped trees in a temporary directory, with relative links as the kernel makes
// them, so discovery and parameter code run against them exactly as against /sys. A test that
// writes through dmtune opens the tree with SysfsRoot::scratch(root()); SysfsRoot(root(), {}) reads
// it as a captured tree (read-only).
#include <QHash>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace dmtune::test {

class FakeSysfs {
public:
    FakeSysfs();

    // The canonical path of the tree (what discovery reports paths against).
    QString root() const { return m_root; }
    bool isValid() const { return m_dir.isValid(); }

    // A file with `content` (a newline added); 0644 when writable (a knob), 0444 otherwise (a fact).
    // Where a directory is (malformed-tree tests), nothing is written.
    void file(const QString &relative, const QString &content, bool writable = true);
    // A relative symlink at `relative` pointing to `target` (both relative to the root).
    void link(const QString &relative, const QString &target);
    void dir(const QString &relative);

    // A disk's common files (dev, size, ro, removable, stat, inflight, queue/*) under devPath.
    void blockCommon(
        const QString &devPath, const QString &name, const QString &devnum, qint64 sectors, bool withQueue = true);

    // SCSI disk `name` at H:C:T:L behind a host; returns the disk's device path. Transport "fc" puts the
    // target under a remote port (host2/rport-2:0-0/target2:0:1), as the FC transport class does.
    QString scsiDisk(const QString &name, const QString &devnum, const QString &hctl, const QString &vendor,
        const QString &model, const QString &wwid, qint64 sectors = 2097152, int queueDepth = 32,
        const QString &transport = QString());
    // A device-mapper device dm-N (virtual) with dm/name, dm/uuid, slaves (and holders on them).
    QString dmDevice(const QString &name, const QString &devnum, const QString &dmName, const QString &uuid,
        const QStringList &slaves, qint64 sectors = 2097152);
    QString virtualDisk(const QString &name, const QString &devnum, qint64 sectors, bool withQueue = true);
    // A loop device (1 GiB) over `backingFile`.
    QString loopDevice(const QString &name, const QString &devnum, const QString &backingFile);
    QString nvmeNamespace(const QString &name, const QString &devnum, const QString &controller,
        const QString &subsystem, const QString &wwid, const QString &transport = QStringLiteral("pcie"));
    QString partition(const QString &disk, const QString &name, const QString &devnum, int number, qint64 sectors);
    // Removes a device as a hot-unplug would: its block and class/block links and its directory.
    void removeDevice(const QString &name);

    // Path of a /sys/block entry's real directory (relative to the root).
    QString devicePath(const QString &name) const { return m_devicePaths.value(name); }

private:
    QTemporaryDir m_dir;
    QString m_root;
    QHash<QString, QString> m_devicePaths;
};

} // namespace dmtune::test
