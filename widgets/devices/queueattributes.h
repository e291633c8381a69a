#pragma once
// Every attribute of a device's request queue (block/NAME/queue/*, and queue/iosched/* when the
// scheduler has tunables), read through the sysfs root when the detail pane shows the device.
#include "core/sysfs/sysfsroot.h"

#include <QList>

namespace dmtune {

struct QueueAttribute {
    QString name; // relative to queue/: "nr_requests", "iosched/fifo_batch"
    QString value; // the text, or why it could not be read
    bool readable = true;
    bool writable = false; // from the file's mode bits
};

struct QueueAttributes {
    QString directory; // "block/sda/queue"
    bool present = false; // zram and friends may have no queue directory in a captured tree
    QList<QueueAttribute> attributes;

    int writableCount() const;
};

QueueAttributes readQueueAttributes(const SysfsRoot &sysfs, const QString &device);

} // namespace dmtune
