#pragma once
// A multipath map's state followed through the agent (its "map" op, agentstreams.h): the info, table and status
// lines at once, every second and on each device-mapper event of the map there. The lines travel in dmsetup's form
// and are read with the table parser here (dmtargetline.h), as a captured table is.
#include "core/dm/backend/devicemapper.h"
#include "core/host/mapstream.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QList>
#include <QPointer>

namespace dmtune {

class AgentClient;

struct MapStateReport {
    QString name;
    DmInfo info;
    QList<DmTargetLine> table;
    QList<DmTargetLine> status;
};

// The agent's "map" message of one read (type, id and time added by the stream) and its reading here.
QJsonObject mapStateReportJson(const MapStateReport &report);
Result<MapStateReport> parseMapStateReport(const QJsonObject &message);

// A read-only device-mapper over one report: its map's info, table and status; any other map does not exist.
std::shared_ptr<DeviceMapper> reportedMapReader(MapStateReport report);

class RemoteMapStream : public MapStream {
    Q_OBJECT
public:
    explicit RemoteMapStream(AgentClient *client, QObject *parent = nullptr);
    ~RemoteMapStream() override;

    void follow(const QString &map) override;
    QString followed() const override { return m_map; }
    std::shared_ptr<DeviceMapper> reader() const override { return m_reader; }
    // Whether the agent there has the op (an older agent's window keeps its fetched captures).
    bool isSupported() const;

private:
    void request(); // the op for m_map (after a cancel of the last), when the client is ready
    void cancel();
    void onMessage(const QJsonObject &message);

    QPointer<AgentClient> m_client; // the host's: a window may let it go before its panels
    QString m_map;
    qint64 m_id = 0;
    std::shared_ptr<DeviceMapper> m_reader;
};

} // namespace dmtune
