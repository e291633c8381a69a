#pragma once
// The Tune tab's fixture: tests/common's multipath fixture over paths sdb..sde, with the Tune tab's
// extras: each path's nr_requests 64 and nr_tags 64, the map with mq-deadline and nr_requests 256, discard
// limits, plus a loop device loop0.
#include "tests/common/fakesysfs.h"
#include "tests/common/multipathfixture.h"

#include "core/discovery/discovery.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune::test {

inline const QStringList &tunePaths()
{
    static const QStringList paths { QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd"),
        QStringLiteral("sde") };
    return paths;
}

inline void buildTuneFixture(FakeSysfs &t)
{
    const QStringList &paths = tunePaths();
    buildMultipathFixture(t, paths);
    for (const QString &path : paths) {
        t.file(t.devicePath(path) + QStringLiteral("/queue/nr_requests"), QStringLiteral("64"));
        t.file(t.devicePath(path) + QStringLiteral("/mq/0/nr_tags"), QStringLiteral("64"), false);
    }
    const QString dm = t.devicePath(QStringLiteral("dm-0"));
    t.file(dm + QStringLiteral("/queue/scheduler"), QStringLiteral("[mq-deadline] none"));
    t.file(dm + QStringLiteral("/queue/nr_requests"), QStringLiteral("256"));
    t.file(dm + QStringLiteral("/queue/discard_max_bytes"), QStringLiteral("0"));
    t.file(dm + QStringLiteral("/queue/discard_max_hw_bytes"), QStringLiteral("0"), false);
    t.file(dm + QStringLiteral("/queue/discard_granularity"), QStringLiteral("0"), false);
    t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2097152);
    t.file(t.devicePath(QStringLiteral("loop0")) + QStringLiteral("/queue/scheduler"),
        QStringLiteral("[none] mq-deadline"));
    t.file(t.devicePath(QStringLiteral("loop0")) + QStringLiteral("/mq/0/nr_tags"), QStringLiteral("128"), false);
}

inline QString readValue(const FakeSysfs &t, const QString &device, const QString &attribute)
{
    return SysfsRoot(t.root(), QString()).readOr(QStringLiteral("block/%1/%2").arg(device, attribute));
}

} // namespace dmtune::test
