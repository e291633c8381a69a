#pragma once
// libudev at the edge: enumeration of subsystem "block" and a monitor of its events.
#include "core/discovery/snapshotbuilder.h"

#include <QObject>

struct udev;
struct udev_monitor;
class QSocketNotifier;

namespace dmtune {

// Disks (DEVTYPE disk) of subsystem block, with udev database properties when udevd has them.
Result<QList<UdevRecord>> enumerateWithUdev();

// Where udevd keeps its database: one file per device, b<MAJ:MIN> for block devices.
inline constexpr auto UdevDataDirectory = "/run/udev/data";

// The properties (E:KEY=VALUE lines) of one entry of udev's database; the other lines (S: links, G: tags, I:
// time) are not properties.
QHash<QString, QString> parseUdevDatabaseEntry(const QByteArray &text);

// Fills each record's properties from udev's database in dataDir, the device numbers from devnumByName: the
// directory is listed once and only the entries it has are opened, one each (without udevd: none at all).
// libudev reads the same files, but per device it walks the device's path a component at a time and reads its
// entry up to a dozen times.
void addUdevDatabaseProperties(
    QList<UdevRecord> &records, const QHash<QString, QString> &devnumByName, const QString &dataDir);

// Whether udevd runs (its control socket exists); without it events come from the kernel.
bool udevDaemonRunning();

class UdevMonitor : public QObject {
    Q_OBJECT
public:
    explicit UdevMonitor(QObject *parent = nullptr);
    ~UdevMonitor() override;

    // Listens to udevd's events when it runs, else to the kernel's uevents.
    Status start();
    bool isRunning() const { return m_monitor != nullptr; }
    QString source() const { return m_source; }

Q_SIGNALS:
    // action: add, remove, change, move, online, offline; devtype: disk or partition.
    void blockEvent(const QString &action, const QString &sysname, const QString &devtype);

private:
    void readEvents();

    struct udev *m_udev = nullptr;
    struct udev_monitor *m_monitor = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QString m_source;
};

} // namespace dmtune
