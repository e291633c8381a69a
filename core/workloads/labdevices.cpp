#include "core/workloads/labdevices.h"

#include "core/workloads/labloop.h"

#include <algorithm>

namespace dmtune {

namespace {

LabDeviceInfo infoOf(const LabLoop &loop)
{
    LabDeviceInfo info;
    info.name = loop.deviceName();
    info.backingFile = loop.backingFile();
    info.directory = loop.directory();
    info.bytes = loop.bytes();
    info.fileDevice = loop.fileDevice();
    info.fileInode = loop.fileInode();
    info.directIo = loop.directIo();
    info.schedulerBefore = loop.schedulerBefore();
    info.schedulerToRestore = loop.schedulerToRestore();
    return info;
}

} // namespace

LabDevices::LabDevices() = default;

LabDevices::~LabDevices()
{
    const QMutexLocker lock(&m_mutex);
    m_loops.clear(); // each LabLoop removes its device
}

bool LabDevices::canCreate(QString *why)
{
    return LabLoop::canCreate(why);
}

Result<LabDeviceInfo> LabDevices::create(qint64 bytes, const QString &baseDir)
{
    auto loop = std::make_unique<LabLoop>();
    const QMutexLocker lock(&m_mutex); // also keeps removeStale() of two creates apart
    const auto made = loop->create(baseDir.isEmpty() ? defaultBaseDirectory() : baseDir, bytes);
    if (!made)
        return Result<LabDeviceInfo>::failure(made.errorMessage());
    LabDeviceInfo info = infoOf(*loop);
    m_loops.push_back(std::move(loop));
    return info;
}

Status LabDevices::remove(const QString &name)
{
    const QMutexLocker lock(&m_mutex);
    const auto it = std::find_if(m_loops.begin(), m_loops.end(),
        [&name](const std::unique_ptr<LabLoop> &loop) { return loop->deviceName() == name; });
    if (it == m_loops.end())
        return Status::failure(QStringLiteral("%1 is not a lab device of this dmtune").arg(name));
    const Status removed = (*it)->remove();
    if (!(*it)->exists()) // detached, or no longer ours and forgotten
        m_loops.erase(it);
    return removed;
}

QList<LabDeviceInfo> LabDevices::list() const
{
    const QMutexLocker lock(&m_mutex);
    QList<LabDeviceInfo> out;
    for (const auto &loop : m_loops)
        out.append(infoOf(*loop));
    return out;
}

std::optional<LabDeviceInfo> LabDevices::find(const QString &name) const
{
    const QMutexLocker lock(&m_mutex);
    if (const LabLoop *loop = findLocked(name))
        return infoOf(*loop);
    return std::nullopt;
}

LabLoop *LabDevices::findLocked(const QString &name) const
{
    for (const auto &loop : m_loops) {
        if (!name.isEmpty() && loop->deviceName() == name)
            return loop.get();
    }
    return nullptr;
}

} // namespace dmtune
