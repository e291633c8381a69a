#pragma once
// The Tune tab's fixture on a FakeSysfs temp tree (tests/common): multipath map mpatha (dm-0) over
// four SCSI paths sdb..sde (queue_depth 32, host can_queue 64, no scheduler), the map with
// mq-deadline and nr_requests 256, plus a loop device loop0. Every knob file is writable.
#include "fakesysfs.h"

#include "discovery/discovery.h"
#include "sysfs/sysfsroot.h"

namespace dmtune::test {

inline const QStringList &fixturePaths()
{
    static const QStringList paths {QStringLiteral("sdb"), QStringLiteral("sdc"), QStringLiteral("sdd"), QStringLiteral("sde")};
    return paths;
}

inline void buildTuneFixture(FakeSysfs &t)
{
    const QStringList &paths = fixturePaths();
    for (int i = 0; i < paths.size(); ++i) {
        t.scsiDisk(paths[i], QStringLiteral("8:%1").arg(16 + i * 16), QStringLiteral("%1:0:0:0").arg(i + 2),
                   QStringLiteral("NETAPP"), QStringLiteral("LUN C-Mode"), QStringLiteral("naa.600a098038303053"), 2097152, 32);
        t.file(QStringLiteral("class/scsi_host/host%1/can_queue").arg(i + 2), QStringLiteral("64"), false);
        const QString q = t.devicePath(paths[i]) + QStringLiteral("/queue/");
        t.file(q + QStringLiteral("max_hw_sectors_kb"), QStringLiteral("4096"), false);
        t.file(q + QStringLiteral("scheduler"), QStringLiteral("mq-deadline kyber bfq [none]"));
        t.file(q + QStringLiteral("nr_requests"), QStringLiteral("64"));
        t.file(t.devicePath(paths[i]) + QStringLiteral("/mq/0/nr_tags"), QStringLiteral("64"), false);
    }
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("253:0"), QStringLiteral("mpatha"),
               QStringLiteral("mpath-3600a098038303053"), paths);
    const QString dm = t.devicePath(QStringLiteral("dm-0"));
    t.file(dm + QStringLiteral("/queue/scheduler"), QStringLiteral("[mq-deadline] none"));
    t.file(dm + QStringLiteral("/queue/nr_requests"), QStringLiteral("256"));
    t.file(dm + QStringLiteral("/queue/max_hw_sectors_kb"), QStringLiteral("4096"), false);
    t.file(dm + QStringLiteral("/mq/0/nr_tags"), QStringLiteral("2048"), false);
    t.file(dm + QStringLiteral("/queue/iosched/read_expire"), QStringLiteral("500"));
    t.file(dm + QStringLiteral("/queue/iosched/fifo_batch"), QStringLiteral("16"));
    t.file(dm + QStringLiteral("/queue/discard_max_bytes"), QStringLiteral("0"));
    t.file(dm + QStringLiteral("/queue/discard_max_hw_bytes"), QStringLiteral("0"), false);
    t.file(dm + QStringLiteral("/queue/discard_granularity"), QStringLiteral("0"), false);
    t.file(QStringLiteral("module/dm_mod/parameters/use_blk_mq"), QStringLiteral("Y"));
    t.file(QStringLiteral("module/dm_mod/parameters/dm_mq_queue_depth"), QStringLiteral("2048"));
    t.file(QStringLiteral("module/dm_multipath/parameters/queue_if_no_path_timeout_secs"), QStringLiteral("0"));
    t.virtualDisk(QStringLiteral("loop0"), QStringLiteral("7:0"), 2097152);
    t.file(t.devicePath(QStringLiteral("loop0")) + QStringLiteral("/queue/scheduler"), QStringLiteral("[none] mq-deadline"));
    t.file(t.devicePath(QStringLiteral("loop0")) + QStringLiteral("/mq/0/nr_tags"), QStringLiteral("128"), false);
}

inline QString readValue(const FakeSysfs &t, const QString &device, const QString &attribute)
{
    return SysfsRoot(t.root(), QString()).readOr(QStringLiteral("block/%1/%2").arg(device, attribute));
}

} // namespace dmtune::test
