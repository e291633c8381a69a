#include "core/discovery/discovery.h"

#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/sysfscapture.h"
#include "core/discovery/udevsource.h"
#include "core/dm/backend/captureddevicemapper.h"
#include "core/dm/backend/dmavailability.h"
#include "core/dm/backend/libdevmapperbackend.h"

#include <QJsonObject>
#include <QSet>

namespace dmtune {

Discovery::Discovery(SysfsRoot sysfs, QObject *parent)
    : QObject(parent)
    , m_sysfs(std::move(sysfs))
{
    qRegisterMetaType<dmtune::DeviceSnapshot>();
    m_debounce.setSingleShot(true);
    // Events come in bursts (a map and its paths, a disk and its partitions): one rescan per burst.
    m_debounce.setInterval(100);
    connect(&m_debounce, &QTimer::timeout, this, &Discovery::refresh);
}

Discovery::~Discovery() = default;

DeviceSnapshot Discovery::scan(const SysfsRoot &sysfs)
{
    QList<UdevRecord> records = enumerateBlockDirectory(sysfs);
    DeviceMapperState dmState;
    if (!sysfs.isLive()) {
        // A capture made by dmtunectl carries device-mapper's tables and statuses: path groups as they were.
        const QJsonObject capture = captureDescription(sysfs);
        const QJsonObject dm = capture.value(QStringLiteral("device_mapper")).toObject();
        auto maps = CapturedDeviceMapper::parseMaps(dm);
        if (capture.isEmpty() || !dm.value(QStringLiteral("available")).toBool() || !maps) {
            dmState.reason = capture.isEmpty() ? QStringLiteral("captured sysfs tree: device-mapper is not queried")
                : !maps                        ? QStringLiteral("capture file: ") + maps.errorMessage()
                        : QStringLiteral("captured system: ") + dm.value(QStringLiteral("reason")).toString();
            return buildSnapshot(sysfs, records, nullptr, dmState);
        }
        CapturedDeviceMapper captured(maps.value());
        dmState.available = true;
        dmState.reason = QStringLiteral("captured on %1 at %2")
                             .arg(capture.value(QStringLiteral("host")).toString(),
                                 capture.value(QStringLiteral("taken_at")).toString());
        dmState.driverVersion = dm.value(QStringLiteral("driver_version")).toString();
        dmState.libraryVersion = dm.value(QStringLiteral("library_version")).toString();
        return buildSnapshot(sysfs, records, &captured, dmState);
    }
    // The live kernel's tables and udev's database, each read once for all devices: a scan of thousands of
    // devices opens only each one's attribute files (and its database entry where udevd keeps one).
    const KernelBlockIndex index = readKernelBlockIndex(sysfs);
    addUdevDatabaseProperties(records, index.devnumByName, QString::fromLatin1(UdevDataDirectory));
    const DmAvailability availability = checkDeviceMapper(sysfs);
    dmState.available = availability.available;
    dmState.reason = availability.reason;
    if (!availability.available)
        return buildSnapshot(sysfs, records, nullptr, dmState, &index);
    LibDevmapperBackend backend(sysfs);
    dmState.driverVersion = backend.driverVersion();
    dmState.libraryVersion = LibDevmapperBackend::libraryVersion();
    return buildSnapshot(sysfs, records, &backend, dmState, &index);
}

void Discovery::start()
{
    if (m_sysfs.isLive() && !m_monitor) {
        m_monitor = new UdevMonitor(this);
        const Status started = m_monitor->start();
        if (!started) {
            m_monitorError = started.errorMessage();
        } else {
            connect(m_monitor, &UdevMonitor::blockEvent, this,
                [this](const QString &action, const QString &sysname, const QString &) {
                    Q_EMIT blockEvent(action, sysname);
                    m_debounce.start();
                });
        }
    }
    refresh();
}

QString Discovery::monitorSource() const
{
    return m_monitor && m_monitor->isRunning() ? m_monitor->source() : QString();
}

void Discovery::refresh()
{
    // Serial and keyed: one scan at a time, never raced; the latest request's answer is the one shown.
    m_jobs.startLatest(
        QStringLiteral("scan"), QStringLiteral("scan devices"), [sysfs = m_sysfs](JobContext &) { return scan(sysfs); },
        [this](const DeviceSnapshot &snapshot) { onScanned(snapshot); });
}

void Discovery::onScanned(const DeviceSnapshot &snapshot)
{
    const bool first = !m_hasSnapshot;
    const QStringList before = m_snapshot.deviceNames();
    const QStringList after = snapshot.deviceNames();
    m_snapshot = snapshot;
    m_hasSnapshot = true;
    if (!first) {
        const QSet<QString> oldSet(before.begin(), before.end());
        const QSet<QString> newSet(after.begin(), after.end());
        QStringList added, removed;
        for (const auto &n : after) {
            if (!oldSet.contains(n))
                added.append(n);
        }
        for (const auto &n : before) {
            if (!newSet.contains(n))
                removed.append(n);
        }
        if (!added.isEmpty())
            Q_EMIT devicesAdded(added);
        if (!removed.isEmpty())
            Q_EMIT devicesRemoved(removed);
    }
    Q_EMIT snapshotChanged(m_snapshot);
}

} // namespace dmtune
