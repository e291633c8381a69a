#include "fakedevicemapper.h"

#include "core/dm/grammar/multipathmessages.h"
#include "core/dm/grammar/multipathstatus.h"
#include "core/dm/grammar/multipathtable.h"

#include <QDeadlineTimer>
#include <QMutexLocker>

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace dmtune {

namespace {
// Device-mapper's dynamic major on most systems.
constexpr quint32 dmMajor = 253;

QString noSuchMap(const QString &name)
{
    return QStringLiteral("%1: no such map").arg(name);
}

// Checks each multipath line of a table the way the kernel's constructor would.
Status checkTable(const QList<DmTargetLine> &lines)
{
    if (lines.isEmpty())
        return Status::failure(QStringLiteral("empty table"));
    for (const DmTargetLine &line : lines) {
        if (line.targetType.isEmpty())
            return Status::failure(QStringLiteral("a table line without target type"));
        if (line.targetType == QLatin1String("multipath")) {
            const auto parsed = parseMultipathTable(line.params);
            if (!parsed)
                return Status::failure(QStringLiteral("multipath: ") + parsed.errorMessage());
        }
    }
    return Status::success();
}

QList<DmTargetLine> freshStatus(const QList<DmTargetLine> &table)
{
    QList<DmTargetLine> status;
    for (const DmTargetLine &line : table) {
        DmTargetLine entry { line.start, line.length, line.targetType, {} };
        if (line.targetType == QLatin1String("multipath")) {
            if (const auto parsed = parseMultipathTable(line.params))
                entry.params = formatMultipathStatus(initialMultipathStatus(parsed.value()));
        }
        status.append(entry);
    }
    return status;
}

// What clearing current_pg does to the status: no group is 'A' any more; the printed group
// becomes the pending next group, which an I/O has usually consumed already (then 1).
void clearCurrentGroup(MultipathStatus &status)
{
    if (status.activeGroup() != 0)
        status.nextGroup = status.groups.isEmpty() ? 0 : 1;
    for (GroupStatus &group : status.groups) {
        if (group.state == QLatin1Char('A'))
            group.state = QLatin1Char('E');
    }
}

// Applies one message; `changed` tells whether the kernel would raise an event.
Status applyMessage(const MultipathMessage &message, MultipathTable &table, MultipathStatus &status, bool &changed)
{
    changed = false;
    const int groupCount = int(status.groups.size());
    switch (message.kind) {
    case MultipathMessageKind::FailPath:
    case MultipathMessageKind::ReinstatePath: {
        const bool fail = message.kind == MultipathMessageKind::FailPath;
        bool found = false;
        for (GroupStatus &group : status.groups) {
            for (PathStatus &path : group.paths) {
                if (path.device != message.device)
                    continue;
                found = true;
                if (path.active == fail) {
                    path.active = !fail;
                    path.failCount += fail ? 1 : 0;
                    changed = true;
                }
            }
        }
        if (!found)
            return Status::failure(QStringLiteral("no path %1 in this map: Invalid argument").arg(message.device));
        return Status::success();
    }
    case MultipathMessageKind::SwitchGroup:
    case MultipathMessageKind::EnableGroup:
    case MultipathMessageKind::DisableGroup: {
        if (message.group < 1 || message.group > groupCount)
            return Status::failure(QStringLiteral("invalid group number %1 (the map has %2): Invalid argument")
                                       .arg(message.group)
                                       .arg(groupCount));
        GroupStatus &target = status.groups[message.group - 1];
        if (message.kind == MultipathMessageKind::SwitchGroup) {
            // switch_pg_num(): every group loses its bypass, the chosen one is used by the next I/O.
            for (GroupStatus &group : status.groups)
                group.state = QLatin1Char('E');
            status.nextGroup = message.group;
        } else {
            clearCurrentGroup(status);
            if (message.kind == MultipathMessageKind::DisableGroup)
                target.state = QLatin1Char('D');
            else if (target.state == QLatin1Char('D'))
                target.state = QLatin1Char('E');
        }
        changed = true;
        return Status::success();
    }
    case MultipathMessageKind::QueueIfNoPath:
    case MultipathMessageKind::FailIfNoPath: {
        // Shown in the table's features (the status has no such flag); no event.
        QStringList &features = table.features;
        features.removeIf([](const QString &word) {
            return word.compare(QLatin1String("queue_if_no_path"), Qt::CaseInsensitive) == 0;
        });
        if (message.kind == MultipathMessageKind::QueueIfNoPath)
            features.prepend(QStringLiteral("queue_if_no_path"));
        return Status::success();
    }
    }
    return Status::failure(QStringLiteral("unsupported message"));
}

// choose_pgpath() for the fake: returns the 1-based group an I/O would use, 0 for none.
int chooseGroup(const MultipathStatus &status)
{
    const auto usable = [&](int number) {
        return number >= 1 && number <= status.groups.size() && status.groups.at(number - 1).activePathCount() > 0;
    };
    if (usable(status.activeGroup()))
        return status.activeGroup();
    // The printed next group stands for next_pg; after switch_group it is never disabled, so a
    // disabled one here is the default "1", which the kernel does not prefer.
    if (status.activeGroup() == 0 && usable(status.nextGroup)
        && status.groups.at(status.nextGroup - 1).state != QLatin1Char('D'))
        return status.nextGroup;
    for (const bool bypassed : { false, true }) {
        for (int number = 1; number <= status.groups.size(); ++number) {
            if ((status.groups.at(number - 1).state == QLatin1Char('D')) == bypassed && usable(number))
                return number;
        }
    }
    return 0;
}

int multipathIndex(const QList<DmTargetLine> &lines)
{
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).targetType == QLatin1String("multipath"))
            return int(i);
    }
    return -1;
}
} // namespace

FakeDeviceMapper::Map *FakeDeviceMapper::find(const QString &name)
{
    const auto it = m_maps.find(name);
    return it == m_maps.end() ? nullptr : &it.value();
}

void FakeDeviceMapper::bumpEvent(Map &map)
{
    ++map.eventNr;
    bumpGlobalEvent();
    m_changed.wakeAll();
}

// The control device's poll after DM_DEV_ARM_POLL: readable while the global event counter is past the one seen at
// the last arm. An eventfd carries "readable" so that poll() works on it as on /dev/mapper/control.
class FakeDeviceMapper::Poll final : public DmEventPoll {
public:
    Poll(FakeDeviceMapper *fake, int fd)
        : m_fake(fake)
        , m_fd(fd)
    {
    }
    ~Poll() override
    {
        {
            QMutexLocker lock(&m_fake->m_mutex);
            m_fake->m_polls.removeOne(this);
        }
        ::close(m_fd);
    }
    int fd() const override { return m_fd; }
    Status arm() override
    {
        QMutexLocker lock(&m_fake->m_mutex);
        eventfd_t drained = 0;
        eventfd_read(m_fd, &drained); // non-blocking: EAGAIN when nothing was pending
        armedAt = m_fake->m_globalEventNr;
        return Status::success();
    }
    void signal() const { eventfd_write(m_fd, 1); }

    quint64 armedAt = 0; // guarded by the fake's mutex

private:
    FakeDeviceMapper *m_fake;
    int m_fd;
};

void FakeDeviceMapper::bumpGlobalEvent()
{
    ++m_globalEventNr;
    for (Poll *poll : std::as_const(m_polls)) {
        if (poll->armedAt != m_globalEventNr)
            poll->signal();
    }
}

void FakeDeviceMapper::setEventPollSupported(bool supported)
{
    QMutexLocker lock(&m_mutex);
    m_eventPollSupported = supported;
}

Result<std::shared_ptr<DmEventPoll>> FakeDeviceMapper::openEventPoll()
{
    using R = Result<std::shared_ptr<DmEventPoll>>;
    QMutexLocker lock(&m_mutex);
    if (!m_eventPollSupported)
        return R::failure(QStringLiteral("device-mapper event poll: not supported by this kernel"));
    const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0)
        return R::failure(QStringLiteral("eventfd: ") + QString::fromLocal8Bit(std::strerror(errno)));
    auto poll = std::make_shared<Poll>(this, fd);
    poll->armedAt = m_globalEventNr; // a fresh control fd is armed at open, as the kernel's
    m_polls.append(poll.get());
    return std::shared_ptr<DmEventPoll>(poll);
}

Status FakeDeviceMapper::addMap(
    const QString &name, const QString &tableText, const QString &statusText, const QString &uuid)
{
    if (const Status s = checkMapName(name); !s)
        return s;
    const auto table = parseTargetLines(tableText);
    if (!table)
        return Status::failure(table.errorMessage());
    if (const Status s = checkTable(table.value()); !s)
        return s;
    Map map;
    map.table = table.value();
    map.uuid = uuid;
    if (statusText.isEmpty()) {
        map.status = freshStatus(map.table);
    } else {
        const auto status = parseTargetLines(statusText);
        if (!status)
            return Status::failure(status.errorMessage());
        if (status->size() != map.table.size())
            return Status::failure(
                QStringLiteral("the status has %1 line(s), the table %2").arg(status->size()).arg(map.table.size()));
        for (const DmTargetLine &line : status.value()) {
            if (line.targetType == QLatin1String("multipath")) {
                if (const auto parsed = parseMultipathStatus(line.params); !parsed)
                    return Status::failure(QStringLiteral("multipath status: ") + parsed.errorMessage());
            }
        }
        map.status = status.value();
    }
    QMutexLocker lock(&m_mutex);
    if (m_maps.contains(name))
        return Status::failure(QStringLiteral("%1: a map of that name exists").arg(name));
    map.minor = m_nextMinor++;
    m_maps.insert(name, map);
    bumpGlobalEvent(); // the kernel raises a global event when a map is created or removed
    return Status::success();
}

void FakeDeviceMapper::removeMap(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    if (m_maps.remove(name))
        bumpGlobalEvent();
    m_changed.wakeAll();
}

void FakeDeviceMapper::setSuspended(const QString &name, bool suspended)
{
    QMutexLocker lock(&m_mutex);
    if (Map *map = find(name))
        map->suspended = suspended;
}

void FakeDeviceMapper::failNextLoad(const QString &name, const QString &message)
{
    QMutexLocker lock(&m_mutex);
    if (Map *map = find(name))
        map->loadError = message;
}

void FakeDeviceMapper::triggerEvent(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    if (Map *map = find(name))
        bumpEvent(*map);
}

Status FakeDeviceMapper::simulateIo(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    Map *map = find(name);
    if (!map)
        return Status::failure(noSuchMap(name));
    const int index = multipathIndex(map->status);
    if (index < 0)
        return Status::success();
    auto status = parseMultipathStatus(map->status.at(index).params);
    const auto table = parseMultipathTable(map->table.value(index).params);
    if (!status || !table)
        return Status::failure(QStringLiteral("%1: the multipath table or status does not parse").arg(name));
    MultipathStatus &s = status.value();
    const int previous = s.activeGroup();
    const int chosen = chooseGroup(s);
    if (chosen == 0) {
        // No usable path: queue_io is cleared, no group is current.
        clearCurrentGroup(s);
        if (!s.features.isEmpty())
            s.features[0] = QStringLiteral("0");
    } else if (chosen != previous) {
        for (qsizetype i = 0; i < s.groups.size(); ++i) {
            GroupStatus &group = s.groups[i];
            if (i + 1 == chosen)
                group.state = QLatin1Char('A');
            else if (group.state == QLatin1Char('A'))
                group.state = QLatin1Char('E');
        }
        s.nextGroup = chosen;
        // __switch_pg(): with a hardware handler the group is initialised once (pg_init_count 1).
        if (s.features.size() == 2)
            s.features
                = { QStringLiteral("0"), table->hwHandler.isEmpty() ? QStringLiteral("0") : QStringLiteral("1") };
    }
    map->status[index].params = formatMultipathStatus(s);
    return Status::success();
}

QStringList FakeDeviceMapper::receivedMessages(const QString &name) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_maps.constFind(name);
    return it == m_maps.constEnd() ? QStringList() : it->messages;
}

void FakeDeviceMapper::setWaitTimeout(int milliseconds)
{
    QMutexLocker lock(&m_mutex);
    m_waitTimeout = milliseconds;
}

Result<QList<DmMapName>> FakeDeviceMapper::listMaps()
{
    QMutexLocker lock(&m_mutex);
    QList<DmMapName> names;
    for (auto it = m_maps.cbegin(); it != m_maps.cend(); ++it)
        names.append({ it.key(), dmMajor, it->minor });
    return names;
}

Result<DmInfo> FakeDeviceMapper::info(const QString &name)
{
    if (const Status s = checkMapName(name); !s)
        return Result<DmInfo>::failure(s.errorMessage());
    QMutexLocker lock(&m_mutex);
    DmInfo info;
    const Map *map = find(name);
    if (!map)
        return info;
    info.exists = true;
    info.suspended = map->suspended;
    info.liveTable = !map->table.isEmpty();
    info.eventNr = map->eventNr;
    info.major = dmMajor;
    info.minor = map->minor;
    info.targetCount = int(map->table.size());
    info.uuid = map->uuid;
    return info;
}

Result<QList<DmTargetLine>> FakeDeviceMapper::table(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    const Map *map = find(name);
    if (!map)
        return Result<QList<DmTargetLine>>::failure(noSuchMap(name));
    return map->table;
}

Result<QList<DmTargetLine>> FakeDeviceMapper::status(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    const Map *map = find(name);
    if (!map)
        return Result<QList<DmTargetLine>>::failure(noSuchMap(name));
    return map->status;
}

Status FakeDeviceMapper::message(const QString &name, const QString &text)
{
    QMutexLocker lock(&m_mutex);
    Map *map = find(name);
    if (!map)
        return Status::failure(noSuchMap(name));
    if (map->suspended)
        return Status::failure(QStringLiteral("%1: message failed: Device or resource busy").arg(name));
    const int index = multipathIndex(map->table);
    if (index < 0 || index >= map->status.size())
        return Status::failure(QStringLiteral("%1: the fake only applies messages to multipath maps").arg(name));
    const auto parsed = parseMultipathMessage(text);
    if (!parsed)
        return Status::failure(
            QStringLiteral("%1: message \"%2\" rejected: %3").arg(name, text, parsed.errorMessage()));
    auto table = parseMultipathTable(map->table.at(index).params);
    auto status = parseMultipathStatus(map->status.at(index).params);
    if (!table || !status)
        return Status::failure(QStringLiteral("%1: the multipath table or status does not parse").arg(name));
    bool changed = false;
    if (const Status applied = applyMessage(parsed.value(), table.value(), status.value(), changed); !applied)
        return Status::failure(
            QStringLiteral("%1: message \"%2\" rejected: %3").arg(name, text, applied.errorMessage()));
    map->table[index].params = formatMultipathTable(table.value());
    map->status[index].params = formatMultipathStatus(status.value());
    map->messages.append(text);
    if (changed)
        bumpEvent(*map);
    return Status::success();
}

Status FakeDeviceMapper::reload(const QString &name, const QList<DmTargetLine> &table)
{
    QMutexLocker lock(&m_mutex);
    Map *map = find(name);
    if (!map)
        return Status::failure(noSuchMap(name));
    if (map->suspended)
        return Status::failure(QStringLiteral("%1: the map is suspended; resume it before reloading").arg(name));
    if (!map->loadError.isEmpty()) {
        const QString error = std::exchange(map->loadError, QString());
        return Status::failure(
            QStringLiteral("%1: device-mapper load failed: %2 (the old table stays live)").arg(name, error));
    }
    if (const Status s = checkTable(table); !s)
        return Status::failure(
            QStringLiteral("%1: device-mapper load failed: %2 (the old table stays live)").arg(name, s.errorMessage()));
    map->table = table;
    map->status = freshStatus(table);
    bumpEvent(*map);
    return Status::success();
}

Result<quint32> FakeDeviceMapper::waitEvent(const QString &name, quint32 eventNr)
{
    QMutexLocker lock(&m_mutex);
    QDeadlineTimer deadline(
        m_waitTimeout < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(m_waitTimeout));
    for (;;) {
        const Map *map = find(name);
        if (!map)
            return Result<quint32>::failure(noSuchMap(name));
        if (map->eventNr != eventNr)
            return map->eventNr;
        if (!m_changed.wait(&m_mutex, deadline))
            return Result<quint32>::failure(QStringLiteral("%1: no event before the timeout").arg(name));
    }
}

} // namespace dmtune
