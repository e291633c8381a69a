#pragma once
// Access to the kernel's device-mapper: list maps, read their tables and status, send target
// messages, reload tables, wait for events. LibDevmapperBackend talks to the kernel,
// FakeDeviceMapper (tests/common) keeps maps in memory for tests.
#include "core/dm/grammar/dmtargetline.h"
#include "core/util/result.h"

#include <QList>
#include <QString>

#include <memory>

namespace dmtune {

struct DmMapName {
    QString name;
    quint32 major = 0;
    quint32 minor = 0;

    bool operator==(const DmMapName &) const = default;
};

struct DmInfo {
    bool exists = false; // false (and nothing else set) when there is no map of that name
    bool suspended = false;
    bool readOnly = false;
    bool liveTable = false;
    bool inactiveTable = false; // a table loaded but not yet resumed
    int openCount = 0;
    quint32 eventNr = 0;
    quint32 major = 0;
    quint32 minor = 0;
    int targetCount = 0;
    QString uuid; // "mpath-3600..." for multipathd's maps; may be empty

    bool operator==(const DmInfo &) const = default;
};

// Events of every map through one file descriptor (DM_DEV_ARM_POLL on the control device, dm ioctl 4.37, kernel
// 4.13): fd() polls readable (POLLIN) once any map's event counter moved, or a map came or went, after the last
// arm(). One thread serves every map this way. Arm before reading the counters, as multipathd does (poll, arm,
// read): an event between a read and a later arm would be lost.
class DmEventPoll {
public:
    virtual ~DmEventPoll() = default;
    virtual int fd() const = 0;
    virtual Status arm() = 0;
};

class DeviceMapper {
public:
    virtual ~DeviceMapper() = default;

    virtual Result<QList<DmMapName>> listMaps() = 0;
    // A missing map is not an error: the info says exists == false.
    virtual Result<DmInfo> info(const QString &name) = 0;
    virtual Result<QList<DmTargetLine>> table(const QString &name) = 0;
    virtual Result<QList<DmTargetLine>> status(const QString &name) = 0;
    // A target message to sector 0, e.g. "fail_path 8:16" (see multipathmessages.h).
    virtual Status message(const QString &name, const QString &text) = 0;
    // Replaces the live table: load it, then resume (noflush, lockfs skipped) to swap it in, with
    // SIGINT/SIGTERM/SIGHUP held off in between. When the load fails the old table stays live; after
    // any failure the map is resumed: it is never left suspended. A map that is already suspended is
    // refused (someone else is working on it).
    virtual Status reload(const QString &name, const QList<DmTargetLine> &table) = 0;
    // Blocks until the map's event counter differs from eventNr, returns the new counter
    // (DM_DEVICE_WAITEVENT). Run it in a worker thread; it also returns when the map goes away.
    virtual Result<quint32> waitEvent(const QString &name, quint32 eventNr) = 0;
    // An event poll of its own, armed (see DmEventPoll). Fails (saying why) where the kernel or the backend has
    // none: an older kernel, a captured system; waitEvent per map is the fallback there.
    virtual Result<std::shared_ptr<DmEventPoll>> openEventPoll()
    {
        return Result<std::shared_ptr<DmEventPoll>>::failure(QStringLiteral("no device-mapper event poll"));
    }
    // Why message() and reload() refuse every map (a captured system's device-mapper, or this host's
    // reached through a tree that is not this host's /sys); empty when they may change maps.
    virtual QString readOnlyReason() const { return {}; }
};

// Map names as the kernel takes them: 1-127 bytes, no '/', not "." or "..".
Status checkMapName(const QString &name);

} // namespace dmtune
