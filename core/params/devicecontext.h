#pragma once
// What the parameter code needs to know about one device, read through the SysfsRoot: the limits
// the kernel reports, where its attributes live, and how it stacks. Also the name checks the
// helper relies on: device *names* only, re-resolved under the root.
#include "core/params/tunabledef.h"
#include "core/params/valueparsers.h"
#include "core/sysfs/sysfsroot.h"

namespace dmtune {

struct DeviceContext {
    QString name;
    QString devicePath; // where block/NAME links to ("devices/...")
    bool schedulerKnown = false;
    SchedulerList schedulers;
    qint64 maxHwSectorsKb = -1;
    qint64 nrTags = -1; // mq/0/nr_tags: the tag set depth
    qint64 canQueue = -1; // SCSI host's can_queue
    qint64 discardMaxHwBytes = -1;
    qint64 discardGranularity = -1;
    QStringList slaves, holders;
    QString dmUuid;
    bool isDm = false;
    bool isMultipath = false; // dm uuid mpath-*
    bool requestBased = false; // dm on blk-mq (has mq/ or real schedulers)
    bool isScsi = false;
    QString scsiHost; // "host3"
    QString nvmeSubsystem; // "nvme-subsys0"
    QString kernelRelease; // the root's (a capture's own): values some kernels lack are not offered
};

// Whether a kernel release ("6.1.0-57-amd64") is at least major.minor; false when it cannot be read.
bool kernelAtLeast(const QString &release, int major, int minor);

// A kernel device name: no '/', no "..", sane characters, present under block/ as a link into devices/.
Status checkDeviceName(const SysfsRoot &sysfs, const QString &name);
DeviceContext readDeviceContext(const SysfsRoot &sysfs, const QString &name);

// The attribute's path relative to the root, checked to exist and to stay inside devices/ or
// module/ once every link is followed. An error says why the device has no such attribute.
Result<QString> attributePath(const SysfsRoot &sysfs, const DeviceContext &device, const TunableDef &def);
// Whether the catalog entry applies to the device at all (SCSI attributes on SCSI disks, ...).
// scheduler: the scheduler that will be current when the attribute is written.
bool appliesTo(const TunableDef &def, const DeviceContext &device, const QString &scheduler);
// The static range narrowed by what the device reports; scheduler as above.
ValueLimits deviceLimits(const TunableDef &def, const DeviceContext &device, const QString &scheduler);

} // namespace dmtune
