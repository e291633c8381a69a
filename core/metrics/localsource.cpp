#include "core/metrics/localsource.h"

#include <QDateTime>
#include <QRegularExpression>

#include <sys/utsname.h>
#include <unistd.h>

namespace dmtune {

LocalMetricsSource::LocalMetricsSource(SysfsRoot root)
    : m_reader(std::move(root))
{
}

QString LocalMetricsSource::description() const
{
    return m_reader.root().isLive() ? QStringLiteral("this machine")
                                    : QStringLiteral("the captured tree %1").arg(m_reader.root().root());
}

Result<CounterFrame> LocalMetricsSource::fetch()
{
    CounterRead read;
    if (const Status s = m_reader.read({}, false, &read); !s)
        return Result<CounterFrame>::failure(s.errorMessage());
    CounterFrame frame;
    frame.timeNs = QDateTime::currentMSecsSinceEpoch() * 1'000'000;
    frame.hasField.fill(true);
    frame.devices = read.devices;
    for (const DiskCounters &d : std::as_const(frame.devices)) {
        // The split is a file read per busy device; an idle one's is {0, 0} without it.
        frame.inflight.insert(
            d.name, d[DiskField::InFlight] == 0 ? std::array<quint32, 2> { 0, 0 } : m_reader.inflight(d.name));
        if (d.name.startsWith(QLatin1String("dm-"))) {
            const QString map = m_reader.root().readOr(QStringLiteral("block/%1/dm/name").arg(d.name));
            if (!map.isEmpty())
                frame.dmNames.insert(d.name, map);
            frame.pathsOf.insert(d.name, m_reader.root().list(QStringLiteral("block/%1/slaves").arg(d.name)));
        }
    }
    return frame;
}

SourceHost LocalMetricsSource::host() const
{
    SourceHost host;
    struct utsname u { };
    if (::uname(&u) == 0) {
        host.nodename = QString::fromLocal8Bit(u.nodename);
        host.release = QString::fromLocal8Bit(u.release);
        host.machine = QString::fromLocal8Bit(u.machine);
    }
    host.cpus = int(::sysconf(_SC_NPROCESSORS_CONF));
    return host;
}

} // namespace dmtune
