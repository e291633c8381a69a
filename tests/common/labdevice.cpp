#include "labdevice.h"

namespace dmtune {

LabDevice::LabDevice(QObject *parent)
    : QObject(parent)
    , m_loop(std::make_unique<LabLoop>())
{
}

LabDevice::~LabDevice()
{
    static_cast<void>(remove()); // a device that cannot be removed now is removed as stale by the next dmtune
}

Result<QString> LabDevice::create(qint64 bytes)
{
    if (exists())
        return deviceName();
    const auto made = m_loop->create(m_baseDir, bytes);
    if (made)
        Q_EMIT created(made.value());
    return made;
}

Status LabDevice::remove()
{
    const QString name = deviceName();
    const Status status = m_loop->remove();
    if (!name.isEmpty() && !exists()) // gone, or no longer ours (then the error says so)
        Q_EMIT removed(name);
    return status;
}

} // namespace dmtune
