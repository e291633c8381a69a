#include "core/discovery/blockdevice.h"

namespace dmtune {

QString deviceKindName(DeviceKind kind)
{
    switch (kind) {
    case DeviceKind::Multipath:
        return QStringLiteral("multipath");
    case DeviceKind::DmLvm:
        return QStringLiteral("dm-lvm");
    case DeviceKind::DmCrypt:
        return QStringLiteral("dm-crypt");
    case DeviceKind::DmOther:
        return QStringLiteral("dm");
    case DeviceKind::Scsi:
        return QStringLiteral("scsi");
    case DeviceKind::NvmeNamespace:
        return QStringLiteral("nvme");
    case DeviceKind::Virtio:
        return QStringLiteral("virtio");
    case DeviceKind::Loop:
        return QStringLiteral("loop");
    case DeviceKind::Md:
        return QStringLiteral("md");
    case DeviceKind::Zram:
        return QStringLiteral("zram");
    case DeviceKind::Nbd:
        return QStringLiteral("nbd");
    case DeviceKind::NullBlk:
        return QStringLiteral("null_blk");
    case DeviceKind::Ram:
        return QStringLiteral("ram");
    case DeviceKind::Mmc:
        return QStringLiteral("mmc");
    case DeviceKind::Other:
        break;
    }
    return QStringLiteral("other");
}

QString deviceKindLabel(DeviceKind kind)
{
    switch (kind) {
    case DeviceKind::Multipath:
        return QStringLiteral("dm-multipath map");
    case DeviceKind::DmLvm:
        return QStringLiteral("LVM logical volume");
    case DeviceKind::DmCrypt:
        return QStringLiteral("dm-crypt volume");
    case DeviceKind::DmOther:
        return QStringLiteral("device-mapper device");
    case DeviceKind::Scsi:
        return QStringLiteral("SCSI disk");
    case DeviceKind::NvmeNamespace:
        return QStringLiteral("NVMe namespace");
    case DeviceKind::Virtio:
        return QStringLiteral("virtio disk");
    case DeviceKind::Loop:
        return QStringLiteral("loop device");
    case DeviceKind::Md:
        return QStringLiteral("MD RAID array");
    case DeviceKind::Zram:
        return QStringLiteral("zram device");
    case DeviceKind::Nbd:
        return QStringLiteral("network block device");
    case DeviceKind::NullBlk:
        return QStringLiteral("null_blk device");
    case DeviceKind::Ram:
        return QStringLiteral("RAM disk");
    case DeviceKind::Mmc:
        return QStringLiteral("MMC/SD card");
    case DeviceKind::Other:
        break;
    }
    return QStringLiteral("block device");
}

} // namespace dmtune
