#include "core/dm/grammar/pathselectors.h"

namespace dmtune {

const QList<PathSelectorInfo> &knownPathSelectors()
{
    // Values from the kernel's path_selector_type tables and *_status() functions.
    static const QList<PathSelectorInfo> selectors = {
        { QStringLiteral("round-robin"), 1, 0, {}, QStringLiteral("Paths in turn; repeat_count is forced to 1.") },
        { QStringLiteral("queue-length"), 1, 1, { QStringLiteral("in-flight I/Os") },
            QStringLiteral("The path with the fewest in-flight I/Os.") },
        { QStringLiteral("service-time"), 2, 2,
            { QStringLiteral("in-flight bytes"), QStringLiteral("relative throughput") },
            QStringLiteral("The path with the least in-flight bytes per relative throughput (0-100).") },
        { QStringLiteral("historical-service-time"), 1, 3,
            { QStringLiteral("service time (fixed point, 1024 = 1)"), QStringLiteral("outstanding I/Os"),
                QStringLiteral("stale after (ns)") },
            QStringLiteral("The path with the best moving average of past service times.") },
        { QStringLiteral("io-affinity"), 1, 1, { QStringLiteral("map misses (selector-wide)") },
            QStringLiteral("The path mapped to the submitting CPU (per-path CPU mask in hex).") },
    };
    return selectors;
}

const PathSelectorInfo *findPathSelector(QStringView name)
{
    for (const PathSelectorInfo &info : knownPathSelectors()) {
        if (name == info.name)
            return &info;
    }
    return nullptr;
}

QStringList defaultPathArgs(QStringView selector)
{
    if (selector == u"round-robin" || selector == u"queue-length")
        return { QStringLiteral("1") };
    if (selector == u"service-time")
        return { QStringLiteral("1"), QStringLiteral("1") };
    if (selector == u"historical-service-time")
        return { QStringLiteral("0") };
    if (selector == u"io-affinity")
        return { QStringLiteral("1") }; // CPU 0's mask: the admin sets the real ones
    return {};
}

} // namespace dmtune
