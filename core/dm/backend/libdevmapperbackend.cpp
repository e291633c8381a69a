#include "core/dm/backend/libdevmapperbackend.h"

#include "core/dm/backend/dmcontrolpoll.h"
#include "core/dm/backend/dmlibrary.h"

#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QStringList>

#include <libdevmapper.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <pthread.h>
#include <sys/sysmacros.h>

namespace dmtune {

namespace {
struct TaskDeleter {
    void operator()(dm_task *task) const { dm_task_destroy(task); }
};
using Task = std::unique_ptr<dm_task, TaskDeleter>;

QString failure(const QString &name, const char *what, dm_task *task, const DmLogCapture &log)
{
    QString text = name.isEmpty() ? QStringLiteral("device-mapper %1 failed").arg(QLatin1String(what))
                                  : QStringLiteral("%1: device-mapper %2 failed").arg(name, QLatin1String(what));
    const QString details = log.text();
    if (!details.isEmpty()) {
        text += QStringLiteral(": ") + details;
    } else if (task) {
        const int error = dm_task_get_errno(task);
        if (error)
            text += QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(error));
    }
    return text;
}

Task createTask(int type, const QString &name)
{
    Task task(dm_task_create(type));
    if (task && !name.isEmpty() && !dm_task_set_name(task.get(), name.toUtf8().constData()))
        task.reset();
    return task;
}

// Creates and runs one task; `configure` adds what the task type needs. Null plus `error` on failure.
template<typename Configure>
Task runTask(int type, const char *what, const QString &name, QString &error, Configure configure)
{
    DmLogCapture log;
    Task task = createTask(type, name);
    if (!task || !configure(task.get()) || !dm_task_run(task.get())) {
        error = failure(name, what, task.get(), log);
        return {};
    }
    return task;
}

Task runTask(int type, const char *what, const QString &name, QString &error)
{
    return runTask(type, what, name, error, [](dm_task *) { return true; });
}

QList<DmTargetLine> targetLines(dm_task *task)
{
    QList<DmTargetLine> lines;
    void *next = nullptr;
    do {
        uint64_t start = 0;
        uint64_t length = 0;
        char *type = nullptr;
        char *params = nullptr;
        next = dm_get_next_target(task, next, &start, &length, &type, &params);
        // A map without a live table yields one empty entry.
        if (type)
            lines.append({ start, length, QString::fromUtf8(type), QString::fromUtf8(params ? params : "").trimmed() });
    } while (next);
    return lines;
}

Result<DmInfo> infoLocked(const QString &name)
{
    QString error;
    Task task = runTask(DM_DEVICE_INFO, "info", name, error);
    if (!task)
        return Result<DmInfo>::failure(error);
    struct dm_info raw { };
    if (!dm_task_get_info(task.get(), &raw))
        return Result<DmInfo>::failure(QStringLiteral("%1: device-mapper info failed").arg(name));
    DmInfo info;
    if (!raw.exists)
        return info;
    info.exists = true;
    info.suspended = raw.suspended;
    info.readOnly = raw.read_only;
    info.liveTable = raw.live_table;
    info.inactiveTable = raw.inactive_table;
    info.openCount = raw.open_count;
    info.eventNr = raw.event_nr;
    info.major = raw.major;
    info.minor = raw.minor;
    info.targetCount = raw.target_count;
    const char *uuid = dm_task_get_uuid(task.get());
    info.uuid = QString::fromUtf8(uuid ? uuid : "");
    return info;
}

// Resumes with udev synchronisation when udevd runs (a cookie, then wait for its rules); without
// udevd libdevmapper maintains /dev/mapper itself (what DM_DISABLE_UDEV=1 does for dmsetup).
// noflush: with queue_if_no_path, queued I/O stays queued instead of failing; skip lockfs: a resume
// that swaps in a new table suspends first, and must not freeze (and wait on) a file system on the
// map, which hangs while no path serves I/O (libmultipath's dm_simplecmd does the same).
Status resumeLocked(const QString &name)
{
    const bool udevRunning = QFileInfo::exists(QStringLiteral("/run/udev/control"));
    DmLogCapture log;
    dm_udev_set_sync_support(udevRunning ? 1 : 0);
    Task task = createTask(DM_DEVICE_RESUME, name);
    if (!task || !dm_task_no_flush(task.get()) || !dm_task_skip_lockfs(task.get()))
        return Status::failure(failure(name, "resume", task.get(), log));
    uint32_t cookie = 0;
    const bool withCookie = udevRunning && dm_task_set_cookie(task.get(), &cookie, 0);
    const bool ok = dm_task_run(task.get());
    // Once a cookie is set it must be waited for, whatever the ioctl returned.
    if (withCookie)
        dm_udev_wait(cookie);
    else
        dm_task_update_nodes();
    if (!ok)
        return Status::failure(failure(name, "resume", task.get(), log));
    return Status::success();
}

// SIGINT, SIGTERM and SIGHUP wait (blocked in this thread) until a reload has brought its map back:
// a process ended between the load and the resume, or between a failed resume and the one that puts
// the old table back, would leave a table loaded for the next resume, or the map suspended. A blocked
// signal also cannot interrupt the kernel's suspend. Pending signals arrive when the mask is restored.
class CriticalSignals {
public:
    CriticalSignals()
    {
        sigset_t set;
        sigemptyset(&set);
        for (const int signal : { SIGINT, SIGTERM, SIGHUP })
            sigaddset(&set, signal);
        m_blocked = pthread_sigmask(SIG_BLOCK, &set, &m_previous) == 0;
    }
    ~CriticalSignals()
    {
        if (m_blocked)
            pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }
    CriticalSignals(const CriticalSignals &) = delete;
    CriticalSignals &operator=(const CriticalSignals &) = delete;

private:
    sigset_t m_previous;
    bool m_blocked = false;
};

Status checkTableLines(const QList<DmTargetLine> &table)
{
    if (table.isEmpty())
        return Status::failure(QStringLiteral("empty table"));
    for (const DmTargetLine &line : table) {
        if (line.targetType.isEmpty() || line.targetType.contains(QLatin1Char(' '))
            || line.params.contains(QLatin1Char('\n')))
            return Status::failure(QStringLiteral("invalid table line \"%1\"").arg(formatTargetLine(line)));
    }
    return Status::success();
}
} // namespace

LibDevmapperBackend::LibDevmapperBackend(SysfsRoot root, QString controlPath)
    : m_root(std::move(root))
    , m_controlPath(std::move(controlPath))
{
}

DmAvailability LibDevmapperBackend::availability() const
{
    return checkDeviceMapper(m_root, m_controlPath);
}

QString LibDevmapperBackend::driverVersion()
{
    if (!ready({}))
        return {};
    QMutexLocker lock(&dmLibraryMutex());
    DmLogCapture log; // a failure leaves the version empty; its log must not reach stderr
    char version[64] = {};
    if (!dm_driver_version(version, sizeof version))
        return {};
    return QString::fromLatin1(version).trimmed();
}

QString LibDevmapperBackend::libraryVersion()
{
    QMutexLocker lock(&dmLibraryMutex());
    char version[64] = {};
    if (!dm_get_library_version(version, sizeof version))
        return {};
    return QString::fromLatin1(version).trimmed();
}

Status LibDevmapperBackend::ready(const QString &name) const
{
    // Checked on every call (cheap: a few stat calls): dm_mod may be loaded while we run.
    const DmAvailability available = availability();
    if (!available.available)
        return Status::failure(available.reason);
    return name.isNull() ? Status::success() : checkMapName(name);
}

Result<QList<DmMapName>> LibDevmapperBackend::listMaps()
{
    using R = Result<QList<DmMapName>>;
    if (const Status s = ready({}); !s)
        return R::failure(s.errorMessage());
    QMutexLocker lock(&dmLibraryMutex());
    QString error;
    Task task = runTask(DM_DEVICE_LIST, "list", {}, error);
    if (!task)
        return R::failure(error);
    QList<DmMapName> maps;
    const dm_names *names = dm_task_get_names(task.get());
    // An empty list is one entry with dev == 0.
    if (!names || !names->dev)
        return maps;
    for (;;) {
        maps.append({ QString::fromUtf8(names->name), major(names->dev), minor(names->dev) });
        if (!names->next)
            break;
        names = reinterpret_cast<const dm_names *>(reinterpret_cast<const char *>(names) + names->next);
    }
    return maps;
}

Result<DmInfo> LibDevmapperBackend::info(const QString &name)
{
    if (const Status s = ready(name); !s)
        return Result<DmInfo>::failure(s.errorMessage());
    QMutexLocker lock(&dmLibraryMutex());
    return infoLocked(name);
}

Result<QList<DmTargetLine>> LibDevmapperBackend::targets(int type, const char *what, const QString &name)
{
    using R = Result<QList<DmTargetLine>>;
    if (const Status s = ready(name); !s)
        return R::failure(s.errorMessage());
    QMutexLocker lock(&dmLibraryMutex());
    QString error;
    Task task = runTask(type, what, name, error, [](dm_task *t) { return dm_task_no_open_count(t) != 0; });
    if (!task)
        return R::failure(error);
    return targetLines(task.get());
}

Result<QList<DmTargetLine>> LibDevmapperBackend::table(const QString &name)
{
    return targets(DM_DEVICE_TABLE, "table", name);
}

Result<QList<DmTargetLine>> LibDevmapperBackend::status(const QString &name)
{
    return targets(DM_DEVICE_STATUS, "status", name);
}

QString LibDevmapperBackend::readOnlyReason() const
{
    if (m_root.isLive())
        return {};
    return QStringLiteral("%1 is not this system's /sys: no device-mapper change is made through it")
        .arg(m_root.root());
}

Status LibDevmapperBackend::message(const QString &name, const QString &text)
{
    if (const Status s = ready(name); !s)
        return s;
    if (const QString why = readOnlyReason(); !why.isEmpty())
        return Status::failure(QStringLiteral("%1: %2").arg(name, why));
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.contains(QLatin1Char('\n')))
        return Status::failure(QStringLiteral("%1: invalid message \"%2\"").arg(name, text));
    QMutexLocker lock(&dmLibraryMutex());
    QString error;
    const QByteArray bytes = trimmed.toUtf8();
    Task task = runTask(DM_DEVICE_TARGET_MSG, "message", name, error,
        [&](dm_task *t) { return dm_task_set_sector(t, 0) && dm_task_set_message(t, bytes.constData()); });
    if (!task)
        return Status::failure(QStringLiteral("%1 (\"%2\")").arg(error, trimmed));
    return Status::success();
}

Status LibDevmapperBackend::reload(const QString &name, const QList<DmTargetLine> &table)
{
    if (const Status s = ready(name); !s)
        return s;
    if (const QString why = readOnlyReason(); !why.isEmpty())
        return Status::failure(QStringLiteral("%1: %2").arg(name, why));
    if (const Status s = checkTableLines(table); !s)
        return Status::failure(name + QStringLiteral(": ") + s.errorMessage());
    QMutexLocker lock(&dmLibraryMutex());

    const auto before = infoLocked(name);
    if (!before)
        return Status::failure(before.errorMessage());
    if (!before->exists)
        return Status::failure(QStringLiteral("%1: no such map").arg(name));
    if (before->suspended)
        return Status::failure(QStringLiteral("%1: the map is suspended; resume it before reloading").arg(name));

    // As libmultipath's dm_addmap_reload: load the new table into the inactive slot (the map keeps
    // serving I/O meanwhile), then one resume swaps it in; the kernel suspends only inside that ioctl.
    const CriticalSignals critical;
    QString error;
    Task loaded = runTask(DM_DEVICE_RELOAD, "load", name, error, [&](dm_task *t) {
        for (const DmTargetLine &line : table) {
            if (!dm_task_add_target(
                    t, line.start, line.length, line.targetType.toUtf8().constData(), line.params.toUtf8().constData()))
                return false;
        }
        return true;
    });
    if (!loaded)
        return Status::failure(error + QStringLiteral(" (the old table stays live)"));

    const Status resumed = resumeLocked(name);
    if (resumed)
        return Status::success();
    // The suspend failed (the map runs on with the old table, the new one back in the inactive slot)
    // or the swap did (the map stays suspended, the new table dropped): drop it, resume the old one.
    QString clearError;
    runTask(DM_DEVICE_CLEAR, "clear", name, clearError);
    const auto after = infoLocked(name);
    if (after && after->exists && !after->suspended)
        return Status::failure(resumed.errorMessage() + QStringLiteral(" (the old table stays live)"));
    const Status again = resumeLocked(name);
    if (!again)
        return Status::failure(
            resumed.errorMessage() + QStringLiteral("; resuming the old table also failed: ") + again.errorMessage());
    return Status::failure(resumed.errorMessage() + QStringLiteral(" (the old table is live again)"));
}

Result<quint32> LibDevmapperBackend::waitEvent(const QString &name, quint32 eventNr)
{
    using R = Result<quint32>;
    if (const Status s = ready(name); !s)
        return R::failure(s.errorMessage());
    {
        // Also opens the control device under the lock before the unlocked wait below.
        QMutexLocker lock(&dmLibraryMutex());
        const auto current = infoLocked(name);
        if (!current)
            return R::failure(current.errorMessage());
        if (!current->exists)
            return R::failure(QStringLiteral("%1: no such map").arg(name));
        if (current->eventNr != eventNr)
            return current->eventNr;
    }
    QString error;
    Task task = runTask(DM_DEVICE_WAITEVENT, "wait for event", name, error,
        [eventNr](dm_task *t) { return dm_task_set_event_nr(t, eventNr) != 0; });
    if (!task)
        return R::failure(error);
    struct dm_info raw { };
    if (!dm_task_get_info(task.get(), &raw) || !raw.exists)
        return R::failure(QStringLiteral("%1: the map went away").arg(name));
    return quint32(raw.event_nr);
}

Result<std::shared_ptr<DmEventPoll>> LibDevmapperBackend::openEventPoll()
{
    using R = Result<std::shared_ptr<DmEventPoll>>;
    if (const Status s = ready({}); !s)
        return R::failure(s.errorMessage());
    return openControlEventPoll(m_controlPath);
}

} // namespace dmtune
