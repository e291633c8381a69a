#pragma once
// Native NVMe multipath (nvme_core multipath=Y): a namespace head nvmeXnY over hidden per-controller path devices
// nvmeXcZnY, read from sysfs alone (no nvme-cli). docs/nvme.md.
#include "core/discovery/blockdevice.h"

#include <QList>
#include <QString>

#include <optional>

namespace dmtune {

class SysfsRoot;

struct NvmePath {
    QString name; // nvme0c1n1: the hidden block device of the namespace behind one controller
    QString controller; // nvme1
    QString transport; // tcp, rdma, fc, pcie, loop
    QString address; // traddr=127.0.0.2,trsvcid=4422,...
    QString state; // the controller's: live, connecting, resetting, deleting, dead, new
    QString anaState; // optimized, non-optimized, inaccessible, persistent-loss, change; empty without ANA
    QString anaGroup; // ana_grpid
    QString queueDepth; // I/Os in flight on the path, where the kernel has it (6.14+), else empty
    QString numaNodes; // the NUMA nodes the numa iopolicy sends through it (6.14+), else empty

    // The kernel sends I/O through it: the controller is live and ANA allows I/O (or the controller has no ANA).
    bool usable() const;
};

struct NvmeSubsystemInfo {
    QString name; // nvme-subsys0
    QString nqn, model, serial, firmware;
    QString iopolicy; // numa, round-robin, queue-depth (6.11+)
    QStringList controllers; // every controller of the subsystem, reaching this namespace or not
};

struct NvmeMultipathHead {
    QString name; // nvme0n1
    QString devnum;
    QString wwid;
    QString nsid;
    qint64 sizeBytes = -1;
    NvmeSubsystemInfo subsystem;
    QList<NvmePath> paths; // by controller number
    // The head's queue/iostats: "0" means the kernel counts the head's I/O nowhere (6.1-6.x: only the paths
    // count), so its statistics read zero under load; empty when unreadable.
    QString iostats;

    const NvmePath *path(const QString &name) const;
    int usablePaths() const;
};

struct NvmePathName {
    QString head; // nvme0n1
    QString controller; // nvme1
};
// The kernel names a path device nvme<subsystem>c<controller>n<head>: its head and controller, or nothing.
std::optional<NvmePathName> parseNvmePathName(const QString &name);

// The native multipath heads among devices (those whose parent is an nvme-subsystem), each with its paths: the
// head's multipath/ links where the kernel has them (6.14+), else the path devices named after it.
QList<NvmeMultipathHead> readNvmeMultipath(const SysfsRoot &sysfs, const QList<BlockDevice> &devices);

// Why a dm-multipath command (path, group, map queueing/reload) does not apply to `name`: a native NVMe multipath
// head or one of its hidden paths, with what native multipath offers instead; empty for anything else.
QString nativeNvmeInsteadOfDm(const SysfsRoot &sysfs, const QString &name);

// Whether writing 1 to a native head's queue/iostats makes the kernel count the head's I/O: from Linux 6.2
// (nvme_mpath_start_request); before, the head accepts the write and still counts nothing (measured on 6.1).
bool nvmeHeadStatisticsCanBeTurnedOn(const QString &kernelRelease);
// Why a native NVMe head reads zero under load, for a statistics view of it: its queue/iostats is 0 (the kernel
// counts the I/O on the paths only), where the numbers are, and whether turning iostats on would help on this
// kernel; empty when the head counts its I/O.
QString nvmeHeadStatisticsNote(const NvmeMultipathHead &head, const QString &kernelRelease);

// nvme_core's multipath module parameter: "Y"/"N"; empty when not loaded.
QString nvmeCoreMultipath(const SysfsRoot &sysfs);

} // namespace dmtune
