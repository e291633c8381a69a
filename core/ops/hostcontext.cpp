#include "core/ops/hostcontext.h"

#include "core/discovery/sysfscapture.h"
#include "core/dm/backend/devicemapper.h"
#include "core/dm/multipathchange.h"

#include <unistd.h>

namespace dmtune {

bool processIsRoot()
{
    return ::geteuid() == 0;
}

HostContext::HostContext(const SysfsRoot &sysfs)
    : m_sysfs(sysfs)
    , m_actsAsRoot(sysfs.isLive() && processIsRoot())
    , m_asksMultipathd(sysfs.isLive())
{
    if (!sysfs.isLive()) {
        m_dmProblem = QStringLiteral("captured sysfs tree: device-mapper is not queried");
        return;
    }
    // deviceMapperFor() checks the kernel has device-mapper and that this process may open its control device.
    if (auto dm = deviceMapperFor(sysfs))
        m_dm = dm.value();
    else
        m_dmProblem = dm.errorMessage();
}

std::shared_ptr<const HostContext> HostContext::withDeviceMapper(DeviceMapper *dm)
{
    std::shared_ptr<HostContext> host(new HostContext);
    host->m_dm = std::shared_ptr<DeviceMapper>(std::shared_ptr<void>(), dm); // not owned
    if (!dm)
        host->m_dmProblem = QStringLiteral("no device-mapper");
    return host;
}

std::shared_ptr<DeviceMapper> HostContext::newDeviceMapper() const
{
    if (!m_dm || !m_asksMultipathd) // a given backend is the only one (tests)
        return m_dm;
    auto dm = deviceMapperFor(m_sysfs);
    return dm ? dm.value() : nullptr;
}

OperationEnvironment HostContext::environment() const
{
    OperationEnvironment env;
    env.sysfs = m_sysfs;
    env.dm = m_dm.get();
    if (m_asksMultipathd)
        env.multipathd = [] { return liveMultipathd(); };
    return env;
}

} // namespace dmtune
