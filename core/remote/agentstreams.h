#pragma once
// The agent's live ops (protocol 1.1): counter streams and device events of the host it runs on.
//   stream         {"devices":[...] (none: every whole device), "interval_ms":N, "inflight":bool (default true:
//                  read the split of busy devices, as the GUI's charts do; false: as `stat`'s text, which has no
//                  column for it)} -> a "samples" message per tick (samplestream.h) from a real Sampler here;
//                  "stream-failed" when a tick's read fails.
//   stream-update  {"target":ID, "devices", "interval_ms"}: the same stream, another set or interval (no new
//                  baseline, as Sampler::setWatched / setInterval).
//   watch          -> a "block" message per udev event of subsystem block (add, remove, change: device-mapper sends
//                  change on a reload, a resume and a failed or reinstated path), for the near side to fetch a new
//                  snapshot.
//   latency        {"devices":["MAJ:MIN", ...] (1 to 128)} -> loads the block-layer latency probe here (root, BTF)
//                  and watches them: a response, or the line why it cannot load. One per connection.
//   latency-read   {"target":ID, "devices":[...] (0 to 128: the set from now on, a new device from zero)} -> a
//                  response with "reading": the cumulative histograms in dmtune-helper's format (latencystream.h).
//   map            {"name":MAP, "interval_ms":N (100 to 60000, default 1000)} -> a "map" message (remotemapstream.h:
//                  name, info, table and status lines as dmsetup prints them, and "t") at once, every interval and
//                  on each device-mapper event of the map; "map-failed" with "error" when a read fails (the stream
//                  goes on: a map that comes back is reported again).
//   cancel         {"target":ID}: ends a stream, a watch, a map's reports or the latency probe (the kernel detaches
//                  it).
#include "core/latency/blocklatencyprobe.h"
#include "core/sysfs/sysfsroot.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <functional>
#include <memory>

namespace dmtune {

class Sampler;
class SampleStreamWriter;
class UdevMonitor;

class AgentStreams : public QObject {
    Q_OBJECT
public:
    using Send = std::function<void(const QJsonObject &)>;
    AgentStreams(SysfsRoot root, Send send, QObject *parent = nullptr);
    ~AgentStreams() override;

    static constexpr int MaxFollowedMaps = 16; // per connection: a window follows the one map it shows

    static bool isStreamOp(const QString &op);
    bool contains(qint64 id) const
    {
        return m_streams.contains(id) || m_watches.contains(id) || m_maps.contains(id)
            || (m_latencyId && id == m_latencyId);
    }
    // Handles one request of isStreamOp(op); an error message for a bad one (nothing started then).
    QString handle(qint64 id, const QString &op, const QJsonObject &request);
    void stopAll();

private:
    struct Stream;
    class MapReports;
    QString startStream(qint64 id, const QJsonObject &request);
    QString updateStream(qint64 id, const QJsonObject &request);
    QString startWatch(qint64 id);
    QString startMap(qint64 id, const QJsonObject &request);
    QString startLatency(qint64 id, const QJsonObject &request);
    QString readLatency(qint64 id, const QJsonObject &request);

    SysfsRoot m_root;
    Send m_send;
    QHash<qint64, Stream *> m_streams;
    QHash<qint64, UdevMonitor *> m_watches;
    QHash<qint64, MapReports *> m_maps;
    std::unique_ptr<BlockLatencyProbe> m_latency;
    qint64 m_latencyId = 0;
    QList<BlockDeviceNumber> m_latencyDevices;
};

} // namespace dmtune
