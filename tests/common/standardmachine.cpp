#include "standardmachine.h"

#include "fakesysfs.h"

namespace dmtune::test {

namespace {

// The queue files a modern kernel shows beyond FakeSysfs's common ones, and mq-deadline's tunables.
void fullQueue(FakeSysfs &t, const QString &device, const QString &scheduler, bool withIosched)
{
    const QString q = t.devicePath(device) + QStringLiteral("/queue/");
    t.file(q + QStringLiteral("scheduler"), scheduler);
    t.file(q + QStringLiteral("nr_requests"), QStringLiteral("256"));
    t.file(q + QStringLiteral("physical_block_size"), QStringLiteral("4096"), false);
    t.file(q + QStringLiteral("rq_affinity"), QStringLiteral("1"));
    t.file(q + QStringLiteral("write_cache"), QStringLiteral("write through"));
    if (withIosched) {
        t.file(q + QStringLiteral("iosched/fifo_batch"), QStringLiteral("16"));
        t.file(q + QStringLiteral("iosched/read_expire"), QStringLiteral("500"));
        t.file(q + QStringLiteral("iosched/write_expire"), QStringLiteral("5000"));
    }
}

void netappPath(FakeSysfs &t, const QString &name, const QString &hctl, const QString &devnum)
{
    t.scsiDisk(name, devnum, hctl, QStringLiteral("NETAPP  "), QStringLiteral("LUN C-Mode      "),
        QStringLiteral("naa.600a098038303053453f463045535a59"), 209715200, 32, QStringLiteral("fc")); // 100 GiB
    t.file(QStringLiteral("block/%1/device/rev").arg(name), QStringLiteral("9800"), false);
    fullQueue(t, name, QStringLiteral("[mq-deadline] kyber bfq none"), true);
}

} // namespace

void buildStandardMachine(FakeSysfs &t)
{
    netappPath(t, QStringLiteral("sdm"), QStringLiteral("2:0:0:1"), QStringLiteral("8:192"));
    netappPath(t, QStringLiteral("sdu"), QStringLiteral("2:0:1:1"), QStringLiteral("65:64"));
    netappPath(t, QStringLiteral("sdac"), QStringLiteral("2:0:2:1"), QStringLiteral("65:192"));
    netappPath(t, QStringLiteral("sdak"), QStringLiteral("2:0:3:1"), QStringLiteral("66:64"));
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("253:0"), QStringLiteral("mpatha"),
        QStringLiteral("mpath-3600a098038303053453f463045535a59"),
        { QStringLiteral("sdak"), QStringLiteral("sdu"), QStringLiteral("sdm"), QStringLiteral("sdac") }, 209715200);
    fullQueue(t, QStringLiteral("dm-0"), QStringLiteral("[none] mq-deadline"), false);

    // vda -> vda1 -> dm-1 (LVM): a partition with something stacked on it.
    t.dir(QStringLiteral("bus/virtio"));
    const QString virtio = QStringLiteral("devices/pci0000:00/0000:00:04.0/virtio1");
    t.link(virtio + QStringLiteral("/subsystem"), QStringLiteral("bus/virtio"));
    t.file(virtio + QStringLiteral("/vendor"), QStringLiteral("0x1af4"), false);
    const QString vda = virtio + QStringLiteral("/block/vda");
    t.blockCommon(vda, QStringLiteral("vda"), QStringLiteral("254:0"), 41943040); // 20 GiB
    fullQueue(t, QStringLiteral("vda"), QStringLiteral("[mq-deadline] none"), true);
    t.link(vda + QStringLiteral("/device"), virtio);
    t.file(vda + QStringLiteral("/serial"), QStringLiteral("VIRTIO-ROOT"), false);
    t.partition(QStringLiteral("vda"), QStringLiteral("vda1"), QStringLiteral("254:1"), 1, 41940992);
    t.dmDevice(QStringLiteral("dm-1"), QStringLiteral("253:1"), QStringLiteral("vg0-root"),
        QStringLiteral("LVM-abcdefabcdef"), { QStringLiteral("vda1") }, 41940992);
    fullQueue(t, QStringLiteral("dm-1"), QStringLiteral("none"), false);

    t.loopDevice(QStringLiteral("loop0"), QStringLiteral("7:0"), QStringLiteral("/var/tmp/dmtune-demo.img"));
    fullQueue(t, QStringLiteral("loop0"), QStringLiteral("[none] mq-deadline"), false);
    const QString zram = t.virtualDisk(QStringLiteral("zram0"), QStringLiteral("252:0"), 8388608, false); // 4 GiB
    t.file(zram + QStringLiteral("/comp_algorithm"), QStringLiteral("lzo-rle [zstd]"));
}

} // namespace dmtune::test
