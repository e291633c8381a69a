#pragma once
// An in-memory DeviceMapper for tests of the logic above it. Multipath messages change the
// status (and queue_if_no_path the table) the way drivers/md/dm-mpath.c does; I/O does not happen
// by itself: simulateIo() lets it pick a group. Thread-safe; waitEvent() blocks like the kernel's, and
// openEventPoll() gives a real file descriptor that polls readable as the control device's does after
// DM_DEV_ARM_POLL (one global event counter, bumped by every map event and by maps that come or go).
#include "core/dm/backend/devicemapper.h"

#include <QMap>
#include <QMutex>
#include <QStringList>
#include <QWaitCondition>

namespace dmtune {

class FakeDeviceMapper final : public DeviceMapper {
public:
    FakeDeviceMapper() = default;

    // Adds a map from `dmsetup table` / `dmsetup status` text (one target per line). Without a
    // status a multipath map starts as the kernel reports a freshly loaded table.
    Status addMap(
        const QString &name, const QString &tableText, const QString &statusText = {}, const QString &uuid = {});
    // Removes a map; its waiters return with an error.
    void removeMap(const QString &name);
    void setSuspended(const QString &name, bool suspended);
    // The next reload of `name` fails at the load step with `message`; the old table stays live.
    void failNextLoad(const QString &name, const QString &message);
    // Bumps the event counter, as the kernel does when it fails a path on an I/O error.
    void triggerEvent(const QString &name);
    // I/O arrives: the map picks a group as choose_pgpath() does (the current group while it has
    // an active path, else the next one, else the first enabled, then disabled, group with one).
    Status simulateIo(const QString &name);
    // The message texts the map accepted, oldest first.
    QStringList receivedMessages(const QString &name) const;
    // waitEvent gives up after this long (default: never), for tests that must not hang.
    void setWaitTimeout(int milliseconds);
    // false: openEventPoll() fails as on a kernel before 4.13 (the DM_DEV_WAIT fallback runs). Default true.
    void setEventPollSupported(bool supported);

    Result<QList<DmMapName>> listMaps() override;
    Result<DmInfo> info(const QString &name) override;
    Result<QList<DmTargetLine>> table(const QString &name) override;
    Result<QList<DmTargetLine>> status(const QString &name) override;
    Status message(const QString &name, const QString &text) override;
    Status reload(const QString &name, const QList<DmTargetLine> &table) override;
    Result<quint32> waitEvent(const QString &name, quint32 eventNr) override;
    Result<std::shared_ptr<DmEventPoll>> openEventPoll() override;

private:
    class Poll;
    friend class Poll;
    struct Map {
        quint32 minor = 0;
        QString uuid;
        QList<DmTargetLine> table;
        QList<DmTargetLine> status;
        bool suspended = false;
        quint32 eventNr = 0;
        QStringList messages;
        QString loadError;
    };
    Map *find(const QString &name);
    void bumpEvent(Map &map);
    void bumpGlobalEvent(); // with m_mutex held

    mutable QMutex m_mutex;
    QWaitCondition m_changed;
    QMap<QString, Map> m_maps;
    quint32 m_nextMinor = 0;
    int m_waitTimeout = -1;
    bool m_eventPollSupported = true;
    quint64 m_globalEventNr = 0;
    QList<Poll *> m_polls;
};

// For code that makes its own backend per use (DmEventWatcher's workers, the preset manager's reloads): each
// forwards to one shared fake, which must outlive them.
class FakeDeviceMapperHandle final : public DeviceMapper {
public:
    explicit FakeDeviceMapperHandle(FakeDeviceMapper *fake)
        : m_fake(fake)
    {
    }
    Result<QList<DmMapName>> listMaps() override { return m_fake->listMaps(); }
    Result<DmInfo> info(const QString &n) override { return m_fake->info(n); }
    Result<QList<DmTargetLine>> table(const QString &n) override { return m_fake->table(n); }
    Result<QList<DmTargetLine>> status(const QString &n) override { return m_fake->status(n); }
    Status message(const QString &n, const QString &t) override { return m_fake->message(n, t); }
    Status reload(const QString &n, const QList<DmTargetLine> &t) override { return m_fake->reload(n, t); }
    Result<quint32> waitEvent(const QString &n, quint32 e) override { return m_fake->waitEvent(n, e); }
    Result<std::shared_ptr<DmEventPoll>> openEventPoll() override { return m_fake->openEventPoll(); }

private:
    FakeDeviceMapper *m_fake;
};

} // namespace dmtune
