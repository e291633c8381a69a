#include "fakesysfs.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace dmtune::test {

FakeSysfs::FakeSysfs()
    : m_root(QFileInfo(m_dir.path()).canonicalFilePath())
{
    dir(QStringLiteral("block"));
    dir(QStringLiteral("class/block"));
    dir(QStringLiteral("bus/scsi"));
    dir(QStringLiteral("class/nvme"));
    dir(QStringLiteral("class/nvme-subsystem"));
    dir(QStringLiteral("module"));
}

void FakeSysfs::dir(const QString &relative)
{
    QDir(m_root).mkpath(relative);
}

void FakeSysfs::file(const QString &relative, const QString &content, bool writable)
{
    const QString path = root() + QLatin1Char('/') + relative;
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(content.toUtf8() + (content.endsWith(QLatin1Char('\n')) ? "" : "\n"));
    f.close();
    // sysfs modes: 0644 for knobs, 0444 for facts; dmtune reads "writable" from these bits.
    f.setPermissions(writable ? (QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther)
                              : (QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
}

void FakeSysfs::link(const QString &relative, const QString &target)
{
    const QString path = root() + QLatin1Char('/') + relative;
    const QString linkDir = QFileInfo(path).path();
    QDir().mkpath(linkDir);
    QFile::remove(path);
    // Relative, as the kernel's: a tree given to dmtune never resolves a link that leaves it (absolute ones do).
    const QString relTarget = QDir(linkDir).relativeFilePath(root() + QLatin1Char('/') + target);
    if (!QFile::link(relTarget, path))
        qFatal("cannot link %s", qPrintable(path));
}

void FakeSysfs::blockCommon(
    const QString &devPath, const QString &name, const QString &devnum, qint64 sectors, bool withQueue)
{
    file(devPath + QStringLiteral("/dev"), devnum, false);
    file(devPath + QStringLiteral("/size"), QString::number(sectors), false);
    file(devPath + QStringLiteral("/ro"), QStringLiteral("0"), false);
    file(devPath + QStringLiteral("/removable"), QStringLiteral("0"), false);
    file(devPath + QStringLiteral("/stat"), QStringLiteral("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"), false);
    file(devPath + QStringLiteral("/inflight"), QStringLiteral("       0        0"), false);
    file(devPath + QStringLiteral("/uevent"),
        QStringLiteral("MAJOR=%1\nMINOR=%2\nDEVNAME=%3\nDEVTYPE=disk")
            .arg(devnum.section(QLatin1Char(':'), 0, 0), devnum.section(QLatin1Char(':'), 1), name),
        false);
    dir(devPath + QStringLiteral("/slaves"));
    dir(devPath + QStringLiteral("/holders"));
    if (withQueue) {
        file(devPath + QStringLiteral("/queue/scheduler"), QStringLiteral("[mq-deadline] kyber bfq none"));
        file(devPath + QStringLiteral("/queue/nr_requests"), QStringLiteral("64"));
        file(devPath + QStringLiteral("/queue/max_sectors_kb"), QStringLiteral("1280"));
        file(devPath + QStringLiteral("/queue/max_hw_sectors_kb"), QStringLiteral("32767"), false);
        file(devPath + QStringLiteral("/queue/nomerges"), QStringLiteral("0"));
        file(devPath + QStringLiteral("/queue/rotational"), QStringLiteral("0"));
        file(devPath + QStringLiteral("/queue/read_ahead_kb"), QStringLiteral("128"));
        file(devPath + QStringLiteral("/queue/logical_block_size"), QStringLiteral("512"), false);
    }
    link(QStringLiteral("block/") + name, devPath);
    link(QStringLiteral("class/block/") + name, devPath);
    m_devicePaths.insert(name, devPath);
}

QString FakeSysfs::scsiDisk(const QString &name, const QString &devnum, const QString &hctl, const QString &vendor,
    const QString &model, const QString &wwid, qint64 sectors, int queueDepth, const QString &transport)
{
    const QStringList parts = hctl.split(QLatin1Char(':'));
    QString host = QStringLiteral("host") + parts.value(0);
    if (transport == QLatin1String("fc"))
        host += QStringLiteral("/rport-%1:0-0").arg(parts.value(0));
    const QString target = QStringLiteral("target%1:%2:%3").arg(parts.value(0), parts.value(1), parts.value(2));
    const QString scsiDev = QStringLiteral("devices/pci0000:00/0000:00:1f.2/%1/%2/%3").arg(host, target, hctl);
    file(scsiDev + QStringLiteral("/vendor"), vendor, false);
    file(scsiDev + QStringLiteral("/model"), model, false);
    file(scsiDev + QStringLiteral("/rev"), QStringLiteral("0001"), false);
    file(scsiDev + QStringLiteral("/state"), QStringLiteral("running"));
    file(scsiDev + QStringLiteral("/queue_depth"), QString::number(queueDepth));
    file(scsiDev + QStringLiteral("/timeout"), QStringLiteral("30"));
    file(scsiDev + QStringLiteral("/eh_timeout"), QStringLiteral("10"));
    file(scsiDev + QStringLiteral("/wwid"), wwid, false);
    link(scsiDev + QStringLiteral("/subsystem"), QStringLiteral("bus/scsi"));
    const QString devPath = scsiDev + QStringLiteral("/block/") + name;
    blockCommon(devPath, name, devnum, sectors);
    link(devPath + QStringLiteral("/device"), scsiDev);
    return devPath;
}

QString FakeSysfs::dmDevice(const QString &name, const QString &devnum, const QString &dmName, const QString &uuid,
    const QStringList &slaves, qint64 sectors)
{
    const QString devPath = QStringLiteral("devices/virtual/block/") + name;
    blockCommon(devPath, name, devnum, sectors);
    file(devPath + QStringLiteral("/dm/name"), dmName, false);
    file(devPath + QStringLiteral("/dm/uuid"), uuid, false);
    file(devPath + QStringLiteral("/dm/suspended"), QStringLiteral("0"), false);
    file(devPath + QStringLiteral("/dm/rq_based_seq_io_merge_deadline"), QStringLiteral("0"));
    for (const auto &s : slaves) {
        const QString slavePath = m_devicePaths.value(s);
        link(devPath + QStringLiteral("/slaves/") + s, slavePath);
        link(slavePath + QStringLiteral("/holders/") + name, devPath);
    }
    return devPath;
}

QString FakeSysfs::virtualDisk(const QString &name, const QString &devnum, qint64 sectors, bool withQueue)
{
    const QString devPath = QStringLiteral("devices/virtual/block/") + name;
    blockCommon(devPath, name, devnum, sectors, withQueue);
    return devPath;
}

QString FakeSysfs::loopDevice(const QString &name, const QString &devnum, const QString &backingFile)
{
    const QString devPath = virtualDisk(name, devnum, 2097152);
    file(devPath + QStringLiteral("/queue/scheduler"), QStringLiteral("[none] mq-deadline"));
    file(devPath + QStringLiteral("/loop/backing_file"), backingFile, false);
    return devPath;
}

QString FakeSysfs::nvmeNamespace(const QString &name, const QString &devnum, const QString &controller,
    const QString &subsystem, const QString &wwid, const QString &transport)
{
    const QString ctrlPath = QStringLiteral("devices/pci0000:00/0000:00:04.0/nvme/") + controller;
    file(ctrlPath + QStringLiteral("/model"), QStringLiteral("Samsung SSD 980 PRO 1TB"), false);
    file(ctrlPath + QStringLiteral("/serial"), QStringLiteral("S5GXNX0R123456"), false);
    file(ctrlPath + QStringLiteral("/firmware_rev"), QStringLiteral("5B2QGXA7"), false);
    file(ctrlPath + QStringLiteral("/transport"), transport, false);
    file(ctrlPath + QStringLiteral("/address"), QStringLiteral("0000:00:04.0"), false);
    file(ctrlPath + QStringLiteral("/subsysnqn"), QStringLiteral("nqn.2014.08.org.nvmexpress:144d144dS5GXNX0R123456"),
        false);
    link(ctrlPath + QStringLiteral("/subsystem"), QStringLiteral("class/nvme"));
    link(QStringLiteral("class/nvme/") + controller, ctrlPath);
    const QString subsysPath = QStringLiteral("devices/virtual/nvme-subsystem/") + subsystem;
    file(subsysPath + QStringLiteral("/iopolicy"), QStringLiteral("numa"));
    link(subsysPath + QLatin1Char('/') + controller, ctrlPath);
    link(QStringLiteral("class/nvme-subsystem/") + subsystem, subsysPath);
    const QString devPath = ctrlPath + QLatin1Char('/') + name;
    blockCommon(devPath, name, devnum, 1953525168);
    file(devPath + QStringLiteral("/wwid"), wwid, false);
    file(devPath + QStringLiteral("/nsid"), QStringLiteral("1"), false);
    link(devPath + QStringLiteral("/device"), ctrlPath);
    return devPath;
}

QString FakeSysfs::partition(
    const QString &disk, const QString &name, const QString &devnum, int number, qint64 sectors)
{
    const QString partPath = m_devicePaths.value(disk) + QLatin1Char('/') + name;
    file(partPath + QStringLiteral("/dev"), devnum, false);
    file(partPath + QStringLiteral("/size"), QString::number(sectors), false);
    file(partPath + QStringLiteral("/partition"), QString::number(number), false);
    dir(partPath + QStringLiteral("/holders"));
    link(QStringLiteral("class/block/") + name, partPath);
    m_devicePaths.insert(name, partPath);
    return partPath;
}

void FakeSysfs::removeDevice(const QString &name)
{
    const QString devPath = m_devicePaths.take(name);
    QFile::remove(m_root + QStringLiteral("/block/") + name);
    QFile::remove(m_root + QStringLiteral("/class/block/") + name);
    if (!devPath.isEmpty())
        QDir(m_root + QLatin1Char('/') + devPath).removeRecursively();
}

} // namespace dmtune::test
