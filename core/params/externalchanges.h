#pragma once
// Changes made to the charted devices by anything but this window: `dmtunectl set` in a
// terminal, a preset applied elsewhere, an `echo` into sysfs. Every `interval` the devices' tunables are read again
// (a job: never on the window's thread) with the host's change log (changelog.h); each value that differs from the
// last read becomes one changed() with the marker's label: who changed it when a dmtune program did, "changed outside
// dmtune" otherwise. This window's own changes (in-process or through dmtune-helper) are left out: they have their
// markers already. The first read of a device is its baseline.
#include "core/sysfs/sysfsroot.h"

#include <QHash>
#include <QObject>
#include <QStringList>

class QTimer;

namespace dmtune {

class JobTracker;

class ExternalChangeWatcher : public QObject {
    Q_OBJECT
public:
    explicit ExternalChangeWatcher(const SysfsRoot &sysfs, QObject *parent = nullptr);
    ~ExternalChangeWatcher() override;

    // The devices to watch (the charted ones); a device new to the set gets its baseline at the next read.
    void setDevices(const QStringList &devices);
    QStringList devices() const { return m_devices; }
    void setInterval(int ms);
    int interval() const;
    // Reads now (tests; the timer does it every interval).
    void readNow();

Q_SIGNALS:
    void changed(double epochSeconds, const QString &label);
    // A read was taken in (after its changed() signals): the devices' values are its now.
    void readDone();

private:
    struct Read {
        double from = 0, to = 0; // epoch seconds: the previous read's time, this one's
        QHash<QString, QHash<QString, QString>> values; // device -> attribute -> value
        QStringList labels;
    };
    void onRead(const Read &read);

    SysfsRoot m_sysfs;
    QStringList m_devices;
    QHash<QString, QHash<QString, QString>> m_values; // the last read's
    double m_lastRead = 0;
    QTimer *m_timer;
    JobTracker *m_jobs; // child; deleted (joined) first in the destructor
};

} // namespace dmtune
