#pragma once
// The block-layer latency probe: a BPF program on the block tracepoints (core/latency/bpf/) that keeps, for
// each watched disk, the histograms of device and queue time. Needs root (or CAP_BPF and CAP_PERFMON) and a
// kernel with BTF; open() says in one line why it cannot load, and nothing is charted then.
#include "core/latency/latencyhistogram.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>

#include <memory>

struct blklatency; // the generated skeleton

namespace dmtune {

struct BlockDeviceNumber {
    quint32 major = 0;
    quint32 minor = 0;
    friend bool operator==(BlockDeviceNumber a, BlockDeviceNumber b) = default;
};

class BlockLatencyProbe {
public:
    static constexpr int MaxDevices = 128;

    // Loads and attaches the programs; watches nothing yet.
    static Result<std::unique_ptr<BlockLatencyProbe>> open();
    ~BlockLatencyProbe();
    BlockLatencyProbe(const BlockLatencyProbe &) = delete;
    BlockLatencyProbe &operator=(const BlockLatencyProbe &) = delete;

    // Watches exactly these whole disks (a partition's I/O counts on its disk, as in /proc/diskstats). A
    // device newly watched starts from zero; one still watched keeps counting.
    Status setWatched(const QList<BlockDeviceNumber> &devices);
    QList<BlockDeviceNumber> watched() const { return m_slots.keys(); }
    // What was counted since the device was watched (cumulative, like /proc/diskstats); empty when it is
    // not watched. Reads memory the kernel shares: no system call.
    DeviceLatency read(BlockDeviceNumber device) const;
    bool isWatched(BlockDeviceNumber device) const { return m_slots.contains(device); }
    // Block events the kernel did not hand to the probe since it was loaded: a probe program that is already
    // running on a CPU (a completion interrupting a completion) is not entered again. Each miss can leave one
    // I/O out of the histograms, so they may count up to this many fewer I/Os than /proc/diskstats.
    quint64 missedEvents() const;
    // Requests of the device the probe saw issued and not yet complete: those in flight, and those whose
    // completion it will never see until their request is issued again (then counted as DeviceLatency::lost).
    // Walks the probe's table of pending requests: for tests and diagnostics, not for every tick.
    quint64 unfinishedRequests(BlockDeviceNumber device) const;

    // Why the probe cannot run here, or empty when it can try (root, BTF present, no lockdown).
    static QString unavailableReason();

private:
    BlockLatencyProbe() = default;
    blklatency *m_skeleton = nullptr;
    QHash<BlockDeviceNumber, quint32> m_slots;
};

inline size_t qHash(BlockDeviceNumber d, size_t seed = 0)
{
    return ::qHash((quint64(d.major) << 32) | d.minor, seed);
}

} // namespace dmtune
