#include "widgets/devices/queueattributes.h"

#include <algorithm>

namespace dmtune {

namespace {

QueueAttribute readAttribute(const SysfsRoot &sysfs, const QString &directory, const QString &name)
{
    QueueAttribute attribute;
    attribute.name = name;
    const QString relative = directory + QLatin1Char('/') + name;
    attribute.writable = sysfs.isWritable(relative);
    const auto value = sysfs.read(relative);
    attribute.readable = value.ok();
    // A few attributes span lines; one line per cell keeps the table scannable.
    attribute.value = value ? value.value().simplified() : value.errorMessage();
    return attribute;
}

} // namespace

int QueueAttributes::writableCount() const
{
    return int(std::count_if(attributes.begin(), attributes.end(), [](const QueueAttribute &a) { return a.writable; }));
}

QueueAttributes readQueueAttributes(const SysfsRoot &sysfs, const QString &device)
{
    QueueAttributes result;
    result.directory = QStringLiteral("block/%1/queue").arg(device);
    result.present = !device.isEmpty() && sysfs.isDir(result.directory);
    if (!result.present)
        return result;
    const auto entries = sysfs.list(result.directory);
    for (const auto &entry : entries) {
        const QString relative = result.directory + QLatin1Char('/') + entry;
        if (!sysfs.isDir(relative)) {
            result.attributes.append(readAttribute(sysfs, result.directory, entry));
        } else if (entry == QLatin1String("iosched")) {
            // The scheduler's own tunables (mq-deadline's fifo_batch, bfq's slice_idle, ...).
            const auto tunables = sysfs.list(relative);
            for (const auto &tunable : tunables) {
                if (!sysfs.isDir(relative + QLatin1Char('/') + tunable))
                    result.attributes.append(
                        readAttribute(sysfs, result.directory, entry + QLatin1Char('/') + tunable));
            }
        }
    }
    return result;
}

} // namespace dmtune
