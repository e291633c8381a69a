#include "core/discovery/devicesnapshot.h"

namespace dmtune {

const BlockDevice *DeviceSnapshot::device(const QString &name) const
{
    for (const auto &d : devices) {
        if (d.name == name)
            return &d;
    }
    return nullptr;
}

const BlockDevice *DeviceSnapshot::deviceByDevnum(const QString &devnum) const
{
    for (const auto &d : devices) {
        if (d.devnum == devnum)
            return &d;
    }
    return nullptr;
}

const MultipathMap *DeviceSnapshot::map(const QString &nameOrDevice) const
{
    for (const auto &m : maps) {
        if (m.name == nameOrDevice || m.device == nameOrDevice)
            return &m;
    }
    return nullptr;
}

const MultipathMap *DeviceSnapshot::mapOfPath(const QString &pathName) const
{
    for (const auto &m : maps) {
        if (m.slaves.contains(pathName))
            return &m;
    }
    return nullptr;
}

QStringList DeviceSnapshot::deviceNames() const
{
    QStringList names;
    names.reserve(devices.size());
    for (const auto &d : devices)
        names.append(d.name);
    return names;
}

const NvmeMultipathHead *DeviceSnapshot::nvmeHead(const QString &name) const
{
    for (const NvmeMultipathHead &head : nvmeMultipath) {
        if (head.name == name)
            return &head;
    }
    return nullptr;
}

const NvmeMultipathHead *DeviceSnapshot::nvmeHeadOfPath(const QString &pathName) const
{
    for (const NvmeMultipathHead &head : nvmeMultipath) {
        if (head.path(pathName))
            return &head;
    }
    return nullptr;
}

} // namespace dmtune
