#include "fakesysfs.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace dmtune::test {

namespace {
const QString scsiHost = QStringLiteral("devices/pci0000:00/0000:00:05.0/host2/rport-2:0-0/target2:0:0");
const QString virtualBlock = QStringLiteral("devices/virtual/block");
} // namespace

FakeSysfs::FakeSysfs()
    : m_root(QFileInfo(m_dir.path()).canonicalFilePath())
{
    QDir(m_root).mkpath(QStringLiteral("bus/scsi"));
    QDir(m_root).mkpath(QStringLiteral("bus/virtio"));
    QDir(m_root).mkpath(QStringLiteral("block"));
}

void FakeSysfs::writeFile(const QString &relative, const QString &content, bool writable)
{
    const QString path = m_root + QLatin1Char('/') + relative;
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    file.write(content.toUtf8() + '\n');
    file.close();
    // sysfs modes: 0644 for knobs, 0444 for facts; dmtune reads "writable" from these bits.
    QFileDevice::Permissions mode = QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    if (writable)
        mode |= QFileDevice::WriteOwner;
    file.setPermissions(mode);
}

void FakeSysfs::makeLink(const QString &relative, const QString &targetRelative)
{
    const QString path = m_root + QLatin1Char('/') + relative;
    QDir().mkpath(QFileInfo(path).path());
    QFile::remove(path);
    if (!QFile::link(m_root + QLatin1Char('/') + targetRelative, path))
        qFatal("cannot link %s", qPrintable(path));
}

QString FakeSysfs::blockDir(const QString &name) const
{
    const QString target = QFile::symLinkTarget(m_root + QStringLiteral("/block/") + name);
    return target.mid(m_root.size() + 1);
}

void FakeSysfs::addBlockBasics(const QString &dir, const QString &devnum, qint64 sectors)
{
    writeFile(dir + QStringLiteral("/dev"), devnum);
    writeFile(dir + QStringLiteral("/size"), QString::number(sectors));
    writeFile(dir + QStringLiteral("/ro"), QStringLiteral("0"));
    writeFile(dir + QStringLiteral("/removable"), QStringLiteral("0"));
    QDir(m_root).mkpath(dir + QStringLiteral("/holders"));
    QDir(m_root).mkpath(dir + QStringLiteral("/slaves"));
}

void FakeSysfs::addQueue(const QString &dir, const QString &scheduler, bool withIosched)
{
    const QString q = dir + QStringLiteral("/queue/");
    writeFile(q + QStringLiteral("scheduler"), scheduler, true);
    writeFile(q + QStringLiteral("rotational"), QStringLiteral("0"), true);
    writeFile(q + QStringLiteral("nr_requests"), QStringLiteral("256"), true);
    writeFile(q + QStringLiteral("max_sectors_kb"), QStringLiteral("1280"), true);
    writeFile(q + QStringLiteral("max_hw_sectors_kb"), QStringLiteral("32767"));
    writeFile(q + QStringLiteral("logical_block_size"), QStringLiteral("512"));
    writeFile(q + QStringLiteral("physical_block_size"), QStringLiteral("4096"));
    writeFile(q + QStringLiteral("nomerges"), QStringLiteral("0"), true);
    writeFile(q + QStringLiteral("read_ahead_kb"), QStringLiteral("128"), true);
    writeFile(q + QStringLiteral("rq_affinity"), QStringLiteral("1"), true);
    writeFile(q + QStringLiteral("write_cache"), QStringLiteral("write through"), true);
    if (withIosched) {
        writeFile(q + QStringLiteral("iosched/fifo_batch"), QStringLiteral("16"), true);
        writeFile(q + QStringLiteral("iosched/read_expire"), QStringLiteral("500"), true);
        writeFile(q + QStringLiteral("iosched/write_expire"), QStringLiteral("5000"), true);
    }
}

void FakeSysfs::addScsiDisk(const QString &name, const QString &hctl, const QString &devnum)
{
    const QString device = scsiHost + QLatin1Char('/') + hctl;
    writeFile(device + QStringLiteral("/vendor"), QStringLiteral("NETAPP  "));
    writeFile(device + QStringLiteral("/model"), QStringLiteral("LUN C-Mode      "));
    writeFile(device + QStringLiteral("/rev"), QStringLiteral("9800"));
    writeFile(device + QStringLiteral("/state"), QStringLiteral("running"), true);
    writeFile(device + QStringLiteral("/queue_depth"), QStringLiteral("32"), true);
    writeFile(device + QStringLiteral("/timeout"), QStringLiteral("30"), true);
    writeFile(device + QStringLiteral("/wwid"), QStringLiteral("naa.600a098038303053453f463045535a59"));
    makeLink(device + QStringLiteral("/subsystem"), QStringLiteral("bus/scsi"));
    const QString dir = device + QStringLiteral("/block/") + name;
    addBlockBasics(dir, devnum, 209715200); // 100 GiB
    addQueue(dir, QStringLiteral("[mq-deadline] kyber bfq none"), true);
    makeLink(dir + QStringLiteral("/device"), device);
    makeLink(QStringLiteral("block/") + name, dir);
}

void FakeSysfs::addMultipathMap(const QString &device, const QString &dmName, const QString &uuid, const QString &devnum,
                                const QStringList &paths)
{
    const QString dir = virtualBlock + QLatin1Char('/') + device;
    addBlockBasics(dir, devnum, 209715200);
    addQueue(dir, QStringLiteral("[none] mq-deadline"), false);
    writeFile(dir + QStringLiteral("/dm/name"), dmName);
    writeFile(dir + QStringLiteral("/dm/uuid"), uuid);
    writeFile(dir + QStringLiteral("/dm/rq_based_seq_io_merge_deadline"), QStringLiteral("0"), true);
    makeLink(QStringLiteral("block/") + device, dir);
    for (const auto &path : paths) {
        const QString pathDir = blockDir(path);
        makeLink(dir + QStringLiteral("/slaves/") + path, pathDir);
        makeLink(pathDir + QStringLiteral("/holders/") + device, dir);
    }
}

void FakeSysfs::addLoop(const QString &name, const QString &devnum, const QString &backingFile)
{
    const QString dir = virtualBlock + QLatin1Char('/') + name;
    addBlockBasics(dir, devnum, 2097152); // 1 GiB
    addQueue(dir, QStringLiteral("[none] mq-deadline"), false);
    writeFile(dir + QStringLiteral("/loop/backing_file"), backingFile);
    makeLink(QStringLiteral("block/") + name, dir);
}

void FakeSysfs::addZramWithoutQueue(const QString &name, const QString &devnum)
{
    const QString dir = virtualBlock + QLatin1Char('/') + name;
    addBlockBasics(dir, devnum, 8388608); // 4 GiB
    writeFile(dir + QStringLiteral("/comp_algorithm"), QStringLiteral("lzo-rle [zstd]"), true);
    makeLink(QStringLiteral("block/") + name, dir);
}

void FakeSysfs::removeDevice(const QString &name)
{
    const QString dir = blockDir(name);
    QFile::remove(m_root + QStringLiteral("/block/") + name);
    if (!dir.isEmpty())
        QDir(m_root + QLatin1Char('/') + dir).removeRecursively();
}

void FakeSysfs::buildStandardMachine()
{
    addScsiDisk(QStringLiteral("sdm"), QStringLiteral("2:0:0:1"), QStringLiteral("8:192"));
    addScsiDisk(QStringLiteral("sdu"), QStringLiteral("2:0:1:1"), QStringLiteral("65:64"));
    addScsiDisk(QStringLiteral("sdac"), QStringLiteral("2:0:2:1"), QStringLiteral("65:192"));
    addScsiDisk(QStringLiteral("sdak"), QStringLiteral("2:0:3:1"), QStringLiteral("66:64"));
    addMultipathMap(QStringLiteral("dm-0"), QStringLiteral("mpatha"),
                    QStringLiteral("mpath-3600a098038303053453f463045535a59"), QStringLiteral("253:0"),
                    {QStringLiteral("sdak"), QStringLiteral("sdu"), QStringLiteral("sdm"), QStringLiteral("sdac")});

    // vda -> vda1 -> dm-1 (LVM): a partition with something stacked on it.
    const QString virtio = QStringLiteral("devices/pci0000:00/0000:00:04.0/virtio1");
    makeLink(virtio + QStringLiteral("/subsystem"), QStringLiteral("bus/virtio"));
    writeFile(virtio + QStringLiteral("/vendor"), QStringLiteral("0x1af4"));
    const QString vda = virtio + QStringLiteral("/block/vda");
    addBlockBasics(vda, QStringLiteral("254:0"), 41943040); // 20 GiB
    addQueue(vda, QStringLiteral("[mq-deadline] none"), true);
    makeLink(vda + QStringLiteral("/device"), virtio);
    writeFile(vda + QStringLiteral("/serial"), QStringLiteral("VIRTIO-ROOT"));
    writeFile(vda + QStringLiteral("/vda1/partition"), QStringLiteral("1"));
    writeFile(vda + QStringLiteral("/vda1/dev"), QStringLiteral("254:1"));
    writeFile(vda + QStringLiteral("/vda1/size"), QStringLiteral("41940992"));
    makeLink(QStringLiteral("block/vda"), vda);
    const QString dm1 = virtualBlock + QStringLiteral("/dm-1");
    addBlockBasics(dm1, QStringLiteral("253:1"), 41940992);
    addQueue(dm1, QStringLiteral("none"), false);
    writeFile(dm1 + QStringLiteral("/dm/name"), QStringLiteral("vg0-root"));
    writeFile(dm1 + QStringLiteral("/dm/uuid"), QStringLiteral("LVM-abcdefabcdef"));
    makeLink(QStringLiteral("block/dm-1"), dm1);
    makeLink(dm1 + QStringLiteral("/slaves/vda1"), vda + QStringLiteral("/vda1"));
    makeLink(vda + QStringLiteral("/vda1/holders/dm-1"), dm1);

    addLoop(QStringLiteral("loop0"), QStringLiteral("7:0"), QStringLiteral("/var/tmp/dmtune-demo.img"));
    addZramWithoutQueue(QStringLiteral("zram0"), QStringLiteral("252:0"));
}

} // namespace dmtune::test
