#pragma once
// DeviceMapper over libdevmapper. Every call first checks that the kernel has device-mapper
// (checkDeviceMapper) and returns that reason as the error otherwise, without touching the
// library. libdevmapper's log goes into the returned error messages, never to stderr.
#include "core/dm/backend/devicemapper.h"
#include "core/dm/backend/dmavailability.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

class LibDevmapperBackend final : public DeviceMapper {
public:
    explicit LibDevmapperBackend(
        SysfsRoot root = SysfsRoot(), QString controlPath = QStringLiteral("/dev/mapper/control"));

    DmAvailability availability() const;
    // The kernel's dm ioctl interface version ("4.47.0"); empty when device-mapper is unavailable
    // or the call fails.
    QString driverVersion();
    // libdevmapper's own version ("1.02.185 (2022-05-18)"); no kernel access.
    static QString libraryVersion();

    Result<QList<DmMapName>> listMaps() override;
    Result<DmInfo> info(const QString &name) override;
    Result<QList<DmTargetLine>> table(const QString &name) override;
    Result<QList<DmTargetLine>> status(const QString &name) override;
    Status message(const QString &name, const QString &text) override;
    Status reload(const QString &name, const QList<DmTargetLine> &table) override;
    Result<quint32> waitEvent(const QString &name, quint32 eventNr) override;
    // A control device of its own, armed (dmcontrolpoll.h); fails on kernels before 4.13.
    Result<std::shared_ptr<DmEventPoll>> openEventPoll() override;
    // Set unless the root is the live /sys: names resolved in another tree must not reach this kernel.
    QString readOnlyReason() const override;

private:
    Status ready(const QString &name) const;
    // DM_DEVICE_TABLE or DM_DEVICE_STATUS of one map, as target lines.
    Result<QList<DmTargetLine>> targets(int type, const char *what, const QString &name);

    SysfsRoot m_root;
    QString m_controlPath;
};

} // namespace dmtune
