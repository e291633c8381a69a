#include "multipathcontrol.h"

#include "core/dm/multipathd/multipathdclient.h"

namespace dmtune {

MultipathControl::MultipathControl(DeviceMapper *dm, QObject *parent)
    : QObject(parent)
    , m_dm(dm)
    , m_multipathd(&liveMultipathd)
    // One operation at a time, in the order asked: "fail, then reinstate" must not be reordered.
    , m_jobs(new JobTracker(this, JobTracker::Order::Serial))
{
    qRegisterMetaType<dmtune::MultipathOperationResult>();
}

MultipathControl::~MultipathControl()
{
    delete m_jobs; // waits for the operation in progress; later hand-backs are dropped
}

bool MultipathControl::multipathdRunning() const
{
    return bool(m_multipathd());
}

void MultipathControl::setSysfsRoot(const SysfsRoot &sysfs)
{
    m_sysfs = sysfs;
}

void MultipathControl::setMultipathdProvider(std::function<MultipathdCommand()> provider)
{
    m_multipathd = std::move(provider);
}

void MultipathControl::failPath(const QString &map, const QString &path)
{
    runMessage(map, { MultipathMessageKind::FailPath, path, 0 });
}

void MultipathControl::reinstatePath(const QString &map, const QString &path)
{
    runMessage(map, { MultipathMessageKind::ReinstatePath, path, 0 });
}

void MultipathControl::switchGroup(const QString &map, int group)
{
    runMessage(map, { MultipathMessageKind::SwitchGroup, {}, group });
}

void MultipathControl::enableGroup(const QString &map, int group)
{
    runMessage(map, { MultipathMessageKind::EnableGroup, {}, group });
}

void MultipathControl::disableGroup(const QString &map, int group)
{
    runMessage(map, { MultipathMessageKind::DisableGroup, {}, group });
}

void MultipathControl::setQueueIfNoPath(const QString &map, bool on)
{
    runMessage(map, { on ? MultipathMessageKind::QueueIfNoPath : MultipathMessageKind::FailIfNoPath, {}, 0 });
}

void MultipathControl::reload(const QString &map, const MultipathTable &table)
{
    DeviceMapper *dm = m_dm;
    const SysfsRoot sysfs = m_sysfs;
    const auto provider = m_multipathd;
    start([dm, sysfs, map, table, provider] {
        // Asked on the worker: the socket check reads /proc, the paths' WWIDs sysfs, not for the GUI thread.
        return runMultipathReload(*dm, map, table, bool(provider()), sysfs);
    });
}

void MultipathControl::runMessage(const QString &map, const MultipathMessage &message)
{
    DeviceMapper *dm = m_dm;
    const SysfsRoot sysfs = m_sysfs;
    const auto provider = m_multipathd;
    start([dm, sysfs, map, message, provider] { return runMultipathOperation(*dm, sysfs, map, message, provider()); });
}

void MultipathControl::start(std::function<MultipathOperationResult()> work)
{
    m_jobs->start(
        QStringLiteral("multipath operation"), [work = std::move(work)](JobContext &) { return work(); },
        [this](const MultipathOperationResult &result) { Q_EMIT finished(result); });
}

MultipathOperationResult runMultipathOperation(DeviceMapper &dm, const SysfsRoot &sysfs, const QString &map,
    const MultipathMessage &message, const MultipathdCommand &multipathd)
{
    const auto prepared = prepareMultipathOperation(dm, sysfs, map, message);
    if (!prepared) {
        MultipathOperationResult result;
        result.map = map;
        // The message as asked, even when it does not format (an unresolved device name).
        result.operation = multipathMessageKeyword(message.kind);
        if (!message.device.isEmpty())
            result.operation += QLatin1Char(' ') + message.device;
        else if (message.group > 0)
            result.operation += QLatin1Char(' ') + QString::number(message.group);
        result.status = Status::failureOf(prepared);
        return result;
    }
    MultipathOperationResult result = executeMultipathOperation(dm, prepared.value(), multipathd);
    result.warnings = prepared->risks + result.warnings;
    return result;
}

} // namespace dmtune
