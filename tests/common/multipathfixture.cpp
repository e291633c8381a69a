#include "multipathfixture.h"

#include "fakedevicemapper.h"
#include "fakesysfs.h"

namespace dmtune::test {

const QStringList &fixturePaths()
{
    static const QStringList paths { QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"),
        QStringLiteral("sdd") };
    return paths;
}

QString scsiDevnum(const QString &name)
{
    return QStringLiteral("8:%1").arg(16 * (name.at(2).unicode() - u'a'));
}

QString fixtureTableParams(const QStringList &paths)
{
    return QStringLiteral("0 0 2 1 round-robin 0 2 1 %1 1 %2 1 round-robin 0 2 1 %3 1 %4 1")
        .arg(scsiDevnum(paths.at(0)), scsiDevnum(paths.at(1)), scsiDevnum(paths.at(2)), scsiDevnum(paths.at(3)));
}

QString fixtureStatusParams(const QStringList &paths)
{
    return QStringLiteral("2 0 0 0 2 1 A 0 2 0 %1 A 0 %2 A 0 E 0 2 0 %3 A 0 %4 A 0")
        .arg(scsiDevnum(paths.at(0)), scsiDevnum(paths.at(1)), scsiDevnum(paths.at(2)), scsiDevnum(paths.at(3)));
}

QString fixtureLine(const QString &params)
{
    return QStringLiteral("0 %1 multipath ").arg(fixtureSectors) + params;
}

QString fixtureTableLine(const QStringList &paths)
{
    return fixtureLine(fixtureTableParams(paths));
}

QString fixtureStatusLine(const QStringList &paths)
{
    return fixtureLine(fixtureStatusParams(paths));
}

void buildMultipathFixture(FakeSysfs &t, const QStringList &paths, const QString &map)
{
    for (int i = 0; i < paths.size(); ++i) {
        t.scsiDisk(paths[i], scsiDevnum(paths[i]), QStringLiteral("%1:0:0:0").arg(i), QStringLiteral("LIO-ORG"),
            QStringLiteral("disk0"), fixtureLun, fixtureSectors, 32);
        t.file(QStringLiteral("class/scsi_host/host%1/can_queue").arg(i), QStringLiteral("64"), false);
        t.file(t.devicePath(paths[i]) + QStringLiteral("/queue/max_hw_sectors_kb"), QStringLiteral("4096"), false);
        t.file(t.devicePath(paths[i]) + QStringLiteral("/queue/scheduler"),
            QStringLiteral("mq-deadline kyber bfq [none]"));
    }
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("253:0"), map, fixtureMapUuid, paths, fixtureSectors);
    const QString dm = t.devicePath(QStringLiteral("dm-0"));
    t.file(dm + QStringLiteral("/queue/nr_requests"), QStringLiteral("128"));
    t.file(dm + QStringLiteral("/queue/max_hw_sectors_kb"), QStringLiteral("4096"), false);
    t.file(dm + QStringLiteral("/mq/0/nr_tags"), QStringLiteral("2048"), false);
    t.file(dm + QStringLiteral("/queue/iosched/read_expire"), QStringLiteral("500"));
    t.file(dm + QStringLiteral("/queue/iosched/fifo_batch"), QStringLiteral("16"));
    t.file(dm + QStringLiteral("/queue/logical_block_size"), QStringLiteral("512"), false);
    t.file(QStringLiteral("module/dm_mod/parameters/use_blk_mq"), QStringLiteral("Y"));
    t.file(QStringLiteral("module/dm_mod/parameters/dm_mq_queue_depth"), QStringLiteral("2048"));
    t.file(QStringLiteral("module/dm_mod/parameters/major"), QStringLiteral("253"), false);
    t.file(QStringLiteral("module/dm_multipath/parameters/queue_if_no_path_timeout_secs"), QStringLiteral("0"));
}

Status addFixtureMap(FakeDeviceMapper &dm, const QStringList &paths, const QString &map)
{
    return addFixtureMapWithTable(dm, fixtureTableParams(paths), fixtureStatusParams(paths), map);
}

Status addFixtureMapWithTable(
    FakeDeviceMapper &dm, const QString &tableParams, const QString &statusParams, const QString &map)
{
    return dm.addMap(map, fixtureLine(tableParams), fixtureLine(statusParams), fixtureMapUuid);
}

} // namespace dmtune::test
