#pragma once
// The seed's fixture: multipath map mpatha (dm-0) over four SCSI paths sda..sdd with queue_depth 32,
// the map's nr_requests 128 (= 4 x 32: its queue stays empty), on a FakeSysfs temp tree.
#include "fakesysfs.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>

namespace dmtune::test {

inline void buildMultipathFixture(FakeSysfs &t)
{
    const QStringList paths { QStringLiteral("sda"), QStringLiteral("sdb"), QStringLiteral("sdc"),
        QStringLiteral("sdd") };
    for (int i = 0; i < paths.size(); ++i) {
        t.scsiDisk(paths[i], QStringLiteral("8:%1").arg(i * 16), QStringLiteral("%1:0:0:0").arg(i),
            QStringLiteral("LIO-ORG"), QStringLiteral("disk0"), QStringLiteral("naa.6001405aaaaaaaaa"), 2097152, 32);
        t.file(QStringLiteral("class/scsi_host/host%1/can_queue").arg(i), QStringLiteral("64"), false);
        t.file(t.devicePath(paths[i]) + QStringLiteral("/queue/max_hw_sectors_kb"), QStringLiteral("4096"), false);
        t.file(t.devicePath(paths[i]) + QStringLiteral("/queue/scheduler"),
            QStringLiteral("mq-deadline kyber bfq [none]"));
    }
    t.dmDevice(QStringLiteral("dm-0"), QStringLiteral("253:0"), QStringLiteral("mpatha"),
        QStringLiteral("mpath-36001405aaaaaaaaa"), paths);
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

// Every file under the tree with its content: to prove that nothing was written.
inline QByteArray treeDigest(const QString &root)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort();
    for (const auto &f : files) {
        QFile file(f);
        hash.addData(f.toUtf8());
        if (file.open(QIODevice::ReadOnly))
            hash.addData(file.readAll());
    }
    return hash.result().toHex();
}

} // namespace dmtune::test
