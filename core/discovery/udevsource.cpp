#include "core/discovery/udevsource.h"

#include "core/util/fd.h"

#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSocketNotifier>

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <libudev.h>

namespace dmtune {

namespace {
QString str(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}
} // namespace

bool udevDaemonRunning()
{
    return QFileInfo::exists(QStringLiteral("/run/udev/control"));
}

Result<QList<UdevRecord>> enumerateWithUdev()
{
    struct udev *udev = udev_new();
    if (!udev)
        return Result<QList<UdevRecord>>::failure(QStringLiteral("libudev: udev_new failed"));
    struct udev_enumerate *en = udev_enumerate_new(udev);
    QList<UdevRecord> records;
    if (!en || udev_enumerate_add_match_subsystem(en, "block") < 0
        || udev_enumerate_add_match_property(en, "DEVTYPE", "disk") < 0 || udev_enumerate_scan_devices(en) < 0) {
        if (en)
            udev_enumerate_unref(en);
        udev_unref(udev);
        return Result<QList<UdevRecord>>::failure(QStringLiteral("libudev: cannot enumerate block devices"));
    }
    struct udev_list_entry *entry = nullptr;
    udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en))
    {
        struct udev_device *dev = udev_device_new_from_syspath(udev, udev_list_entry_get_name(entry));
        if (!dev)
            continue; // gone between the scan and now
        UdevRecord record;
        record.sysname = str(udev_device_get_sysname(dev));
        // Properties come from the uevent file and, when udevd ran, its database (ID_*, DM_*).
        struct udev_list_entry *prop = nullptr;
        udev_list_entry_foreach(prop, udev_device_get_properties_list_entry(dev))
        {
            record.properties.insert(str(udev_list_entry_get_name(prop)), str(udev_list_entry_get_value(prop)));
        }
        records.append(record);
        udev_device_unref(dev);
    }
    udev_enumerate_unref(en);
    udev_unref(udev);
    return records;
}

QHash<QString, QString> parseUdevDatabaseEntry(const QByteArray &text)
{
    QHash<QString, QString> properties;
    for (const QByteArray &line : text.split('\n')) {
        if (!line.startsWith("E:"))
            continue;
        const qsizetype equals = line.indexOf('=', 2);
        if (equals <= 2)
            continue;
        properties.insert(QString::fromUtf8(line.mid(2, equals - 2)), QString::fromUtf8(line.mid(equals + 1)));
    }
    return properties;
}

namespace {
// One entry, whole (a few hundred bytes; a bigger one is cut at the cap, which no udev rule set reaches).
QByteArray readDatabaseEntry(const QString &path)
{
    constexpr qsizetype cap = 1 << 20;
    const Fd fd(::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (fd.get() < 0)
        return {};
    QByteArray data;
    char chunk[4096];
    while (data.size() < cap) {
        const ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        data.append(chunk, n);
    }
    return data;
}
} // namespace

void addUdevDatabaseProperties(
    QList<UdevRecord> &records, const QHash<QString, QString> &devnumByName, const QString &dataDir)
{
    QSet<QString> present;
    if (DIR *dir = ::opendir(QFile::encodeName(dataDir).constData())) {
        while (const dirent *e = ::readdir(dir))
            present.insert(QFile::decodeName(e->d_name));
        ::closedir(dir);
    }
    if (present.isEmpty())
        return;
    for (UdevRecord &record : records) {
        const QString entry = QLatin1Char('b') + devnumByName.value(record.sysname);
        if (entry.size() > 1 && present.contains(entry))
            record.properties = parseUdevDatabaseEntry(readDatabaseEntry(dataDir + QLatin1Char('/') + entry));
    }
}

UdevMonitor::UdevMonitor(QObject *parent)
    : QObject(parent)
{
}

UdevMonitor::~UdevMonitor()
{
    delete m_notifier;
    if (m_monitor)
        udev_monitor_unref(m_monitor);
    if (m_udev)
        udev_unref(m_udev);
}

Status UdevMonitor::start()
{
    if (m_monitor)
        return Status::success();
    m_udev = udev_new();
    if (!m_udev)
        return Status::failure(QStringLiteral("libudev: udev_new failed"));
    // Without udevd nobody re-broadcasts on the "udev" group: listen to the kernel directly.
    m_source = udevDaemonRunning() ? QStringLiteral("udev") : QStringLiteral("kernel");
    m_monitor = udev_monitor_new_from_netlink(m_udev, m_source == QLatin1String("udev") ? "udev" : "kernel");
    if (!m_monitor)
        return Status::failure(QStringLiteral("libudev: cannot open a %1 monitor").arg(m_source));
    udev_monitor_filter_add_match_subsystem_devtype(m_monitor, "block", nullptr);
    if (udev_monitor_enable_receiving(m_monitor) < 0) {
        udev_monitor_unref(m_monitor);
        m_monitor = nullptr;
        return Status::failure(QStringLiteral("libudev: cannot receive %1 events").arg(m_source));
    }
    m_notifier = new QSocketNotifier(udev_monitor_get_fd(m_monitor), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &UdevMonitor::readEvents);
    return Status::success();
}

void UdevMonitor::readEvents()
{
    // The socket is non-blocking: drain every queued event.
    while (struct udev_device *dev = udev_monitor_receive_device(m_monitor)) {
        const QString action = str(udev_device_get_action(dev));
        const QString name = str(udev_device_get_sysname(dev));
        const QString devtype = str(udev_device_get_devtype(dev));
        udev_device_unref(dev);
        Q_EMIT blockEvent(action, name, devtype);
    }
}

} // namespace dmtune
