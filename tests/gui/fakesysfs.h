#pragma once
// A small sysfs tree in a temporary directory, laid out as the kernel does (block/NAME links into
// devices/..., slaves/holders links, a device link to the SCSI device with its subsystem link),
// so that Discovery::scan reads it like a captured tree.
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace dmtune::test {

class FakeSysfs
{
public:
    FakeSysfs();

    bool isValid() const { return m_dir.isValid(); }
    QString root() const { return m_root; }

    // The standard machine of the GUI tests: multipath map mpatha (dm-0, mpath-3600a0980...)
    // over SCSI paths sdak, sdu, sdm, sdac; a virtio disk vda with partition vda1 under an LVM
    // volume dm-1; loop0 over a file; zram0 without queue files.
    void buildStandardMachine();

    void addScsiDisk(const QString &name, const QString &hctl, const QString &devnum);
    void addMultipathMap(const QString &device, const QString &dmName, const QString &uuid, const QString &devnum,
                         const QStringList &paths);
    void addLoop(const QString &name, const QString &devnum, const QString &backingFile);
    void addZramWithoutQueue(const QString &name, const QString &devnum);
    // Removes the device as a hot-unplug would: its block link and its directory.
    void removeDevice(const QString &name);

    void writeFile(const QString &relative, const QString &content, bool writable = false);
    void makeLink(const QString &relative, const QString &targetRelative);

private:
    QString blockDir(const QString &name) const;
    void addBlockBasics(const QString &dir, const QString &devnum, qint64 sectors);
    void addQueue(const QString &dir, const QString &scheduler, bool withIosched);

    QTemporaryDir m_dir;
    QString m_root;
};

} // namespace dmtune::test
