#pragma once
// An immutable picture of the machine's block devices and multipath maps at one moment.
#include "core/discovery/blockdevice.h"
#include "core/discovery/nvmemultipath.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>

namespace dmtune {

struct DeviceMapperState {
    bool available = false;
    QString reason; // why not, when unavailable
    QString driverVersion, libraryVersion;
};

class DeviceSnapshot {
public:
    QList<BlockDevice> devices; // sorted by name (natural order: sda, sdb, ..., sdaa)
    QList<MultipathMap> maps; // sorted by dm name
    QList<NvmeMultipathHead> nvmeMultipath; // native NVMe multipath heads, sorted by name
    DeviceMapperState deviceMapper;
    QString sysfsRoot;
    bool live = true;
    QString kernelRelease;
    QDateTime takenAt;

    const BlockDevice *device(const QString &name) const;
    const BlockDevice *deviceByDevnum(const QString &devnum) const;
    const MultipathMap *map(const QString &nameOrDevice) const;
    // The map a path device belongs to (through its holders), or null.
    const MultipathMap *mapOfPath(const QString &pathName) const;
    const NvmeMultipathHead *nvmeHead(const QString &name) const;
    // The native multipath head a hidden path device (nvmeXcZnY) belongs to, or null.
    const NvmeMultipathHead *nvmeHeadOfPath(const QString &pathName) const;
    QStringList deviceNames() const;
};

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::DeviceSnapshot)
