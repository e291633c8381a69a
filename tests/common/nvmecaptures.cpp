#include "nvmecaptures.h"
#include "testpaths.h"

#include "core/discovery/snapshotbuilder.h"
#include "core/discovery/sysfscapture.h"
#include "core/sysfs/sysfsroot.h"

#include <QProcess>
#include <QTemporaryDir>

namespace dmtune::test {

DeviceSnapshot snapshotOfTree(const SysfsRoot &sysfs)
{
    return buildSnapshot(sysfs, enumerateBlockDirectory(sysfs), nullptr, DeviceMapperState {});
}

DeviceSnapshot snapshotOfCapture(const QString &captureDir)
{
    return snapshotOfTree(sysfsRootForDirectory(captureDir));
}

QString unpackNvmeCapture(const QTemporaryDir &dir, const QString &name)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"),
        { QStringLiteral("-C"), dir.path(), QStringLiteral("-xJf"),
            DMTUNE_SOURCE_PATH(DMTUNE_NVME_CAPTURES "/%1.tar.xz").arg(name) });
    if (!tar.waitForFinished(30000) || tar.exitStatus() != QProcess::NormalExit || tar.exitCode() != 0)
        return {};
    return dir.filePath(name);
}

} // namespace dmtune::test
