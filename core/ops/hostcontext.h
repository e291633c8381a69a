#pragma once
// The host a window shows, as its widgets act on it: its tree, whether this process acts on it itself as
// root, its device-mapper and the environment its operations get. The window makes one (MainWindow) and hands it
// to its widgets, so none of them checks the euid, makes a device-mapper backend or fills an OperationEnvironment
// of its own. Immutable once made; shared (std::shared_ptr<const HostContext>) by the widgets and their jobs.
#include "core/ops/operationregistry.h"
#include "core/sysfs/sysfsroot.h"

#include <memory>

namespace dmtune {

class DeviceMapper;

class HostContext {
public:
    // The machine this process runs on, through `sysfs`: the live /sys, or a captured tree (read-only here: no
    // device-mapper is queried for it, nothing is written through it).
    explicit HostContext(const SysfsRoot &sysfs);
    // Tests and demos: this device-mapper (not owned, e.g. a FakeDeviceMapper; it outlives the context) on the
    // default tree; multipathd is never asked.
    static std::shared_ptr<const HostContext> withDeviceMapper(DeviceMapper *dm);

    const SysfsRoot &sysfs() const { return m_sysfs; }
    // The live tree, as root: attribute writes in this process, device-mapper ioctls, the BPF latency probe.
    bool actsAsRoot() const { return m_actsAsRoot; }
    // This host's device-mapper (deviceMapperFor()), made once; null with the reason when there is none (a
    // captured tree, no dm_mod, not root).
    const std::shared_ptr<DeviceMapper> &deviceMapper() const { return m_dm; }
    const QString &deviceMapperProblem() const { return m_dmProblem; }
    // A backend of its own for the same kernel, for a thread that blocks in device-mapper (an event watcher's job);
    // null when deviceMapper() is.
    std::shared_ptr<DeviceMapper> newDeviceMapper() const;
    // What an operation here gets: the tree, deviceMapper(), multipathd asked per operation on the live system.
    // A shell adds what it owns and nothing else: its lab devices, its applier's transaction hook.
    OperationEnvironment environment() const;

private:
    HostContext() = default;

    SysfsRoot m_sysfs;
    bool m_actsAsRoot = false;
    bool m_asksMultipathd = false;
    std::shared_ptr<DeviceMapper> m_dm;
    QString m_dmProblem;
};

// The euid is 0: this process may write sysfs, open device-mapper and load BPF programs itself. The one place a
// shell asks (a window's widgets ask their HostContext).
bool processIsRoot();

} // namespace dmtune
