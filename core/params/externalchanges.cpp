#include "core/params/externalchanges.h"

#include "core/jobs/jobtracker.h"
#include "core/params/changelog.h"
#include "core/params/tunable.h"

#include <QDateTime>
#include <QTimer>

#include <unistd.h>

namespace dmtune {

ExternalChangeWatcher::ExternalChangeWatcher(const SysfsRoot &sysfs, QObject *parent)
    : QObject(parent)
    , m_sysfs(sysfs)
    , m_timer(new QTimer(this))
    , m_jobs(new JobTracker(this))
{
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &ExternalChangeWatcher::readNow);
}

ExternalChangeWatcher::~ExternalChangeWatcher()
{
    delete m_jobs; // a read under way is joined before the members it hands back to go
}

void ExternalChangeWatcher::setDevices(const QStringList &devices)
{
    m_devices = devices;
    for (auto it = m_values.begin(); it != m_values.end();) {
        if (devices.contains(it.key()))
            ++it;
        else
            it = m_values.erase(it); // charted again later: a new baseline then
    }
    if (m_devices.isEmpty())
        m_timer->stop();
    else if (!m_timer->isActive())
        m_timer->start();
}

void ExternalChangeWatcher::setInterval(int ms)
{
    m_timer->setInterval(ms);
}

int ExternalChangeWatcher::interval() const
{
    return m_timer->interval();
}

void ExternalChangeWatcher::readNow()
{
    if (m_devices.isEmpty())
        return;
    m_jobs->startLatest(
        QStringLiteral("external changes"), QStringLiteral("read the charted devices' values"),
        [sysfs = m_sysfs, devices = m_devices, previous = m_values, from = m_lastRead](JobContext &job) {
            Read read;
            read.from = from;
            for (const QString &device : devices) {
                if (job.isCancelled())
                    break;
                QHash<QString, QString> &now = read.values[device];
                for (const Tunable &t : readTunables(sysfs, device)) {
                    if (t.readable)
                        now.insert(t.attribute, t.value);
                }
            }
            read.to = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
            QList<ChangeLogEntry> log;
            bool logRead = false;
            for (auto d = read.values.cbegin(); d != read.values.cend(); ++d) {
                const auto before = previous.constFind(d.key());
                if (before == previous.constEnd())
                    continue; // its baseline
                for (auto a = d->cbegin(); a != d->cend(); ++a) {
                    const auto old = before->constFind(a.key());
                    if (old == before->constEnd() || *old == *a)
                        continue;
                    if (!logRead) { // only when something changed: one read of the log's end
                        if (const auto logged = readChangeLog(changeLogPath()))
                            log = logged.value();
                        logRead = true;
                    }
                    const QString label
                        = externalChangeLabel(d.key(), a.key(), *old, *a, read.from, read.to, log, qint64(::getpid()));
                    if (!label.isEmpty())
                        read.labels << label;
                }
            }
            return read;
        },
        [this](const Read &read) { onRead(read); });
}

void ExternalChangeWatcher::onRead(const Read &read)
{
    for (auto it = read.values.cbegin(); it != read.values.cend(); ++it) {
        if (m_devices.contains(it.key()))
            m_values.insert(it.key(), it.value());
    }
    m_lastRead = read.to;
    for (const QString &label : read.labels)
        Q_EMIT changed(read.to, label);
    Q_EMIT readDone();
}

} // namespace dmtune
