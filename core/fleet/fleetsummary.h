#pragma once
// A host's headline figures over one interval, from two of its CounterFrames. Pure: no I/O, no clock.
#include "core/metrics/metricssource.h"
#include "core/util/result.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace dmtune {

struct FleetDeviceFigures {
    QString name; // kernel name: "vda", "dm-0"
    QString mapName; // the dm name where the source knows it
    bool isMap = false; // a device-mapper device
    // The map's paths (kernel names) where the source gives them (frame.pathsOf); nullopt: unknown.
    std::optional<QStringList> paths;
    // iostat -x over the interval; NaN where the source lacks a counter the formula needs.
    double utilPercent = 0;
    double awaitMs = 0; // (rd_ticks + wr_ticks) / (reads + writes), as iostat's await
    double mergedPercent = 0; // (reads + writes merged) / (merged + completed)
    double queueSize = 0; // aqu-sz
    double readsPerSec = 0;
    double writesPerSec = 0;

    QString displayName() const; // "mpatha (dm-0)", or the kernel name
};

struct FleetHostSummary {
    qint64 timeNs = 0; // the newer frame's (the source's clock)
    double intervalSeconds = 0;
    QList<FleetDeviceFigures> devices; // the newer frame's order, those present in both frames
    double maxUtilPercent = 0; // NaN when no device has the figure
    QString busiestDevice;
    double worstAwaitMs = 0; // NaN when no device has the figure
    QString worstAwaitDevice;
    int deviceCount = 0;
    int mapCount = 0;
    // Counted only from what the source says; nullopt: unknown, and pathsUnknownReason says why.
    std::optional<int> failedPaths;
    std::optional<int> mapsWithoutRedundancy; // maps whose known paths are fewer than two
    QString pathsUnknownReason;
};

// Fails when the frames do not make an interval: the newer is not newer, or the counters restarted in between.
Result<FleetHostSummary> summarizeFleetInterval(const CounterFrame &prev, const CounterFrame &cur);

// Why the failed paths are unknown whatever the source says about the paths: CounterFrame carries no path state.
QString fleetPathStateUnknownReason();

} // namespace dmtune

Q_DECLARE_METATYPE(dmtune::FleetHostSummary)
